import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_COLLAB_UPDATES, RATE_WS_FRAMES } from '../schema/index.js';
import { client } from './helpers/http.js';
import { connectYjs, eventually, openJson } from './helpers/realtime.js';
import { startServer, type TestServer } from './helpers/server.js';

let now = Date.parse('2026-05-01T00:00:00Z');
let server: TestServer;

beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: 'on' }, { now: () => now });
});
afterAll(() => server.close());

describe('WebSocket rate limits', () => {
  it(`JSON channel: ${RATE_WS_FRAMES} frames per 10 s per board, whatever the connection; then rate_limited and dropped`, async () => {
    const api = client(server.url);
    const { id } = (await api.post('/api/boards')).body;
    const [a, b] = await Promise.all([openJson(server.url, id), openJson(server.url, id)]);
    for (let i = 0; i < RATE_WS_FRAMES; i++)
      (i % 2 ? a : b).send({ type: 'draw_stroke', ref: i, points: [i, 0, i, 1] });
    await b.next((f) => f.type === 'ack' && f.ref === RATE_WS_FRAMES - 2);
    await a.next((f) => f.type === 'ack' && f.ref === RATE_WS_FRAMES - 1);
    a.send({ type: 'draw_stroke', ref: 'over', points: [0, 0, 1, 1] });
    expect(await a.next((f) => f.ref === 'over')).toEqual({
      type: 'error',
      code: 'rate_limited',
      message: expect.any(String),
      ref: 'over',
      retryAfterSeconds: 10,
    });
    // a whole continued batch counts once: refused as a whole while the board is over its budget
    b.send({ type: 'batch', ref: 'batch', ops: [{ type: 'draw_stroke', points: [0, 0, 1, 1] }] });
    expect(await b.next((f) => f.ref === 'batch')).toMatchObject({ type: 'error', code: 'rate_limited' });
    expect((await api.get(`/json/${id}`)).body.lines).toHaveLength(RATE_WS_FRAMES);
    now += 10_000;
    b.send({ type: 'batch', ref: 'later', more: true, ops: [{ type: 'draw_stroke', points: [0, 0, 1, 1] }] });
    for (let i = 0; i < RATE_WS_FRAMES + 5; i++) b.send({ type: 'batch', ref: 'later', more: true, ops: [] });
    b.send({ type: 'batch', ref: 'later', ops: [] });
    expect(await b.next((f) => f.ref === 'later')).toMatchObject({ type: 'ack' });
    a.close();
    b.close();
  });

  it(`/collab: more than ${RATE_COLLAB_UPDATES} updates per 10 s closes the connection; after the window everything syncs`, async () => {
    now += 10_000;
    const { id } = (await client(server.url).post('/api/boards')).body;
    const yjs = connectYjs(server.url, id);
    await yjs.synced;
    const reasons: string[] = [];
    yjs.provider.on('close', ({ event }: { event: { reason: string } }) => reasons.push(event.reason));
    const lines = yjs.doc.getMap('lines');
    for (let i = 0; i < RATE_COLLAB_UPDATES + 40; i++) {
      lines.set(`s${i}`, {
        id: `s${i}`,
        points: [
          [i, 0],
          [i, 1],
        ],
        color: 'auto',
        width: 3,
        author: 'user:fast',
        last_updated: new Date(now).toISOString(),
      });
    }
    await eventually(() => expect(reasons).toContain('rate_limited'));
    now += 10_000; // the window ends: the provider's next sync carries what was held back
    // Read the server's document directly: polling /json would spend the board's REST budget.
    await eventually(
      () => expect(server.server.hocuspocus.documents.get(id)?.getMap('lines').size).toBe(RATE_COLLAB_UPDATES + 40),
      15_000,
    );
    yjs.destroy();
  });
});
