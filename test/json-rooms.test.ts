/**
 * The JSON channel's per-board rooms (host/events/board-room.ts): ops are
 * computed only for boards with an open `/ws` socket, a socket hears only its
 * own board, the room keeps its board loaded and is disposed when its last
 * socket leaves. Observed through the figures the rooms give /metrics.
 */

import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { scrape } from './helpers/metrics.js';
import { connectYjs, eventually, openJson } from './helpers/realtime.js';
import { useServer } from './helpers/server.js';

// Boards unload right after their store unless something holds them.
const t = useServer({ STORE_DEBOUNCE_MS: '50', STORE_MAX_DEBOUNCE_MS: '200', KEEP_LOADED_MS: '0' });

const figures = async () => {
  const metrics = await scrape(`${t.server.url}/metrics`);
  return { ops: metrics.value('board_json_ops_total'), rooms: metrics.value('board_json_rooms') };
};
const newBoard = async () => (await t.api.post('/api/boards')).body.id as string;
const addText = async (id: string, content: string) => {
  const res = await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content });
  expect(res.status).toBe(200);
  return res.body.id as string;
};

describe('per-board rooms of the JSON channel', () => {
  it('computes no op for a board nobody watches, and a socket hears only its own board', async () => {
    const [watched, unwatched] = [await newBoard(), await newBoard()];
    const json = await openJson(t.server.url, watched);
    // A Yjs client keeps the unwatched board loaded: its changes are broadcast, but no op is computed.
    const yjs = connectYjs(t.server.url, unwatched, { board: unwatched });
    await yjs.synced;
    const before = await figures();
    expect(before.rooms).toBe(1);

    for (let i = 0; i < 5; i++) await addText(unwatched, `elsewhere ${i}`);
    await eventually(() => expect(yjs.doc.getMap('texts').size).toBe(5));
    const mine = await addText(watched, 'here');
    await json.next((f) => f.type === 'op' && f.item?.id === mine);
    await sleep(100); // any frame about the other board would have come by now

    expect((await figures()).ops - before.ops).toBe(1);
    expect(json.frames.map((f) => f.type)).toEqual(['hello', 'snapshot', 'op']);
    json.close();
    yjs.destroy();
  });

  it('keeps its board loaded while it has sockets, and is disposed, letting the board go, when its last one leaves', async () => {
    const id = await newBoard();
    const first = await openJson(t.server.url, id);
    const second = await openJson(t.server.url, id);
    expect((await figures()).rooms).toBe(1);

    // Nobody else uses the board and it is not kept after use: only the room holds it, once stored.
    await addText(id, 'stored soon');
    await sleep(500);
    expect(t.server.server.hocuspocus.documents.has(id)).toBe(true);

    first.close();
    await first.closed;
    await eventually(async () => expect((await figures()).rooms).toBe(1));
    const stillHeard = await addText(id, 'one socket left');
    await second.next((f) => f.type === 'op' && f.item?.id === stillHeard);

    second.close();
    await second.closed;
    await eventually(async () => expect((await figures()).rooms).toBe(0));
    const before = await figures();
    await addText(id, 'nobody watches now');
    await sleep(100);
    expect((await figures()).ops).toBe(before.ops);
    await eventually(() => expect(t.server.server.hocuspocus.documents.has(id)).toBe(false), 5_000);
  });
});
