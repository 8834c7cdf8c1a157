/**
 * Two people on one item: concurrent changes to different fields of an item
 * both survive, and concurrent typing in one text merges character by
 * character (docs/document-model.md). The edits are made as the browser app
 * makes them (a domain mutation on a Yjs document, committed in one
 * transaction), offline and online, against the real server.
 */

import { afterEach, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { boardMaps, commitMaps, stagedMaps, type TextItem } from '../board/model/document-model.js';
import type { BoardWrite } from '../board/mutations/board-write.js';
import { upsertText } from '../board/mutations/draw.js';
import { upsertTask } from '../board/mutations/todo.js';
import { boardJson } from './helpers/pages.js';
import { connectYjs, eventually, type YjsClient } from './helpers/realtime.js';
import { useServer } from './helpers/server.js';

const t = useServer();
const clients: YjsClient[] = [];
afterEach(() => {
  for (const client of clients.splice(0)) client.destroy();
});

function open(id: string, doc?: Y.Doc): YjsClient {
  const client = connectYjs(t.server.url, id, { doc });
  clients.push(client);
  return client;
}

/** A change made as the app makes it: a domain mutation on the local document, one transaction. */
function edit(doc: Y.Doc, mode: 'draw' | 'todo', mutate: (w: BoardWrite) => unknown): void {
  const w: BoardWrite = {
    boardId: 'local',
    mode,
    maps: stagedMaps(doc),
    blobs: { put: () => '', get: () => null },
    author: 'user:test',
    now: new Date().toISOString(),
    newId: () => crypto.randomUUID(),
    textSize: () => undefined,
    counts: {},
  };
  mutate(w);
  doc.transact(() => commitMaps(w.maps), 'local');
}

/** Synced once, then offline: its changes wait in its document until it connects again. */
async function offline(id: string): Promise<Y.Doc> {
  const client = open(id);
  await client.synced;
  client.destroy();
  return client.doc;
}

function textOf(doc: Y.Doc, id: string): TextItem {
  return boardMaps(doc).texts.get(id) as TextItem;
}

describe('two people on one item', () => {
  it('an offline edit of a text and a move made meanwhile both survive, for everyone', async () => {
    const id = (await t.api.post('/api/boards')).body.id;
    const text = (await t.api.post(`/api/boards/${id}/texts`, { x: 10, y: 10, content: 'Online 2' })).body;
    const away = await offline(id);
    edit(away, 'draw', (w) => upsertText(w, { ...textOf(away, text.id), content: 'Online 2, edited offline' }));
    const moved = await t.api.post(`/api/boards/${id}/texts/${text.id}/move`, { x: 10, y: 210 });
    expect(moved.status).toBe(200);
    const back = open(id, away);
    await back.synced;
    const merged = { x: 10, y: 210, content: 'Online 2, edited offline' };
    await eventually(async () =>
      expect((await boardJson(t.server.url, id)).texts.find((x: TextItem) => x.id === text.id)).toMatchObject(merged),
    );
    await eventually(() => expect(textOf(back.doc, text.id)).toMatchObject(merged));
    const other = open(id);
    await other.synced;
    expect(textOf(other.doc, text.id)).toMatchObject(merged);
  });

  it('two people typing in one text offline merge character by character', async () => {
    const id = (await t.api.post('/api/boards')).body.id;
    const text = (await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'meeting notes' })).body;
    const [a, b] = [await offline(id), await offline(id)];
    edit(a, 'draw', (w) => upsertText(w, { ...textOf(a, text.id), content: 'Monday meeting notes' }));
    edit(b, 'draw', (w) => upsertText(w, { ...textOf(b, text.id), content: 'meeting notes: budget' }));
    const [onA, onB] = [open(id, a), open(id, b)];
    await Promise.all([onA.synced, onB.synced]);
    const merged = 'Monday meeting notes: budget';
    await eventually(() => {
      expect(textOf(onA.doc, text.id).content).toBe(merged);
      expect(textOf(onB.doc, text.id).content).toBe(merged);
    });
    expect((await boardJson(t.server.url, id)).texts[0].content).toBe(merged);
  });

  it('a REST edit of a text and a person typing in it at the same time both land', async () => {
    const id = (await t.api.post('/api/boards')).body.id;
    const text = (await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'abc' })).body;
    const typist = await offline(id);
    edit(typist, 'draw', (w) => upsertText(w, { ...textOf(typist, text.id), content: 'abc def' }));
    const rest = await t.api.post(`/api/boards/${id}/texts`, {
      id: text.id,
      x: 0,
      y: 0,
      content: 'xyz abc',
      color: 'red',
    });
    expect(rest.status).toBe(200);
    const back = open(id, typist);
    await back.synced;
    await eventually(async () =>
      expect((await boardJson(t.server.url, id)).texts[0]).toMatchObject({ content: 'xyz abc def', color: 'red' }),
    );
  });

  it('a task renamed by one person and ticked by another keeps both', async () => {
    const id = (await t.api.post('/api/boards', { mode: 'todo' })).body.id;
    const column = (await boardJson(t.server.url, id)).columns[0];
    const task = (await t.api.post(`/api/boards/${id}/tasks`, { column_id: column.id, name: 'Write the plan' })).body;
    const away = await offline(id);
    const current = boardMaps(away).tasks.get(task.id);
    expect(current).toBeDefined();
    edit(away, 'todo', (w) => upsertTask(w, { id: task.id, column_id: column.id, name: 'Write the plan for Q3' }));
    expect(
      (
        await t.api.post(`/api/boards/${id}/tasks`, {
          id: task.id,
          column_id: column.id,
          name: 'Write the plan',
          done: true,
        })
      ).status,
    ).toBe(200);
    const back = open(id, away);
    await back.synced;
    await eventually(async () =>
      expect((await boardJson(t.server.url, id)).tasks.find((x: { id: string }) => x.id === task.id)).toMatchObject({
        name: 'Write the plan for Q3',
        done: true,
      }),
    );
  });
});

describe('the document layout', () => {
  it('keeps each item as a map of its fields, its text as a Y.Text', async () => {
    const id = (await t.api.post('/api/boards')).body.id;
    const text = (await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'fields' })).body;
    const client = open(id);
    await client.synced;
    const stored = client.doc.getMap('texts').get(text.id);
    expect(stored).toBeInstanceOf(Y.Map);
    expect((stored as Y.Map<unknown>).get('content')).toBeInstanceOf(Y.Text);
    expect((stored as Y.Map<unknown>).get('x')).toBe(0);
  });

  it('reads a board stored with one plain object per item, and rewrites it as maps when it is loaded again', async () => {
    const id = (await t.api.post('/api/boards')).body.id;
    const legacy = open(id);
    await legacy.synced;
    const item = {
      id: 'old',
      x: 1,
      y: 2,
      content: 'stored before',
      author: 'user:old',
      last_updated: new Date().toISOString(),
    };
    legacy.doc.getMap('texts').set('old', item);
    await eventually(async () => expect((await boardJson(t.server.url, id)).texts).toEqual([item]));
    legacy.destroy();
    t.server = await t.server.restart();
    expect((await boardJson(t.server.url, id)).texts).toEqual([item]);
    const fresh = open(id);
    await fresh.synced;
    expect(fresh.doc.getMap('texts').get('old')).toBeInstanceOf(Y.Map);
    expect(textOf(fresh.doc, 'old')).toEqual(item);
  });
});
