/**
 * Time: what happens as the clock moves on. Tombstones keep their marker for
 * exactly 30 days and then leave an id that only MCP open_board can bring back;
 * idle MCP sessions close; rate-limit windows end and are swept, and only the
 * ended ones. The server's clock is controlled by the test (MCP sessions count
 * real idle time, so that part waits for real).
 */

import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { boardMaps } from '../board/model/document-model.js';
import { RATE_BOARD_STANDARD, RATE_CREATE_STANDARD } from '../schema/index.js';
import { DATABASE_FILE } from '../store/sqlite/database.js';
import { type Client, client } from './helpers/http.js';
import { connectMcp, type McpClient, rpcError } from './helpers/mcp.js';
import { connectJson, connectYjs, eventually, openJson } from './helpers/realtime.js';
import { startServer, type TestServer } from './helpers/server.js';

const DAY_MS = 86_400_000;
let now = Date.parse('2026-01-01T00:00:00Z');
let original: TestServer;
let server: TestServer;
let api: Client;
let mcp: McpClient;

beforeAll(async () => {
  // Rate limits on: their windows are under test too. The tests that count requests first move the clock
  // a minute on, past every window an earlier test opened.
  // A long store debounce keeps an erased board's copy loaded while the clock jumps 30 days (see the reuse test).
  const env = {
    RATE_LIMITS: 'on',
    MCP_SESSION_IDLE_MS: '1000',
    STORE_DEBOUNCE_MS: '60000',
    STORE_MAX_DEBOUNCE_MS: '60000',
  };
  original = server = await startServer(env, { now: () => now });
  api = client(server.url);
  mcp = await connectMcp(server.url);
});
afterAll(async () => {
  await mcp.close();
  await server.close();
  await original.close(); // a restarted server keeps the DATA_DIR; the first one removes it
});

/** The texts a crash right now would leave: the stored state plus the journal, read from the SQLite file. */
function storedTexts(dataDir: string, boardId: string): unknown[] {
  const db = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
  try {
    const doc = new Y.Doc();
    const state = db.prepare('SELECT data FROM documents WHERE name = ?').get(boardId) as { data: Buffer } | undefined;
    if (state) Y.applyUpdate(doc, state.data);
    for (const row of db.prepare('SELECT "update" AS u FROM journal WHERE name = ? ORDER BY seq').all(boardId) as {
      u: Buffer;
    }[])
      Y.applyUpdate(doc, row.u);
    expect(doc.store.pendingStructs, 'journal entries whose dependencies are not stored').toBeNull();
    return [...boardMaps(doc).texts.values()];
  } finally {
    db.close();
  }
}

describe('tombstones', () => {
  it('the deleted marker lasts exactly 30 days; from then on every surface answers 404', async () => {
    now += 60_000;
    const { id } = (await api.post('/api/boards')).body;
    await api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'soon gone' });
    const erasedAt = now;
    expect((await api.del(`/api/boards/${id}`)).status).toBe(200);

    now = erasedAt + 30 * DAY_MS - 1_000;
    expect((await api.get(`/api/boards/${id}`)).body).toEqual({ deleted: true, deleted_at: '2026-01-01 00:01:00' });
    expect((await rpcError(mcp.call('open_board', { board: id }))).data).toMatchObject({ code: 'board_deleted' });

    now = erasedAt + 30 * DAY_MS;
    for (const path of [`/api/boards/${id}`, `/json/${id}`, `/svg-preview/${id}`, `/api/boards/${id}/tasks.csv`]) {
      const res = await api.get(path);
      expect(res.status, path).toBe(404);
      expect(res.body.code, path).toBe('board_not_found');
    }
    expect((await api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'too late' })).status).toBe(404);
    expect((await api.del(`/api/boards/${id}`)).status).toBe(404);
    expect((await api.post(`/api/boards/${id}/lock`, { mode: 'write' })).status).toBe(404);
    await expect(connectJson(server.url, id)).rejects.toMatchObject({ status: 404 });
    const yjs = connectYjs(server.url, id);
    await expect(yjs.synced).rejects.toThrow(/board_not_found/);
    yjs.destroy();
    expect(await rpcError(mcp.call('get_board', { board_id: id }))).toMatchObject({
      code: -32602,
      data: { code: 'board_not_found' },
    });
    // POST /api/boards mints its own ids: an `id` in the body is no way back (it is an unknown key, refused).
    const created = await api.post('/api/boards', { id });
    expect(created.status).toBe(400);
    expect(created.body).toMatchObject({ code: 'invalid_payload', field: 'id' });
    expect((await api.get(`/json/${id}`)).status).toBe(404);
  });

  // Issue 18: a version's view is cached (versions never change); the reused id is a new board with a new history.
  it("a reused id never serves the erased board's versions, not even a view read and cached before the erase", async () => {
    now += 60_000;
    const { id } = (await api.post('/api/boards', {})).body;
    expect((await api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'old life' })).status).toBe(200);
    await api.get(`/api/boards/${id}/wait?timeout_ms=10000`); // the burst settles: it is a version
    const [old] = (await api.get(`/api/boards/${id}/versions`)).body.versions;
    const read = await api.get(`/api/boards/${id}/versions/${old.version}`);
    expect(read.status).toBe(200);
    expect(read.body.texts.map((text: { content: string }) => text.content)).toEqual(['old life']);
    expect((await api.get(`/api/boards/${id}/versions/${old.version}/svg-preview`)).status).toBe(200);
    expect((await api.del(`/api/boards/${id}`)).status).toBe(200);
    now += 31 * DAY_MS;
    expect(await mcp.call('open_board', { board: id })).toMatchObject({ board_id: id, created: true });
    expect((await api.get(`/api/boards/${id}/versions/${old.version}`)).status).toBe(404);
    expect((await api.get(`/api/boards/${id}/versions/${old.version}/svg-preview`)).status).toBe(404);
    expect((await api.get(`/api/boards/${id}/versions`)).body.versions).toEqual([]);
  });

  it('MCP open_board reuses an expired id: an empty, unlocked board, in memory, in storage and after a restart', async () => {
    now += 60_000;
    const { id, access_key } = (await api.post('/api/boards', { lock: 'write' })).body;
    const key = { 'x-board-key': access_key };
    expect((await api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'old life' }, key)).status).toBe(200);
    expect((await api.del(`/api/boards/${id}`, key)).status).toBe(200);
    now += 31 * DAY_MS;
    // Regression: the erased copy is still loaded, and writes to the reused id went into it. Their journal
    // entries built on structs whose stored state the reuse had deleted, so a kill -9 lost them.
    expect(server.server.hocuspocus.documents.has(id)).toBe(true);
    // REST never revives it, with or without the old key.
    expect((await api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'x' })).status).toBe(404);
    expect((await api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'x' }, key)).status).toBe(404);

    expect(await mcp.call('open_board', { board: id })).toMatchObject({
      board_id: id,
      created: true,
      mode: 'draw',
      locked: false,
      lock_mode: null,
    });
    expect((await api.get(`/api/boards/${id}`)).body).toEqual({
      texts: [],
      lines: [],
      images: [],
      shapes: [],
      frames: [],
    });
    const fresh = await api.post(`/api/boards/${id}/texts`, { x: 1, y: 1, content: 'new life' });
    expect(fresh.status).toBe(200);
    const { bbox: _box, created: _created, ...stored } = fresh.body; // the answer's box and created flag are not stored
    expect((await api.get(`/json/${id}`)).body.texts).toEqual([stored]);
    // What a kill -9 now would leave: the acknowledged write, and nothing of the old life.
    expect(storedTexts(server.dataDir, id)).toEqual([stored]);
    const json = await openJson(server.url, id);
    expect(json.snapshot.board.texts).toEqual([stored]);
    json.close();

    server = await server.restart();
    api = client(server.url);
    await mcp.close();
    mcp = await connectMcp(server.url);
    expect((await api.get(`/json/${id}`)).body.texts).toEqual([stored]);
    expect(await mcp.call('open_board', { board: id })).toMatchObject({ board_id: id, created: false });
  });
});

describe('MCP sessions (MCP_SESSION_IDLE_MS=1000, real time)', () => {
  it('a session idle for longer than the limit is closed by the sweep; a request or an open stream keeps one alive', async () => {
    const sessions = server.server.mcpSessions;
    const post = (sessionId: string) =>
      fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': sessionId,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
    // Closing the SDK client ends its stream but leaves its session on the server.
    const idle = await connectMcp(server.url);
    const idleId = idle.transport.sessionId!;
    await idle.close();
    const pinged = await connectMcp(server.url);
    const pingedId = pinged.transport.sessionId!;
    await pinged.close();
    const streaming = await connectMcp(server.url);
    const streamingId = streaming.transport.sessionId!;
    await eventually(() => {
      expect(sessions.get(idleId)?.openStreams).toBe(0);
      expect(sessions.get(pingedId)?.openStreams).toBe(0);
      expect(sessions.get(streamingId)?.openStreams).toBe(1);
    });

    await sleep(1_100);
    expect((await post(pingedId)).status).toBe(200);
    sessions.sweep();
    await eventually(() => expect(sessions.get(idleId)).toBeUndefined());
    expect(sessions.get(pingedId)).toBeDefined();
    const expired = await post(idleId);
    expect(expired.status).toBe(404);
    expect((await expired.json()).error.code).toBe(-32001);

    await sleep(1_100);
    sessions.sweep();
    await eventually(() => expect(sessions.get(pingedId)).toBeUndefined());
    // Idle for over two seconds too, but its notification stream is open.
    expect(sessions.get(streamingId)).toBeDefined();
    expect(await streaming.call('create_board', {})).toMatchObject({ mode: 'draw' });
    await streaming.close();
  });
});

describe('rate-limit windows', () => {
  it('a sweep drops the windows that ended and keeps the live ones, whose limits still hold', async () => {
    const limiter = server.server.limiter;
    now += 60_000;
    limiter.sweep();
    const start = now;
    const { id } = (await api.post('/api/boards')).body; // opens this IP's 60 s creation window
    for (let i = 0; i < RATE_BOARD_STANDARD; i++) expect((await api.get(`/json/${id}`)).status).toBe(200); // and the board's 10 s window
    expect((await api.get(`/json/${id}`)).status).toBe(429);
    expect(limiter.size).toBe(2);

    now = start + 9_999;
    limiter.sweep();
    expect(limiter.size).toBe(2);
    expect((await api.get(`/json/${id}`)).status).toBe(429);

    now = start + 10_000;
    limiter.sweep();
    expect(limiter.size).toBe(1); // the board's window went, the creation window stays
    for (let i = 1; i < RATE_CREATE_STANDARD; i++) expect((await api.post('/api/boards')).status).toBe(200);
    expect((await api.post('/api/boards')).status).toBe(429);

    now = start + 59_999;
    limiter.sweep();
    expect((await api.post('/api/boards')).status).toBe(429);
    now = start + 60_000;
    limiter.sweep();
    expect(limiter.size).toBe(0);
    expect((await api.post('/api/boards')).status).toBe(200);
  });
});
