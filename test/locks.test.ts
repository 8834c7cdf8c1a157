import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { hashKey } from '../host/access/keys.js';
import { DATABASE_FILE } from '../store/sqlite/database.js';
import { type Client, PNG_1PX } from './helpers/http.js';
import { connectYjs, eventually } from './helpers/realtime.js';
import { useServer } from './helpers/server.js';
import { writeBeside } from './helpers/sqlite-beside.js';

const t = useServer();

async function lockedBoard(mode: 'write' | 'all', boardMode: 'draw' | 'todo' = 'draw') {
  const { id } = (await t.api.post('/api/boards', { mode: boardMode })).body;
  const res = await t.api.post(`/api/boards/${id}/lock`, { mode });
  expect(res.status).toBe(200);
  return { id, key: res.body.key as string };
}

/** Every mutation route of the REST surface, for board `id` (draw items first, then kanban, then erase). */
function writes(id: string): [string, string, unknown][] {
  const b = `/api/boards/${id}`;
  return [
    ['POST', `${b}/texts`, { x: 0, y: 0, content: 't' }],
    ['POST', `${b}/strokes`, { points: [0, 0, 1, 1] }],
    ['POST', `${b}/lines`, { points: [0, 0, 1, 1] }],
    ['POST', `${b}/images`, { x: 0, y: 0, width: 1, height: 1, dataUrl: PNG_1PX }],
    ['POST', `${b}/links`, { x: 0, y: 0, url: 'https://a.test' }],
    ['POST', `${b}/texts/x/move`, { x: 1, y: 1 }],
    ['DELETE', `${b}/texts/x`, undefined],
    ['POST', `${b}/mode`, { mode: 'todo' }],
    ['POST', `${b}/column-width`, { width: 300 }],
    ['POST', `${b}/lanes`, { lane: 0, title: 'l' }],
    ['POST', `${b}/columns`, { title: 'c', sort: 0 }],
    ['POST', `${b}/tasks`, { column_id: 'x', name: 'n' }],
    ['POST', `${b}/tasks/x/move`, { column_id: 'x', sort: 0 }],
    ['DELETE', `${b}/columns/x`, undefined],
    ['DELETE', `${b}/tasks/x`, undefined],
    ['DELETE', b, undefined],
  ];
}

function reads(id: string): [string, string][] {
  return [
    ['GET', `/api/boards/${id}`],
    ['GET', `/json/${id}`],
    ['HEAD', `/json/${id}`],
    ['GET', `/json?board=${id}`],
    ['GET', `/api/boards/${id}/tasks.csv`],
    ['GET', `/api/boards/${id}/tasks.md`],
  ];
}

function send(api: Client, method: string, path: string, body: unknown, key?: string) {
  const headers: Record<string, string> = key === undefined ? {} : { 'x-board-key': key };
  if (body !== undefined) headers['content-type'] = 'application/json';
  return api.request(method, path, { body: body === undefined ? undefined : JSON.stringify(body), headers });
}

function expectLocked(res: { status: number; body: any; headers: Headers }, lockMode: string) {
  expect(res.status).toBe(401);
  expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
  if (res.body) expect(res.body).toMatchObject({ code: 'board_locked', locked: true, lockMode });
}

describe('POST /lock', () => {
  it('returns an 8-char [a-z0-9] key once; a re-lock with the key only changes the mode', async () => {
    const { id, key } = await lockedBoard('write');
    expect(key).toMatch(/^[a-z0-9]{8}$/);
    const relock = await t.api.post(`/api/boards/${id}/lock`, { mode: 'all' }, { 'x-board-key': key });
    expect(relock.status).toBe(200);
    expect(relock.body).toEqual({ mode: 'all' });
    expectLocked(await t.api.get(`/json/${id}`), 'all');
    expect((await t.api.get(`/json/${id}`, { 'x-board-key': key })).status).toBe(200);
  });

  it('re-lock without the key or with a wrong one is 403 and changes nothing', async () => {
    const { id, key } = await lockedBoard('write');
    for (const headers of [{}, { 'x-board-key': 'wrongkey' }] as Record<string, string>[]) {
      const res = await t.api.post(`/api/boards/${id}/lock`, { mode: 'all' }, headers);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('invalid_key');
    }
    expect((await t.api.get(`/json/${id}`)).status).toBe(200); // still only write-locked
    expect((await t.api.post(`/api/boards/${id}/verify-key`, { key })).body).toEqual({ ok: true });
  });

  it('keys come from a wide alphabet (no two boards share one)', async () => {
    const keys = new Set<string>();
    for (let i = 0; i < 20; i++) keys.add((await lockedBoard('write')).key);
    expect(keys.size).toBe(20);
    expect([...keys].join('')).toMatch(/[0-9]/);
  });

  it('validates the body and the board', async () => {
    const { id } = (await t.api.post('/api/boards')).body;
    expect((await t.api.post(`/api/boards/${id}/lock`, { mode: 'read' })).body).toMatchObject({
      code: 'invalid_payload',
      field: 'mode',
    });
    expect((await t.api.post(`/api/boards/${id}/lock`, {})).body.field).toBe('mode');
    expect((await t.api.post('/api/boards/00000000-0000-4000-8000-000000000000/lock', { mode: 'write' })).status).toBe(
      404,
    );
    expect((await t.api.post('/api/boards/nope/lock', { mode: 'write' })).body.code).toBe('invalid_board_id');
  });

  it('stores only the SHA-256 hash: the key is in no file of DATA_DIR', async () => {
    const { id, key } = await lockedBoard('all');
    const created = (await t.api.post('/api/boards', { lock: 'write' })).body;
    const db = new Database(join(t.server.dataDir, DATABASE_FILE), { readonly: true });
    const rows = db.prepare('SELECT id, key_hash FROM boards WHERE id IN (?, ?)').all(id, created.id) as {
      id: string;
      key_hash: string;
    }[];
    db.close();
    expect(Object.fromEntries(rows.map((r) => [r.id, r.key_hash]))).toEqual({
      [id]: hashKey(key),
      [created.id]: hashKey(created.access_key),
    });
    for (const file of await readdir(t.server.dataDir)) {
      const bytes = await readFile(join(t.server.dataDir, file));
      expect(bytes.includes(key), file).toBe(false);
      expect(bytes.includes(created.access_key), file).toBe(false);
    }
    // nor in any snapshot
    expect((await t.api.get(`/json/${id}`, { 'x-board-key': key })).text).not.toContain(key);
  });

  it('racing first locks: exactly one key is issued, the other call conflicts', async () => {
    let conflicts = 0;
    for (let round = 0; round < 10; round++) {
      const { id } = (await t.api.post('/api/boards')).body;
      const results = await Promise.all([
        t.api.post(`/api/boards/${id}/lock`, { mode: 'write' }),
        t.api.post(`/api/boards/${id}/lock`, { mode: 'all' }),
      ]);
      const winners = results.filter((r) => r.status === 200);
      expect(winners).toHaveLength(1);
      expect(winners[0].body.key).toMatch(/^[a-z0-9]{8}$/);
      const loser = results.find((r) => r.status !== 200)!;
      expect([409, 403]).toContain(loser.status);
      if (loser.status === 409) {
        conflicts++;
        expect(loser.body.code).toBe('lock_conflict');
      }
      // the winner's key is the one that works, and the lock mode is the winner's
      expect((await t.api.post(`/api/boards/${id}/verify-key`, { key: winners[0].body.key })).body).toEqual({
        ok: true,
      });
      expect((await t.api.get(`/json/${id}`)).status).toBe(winners[0].body.mode === 'all' ? 401 : 200);
    }
    expect(conflicts).toBeGreaterThan(0);
  });
});

describe('lock at creation', () => {
  it('POST /api/boards {lock} returns access_key once and locks at once', async () => {
    const res = await t.api.post('/api/boards', { lock: 'all', mode: 'todo' });
    expect(res.body).toEqual({
      id: expect.any(String),
      mode: 'todo',
      access_key: expect.stringMatching(/^[a-z0-9]{8}$/),
    });
    expectLocked(await t.api.get(`/json/${res.body.id}`), 'all');
    expect((await t.api.get(`/json/${res.body.id}`, { 'x-board-key': res.body.access_key })).body.columns).toHaveLength(
      3,
    );
    const imported = await t.api.post('/api/boards', {
      lock: 'write',
      content: { texts: [{ x: 0, y: 0, content: 'x' }] },
    });
    expect(imported.body).toMatchObject({ access_key: expect.any(String), imported: { texts: 1 } });
  });
});

describe('enforcement', () => {
  it('write lock: every read is open; every write needs the key', async () => {
    const { id, key } = await lockedBoard('write');
    for (const [method, path] of reads(id)) expect((await send(t.api, method, path, undefined)).status, path).toBe(200);
    for (const [method, path, body] of writes(id)) {
      expectLocked(await send(t.api, method, path, body), 'write');
      expectLocked(await send(t.api, method, path, body, 'wrongkey'), 'write');
    }
    for (const [method, path, body] of writes(id).slice(0, -1)) {
      const res = await send(t.api, method, path, body, key);
      expect(res.status, `${method} ${path}`).not.toBe(401);
      expect(res.status, `${method} ${path}`).toBeLessThan(500);
    }
    expect((await send(t.api, 'DELETE', `/api/boards/${id}`, undefined, key)).status).toBe(200);
  });

  it('all lock: reads need the key too', async () => {
    const { id, key } = await lockedBoard('all');
    for (const [method, path] of reads(id)) {
      expectLocked(await send(t.api, method, path, undefined), 'all');
      expectLocked(await send(t.api, method, path, undefined, 'wrongkey'), 'all');
      expect((await send(t.api, method, path, undefined, key)).status, path).toBe(200);
    }
    for (const [method, path, body] of writes(id)) expectLocked(await send(t.api, method, path, body), 'all');
  });

  it('legacy 6-character keys are accepted everywhere', async () => {
    const { id } = (await t.api.post('/api/boards')).body;
    const legacy = 'abc123';
    const db = new Database(join(t.server.dataDir, DATABASE_FILE));
    await writeBeside(db, "UPDATE boards SET lock_mode = 'all', key_hash = ? WHERE id = ?", hashKey(legacy), id);
    db.close();
    expectLocked(await t.api.get(`/json/${id}`), 'all');
    expect((await t.api.get(`/json/${id}`, { 'x-board-key': legacy })).status).toBe(200);
    expect(
      (await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'ok' }, { 'x-board-key': legacy })).status,
    ).toBe(200);
    expect((await t.api.post(`/api/boards/${id}/verify-key`, { key: legacy })).body).toEqual({ ok: true });
    expect((await t.api.post(`/api/boards/${id}/lock`, { mode: 'write' }, { 'x-board-key': legacy })).body).toEqual({
      mode: 'write',
    });
    expect((await t.api.post(`/api/boards/${id}/unlock`, undefined, { 'x-board-key': legacy })).body).toEqual({
      mode: null,
    });
  });

  it('an erased or unknown board answers the same 404 whether it was locked or not', async () => {
    const { id, key } = await lockedBoard('all');
    expect((await t.api.del(`/api/boards/${id}`, { 'x-board-key': key })).status).toBe(200);
    const erased = await t.api.get(`/json/${id}`);
    const unknown = await t.api.get('/json/00000000-0000-4000-8000-000000000001');
    expect(erased.status).toBe(404);
    expect({ ...erased.body, requestId: undefined }).toEqual({ ...unknown.body, requestId: undefined }); // each answer has its own request id
    expect((await t.api.get(`/api/boards/${id}`)).body).toMatchObject({ deleted: true });
    expect((await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'x' })).status).toBe(404);
  });
});

describe('open Yjs connections', () => {
  const text = (id: string, content: string) => ({
    id,
    x: 0,
    y: 0,
    content,
    author: 'user:y',
    last_updated: new Date().toISOString(),
  });
  const storedTexts = async (id: string, key: string) =>
    (await send(t.api, 'GET', `/json/${id}`, undefined, key)).body.texts
      .map((item: { content: string }) => item.content)
      .sort();

  it('follow lock changes at once: read-only under a write lock, writable once unlocked, refused under an all lock; the key holder is never interrupted', async () => {
    const { id } = (await t.api.post('/api/boards')).body;
    const guest = connectYjs(t.server.url, id);
    await guest.synced;
    expect(guest.provider.authorizedScope).toBe('read-write');

    const { key } = (await t.api.post(`/api/boards/${id}/lock`, { mode: 'write' })).body;
    await eventually(() => expect(guest.provider.authorizedScope).toBe('readonly'), 3_000);
    const owner = connectYjs(t.server.url, id, { token: key });
    await owner.synced;
    let ownerReconnects = 0;
    owner.provider.configuration.websocketProvider.on('open', () => ownerReconnects++);

    expect((await send(t.api, 'POST', `/api/boards/${id}/unlock`, undefined, key)).status).toBe(200);
    await eventually(() => expect(guest.provider.authorizedScope).toBe('read-write'), 3_000);
    expect(ownerReconnects).toBe(0); // writable before and after: left alone
    guest.doc.getMap('texts').set('g', text('g', 'guest, unlocked'));
    await eventually(async () => expect(await storedTexts(id, key)).toEqual(['guest, unlocked']), 3_000);

    const relocked = (await t.api.post(`/api/boards/${id}/lock`, { mode: 'all' })).body.key;
    await eventually(() => expect(guest.refusals).toContain('board_locked'), 3_000);
    const ownerAgain = connectYjs(t.server.url, id, { token: relocked });
    await ownerAgain.synced;
    ownerAgain.doc.getMap('texts').set('o', text('o', 'owner, all-locked'));
    await eventually(
      async () => expect(await storedTexts(id, relocked)).toEqual(['guest, unlocked', 'owner, all-locked']),
      3_000,
    );
    for (const client of [guest, owner, ownerAgain]) client.destroy();
  });
});

describe('POST /unlock and /verify-key', () => {
  it('unlock needs the key, then the board is open; unlocking an open board is a no-op', async () => {
    const { id, key } = await lockedBoard('all');
    for (const headers of [{}, { 'x-board-key': 'zzzzzzzz' }] as Record<string, string>[]) {
      const res = await t.api.post(`/api/boards/${id}/unlock`, undefined, headers);
      expect(res.status).toBe(403);
    }
    const res = await t.api.post(`/api/boards/${id}/unlock`, undefined, { 'x-board-key': key });
    expect(res.body).toEqual({ mode: null });
    expect((await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'open' })).status).toBe(200);
    expect((await t.api.post(`/api/boards/${id}/unlock`)).body).toEqual({ mode: null });
    // a new lock issues a new key
    const again = await t.api.post(`/api/boards/${id}/lock`, { mode: 'write' });
    expect(again.body.key).toMatch(/^[a-z0-9]{8}$/);
    expect(again.body.key).not.toBe(key);
  });

  it('verify-key answers {ok} and changes nothing; 400 on an unlocked board or a malformed key', async () => {
    const { id, key } = await lockedBoard('write');
    expect((await t.api.post(`/api/boards/${id}/verify-key`, { key })).body).toEqual({ ok: true });
    expect((await t.api.post(`/api/boards/${id}/verify-key`, { key: 'aaaaaaaa' })).body).toEqual({ ok: false });
    expect((await t.api.post(`/api/boards/${id}/verify-key`, { key: 'aaaaaa' })).body).toEqual({ ok: false });
    expect((await t.api.post(`/api/boards/${id}/verify-key`, { key: key.toUpperCase() })).body).toEqual({ ok: true }); // keys are case-insensitive
    for (const bad of ['short', 'UPPER-CA', 'toolongkey', 42]) {
      const res = await t.api.post(`/api/boards/${id}/verify-key`, { key: bad });
      expect(res.status).toBe(400);
      expect(res.body.field).toBe('key');
    }
    const open = (await t.api.post('/api/boards')).body.id;
    const res = await t.api.post(`/api/boards/${open}/verify-key`, { key: 'aaaaaaaa' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('board_not_locked');
    expect((await t.api.post(`/api/boards/${id}/verify-key`, { key })).body).toEqual({ ok: true });
  });
});
