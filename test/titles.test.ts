/**
 * Board titles (docs/titles.md): `meta.title` in the document, set
 * over REST, MCP (both eras), a /ws frame, create_board and a Yjs client, shown
 * by /json, /meta and the JSON channel's snapshot; a Yjs client's invalid
 * title is compensated; a title change is a version and a restore brings the
 * old title back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BOARD_TITLE_CHARS } from '../schema/index.js';
import { connectMcp, connectModernMcp, type McpClient } from './helpers/mcp.js';
import { connectYjs, eventually, openJson } from './helpers/realtime.js';
import { useServer } from './helpers/server.js';

const t = useServer();

const newBoard = async (body: Record<string, unknown> = { mode: 'draw' }): Promise<string> => {
  const res = await t.api.post('/api/boards', body);
  expect(res.status).toBe(200);
  return res.body.id;
};
const titleOf = async (id: string) => (await t.api.get(`/json/${id}`)).body.title;

describe('REST', () => {
  it('POST /title sets, trims and clears the title; /json and /meta show it only when set', async () => {
    const id = await newBoard();
    expect(await titleOf(id)).toBeUndefined();
    expect('title' in (await t.api.get(`/api/boards/${id}/meta`)).body).toBe(false);
    const set = await t.api.post(`/api/boards/${id}/title`, { title: '  Sprint planning  ' });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ ok: true, title: 'Sprint planning' });
    const snapshot = (await t.api.get(`/json/${id}`)).body;
    expect(Object.keys(snapshot).slice(0, 4)).toEqual(['boardId', 'mode', 'title', 'etag']);
    expect(snapshot.title).toBe('Sprint planning');
    expect((await t.api.get(`/api/boards/${id}/meta`)).body).toMatchObject({
      boardId: id,
      mode: 'draw',
      title: 'Sprint planning',
      lockMode: null,
    });
    expect((await t.api.post(`/api/boards/${id}/title`, { title: '   ' })).body).toEqual({ ok: true, title: '' });
    expect(await titleOf(id)).toBeUndefined();
  });

  it(`refuses a title over ${MAX_BOARD_TITLE_CHARS} characters, a non-string and unknown keys with invalid_payload`, async () => {
    const id = await newBoard();
    expect((await t.api.post(`/api/boards/${id}/title`, { title: 'x'.repeat(MAX_BOARD_TITLE_CHARS) })).status).toBe(
      200,
    );
    const long = await t.api.post(`/api/boards/${id}/title`, { title: 'y'.repeat(MAX_BOARD_TITLE_CHARS + 1) });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({
      code: 'invalid_payload',
      field: 'title',
      reason: `must be at most ${MAX_BOARD_TITLE_CHARS} characters`,
    });
    expect((await t.api.post(`/api/boards/${id}/title`, { title: 7 })).body).toMatchObject({
      code: 'invalid_payload',
      field: 'title',
    });
    expect((await t.api.post(`/api/boards/${id}/title`, {})).body).toMatchObject({
      code: 'invalid_payload',
      field: 'title',
      reason: 'is required',
    });
    expect((await t.api.post(`/api/boards/${id}/title`, { title: 'a', name: 'b' })).body).toMatchObject({
      code: 'invalid_payload',
      field: 'name',
    });
    expect(await titleOf(id)).toBe('x'.repeat(MAX_BOARD_TITLE_CHARS));
  });

  it('POST /api/boards takes a title (draw, todo, with content); a bad one creates nothing', async () => {
    const draw = await newBoard({ mode: 'draw', title: 'Ideas' });
    expect(await titleOf(draw)).toBe('Ideas');
    const todo = await newBoard({ mode: 'todo', title: 'Backlog', template: 'bugs' });
    const todoSnapshot = (await t.api.get(`/json/${todo}`)).body;
    expect(todoSnapshot.title).toBe('Backlog');
    expect(todoSnapshot.columns.length).toBeGreaterThan(0);
    const imported = await newBoard({
      mode: 'draw',
      title: 'Imported',
      content: { texts: [{ x: 0, y: 0, content: 'hi' }] },
    });
    expect((await t.api.get(`/json/${imported}`)).body).toMatchObject({
      title: 'Imported',
      texts: [{ content: 'hi' }],
    });
    // A snapshot sent back as content carries its title as a wrapper key: ignored like boardId and etag.
    const copy = await newBoard({ mode: 'draw', content: (await t.api.get(`/json/${imported}`)).body });
    expect(await titleOf(copy)).toBeUndefined();
    const refused = await t.api.post('/api/boards', { mode: 'draw', title: 'z'.repeat(MAX_BOARD_TITLE_CHARS + 1) });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'invalid_payload', field: 'title' });
  });

  it('needs the key on a write-locked board', async () => {
    const locked = (await t.api.post('/api/boards', { mode: 'draw', lock: 'write' })).body;
    expect((await t.api.post(`/api/boards/${locked.id}/title`, { title: 'No' })).status).toBe(401);
    expect(
      (await t.api.post(`/api/boards/${locked.id}/title`, { title: 'Yes' }, { 'x-board-key': locked.access_key }))
        .status,
    ).toBe(200);
    expect(await titleOf(locked.id)).toBe('Yes');
  });
});

describe('MCP set_board_title', () => {
  const eras: [string, (url: string) => Promise<McpClient>][] = [
    ['2025 session', (url) => connectMcp(url)],
    ['2026-07-28', (url) => connectModernMcp(url)],
  ];
  for (const [era, connect] of eras) {
    describe(era, () => {
      let mcp: McpClient;
      beforeAll(async () => {
        mcp = await connect(t.server.url);
      });
      afterAll(() => mcp.close());

      it('sets the title, which get_board shows; create_board takes one; too long is refused', async () => {
        const created = await mcp.call('create_board', { mode: 'todo', title: ' Roadmap ' });
        expect((await mcp.call('get_board', { board_id: created.board_id })).title).toBe('Roadmap');
        expect(await mcp.call('set_board_title', { board_id: created.board_id, title: 'Roadmap 2027' })).toEqual({
          ok: true,
          title: 'Roadmap 2027',
        });
        expect(await titleOf(created.board_id)).toBe('Roadmap 2027');
        const refused = await mcp
          .raw('set_board_title', { board_id: created.board_id, title: 'w'.repeat(MAX_BOARD_TITLE_CHARS + 1) })
          .catch((error: any) => ({ rpc: error }));
        // 2025 answers a JSON-RPC error, 2026-07-28 an isError result carrying the REST body; both name invalid_payload.
        const code = refused.rpc ? refused.rpc.data?.code : JSON.parse(refused.content[0].text).code;
        expect(code).toBe('invalid_payload');
        expect(await titleOf(created.board_id)).toBe('Roadmap 2027');
      });
    });
  }
});

describe('the JSON channel', () => {
  it('a set_board_title frame is acked, its op reaches other clients, and the snapshot frame shows the title', async () => {
    const id = await newBoard({ mode: 'draw', title: 'Before' });
    const a = await openJson(t.server.url, id);
    const b = await openJson(t.server.url, id);
    try {
      expect(a.snapshot.board.title).toBe('Before');
      a.send({ type: 'set_board_title', ref: 1, title: ' After ' });
      const ack = await a.next((frame) => frame.type === 'ack' && frame.ref === 1);
      expect(ack.result).toEqual({ ok: true, title: 'After' });
      const op = await b.next((frame) => frame.type === 'op' && frame.kind === 'meta');
      expect(op).toMatchObject({ op: 'set', kind: 'meta', key: 'title', value: 'After' });
      a.send({ type: 'set_board_title', ref: 2, title: 'q'.repeat(MAX_BOARD_TITLE_CHARS + 1) });
      expect(await a.next((frame) => frame.type === 'error' && frame.ref === 2)).toMatchObject({
        code: 'invalid_payload',
        field: 'title',
      });
      expect(await titleOf(id)).toBe('After');
    } finally {
      a.close();
      b.close();
    }
  });
});

describe('a Yjs client', () => {
  it('renames the board through meta.title; an over-long or non-string title is compensated', async () => {
    const id = await newBoard({ mode: 'draw', title: 'Kept' });
    const yjs = connectYjs(t.server.url, id);
    try {
      await yjs.synced;
      const meta = yjs.doc.getMap('meta');
      expect(meta.get('title')).toBe('Kept');
      meta.set('title', 'Renamed live');
      await eventually(async () => expect(await titleOf(id)).toBe('Renamed live'));
      meta.set('title', 'v'.repeat(MAX_BOARD_TITLE_CHARS + 1));
      await eventually(() => expect(meta.get('title')).toBe('Renamed live'));
      expect(yjs.stateless.at(-1)).toMatchObject({ type: 'compensated' });
      meta.set('title', 42);
      await eventually(() => expect(meta.get('title')).toBe('Renamed live'));
      meta.set('title', '  padded  ');
      await eventually(() => expect(meta.get('title')).toBe('Renamed live'));
      expect(await titleOf(id)).toBe('Renamed live');
      // Deleting the key is clearing the title, which is allowed.
      meta.delete('title');
      await eventually(async () => expect(await titleOf(id)).toBeUndefined());
    } finally {
      yjs.destroy();
    }
  });
});

describe('history', () => {
  it('a title change is a version; restoring an older version brings its title back', async () => {
    const id = await newBoard({ mode: 'draw' });
    const settle = async (edit: () => Promise<unknown>) => {
      const waiting = t.api.get(`/api/boards/${id}/wait?timeout_ms=20000`);
      await edit();
      expect((await waiting).body.updated).toBe(true);
    };
    await settle(() => t.api.post(`/api/boards/${id}/title`, { title: 'First name' }));
    await settle(() => t.api.post(`/api/boards/${id}/title`, { title: 'Second name' }));
    const versions = (await t.api.get(`/api/boards/${id}/versions`)).body.versions;
    expect(versions.map((v: any) => v.version)).toEqual([2, 1]);
    expect((await t.api.get(`/api/boards/${id}/versions/1`)).body.title).toBe('First name');
    const restored = await t.api.post(`/api/boards/${id}/versions/1/restore`);
    expect(restored.status).toBe(200);
    expect(await titleOf(id)).toBe('First name');
  });
});
