import { describe, expect, it } from 'vitest';
import { boardMaps } from '../board/model/document-model.js';
import { upsertText } from '../board/mutations/draw.js';
import { MAX_TEXT_NODES } from '../schema/index.js';
import { connectJson, connectYjs, eventually, openJson } from './helpers/realtime.js';
import { TEST_CALLER, useServer } from './helpers/server.js';

const t = useServer();
const CLIENT = '0c9e2a41-7b3d-4f6e-9a8b-5c4d3e2f1a0b';
const now = () => new Date().toISOString();

async function board(mode: 'draw' | 'todo' = 'draw', lock?: 'write' | 'all') {
  return (await t.api.post('/api/boards', { mode, lock })).body as { id: string; access_key?: string };
}
const snapshot = async (id: string, key?: string) =>
  (await t.api.get(`/json/${id}`, key ? { 'x-board-key': key } : {})).body;
const text = (id: string, content: string, author = `user:${CLIENT}`) => ({
  id,
  x: 1,
  y: 2,
  content,
  author,
  last_updated: now(),
});

describe('/collab: Yjs sync through Hocuspocus', () => {
  it('a Yjs edit shows up in /json and on the JSON channel, tagged with the client', async () => {
    const { id } = await board();
    const json = await openJson(t.server.url, id);
    const yjs = connectYjs(t.server.url, id, { client: CLIENT });
    await yjs.synced;
    yjs.doc.getMap('texts').set('a1', text('a1', 'typed in a browser'));
    const op = await json.next((f) => f.type === 'op');
    expect(op).toMatchObject({
      op: 'upsert',
      kind: 'texts',
      item: { id: 'a1', content: 'typed in a browser' },
      author: `user:${CLIENT}`,
    });
    await eventually(async () => expect((await snapshot(id)).texts).toEqual([expect.objectContaining({ id: 'a1' })]));
    json.close();
    yjs.destroy();
  });

  it('a JSON-channel frame and a REST write show up in a Yjs client; two Yjs clients converge', async () => {
    const { id } = await board('todo');
    const a = connectYjs(t.server.url, id);
    const b = connectYjs(t.server.url, id);
    await Promise.all([a.synced, b.synced]);
    expect(a.doc.getMap('columns').size).toBe(3);
    const json = await openJson(t.server.url, id);
    const column = json.snapshot.board.columns[0].id;
    json.send({ type: 'create_task', ref: 1, column_id: column, name: 'from JSON' });
    const { created: _created, ...task } = (await json.next((f) => f.type === 'ack')).result;
    await eventually(() => expect(boardMaps(a.doc).tasks.get(task.id)).toMatchObject({ name: 'from JSON' }));
    a.doc.getMap('tasks').set(task.id, { ...task, done: true, last_updated: now() });
    await eventually(() => expect(boardMaps(b.doc).tasks.get(task.id)).toMatchObject({ done: true }));
    await eventually(async () => expect((await snapshot(id)).tasks[0].done).toBe(true));
    a.destroy();
    b.destroy();
    json.close();
  });

  it('unknown and erased boards are refused', async () => {
    const unknown = connectYjs(t.server.url, '00000000-0000-4000-8000-000000000000');
    await expect(unknown.synced).rejects.toThrow(/board_not_found/);
    unknown.destroy();
    const { id } = await board();
    await t.api.del(`/api/boards/${id}`);
    const erased = connectYjs(t.server.url, id);
    await expect(erased.synced).rejects.toThrow(/board_not_found/);
    erased.destroy();
    // and nothing was created for them
    expect(await t.server.server.documents.load('00000000-0000-4000-8000-000000000000')).toBeNull();
  });

  it('an all-locked board needs the key as the token; a write-locked one is read-only without it', async () => {
    const locked = await board('draw', 'all');
    const refused = connectYjs(t.server.url, locked.id);
    await expect(refused.synced).rejects.toThrow(/board_locked/);
    refused.destroy();
    const keyed = connectYjs(t.server.url, locked.id, { token: locked.access_key });
    await keyed.synced;
    keyed.doc.getMap('texts').set('k1', text('k1', 'with the key'));
    await eventually(async () => expect((await snapshot(locked.id, locked.access_key)).texts).toHaveLength(1));
    keyed.destroy();

    const writeLocked = await board('draw', 'write');
    const reader = connectYjs(t.server.url, writeLocked.id);
    await reader.synced;
    reader.doc.getMap('texts').set('r1', text('r1', 'not allowed'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await snapshot(writeLocked.id)).texts).toEqual([]);
    await t.api.post(
      `/api/boards/${writeLocked.id}/texts`,
      { x: 0, y: 0, content: 'by REST with the key' },
      { 'x-board-key': writeLocked.access_key! },
    );
    await eventually(() =>
      expect(
        [...boardMaps(reader.doc).texts.values()].some(
          (item) => (item as { content?: string }).content === 'by REST with the key',
        ),
      ).toBe(true),
    );
    reader.destroy();
  });

  // A provider that reconnected kept its client id, and its state was then filed under no connection.
  it('someone whose connection was renewed is gone from the others’ awareness as soon as it closes', async () => {
    const { id } = await board();
    const [leaver, watcher] = [connectYjs(t.server.url, id), connectYjs(t.server.url, id)];
    await Promise.all([leaver.synced, watcher.synced]);
    const others = () => [...watcher.provider.awareness!.getStates().keys()].filter((c) => c !== watcher.doc.clientID);
    leaver.provider.awareness!.setLocalStateField('user', { name: 'Ada' });
    await eventually(() => expect(others()).toEqual([leaver.doc.clientID]));
    const socket = leaver.provider.configuration.websocketProvider;
    const closed = new Promise((resolve) => socket.on('close', resolve));
    socket.disconnect();
    await closed;
    void socket.connect();
    leaver.provider.awareness!.setLocalStateField('user', { name: 'Ada again' });
    await eventually(() =>
      expect(watcher.provider.awareness!.getStates().get(leaver.doc.clientID)?.user).toEqual({ name: 'Ada again' }),
    );
    leaver.destroy();
    await eventually(() => expect(others()).toEqual([]), 2_000);
    watcher.destroy();
  });
});

describe('accept-then-compensate', () => {
  it('an invalid item is removed at once: both clients converge, the writer is told, JSON clients never see it', async () => {
    const { id } = await board();
    const writer = connectYjs(t.server.url, id);
    const watcher = connectYjs(t.server.url, id);
    const json = await connectJson(t.server.url, id);
    await Promise.all([writer.synced, watcher.synced, json.next((f) => f.type === 'snapshot')]);
    writer.doc
      .getMap('texts')
      .set('bad', { id: 'bad', x: 'left', y: 0, content: 42, author: 'user:x', last_updated: now() });
    writer.doc.getMap('texts').set('good', text('good', 'fine'));
    await eventually(() => expect(writer.stateless).toHaveLength(1));
    expect(writer.stateless[0]).toEqual({
      type: 'compensated',
      repairs: [{ kind: 'texts', id: 'bad', action: 'removed', reason: expect.stringContaining('x') }],
    });
    await eventually(() => {
      expect(writer.doc.getMap('texts').has('bad')).toBe(false);
      expect(watcher.doc.getMap('texts').has('good')).toBe(true);
    });
    expect(watcher.doc.getMap('texts').has('bad')).toBe(false);
    const snap = await snapshot(id);
    expect(snap.texts.map((item: any) => item.id)).toEqual(['good']);
    await json.next((f) => f.type === 'op' && f.item?.id === 'good');
    expect(json.frames.some((f) => f.type === 'op' && (f.item?.id === 'bad' || f.id === 'bad'))).toBe(false);
    writer.destroy();
    watcher.destroy();
    json.close();
  });

  it('a changed author and an invalid edit of an existing item are restored', async () => {
    const { id } = await board();
    // The answer's laid-out box and created flag are not stored.
    const {
      bbox: _box,
      created: _created,
      ...original
    } = (await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'by an agent' })).body;
    const client = connectYjs(t.server.url, id);
    await client.synced;
    client.doc.getMap('texts').set(original.id, { ...original, author: 'user:thief', content: 'mine now' });
    await eventually(() => expect(boardMaps(client.doc).texts.get(original.id)).toEqual(original));
    client.doc.getMap('texts').set(original.id, { ...original, width: 5 });
    await eventually(() => expect(client.stateless).toHaveLength(2));
    expect(client.stateless[1].repairs[0]).toMatchObject({ id: original.id, action: 'restored' });
    expect((await snapshot(id)).texts).toEqual([original]);
    client.destroy();
  });

  it('items over quota and items of the wrong mode are removed', async () => {
    const { id } = await board();
    await t.server.server.boards.write(id, TEST_CALLER, (w) => {
      for (let i = 0; i < MAX_TEXT_NODES; i++) upsertText(w, { x: i, y: 0, content: `t${i}` });
    });
    const client = connectYjs(t.server.url, id);
    await client.synced;
    client.doc.getMap('texts').set('extra', text('extra', 'one too many'));
    client.doc
      .getMap('columns')
      .set('c1', { id: 'c1', title: 'kanban on a canvas', sort: 0, lane: 0, author: 'user:x', last_updated: now() });
    await eventually(() =>
      expect(
        client.stateless
          .flatMap((s) => s.repairs)
          .map((r: any) => r.id)
          .sort(),
      ).toEqual(['c1', 'extra']),
    );
    await eventually(() => expect(client.doc.getMap('texts').size).toBe(MAX_TEXT_NODES));
    expect((await snapshot(id)).texts).toHaveLength(MAX_TEXT_NODES);
    client.destroy();
  });

  it('a client cannot change the mode its items are checked against by writing meta.mode itself', async () => {
    const { id } = await board();
    const toTodo = await t.api.post(`/api/boards/${id}/mode`, { mode: 'todo' });
    expect(toTodo.status).toBe(200);
    expect((await t.api.post(`/api/boards/${id}/mode`, { mode: 'draw' })).status).toBe(200); // the document now mirrors 'draw'
    const client = connectYjs(t.server.url, id);
    await client.synced;
    client.doc.transact(() => {
      client.doc.getMap('meta').set('mode', 'todo');
      client.doc
        .getMap('columns')
        .set('c1', { id: 'c1', title: 'kanban on a canvas', sort: 0, lane: 0, author: 'user:x', last_updated: now() });
    });
    await eventually(() =>
      expect(
        client.stateless
          .flatMap((s) => s.repairs)
          .map((r: any) => r.id)
          .sort(),
      ).toEqual(['c1', 'mode']),
    );
    await eventually(() => expect(client.doc.getMap('meta').get('mode')).toBe('draw'));
    expect(client.doc.getMap('columns').size).toBe(0);
    expect((await snapshot(id)).columns ?? []).toEqual([]);
    client.destroy();
  });

  it('images must reference a stored payload; deleting a column takes its tasks along', async () => {
    const { id } = await board();
    const client = connectYjs(t.server.url, id);
    await client.synced;
    client.doc.getMap('images').set('i1', {
      id: 'i1',
      x: 0,
      y: 0,
      width: 1,
      height: 1,
      blob: 'a'.repeat(64),
      mime: 'image/png',
      bytes: 10,
      author: 'user:x',
      last_updated: now(),
    });
    await eventually(() =>
      expect(client.stateless[0]?.repairs[0]).toMatchObject({ id: 'i1', reason: expect.stringContaining('payload') }),
    );
    client.destroy();

    const todo = await board('todo');
    const kanban = connectYjs(t.server.url, todo.id);
    await kanban.synced;
    const column = [...boardMaps(kanban.doc).columns.values()][0];
    await t.api.post(`/api/boards/${todo.id}/tasks`, { column_id: column.id, name: 'goes with its column' });
    await eventually(() => expect(kanban.doc.getMap('tasks').size).toBe(1));
    kanban.doc.getMap('columns').delete(column.id);
    await eventually(async () => expect((await snapshot(todo.id)).tasks).toEqual([]));
    await eventually(() => expect(kanban.doc.getMap('tasks').size).toBe(0));
    kanban.destroy();
  });

  it('a client that keeps sending invalid data is disconnected', async () => {
    const { id } = await board();
    const client = connectYjs(t.server.url, id);
    await client.synced;
    // Hocuspocus closes the document connection with a reason (its close message carries no code).
    const closed = new Promise<string>((resolve) =>
      client.provider.on('close', ({ event }: { event: { reason: string } }) => resolve(event.reason)),
    );
    for (let i = 0; i < 25; i++) client.doc.getMap('texts').set(`bad${i}`, { nonsense: i });
    expect(await closed).toBe('invalid_updates');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await snapshot(id)).texts).toEqual([]);
    client.destroy();
  });
});
