import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from './helpers/http.js';
import { type ChildServer, startChildServer, tempDataDir } from './helpers/server.js';

let dataDir: string;
beforeAll(async () => {
  dataDir = await tempDataDir();
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

async function kill9(child: ChildServer): Promise<void> {
  child.process.kill('SIGKILL');
  await child.exited;
}

describe('durability: a 2xx survives kill -9 right after the response', () => {
  it('a single acknowledged write', async () => {
    // A long store debounce: nothing but the journal can have saved the write.
    const env = { STORE_DEBOUNCE_MS: '60000', STORE_MAX_DEBOUNCE_MS: '60000' };
    const first = await startChildServer(dataDir, env);
    const api = client(first.url);
    const id = (await api.post('/api/boards')).body.id;
    const res = await api.post(`/api/boards/${id}/texts`, { x: 1, y: 2, content: 'acknowledged' });
    expect(res.status).toBe(200);
    await kill9(first);

    const second = await startChildServer(dataDir, env);
    try {
      const snap = await client(second.url).get(`/json/${id}`);
      expect(snap.status).toBe(200);
      const { bbox: _box, created: _created, ...stored } = res.body; // the answer's box and created flag are not stored
      expect(snap.body.texts).toEqual([stored]);
    } finally {
      await kill9(second);
    }
  });

  it('every write of a concurrent burst, and the todo seed, survive', async () => {
    const env = { STORE_DEBOUNCE_MS: '60000', STORE_MAX_DEBOUNCE_MS: '60000' };
    const first = await startChildServer(dataDir, env);
    const api = client(first.url);
    const ids = await Promise.all([api.post('/api/boards'), api.post('/api/boards')]).then((r) =>
      r.map((x) => x.body.id),
    );
    const todo = (await api.post('/api/boards', { mode: 'todo' })).body.id;
    const writes = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        api.post(`/api/boards/${ids[i % 2]}/strokes`, { points: [i, i, i + 1, i + 1] }),
      ),
    );
    expect(writes.every((w) => w.status === 200)).toBe(true);
    const erased = await api.post(`/api/boards/${ids[0]}/texts`, { x: 0, y: 0, content: 'to erase' });
    await api.del(`/api/boards/${ids[0]}/texts/${erased.body.id}`);
    await kill9(first);

    const second = await startChildServer(dataDir, env);
    try {
      const api2 = client(second.url);
      const lines = (await Promise.all(ids.map((id) => api2.get(`/json/${id}`)))).flatMap((r) =>
        r.body.lines.map((l: any) => l.id),
      );
      expect(lines.sort()).toEqual(writes.map((w) => w.body.id).sort());
      expect((await api2.get(`/json/${ids[0]}`)).body.texts).toEqual([]);
      expect((await api2.get(`/json/${todo}`)).body.columns).toHaveLength(3);
    } finally {
      await kill9(second);
    }
  });

  it('SIGTERM stores every board and exits 0', async () => {
    const env = { STORE_DEBOUNCE_MS: '60000', STORE_MAX_DEBOUNCE_MS: '60000' };
    const first = await startChildServer(dataDir, env);
    const api = client(first.url);
    const id = (await api.post('/api/boards')).body.id;
    await api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'flushed' });
    first.process.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const { default: Database } = await import('better-sqlite3');
    const db = new Database(`${dataDir}/boards.sqlite`, { readonly: true });
    expect(db.prepare('SELECT count(*) AS n FROM journal WHERE name = ?').get(id)).toEqual({ n: 0 });
    expect(db.prepare('SELECT count(*) AS n FROM documents WHERE name = ?').get(id)).toEqual({ n: 1 });
    db.close();
  });
});
