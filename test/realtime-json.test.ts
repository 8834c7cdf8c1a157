import { describe, expect, it } from 'vitest';
import { boardMaps } from '../board/model/document-model.js';
import { upsertText } from '../board/mutations/draw.js';
import { MAX_BATCH_OPS, MAX_RECOLOR_ITEMS } from '../schema/index.js';
import { PNG_1PX } from './helpers/http.js';
import { connectJson, connectYjs, eventually, type Frame, openJson } from './helpers/realtime.js';
import { TEST_CALLER, useServer } from './helpers/server.js';

const t = useServer();
const CLIENT = '3b2f6e1a-9c4d-4e5f-8a7b-1c2d3e4f5a6b';

async function board(mode: 'draw' | 'todo' = 'draw', lock?: 'write' | 'all') {
  return (await t.api.post('/api/boards', { mode, lock })).body as { id: string; access_key?: string };
}
const etagOf = async (id: string, key?: string) =>
  (await t.api.get(`/json/${id}`, key ? { 'x-board-key': key } : {})).headers.get('etag');

describe('connecting', () => {
  it('sends hello, then a snapshot with full image payloads', async () => {
    const { id } = await board();
    await t.api.post(`/api/boards/${id}/images`, { x: 0, y: 0, width: 5, height: 5, dataUrl: PNG_1PX });
    const client = await connectJson(t.server.url, id, { query: `?client=${CLIENT}` });
    const hello = await client.next((f) => f.type === 'hello');
    expect(hello).toEqual({
      type: 'hello',
      boardId: id,
      mode: 'draw',
      lockMode: null,
      readOnly: false,
      author: `user:${CLIENT}`,
    });
    const snapshot = await client.next((f) => f.type === 'snapshot');
    expect(client.frames.indexOf(hello)).toBeLessThan(client.frames.indexOf(snapshot));
    expect(snapshot.etag).toBe(await etagOf(id));
    expect(snapshot.board).toMatchObject({ boardId: id, mode: 'draw', etag: snapshot.etag, texts: [], lines: [] });
    expect(snapshot.board.images[0].dataUrl).toBe(PNG_1PX);
    client.close();
  });

  it('an unknown board is refused before the upgrade (404); without ?client= a fresh user id is made', async () => {
    await expect(connectJson(t.server.url, '00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({
      status: 404,
    });
    await expect(connectJson(t.server.url, 'not-a-uuid')).rejects.toMatchObject({ status: 404 });
    const { id } = await board();
    const client = await connectJson(t.server.url, id, { query: '?client=not-a-uuid' });
    expect((await client.next((f) => f.type === 'hello')).author).toMatch(/^user:[0-9a-f-]{36}$/);
    client.close();
  });
});

describe('live broadcast from every surface', () => {
  it('a REST write reaches 20 JSON clients and a Yjs client', async () => {
    const { id } = await board();
    const clients = await Promise.all(Array.from({ length: 20 }, () => openJson(t.server.url, id)));
    const yjs = connectYjs(t.server.url, id);
    await yjs.synced;
    // The answer's laid-out box is not stored: the op carries the stored text.
    const {
      bbox: _box,
      created: _created,
      ...text
    } = (await t.api.post(`/api/boards/${id}/texts`, { x: 1, y: 2, content: 'to everyone' })).body;
    const etag = await etagOf(id);
    for (const client of clients) {
      const op = await client.next((f) => f.type === 'op');
      expect(op).toEqual({ type: 'op', op: 'upsert', kind: 'texts', item: text, author: 'ai:rest', etag });
    }
    await eventually(() => expect(boardMaps(yjs.doc).texts.get(text.id)).toEqual(text));
    const deleted = await t.api.del(`/api/boards/${id}/texts/${text.id}`);
    expect(deleted.status).toBe(200);
    for (const client of clients)
      expect(await client.next((f) => f.type === 'op' && f.op === 'delete')).toMatchObject({
        kind: 'texts',
        id: text.id,
        author: 'ai:rest',
      });
    await eventually(() => expect(yjs.doc.getMap('texts').has(text.id)).toBe(false));
    for (const client of clients) client.close();
    yjs.destroy();
  });

  it('an MCP-style write through the domain and a todo change arrive as ops too', async () => {
    const { id } = await board('todo');
    const client = await openJson(t.server.url, id);
    await t.api.post(`/api/boards/${id}/column-width`, { width: 300 });
    expect(await client.next((f) => f.type === 'op')).toMatchObject({
      op: 'set',
      kind: 'meta',
      key: 'colWidth',
      value: 300,
    });
    await t.api.post(`/api/boards/${id}/lanes`, { lane: 1, title: 'Row' });
    expect(await client.next((f) => f.type === 'op' && f.kind === 'lanes')).toMatchObject({
      op: 'upsert',
      item: { lane: 1, title: 'Row' },
    });
    client.close();
  });
});

describe('client frames', () => {
  it('a mutation frame is applied like REST: ack with its ref, an op to every client (the sender too), seen by Yjs and /json', async () => {
    const { id } = await board();
    const sender = await connectJson(t.server.url, id, { query: `?client=${CLIENT}` });
    const other = await connectJson(t.server.url, id);
    const yjs = connectYjs(t.server.url, id);
    await yjs.synced;
    await sender.next((f) => f.type === 'snapshot');
    sender.send({ type: 'add_text', ref: 'r1', x: 3, y: 4, content: 'typed live', postit: true });
    const ack = await sender.next((f) => f.type === 'ack');
    expect(ack).toMatchObject({
      ref: 'r1',
      result: { x: 3, y: 4, content: 'typed live', postit: true, author: `user:${CLIENT}`, created: true },
    });
    for (const client of [sender, other]) {
      expect(await client.next((f) => f.type === 'op')).toMatchObject({
        op: 'upsert',
        kind: 'texts',
        item: { id: ack.result.id },
        author: `user:${CLIENT}`,
      });
    }
    await eventually(() =>
      expect(boardMaps(yjs.doc).texts.get(ack.result.id)).toMatchObject({ content: 'typed live' }),
    );
    const { bbox: _box, created: _created, ...stored } = ack.result; // the answer's laid-out box is not stored
    expect((await t.api.get(`/json/${id}`)).body.texts).toEqual([stored]);

    for (const [type, args] of [
      ['draw_stroke', { points: [0, 0, 5, 5], color: 'red' }],
      ['add_link', { x: 0, y: 0, url: 'https://ws.test' }],
      ['add_image', { x: 0, y: 0, width: 1, height: 1, dataUrl: PNG_1PX }],
      ['move', { id: ack.result.id, x: 50, y: 60 }],
    ] as const) {
      sender.send({ type, ref: type, ...args });
      expect((await sender.next((f) => f.type === 'ack' && f.ref === type)).result).toBeDefined();
    }
    const image = await sender.next((f) => f.type === 'op' && f.kind === 'images');
    expect(image.item.dataUrl).toBe(PNG_1PX);
    sender.send({ type: 'erase', ref: 'e', id: ack.result.id });
    expect(await sender.next((f) => f.type === 'ack' && f.ref === 'e')).toMatchObject({
      result: { ok: true, kind: 'texts' },
    });
    sender.close();
    other.close();
    yjs.destroy();
  });

  it('kanban frames, lane_upsert and set_column_width', async () => {
    const { id } = await board('todo');
    const client = await openJson(t.server.url, id);
    const { snapshot } = client;
    const column = snapshot.board.columns[0].id;
    client.send({ type: 'create_task', ref: 1, column_id: column, name: 'from a frame' });
    const task = (await client.next((f) => f.ref === 1)).result;
    client.send({ type: 'update_task', ref: 2, id: task.id, done: true });
    client.send({ type: 'move_task', ref: 3, id: task.id, column_id: snapshot.board.columns[1].id, sort: 0 });
    client.send({ type: 'lane_upsert', ref: 4, lane: 2, title: 'Third row' });
    client.send({ type: 'set_column_width', ref: 5, width: 999 });
    client.send({ type: 'create_column', ref: 6, title: 'New', sort: 9 });
    client.send({ type: 'update_column', ref: 7, id: column, title: 'Renamed' });
    for (const ref of [2, 3, 4, 5, 6, 7])
      expect((await client.next((f) => f.type === 'ack' && f.ref === ref)).result).toBeDefined();
    client.send({ type: 'delete_task', ref: 8, id: task.id });
    client.send({ type: 'delete_column', ref: 9, id: column });
    await client.next((f) => f.ref === 9);
    const snap = (await t.api.get(`/json/${id}`)).body;
    expect(snap.colWidth).toBe(480);
    expect(snap.lanes).toMatchObject([{ lane: 2, title: 'Third row' }]);
    expect(snap.tasks).toEqual([]);
    expect(snap.columns.map((c: any) => c.title)).toEqual(['In progress', 'Done', 'New']);
    client.close();
  });

  it('errors come back as error frames with the ref, and change nothing', async () => {
    const { id } = await board();
    const client = await openJson(t.server.url, id);
    const etag = await etagOf(id);
    client.socket.send('{not json');
    expect(await client.next((f) => f.type === 'error')).toMatchObject({
      code: 'invalid_json',
      message: expect.any(String),
    });
    client.send({ type: 'teleport', ref: 'x' });
    expect(await client.next((f) => f.ref === 'x')).toMatchObject({ type: 'error', code: 'unknown_frame' });
    client.send({ type: 'add_text', ref: 'y', x: 'left', y: 0, content: 'c' });
    expect(await client.next((f) => f.ref === 'y')).toMatchObject({
      type: 'error',
      code: 'invalid_payload',
      field: 'x',
    });
    client.send({ type: 'create_column', ref: 'z', title: 'c', sort: 0 });
    expect(await client.next((f) => f.ref === 'z')).toMatchObject({ type: 'error', code: 'wrong_mode' });
    client.send({ type: 'add_text', ref: 'q', x: 0, y: 0, content: 'x'.repeat(100_001) });
    expect(await client.next((f) => f.ref === 'q')).toMatchObject({
      type: 'error',
      code: 'quota_exceeded',
      kind: 'text_chars',
    });
    const seen = client.frames.length;
    client.socket.send(Buffer.from([1, 2, 3]));
    expect(await client.next((f) => f.type === 'error', 5_000, seen)).toMatchObject({
      code: 'invalid_json',
      message: expect.stringContaining('JSON text'),
    });
    expect(await etagOf(id)).toBe(etag);
    client.close();
  });

  it('a batch is atomic: one bad op applies nothing; a good one acks every result', async () => {
    const { id } = await board();
    const client = await openJson(t.server.url, id);
    const etag = await etagOf(id);
    client.send({
      type: 'batch',
      ref: 'bad',
      ops: [
        { type: 'add_text', x: 0, y: 0, content: 'a' },
        { type: 'draw_stroke', points: [0, 0, 1, 1] },
        { type: 'erase', id: 'missing' },
      ],
    });
    expect(await client.next((f) => f.ref === 'bad')).toMatchObject({
      type: 'error',
      code: 'item_not_found',
      index: 2,
    });
    expect(await etagOf(id)).toBe(etag);
    client.send({
      type: 'batch',
      ref: 'bad2',
      ops: [
        { type: 'add_text', x: 0, y: 0, content: 'a' },
        { type: 'add_text', x: 'nope', y: 0, content: 'b' },
      ],
    });
    expect(await client.next((f) => f.ref === 'bad2')).toMatchObject({
      type: 'error',
      code: 'invalid_payload',
      index: 1,
      field: 'x',
    });

    client.send({
      type: 'batch',
      ref: 'good',
      ops: [
        { type: 'add_text', x: 0, y: 0, content: 'a' },
        { type: 'draw_stroke', points: [0, 0, 1, 1] },
        { type: 'add_link', x: 1, y: 1, url: 'https://b.test' },
      ],
    });
    const ack = await client.next((f) => f.ref === 'good');
    expect(ack.type).toBe('ack');
    expect(ack.result).toHaveLength(3);
    const snap = (await t.api.get(`/json/${id}`)).body;
    expect(snap.texts).toHaveLength(2);
    expect(snap.lines).toHaveLength(1);

    const tooMany = Array.from({ length: MAX_BATCH_OPS + 1 }, (_, i) => ({
      type: 'draw_stroke',
      points: [i, 0, i, 1],
    }));
    client.send({ type: 'batch', ref: 'big', ops: tooMany });
    expect(await client.next((f) => f.ref === 'big')).toMatchObject({
      type: 'error',
      code: 'invalid_payload',
      field: 'ops',
    });
    client.close();
  });

  it('in one batch, a stroke drawn anchored to a text follows the text moved after it, and an anchored stroke already stored follows twice', async () => {
    const { id } = await board();
    const text = (await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'node' })).body;
    const stored = (
      await t.api.post(`/api/boards/${id}/strokes`, {
        points: [0, 0, 100, 0],
        anchors: {
          start: { kind: 'text', id: text.id, dx: 0, dy: 0 },
          end: { kind: 'text', id: text.id, dx: 0, dy: 0 },
        },
      })
    ).body;
    const client = await openJson(t.server.url, id);
    client.send({
      type: 'batch',
      ref: 'anchored',
      ops: [
        {
          type: 'draw_stroke',
          id: 'fresh-stroke',
          points: [0, 0, 50, 50],
          anchors: {
            start: { kind: 'text', id: text.id, dx: 0, dy: 0 },
            end: { kind: 'text', id: text.id, dx: 0, dy: 0 },
          },
        },
        { type: 'move', id: text.id, x: 10, y: 20 },
        { type: 'move', id: text.id, x: 30, y: 20 },
      ],
    });
    expect((await client.next((f) => f.ref === 'anchored')).type).toBe('ack');
    const lines = new Map(
      ((await t.api.get(`/json/${id}`)).body.lines as { id: string; points: number[][] }[]).map((line) => [
        line.id,
        line.points,
      ]),
    );
    // Anchored at both ends, each stroke moves whole: by (30, 20) in all.
    expect(lines.get(stored.id)).toEqual([
      [30, 20],
      [130, 20],
    ]);
    expect([...lines.values()].find((points) => points !== lines.get(stored.id))).toEqual([
      [30, 20],
      [80, 70],
    ]);
    client.close();
  });

  it('a batch continued over several frames applies once, when its last frame arrives', async () => {
    const { id } = await board();
    const client = await openJson(t.server.url, id);
    for (let i = 0; i < 3; i++)
      client.send({ type: 'batch', ref: 'c', more: true, ops: [{ type: 'draw_stroke', points: [i, 0, i, 1] }] });
    // The socket's frames are handled in order: once this one is answered, the three before it have been.
    client.send({ type: 'erase', ref: 'probe', id: 'missing' });
    expect(await client.next((f) => f.ref === 'probe')).toMatchObject({ type: 'error', code: 'item_not_found' });
    expect((await t.api.get(`/json/${id}`)).body.lines).toHaveLength(0);
    client.send({ type: 'batch', ref: 'c', ops: [{ type: 'add_text', x: 0, y: 0, content: 'last' }] });
    const ack = await client.next((f) => f.ref === 'c');
    expect(ack.result).toHaveLength(4);
    const snap = (await t.api.get(`/json/${id}`)).body;
    expect([snap.lines.length, snap.texts.length]).toEqual([3, 1]);
  });

  it('an unfinished batch is discarded after 500 ms with batch_timeout', async () => {
    const { id } = await board();
    const client = await openJson(t.server.url, id);
    const etag = await etagOf(id);
    client.send({ type: 'batch', ref: 'late', more: true, ops: [{ type: 'draw_stroke', points: [0, 0, 1, 1] }] });
    const error = await client.next((f) => f.ref === 'late', 2_000);
    expect(error).toMatchObject({ type: 'error', code: 'batch_timeout' });
    client.send({ type: 'batch', ref: 'late', ops: [] });
    expect(await client.next((f) => f.type === 'ack' && f.ref === 'late')).toMatchObject({ result: [] });
    expect(await etagOf(id)).toBe(etag);
    client.close();
  });

  it('a continued batch is limited to 500 ops in all', async () => {
    const { id } = await board();
    const client = await openJson(t.server.url, id);
    const half = Array.from({ length: 300 }, (_, i) => ({ type: 'draw_stroke', points: [i, 0, i, 1] }));
    client.send({ type: 'batch', ref: 'b', more: true, ops: half });
    client.send({ type: 'batch', ref: 'b', more: true, ops: half });
    expect(await client.next((f) => f.ref === 'b')).toMatchObject({ type: 'error', code: 'batch_too_large' });
    expect((await t.api.get(`/json/${id}`)).body.lines).toHaveLength(0);
    client.close();
  });

  it('recolor: texts and strokes take ink names, cards take red/blue/green, at most 500 ids', async () => {
    const { id } = await board();
    const client = await openJson(t.server.url, id);
    const text = (await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 't' })).body;
    const stroke = (await t.api.post(`/api/boards/${id}/strokes`, { points: [0, 0, 1, 1] })).body;
    client.send({ type: 'recolor', ref: 1, ids: [text.id, stroke.id], color: 'Purple' });
    expect(await client.next((f) => f.ref === 1)).toMatchObject({ type: 'ack', result: { ok: true } });
    const snap = (await t.api.get(`/json/${id}`)).body;
    expect([snap.texts[0].color, snap.lines[0].color]).toEqual(['purple', 'purple']);
    client.send({
      type: 'recolor',
      ref: 2,
      ids: Array.from({ length: MAX_RECOLOR_ITEMS + 1 }, (_, i) => `id${i}`),
      color: 'red',
    });
    expect(await client.next((f) => f.ref === 2)).toMatchObject({
      type: 'error',
      code: 'invalid_payload',
      field: 'ids',
    });
    client.send({ type: 'recolor', ref: 3, ids: [text.id, 'missing'], color: 'red' });
    expect(await client.next((f) => f.ref === 3)).toMatchObject({ type: 'error', code: 'item_not_found' });
    expect((await t.api.get(`/json/${id}`)).body.texts[0].color).toBe('purple');
    client.close();

    const todo = await board('todo');
    const kanban = await openJson(t.server.url, todo.id);
    const columns = kanban.snapshot.board.columns;
    kanban.send({ type: 'recolor', ref: 1, ids: [columns[0].id], color: 'green' });
    await kanban.next((f) => f.ref === 1);
    expect((await t.api.get(`/json/${todo.id}`)).body.columns[0].color).toBe('green');
    kanban.send({ type: 'recolor', ref: 2, ids: [columns[0].id], color: 'purple' });
    expect(await kanban.next((f) => f.ref === 2)).toMatchObject({ type: 'error', field: 'color' });
    kanban.close();
  });
});

describe('locks on the JSON channel', () => {
  it('an all-locked board refuses the upgrade with 401 without the key', async () => {
    const { id, access_key } = await board('draw', 'all');
    await expect(connectJson(t.server.url, id)).rejects.toMatchObject({ status: 401 });
    await expect(connectJson(t.server.url, id, { key: 'zzzzzzzz' })).rejects.toMatchObject({ status: 401 });
    const client = await connectJson(t.server.url, id, { key: access_key });
    expect(client.socket.protocol).toBe(`svc-key.${access_key}`);
    expect(await client.next((f) => f.type === 'hello')).toMatchObject({ lockMode: 'all', readOnly: false });
    client.close();
    const deprecated = await openJson(t.server.url, id, { query: `?key=${access_key}` });
    expect(deprecated.snapshot.board.boardId).toBe(id);
    deprecated.close();
  });

  it('a write-locked board without the key is read-only: mutation frames get board_locked and are dropped', async () => {
    const { id, access_key } = await board('draw', 'write');
    const reader = await connectJson(t.server.url, id);
    expect(await reader.next((f) => f.type === 'hello')).toMatchObject({ lockMode: 'write', readOnly: true });
    await reader.next((f) => f.type === 'snapshot');
    reader.send({ type: 'add_text', ref: 'no', x: 0, y: 0, content: 'x' });
    expect(await reader.next((f) => f.ref === 'no')).toMatchObject({
      type: 'error',
      code: 'board_locked',
      lockMode: 'write',
    });
    reader.send({ type: 'batch', ref: 'nob', ops: [{ type: 'add_text', x: 0, y: 0, content: 'x' }] });
    expect(await reader.next((f) => f.ref === 'nob')).toMatchObject({ type: 'error', code: 'board_locked' });
    expect((await t.api.get(`/json/${id}`)).body.texts).toEqual([]);
    // reads still flow to it
    const writer = await connectJson(t.server.url, id, { key: access_key });
    writer.send({ type: 'add_text', ref: 'yes', x: 0, y: 0, content: 'by the key holder' });
    expect(await writer.next((f) => f.ref === 'yes')).toMatchObject({ type: 'ack' });
    expect(await reader.next((f) => f.type === 'op')).toMatchObject({ item: { content: 'by the key holder' } });
    reader.close();
    writer.close();
  });

  it('locking a board closes the connections that no longer may read it', async () => {
    const { id } = await board();
    const client = await openJson(t.server.url, id);
    await t.api.post(`/api/boards/${id}/lock`, { mode: 'all' });
    expect(await client.closed).toMatchObject({ code: 4401, reason: 'board_locked' });
  });
});

describe('board_erased', () => {
  it('erasing a board tells its clients, then closes them', async () => {
    const { id } = await board();
    const client = await openJson(t.server.url, id);
    await t.api.del(`/api/boards/${id}`);
    expect(await client.next((f) => f.type === 'board_erased')).toEqual({ type: 'board_erased', boardId: id });
    expect(await client.closed).toMatchObject({ code: 4404 });
  });
});

describe('slow consumers', () => {
  it('a client that stops reading is dropped; the others get every op', async () => {
    const { id } = await board();
    const [slow, fast] = await Promise.all([openJson(t.server.url, id), openJson(t.server.url, id)]);
    (slow.socket as any)._socket.pause(); // stops reading: the server's send buffer for it fills up
    const content = 'x'.repeat(90_000);
    for (let round = 0; round < 5; round++) {
      await t.server.server.boards.write(id, TEST_CALLER, (w) => {
        for (let i = 0; i < 80; i++) upsertText(w, { x: round, y: i, content });
      });
      const count = (round + 1) * 80;
      await eventually(() => expect(fast.frames.filter((f: Frame) => f.type === 'op').length).toBe(count), 10_000);
    }
    (slow.socket as any)._socket.resume();
    expect(await slow.closed).toMatchObject({ code: 4008, reason: 'slow_consumer' });
    fast.close();
  });
});
