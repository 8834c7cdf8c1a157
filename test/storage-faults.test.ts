import { describe, expect, it } from 'vitest';
import type { SqliteStore } from '../store/sqlite/store.js';
import { client } from './helpers/http.js';
import { connectMcp } from './helpers/mcp.js';
import { connectYjs, eventually, openJson } from './helpers/realtime.js';
import { startServer } from './helpers/server.js';

/** Caps the database at its current size, as a full disk would: SQLite answers SQLITE_FULL to any write that needs a page more. */
function fillDisk(db: import('better-sqlite3').Database): () => void {
  db.pragma('wal_checkpoint(TRUNCATE)');
  const pages = db.pragma('page_count', { simple: true }) as number;
  db.pragma(`max_page_count = ${pages}`);
  return () => void db.pragma('max_page_count = 1073741823');
}

const big = (label: string) => `${label} ${'x'.repeat(60_000)}`; // needs new pages: it cannot hide in free space

describe('storage faults', () => {
  it('a write the storage refuses is 503 storage_unavailable, unacknowledged; earlier writes survive; it recovers', async () => {
    const server = await startServer({ STORE_DEBOUNCE_MS: '60000', STORE_MAX_DEBOUNCE_MS: '60000' });
    try {
      const api = client(server.url);
      const { id } = (await api.post('/api/boards')).body;
      const kept = (
        await api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'stored before the disk filled up' })
      ).body;
      const json = await openJson(server.url, id);
      const yjs = connectYjs(server.url, id);
      await yjs.synced;
      const mcp = await connectMcp(server.url);

      const restore = fillDisk((server.server.store as SqliteStore).db);
      const refused = await api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: big('refused') });
      expect(refused.status).toBe(503);
      expect(refused.body).toMatchObject({ code: 'storage_unavailable', error: expect.any(String) });
      const viaMcp = await mcp
        .call('add_text', { board_id: id, x: 0, y: 0, content: big('mcp') })
        .catch((error) => error);
      expect(viaMcp).toMatchObject({ code: -32000, data: { code: 'storage_unavailable' } });
      json.send({ type: 'add_text', ref: 'full', x: 0, y: 0, content: big('frame') });
      expect(await json.next((f) => f.ref === 'full')).toMatchObject({ type: 'error', code: 'storage_unavailable' });
      expect(
        (await api.post('/api/boards', { content: { texts: [{ x: 0, y: 0, content: big('import') }] } })).status,
      ).toBe(503);

      // A Yjs client's change is not acknowledged: it stays pending in the client.
      yjs.doc.getMap('texts').set('y1', {
        id: 'y1',
        x: 9,
        y: 9,
        content: big('yjs'),
        author: 'user:writer',
        last_updated: new Date().toISOString(),
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const during = (await api.get(`/json/${id}`)).body;
      expect(during.texts.map((text: any) => text.id)).toEqual([kept.id]);

      restore();
      // The Yjs client reconnects and resends; then writes work again everywhere.
      await eventually(
        async () =>
          expect((await api.get(`/json/${id}`)).body.texts.map((t: any) => t.id).sort()).toEqual(
            [kept.id, 'y1'].sort(),
          ),
        15_000,
      );
      expect((await api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'after recovery' })).status).toBe(200);
      json.send({ type: 'add_text', ref: 'ok', x: 0, y: 0, content: 'frame after recovery' });
      expect(await json.next((f) => f.ref === 'ok')).toMatchObject({ type: 'ack' });
      await mcp.close();
      yjs.destroy();
      json.close();

      // Nothing refused was stored half-way; everything acknowledged is there after a restart.
      const restarted = await server.restart();
      try {
        const texts = (await client(restarted.url).get(`/json/${id}`)).body.texts
          .map((t: any) => t.content.slice(0, 20))
          .sort();
        expect(texts).toEqual(
          ['after recovery', 'frame after recovery', 'stored before the di', 'yjs xxxxxxxxxxxxxxxx'].sort(),
        );
      } finally {
        await restarted.close();
      }
    } finally {
      await server.close();
    }
  });
  it('a refused commit that held writes to several boards: each board keeps exactly what was acknowledged', async () => {
    const server = await startServer({ STORE_DEBOUNCE_MS: '60000', STORE_MAX_DEBOUNCE_MS: '60000' });
    try {
      const api = client(server.url);
      const boards: string[] = [];
      for (let i = 0; i < 4; i++) {
        const { id } = (await api.post('/api/boards')).body;
        await api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'stored before' });
        boards.push(id);
      }
      const contents = async (url: string, id: string) =>
        (await client(url).get(`/json/${id}`)).body.texts
          .map((text: { content: string }) => text.content.slice(0, 20))
          .sort();
      const restore = fillDisk((server.server.store as SqliteStore).db);
      // Sent together, so that they share a transaction: the big one makes SQLite give up on all of it, the small ones
      // before it included, whose documents must then drop what the commit did not store.
      const answers = await Promise.all(
        boards.map((id, i) =>
          api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: i === 2 ? big('refused') : `small ${i}` }),
        ),
      );
      restore();
      expect(answers[2].status).toBe(503);
      const expected = (i: number) => ['stored before', ...(answers[i].status === 200 ? [`small ${i}`] : [])].sort();
      for (const [i, id] of boards.entries()) expect(await contents(server.url, id)).toEqual(expected(i));
      const restarted = await server.restart();
      try {
        for (const [i, id] of boards.entries()) expect(await contents(restarted.url, id)).toEqual(expected(i));
      } finally {
        await restarted.close();
      }
    } finally {
      await server.close();
    }
  });
});
