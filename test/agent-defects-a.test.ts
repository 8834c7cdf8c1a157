/**
 * Refusals and starting points an agent acts on, on both MCP eras and REST:
 * a limit's advice fits the limit hit (a too-long text is shortened, not
 * work erased); every ETag a read hands out is a starting point for changes;
 * a todo board's starter columns are said and can be left out; a missing key
 * and a wrong key are told apart, and a resource read is told how it sends one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_STROKE_POINTS, MAX_TEXT_CHARS } from '../schema/index.js';
import { connectMcp, connectModernMcp, type McpClient, refusalOf, rpcError } from './helpers/mcp.js';
import { openJson } from './helpers/realtime.js';
import { useServer } from './helpers/server.js';

const t = useServer();
let modern: Awaited<ReturnType<typeof connectModernMcp>>;
let legacy: McpClient;

beforeAll(async () => {
  [modern, legacy] = await Promise.all([connectModernMcp(t.server.url), connectMcp(t.server.url)]);
});
afterAll(() => Promise.all([modern.close(), legacy.close()]));

/** The advice a 2026-07-28 agent gets in `next`, and a 2025 agent in the JSON-RPC error's message. */
async function advice(tool: string, args: Record<string, unknown>): Promise<{ modern: any; legacy: string }> {
  const refused = await modern.raw(tool, args);
  expect(refused.isError, JSON.stringify(refused.content)).toBe(true);
  const error = await rpcError(legacy.call(tool, args));
  return { modern: refusalOf(refused), legacy: error.message };
}

describe('a limit hit is answered with advice that fits it', () => {
  it('a text over the character limit is told to shorten or split it, never to erase items', async () => {
    const { board_id } = await modern.call('create_board', {});
    const { modern: refused, legacy: message } = await advice('add_text', {
      board_id,
      x: 0,
      y: 0,
      content: 'x'.repeat(MAX_TEXT_CHARS + 1),
    });
    expect(refused).toMatchObject({ code: 'quota_exceeded', kind: 'text_chars' });
    for (const words of [refused.next, message]) {
      expect(words).toMatch(/shorten the text, or split it/);
      expect(words).not.toMatch(/erase/);
    }
  });

  it('task content or a field over its limit is told to shorten it', async () => {
    const { board_id } = await modern.call('create_board', { mode: 'todo' });
    const { columns } = await modern.call('list_tasks', { board_id });
    const { modern: long } = await advice('create_task', {
      board_id,
      column_id: columns[0].id,
      name: 'long',
      content: JSON.stringify('x'.repeat(20_001)),
    });
    expect(long).toMatchObject({ kind: 'task_content_chars', next: expect.stringMatching(/shorten the task content/) });
    const { modern: name } = await advice('create_task', { board_id, column_id: columns[0].id, name: 'x'.repeat(501) });
    expect(name).toMatchObject({ code: 'invalid_payload', field: 'name', next: 'Shorten name and call again.' });
  });

  it('a stroke over the point limit is told to simplify or split it', async () => {
    const { board_id } = await modern.call('create_board', {});
    const points = Array.from({ length: MAX_STROKE_POINTS + 1 }, (_, i) => [i, i]);
    const { modern: refused, legacy: message } = await advice('draw_stroke', { board_id, points });
    expect(refused.code).toBe('invalid_payload');
    for (const words of [refused.next, message]) expect(words).toMatch(/Simplify the stroke .* or split it/);
  });

  it('an import over a board count is told to import less, not to erase', async () => {
    const texts = Array.from({ length: 501 }, (_, i) => ({ x: i, y: 0, content: 'x' }));
    const { modern: refused } = await advice('create_board', { content: { texts } });
    expect(refused).toMatchObject({
      code: 'quota_exceeded',
      kind: 'texts',
      next: expect.stringMatching(/import less/),
    });
  });
});

describe('a missing key and a wrong key are told apart', () => {
  const WRONG = 'zzzzzzzz';

  it('REST: 401 board_locked and 403 invalid_key say which, in keyState and in words', async () => {
    const { body: board } = await t.api.post('/api/boards', { lock: 'all' });
    const missing = await t.api.get(`/json/${board.id}`);
    const wrong = await t.api.get(`/json/${board.id}`, { 'x-board-key': WRONG });
    expect(missing).toMatchObject({
      status: 401,
      body: { code: 'board_locked', lockMode: 'all', keyState: 'missing' },
    });
    expect(wrong).toMatchObject({ status: 401, body: { code: 'board_locked', lockMode: 'all', keyState: 'wrong' } });
    expect(wrong.body.error).not.toBe(missing.body.error);
    expect(wrong.body.error).toMatch(/wrong/);

    const relockMissing = await t.api.post(`/api/boards/${board.id}/lock`, { mode: 'write' });
    const relockWrong = await t.api.post(`/api/boards/${board.id}/lock`, { mode: 'write' }, { 'x-board-key': WRONG });
    expect(relockMissing).toMatchObject({ status: 403, body: { code: 'invalid_key', keyState: 'missing' } });
    expect(relockWrong).toMatchObject({ status: 403, body: { code: 'invalid_key', keyState: 'wrong' } });
    expect(relockWrong.body.error).not.toBe(relockMissing.body.error);
  });

  it('MCP tools, both eras: a missing key is asked for, a wrong one is called wrong', async () => {
    const { board_id } = await t.api.post('/api/boards', { lock: 'all' }).then((res) => ({ board_id: res.body.id }));
    const missing = await advice('get_board', { board_id });
    const wrong = await advice('get_board', { board_id, access_key: WRONG });
    expect(missing.modern).toMatchObject({ code: 'board_locked', keyState: 'missing' });
    expect(wrong.modern).toMatchObject({ code: 'board_locked', keyState: 'wrong' });
    expect(missing.modern.next).toMatch(/call again with access_key set to its key/);
    expect(wrong.modern.next).toMatch(/key sent is wrong for this board/);
    expect(missing.legacy).toMatch(/call again with access_key set to its key/);
    expect(wrong.legacy).toMatch(/key sent is wrong for this board/);
  });

  it('a resource read, which takes no arguments, is told how it sends a key', async () => {
    const { body: board } = await t.api.post('/api/boards', { lock: 'all' });
    const uri = `svc://board/${board.id}/state.json`;
    const stateless = await rpcError(modern.client.readResource({ uri }));
    expect(stateless).toMatchObject({ code: -32001, data: { code: 'board_locked', keyState: 'missing', uri } });
    expect(stateless.message).toMatch(/X-Board-Key header/);
    expect(stateless.message).not.toMatch(/call again with access_key/);
    const session = await rpcError(legacy.client.readResource({ uri }));
    expect(session.message).toMatch(/open_board with access_key/);
    const listen = await rpcError(modern.modern.listen({ resourceSubscriptions: [uri] }));
    expect(listen).toMatchObject({ code: -32001, data: { keyState: 'missing' } });
    expect(listen.message).toMatch(/X-Board-Key header/);

    const withWrongHeader = await connectModernMcp(t.server.url, { headers: { 'x-board-key': WRONG } });
    try {
      const wrong = await rpcError(withWrongHeader.client.readResource({ uri }));
      expect(wrong).toMatchObject({ data: { keyState: 'wrong' } });
      expect(wrong.message).toMatch(/X-Board-Key header is wrong/);
    } finally {
      await withWrongHeader.close();
    }
  });

  it('/ws: an edit on a write-locked board says which, and that the key travels as the subprotocol', async () => {
    const { body: board } = await t.api.post('/api/boards', { lock: 'write' });
    for (const [key, keyState] of [
      [undefined, 'missing'],
      [WRONG, 'wrong'],
    ] as const) {
      const socket = await openJson(t.server.url, board.id, { key });
      try {
        socket.send({ type: 'add_text', ref: 1, x: 0, y: 0, content: 'x' });
        const refused = await socket.next((frame) => frame.type === 'error');
        expect(refused).toMatchObject({ code: 'board_locked', keyState, ref: 1 });
        expect(refused.message).toMatch(keyState === 'missing' ? /svc-key/ : /wrong/);
      } finally {
        socket.close();
      }
    }
  });
});

describe("a todo board's starter columns are said, and can be left out", () => {
  it('tools/list says the default template; create_board and set_board_mode take template none', async () => {
    const { tools } = await modern.client.listTools();
    const create = tools.find((tool: { name: string }) => tool.name === 'create_board')!;
    expect((create.inputSchema.properties as any).template).toMatchObject({
      enum: expect.arrayContaining(['kanban', 'none']),
      description: expect.stringMatching(/Default kanban: To do, In progress, Done/),
    });

    for (const client of [modern, legacy]) {
      const seeded = await client.call('create_board', { mode: 'todo' });
      expect((await client.call('list_tasks', { board_id: seeded.board_id })).columns).toHaveLength(3);
      const bare = await client.call('create_board', { mode: 'todo', template: 'none' });
      expect((await client.call('list_tasks', { board_id: bare.board_id })).columns).toEqual([]);
      const switched = await client.call('create_board', {});
      expect(
        await client.call('set_board_mode', { board_id: switched.board_id, mode: 'todo', template: 'none' }),
      ).toMatchObject({ ok: true, mode: 'todo', columns: [] });
    }
  });

  it('REST: POST /api/boards, POST /mode and GET /todo take template none', async () => {
    const created = await t.api.post('/api/boards', { mode: 'todo', template: 'none' });
    expect(created.status).toBe(200);
    expect((await t.api.get(`/json/${created.body.id}`)).body.columns).toEqual([]);

    const draw = await t.api.post('/api/boards', {});
    const mode = await t.api.post(`/api/boards/${draw.body.id}/mode`, { mode: 'todo', template: 'none' });
    expect(mode.body).toMatchObject({ ok: true, mode: 'todo', columns: [] });

    const redirect = await t.api.get('/todo?template=none');
    const boardId = redirect.headers.get('location')!.split('#')[1];
    expect((await t.api.get(`/json/${boardId}`)).body).toMatchObject({ mode: 'todo', columns: [] });
  });
});

describe('every ETag a read hands out is a starting point for changes', () => {
  /** Records the board's settled state as a version now, as its settle would in three seconds. */
  const settleNow = (boardId: string) => t.server.server.events.settling!(boardId);
  const ids = (items: { id: string }[]) => items.map((item) => item.id).sort();

  it('get_board, /json and get_changes ETags, unsettled or across a settle, on both eras and REST', async () => {
    for (const client of [modern, legacy]) {
      const { board_id } = await client.call('create_board', {});
      const a = await client.call('add_text', { board_id, x: 0, y: 0, content: 'a' });
      await settleNow(board_id);
      await client.call('add_text', { board_id, x: 0, y: 50, content: 'b' });
      // Read before the burst settles: this ETag is no version.
      const { etag } = await client.call('get_board', { board_id });
      const jsonEtag = (await t.api.get(`/json/${board_id}`)).headers.get('etag');
      expect(jsonEtag).toBe(etag);
      const c = await client.call('add_text', { board_id, x: 0, y: 100, content: 'c' });
      await client.call('move', { board_id, kind: 'texts', id: a.id, x: 10, y: 10 });

      const changes = await client.call('get_changes', { board_id, since_etag: etag });
      expect({ added: ids(changes.added), updated: ids(changes.updated), removed: changes.removed }).toEqual({
        added: [c.id],
        updated: [a.id],
        removed: [],
      });
      const rest = await t.api.get(`/api/boards/${board_id}/changes?since_etag=${encodeURIComponent(jsonEtag!)}`);
      expect(rest.status).toBe(200);
      expect({ added: ids(rest.body.added), updated: ids(rest.body.updated) }).toEqual({
        added: [c.id],
        updated: [a.id],
      });

      // The ETag get_changes answered, unsettled too, is the next starting point; and across a settle.
      await settleNow(board_id);
      const d = await client.call('add_text', { board_id, x: 0, y: 150, content: 'd' });
      const next = await client.call('get_changes', { board_id, since_etag: changes.etag });
      expect({ added: ids(next.added), updated: next.updated, removed: next.removed }).toEqual({
        added: [d.id],
        updated: [],
        removed: [],
      });
      const fromFirst = await client.call('get_changes', { board_id, since_etag: etag });
      expect(ids(fromFirst.added)).toEqual([c.id, d.id].sort());
    }
  });

  it('the snapshot and op frames of /ws hand out starting points too', async () => {
    const { body: board } = await t.api.post('/api/boards', {});
    await t.api.post(`/api/boards/${board.id}/texts`, { x: 0, y: 0, content: 'a' });
    const socket = await openJson(t.server.url, board.id);
    try {
      const b = await t.api.post(`/api/boards/${board.id}/texts`, { x: 0, y: 50, content: 'b' });
      const op = await socket.next((frame) => frame.type === 'op' && frame.item?.id === b.body.id);
      const c = await t.api.post(`/api/boards/${board.id}/texts`, { x: 0, y: 100, content: 'c' });
      const since = async (etag: string) =>
        (await t.api.get(`/api/boards/${board.id}/changes?since_etag=${encodeURIComponent(etag)}`)).body;
      expect(ids((await since(op.etag)).added)).toEqual([c.body.id]);
      expect(ids((await since(socket.snapshot.etag)).added)).toEqual([b.body.id, c.body.id].sort());
    } finally {
      socket.close();
    }
  });
});
