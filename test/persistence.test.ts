import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { upsertImage } from '../board/mutations/draw.js';
import { DATABASE_FILE } from '../store/sqlite/database.js';
import { client, PNG_1PX, pngOfBytes } from './helpers/http.js';
import { startServer, TEST_CALLER, type TestServer } from './helpers/server.js';

const servers: TestServer[] = [];
afterEach(async () => {
  while (servers.length) await servers.pop()!.close();
});

async function started(env: Record<string, string> = {}) {
  const server = await startServer(env);
  servers.push(server);
  return server;
}

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function sqlite(dataDir: string) {
  return new Database(join(dataDir, DATABASE_FILE), { readonly: true });
}

describe('persistence', () => {
  it('a restart on the same DATA_DIR gives back exactly what was stored', async () => {
    const first = await started();
    const api = client(first.url);
    const draw = (await api.post('/api/boards')).body.id;
    const todo = (await api.post('/api/boards', { mode: 'todo', template: 'bugs' })).body.id;
    await api.post(`/api/boards/${draw}/texts`, { x: 1, y: 2, content: 'kept', postit: true });
    await api.post(`/api/boards/${draw}/strokes`, { points: [0, 0, 5, 5], color: 'red' });
    await api.post(`/api/boards/${draw}/images`, { x: 0, y: 0, width: 1, height: 1, dataUrl: PNG_1PX });
    await api.post(`/api/boards/${draw}/links`, { x: 9, y: 9, url: 'https://kept.test' });
    const before = await Promise.all([
      api.get(`/json/${draw}`),
      api.get(`/json/${todo}`),
      api.get(`/api/boards/${draw}`),
    ]);

    const second = await first.restart();
    servers.push(second);
    const api2 = client(second.url);
    const after = await Promise.all([
      api2.get(`/json/${draw}`),
      api2.get(`/json/${todo}`),
      api2.get(`/api/boards/${draw}`),
    ]);
    for (let i = 0; i < before.length; i++) {
      expect(after[i].status).toBe(200);
      expect(after[i].body).toEqual(before[i].body);
    }
    expect(after[0].headers.get('etag')).toBe(before[0].headers.get('etag'));
  });

  it('with the journal off (benchmarks only), an idle board is stored whole before it is unloaded', async () => {
    const server = await started({
      UNSAFE_NO_JOURNAL: '1',
      STORE_DEBOUNCE_MS: '50',
      STORE_MAX_DEBOUNCE_MS: '200',
      KEEP_LOADED_MS: '0',
    });
    const api = client(server.url);
    const id = (await api.post('/api/boards')).body.id;
    for (let i = 0; i < 5; i++) await api.post(`/api/boards/${id}/texts`, { x: i, y: i, content: `t${i}` });
    const before = await api.get(`/json/${id}`);
    expect(before.body.texts).toHaveLength(5);
    expect(await server.server.documents.journalLength(id)).toBe(0);

    await until(() => !server.server.hocuspocus.documents.has(id));
    expect((await api.get(`/json/${id}`)).body).toEqual(before.body);
  });

  it('idle boards are stored, compacted and unloaded, and load back unchanged', async () => {
    const server = await started({ STORE_DEBOUNCE_MS: '50', STORE_MAX_DEBOUNCE_MS: '200', KEEP_LOADED_MS: '0' });
    const api = client(server.url);
    const id = (await api.post('/api/boards')).body.id;
    for (let i = 0; i < 5; i++) await api.post(`/api/boards/${id}/texts`, { x: i, y: i, content: `t${i}` });
    const before = await api.get(`/json/${id}`);
    expect(server.server.hocuspocus.documents.has(id)).toBe(true);

    await until(() => !server.server.hocuspocus.documents.has(id));
    expect(await server.server.documents.journalLength(id)).toBe(0);
    const db = sqlite(server.dataDir);
    expect(db.prepare('SELECT count(*) AS n FROM documents WHERE name = ?').get(id)).toEqual({ n: 1 });
    db.close();

    const after = await api.get(`/json/${id}`);
    expect(after.body).toEqual(before.body);
    expect(after.headers.get('etag')).toBe(before.headers.get('etag'));
  });

  it('a read alone does not rewrite the stored state', async () => {
    const server = await started({ STORE_DEBOUNCE_MS: '20', STORE_MAX_DEBOUNCE_MS: '100', KEEP_LOADED_MS: '0' });
    const api = client(server.url);
    const id = (await api.post('/api/boards')).body.id;
    await api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'once' });
    await until(() => !server.server.hocuspocus.documents.has(id));
    const db = sqlite(server.dataDir);
    const rowid = () => db.prepare('SELECT rowid FROM documents WHERE name = ?').get(id);
    const stored = rowid();
    await api.get(`/json/${id}`);
    await until(() => !server.server.hocuspocus.documents.has(id));
    expect(rowid()).toEqual(stored);
    expect(await server.server.documents.journalLength(id)).toBe(0);
    db.close();
  });

  it('a small edit on a board holding 10 MB of images writes bytes, not megabytes', async () => {
    const server = await started({ STORE_DEBOUNCE_MS: '20', STORE_MAX_DEBOUNCE_MS: '100', KEEP_LOADED_MS: '0' });
    const api = client(server.url);
    const id = (await api.post('/api/boards')).body.id;
    await server.server.boards.write(id, TEST_CALLER, (w) => {
      for (let i = 0; i < 11; i++)
        upsertImage(w, { x: i, y: 0, width: 1, height: 1, dataUrl: pngOfBytes(921_600 - i) });
    });
    await until(() => !server.server.hocuspocus.documents.has(id));

    const text = await api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'a small edit' });
    expect(text.status).toBe(200);
    const db = sqlite(server.dataDir);
    const journal = db.prepare('SELECT sum(length("update")) AS bytes FROM journal WHERE name = ?').get(id) as {
      bytes: number;
    };
    expect(journal.bytes).toBeLessThan(2_000);
    await until(() => !server.server.hocuspocus.documents.has(id));
    const stored = db.prepare('SELECT length(data) AS bytes FROM documents WHERE name = ?').get(id) as {
      bytes: number;
    };
    expect(stored.bytes).toBeLessThan(20_000);
    db.close();
    // The payloads are still all there.
    const browser = await api.get(`/api/boards/${id}`);
    expect(browser.body.images).toHaveLength(11);
    expect(browser.body.images.every((image: any) => image.dataUrl.startsWith('data:image/png;base64,'))).toBe(true);
  });

  it('payloads of erased images are pruned once nobody is connected; erasing a board drops them all', async () => {
    const server = await started({ STORE_DEBOUNCE_MS: '20', STORE_MAX_DEBOUNCE_MS: '100', KEEP_LOADED_MS: '0' });
    const api = client(server.url);
    const id = (await api.post('/api/boards')).body.id;
    const keep = (await api.post(`/api/boards/${id}/images`, { x: 0, y: 0, width: 1, height: 1, dataUrl: PNG_1PX }))
      .body;
    const drop = (
      await api.post(`/api/boards/${id}/images`, { x: 0, y: 0, width: 1, height: 1, dataUrl: pngOfBytes(64) })
    ).body;
    await api.del(`/api/boards/${id}/images/${drop.id}`);
    await until(() => !server.server.hocuspocus.documents.has(id));
    const db = sqlite(server.dataDir);
    const count = () =>
      (db.prepare('SELECT count(*) AS n FROM image_blobs WHERE board_id = ?').get(id) as { n: number }).n;
    expect(count()).toBe(1);
    expect((await api.get(`/api/boards/${id}`)).body.images.map((i: any) => i.id)).toEqual([keep.id]);
    await api.del(`/api/boards/${id}`);
    expect(count()).toBe(0);
    db.close();
  });
});
