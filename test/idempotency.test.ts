/**
 * Safe retries (docs/api.md "Idempotency-Key"): a write sent again with its
 * key answers its first answer and changes nothing more, on REST, MCP and
 * the JSON channel; another request under the same key is 422, one still
 * running 409, a malformed key 400. The shared-setup project runs this file
 * on PostgreSQL too.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { client } from './helpers/http.js';
import { connectMcp, refusalOf, rpcError } from './helpers/mcp.js';
import { openJson } from './helpers/realtime.js';
import { startServer, useServer } from './helpers/server.js';
import { freshClusterEnv, sharedServicesAvailable } from './helpers/shared-services.js';

const t = useServer();

const newBoard = async (body: object = {}) => (await t.api.post('/api/boards', body)).body.id as string;
const texts = async (boardId: string) => (await t.api.get(`/json/${boardId}`)).body.texts as { content: string }[];
const keyed = (key: string) => ({ 'idempotency-key': key });

describe('Idempotency-Key on REST writes', () => {
  it('answers a retry with the first answer, marked Idempotent-Replayed, and changes nothing more', async () => {
    const boardId = await newBoard();
    const key = randomUUID();
    const first = await t.api.post(`/api/boards/${boardId}/texts`, { x: 1, y: 2, content: 'once' }, keyed(key));
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await t.api.post(`/api/boards/${boardId}/texts`, { y: 2, content: 'once', x: 1 }, keyed(`"${key}"`));
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await texts(boardId)).map((text) => text.content)).toEqual(['once']);
  });

  it('refuses the same key with another request (422) and changes nothing', async () => {
    const boardId = await newBoard();
    const key = randomUUID();
    await t.api.post(`/api/boards/${boardId}/texts`, { x: 0, y: 0, content: 'first' }, keyed(key));
    const other = await t.api.post(`/api/boards/${boardId}/texts`, { x: 0, y: 0, content: 'second' }, keyed(key));
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('idempotency_key_reused');
    const otherRoute = await t.api.post(`/api/boards/${boardId}/title`, { title: 'x' }, keyed(key));
    expect(otherRoute.status).toBe(422);
    expect((await texts(boardId)).map((text) => text.content)).toEqual(['first']);
  });

  // Which of them find the first still running depends on timing (outcome-unknown.test.ts holds one for sure).
  it('runs a write sent many times at once with one key once; the others replay it or are refused 409', async () => {
    const boardId = await newBoard();
    const key = randomUUID();
    const body = { x: 0, y: 0, content: 'concurrent' };
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => t.api.post(`/api/boards/${boardId}/texts`, body, keyed(key))),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.every((status) => status === 200 || status === 409)).toBe(true);
    for (const answer of answers.filter((a) => a.status === 409))
      expect(answer.body.code).toBe('idempotency_key_in_use');
    const firsts = answers.filter((a) => a.status === 200 && a.headers.get('idempotent-replayed') === null);
    expect(firsts).toHaveLength(1);
    expect(await texts(boardId)).toHaveLength(1);
  });

  it.each([
    ['empty', ''],
    ['longer than 255 characters', 'k'.repeat(256)],
    ['holding a space', 'two words'],
    ['holding a non-ASCII character', 'cl\u00e9'],
  ])('refuses a key %s with 400 invalid_idempotency_key and changes nothing', async (_what, key) => {
    const boardId = await newBoard();
    const res = await t.api.post(`/api/boards/${boardId}/texts`, { x: 0, y: 0, content: 'no' }, keyed(key));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_idempotency_key');
    expect(await texts(boardId)).toEqual([]);
  });

  it('scopes keys per board: the same key on another board is another request', async () => {
    const [a, b] = [await newBoard(), await newBoard()];
    const key = randomUUID();
    for (const boardId of [a, b]) {
      const res = await t.api.post(`/api/boards/${boardId}/texts`, { x: 0, y: 0, content: 'x' }, keyed(key));
      expect(res.status).toBe(200);
      expect(res.headers.get('idempotent-replayed')).toBeNull();
    }
  });

  it('replays a board creation, its access key included, and creates one board', async () => {
    const key = randomUUID();
    const first = await t.api.post('/api/boards', { mode: 'todo', lock: 'all' }, keyed(key));
    expect(first.status).toBe(200);
    expect(first.body.access_key).toBeTruthy();
    const again = await t.api.post('/api/boards', { mode: 'todo', lock: 'all' }, keyed(key));
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const other = await t.api.post('/api/boards', { mode: 'draw' }, keyed(key));
    expect(other.status).toBe(422);
  });

  it('replays a lock with its key, and an erase after the board is gone', async () => {
    const boardId = await newBoard();
    const lockKey = randomUUID();
    const locked = await t.api.post(`/api/boards/${boardId}/lock`, { mode: 'write' }, keyed(lockKey));
    expect(locked.body.key).toBeTruthy();
    const relocked = await t.api.post(`/api/boards/${boardId}/lock`, { mode: 'write' }, keyed(lockKey));
    expect(relocked.headers.get('idempotent-replayed')).toBe('true');
    expect(relocked.body).toEqual(locked.body);

    const eraseKey = randomUUID();
    const headers = { ...keyed(eraseKey), 'x-board-key': locked.body.key };
    expect((await t.api.del(`/api/boards/${boardId}`, headers)).body).toEqual({ ok: true });
    const again = await t.api.del(`/api/boards/${boardId}`, headers);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await t.api.del(`/api/boards/${boardId}`, keyed(randomUUID()))).status).toBe(404);
  });

  it('a write without a key runs every time, as before', async () => {
    const boardId = await newBoard();
    for (let i = 0; i < 2; i++) await t.api.post(`/api/boards/${boardId}/texts`, { x: 0, y: 0, content: 'same' });
    expect(await texts(boardId)).toHaveLength(2);
  });
});

describe('_meta.idempotencyKey on MCP tools/call', () => {
  it('answers a retried call with its first result; another call under the key is refused', async () => {
    const mcp = await connectMcp(t.server.url);
    try {
      const boardId = await newBoard();
      const key = randomUUID();
      const call = (content: string) =>
        mcp.client.callTool({
          name: 'add_text',
          arguments: { board_id: boardId, x: 0, y: 0, content },
          _meta: { idempotencyKey: key },
        });
      const first = await call('agent');
      const again = await call('agent');
      expect(again.structuredContent).toEqual(first.structuredContent);
      expect(await texts(boardId)).toHaveLength(1);
      // A 2025 session answers a refusal that is no argument error as a JSON-RPC error with data.code.
      expect((await rpcError(call('other'))).data.code).toBe('idempotency_key_reused');
      const bad = await mcp.client.callTool({
        name: 'add_text',
        arguments: { board_id: boardId, x: 0, y: 0, content: 'x' },
        _meta: { idempotencyKey: '' },
      });
      expect(refusalOf(bad as { isError?: boolean; content?: unknown }).code).toBe('invalid_idempotency_key');
      expect(await texts(boardId)).toHaveLength(1);

      const create = () =>
        mcp.client.callTool({ name: 'create_board', arguments: { mode: 'todo' }, _meta: { idempotencyKey: key } });
      const created = (await create()).structuredContent as { board_id: string };
      expect(((await create()).structuredContent as { board_id: string }).board_id).toBe(created.board_id);
    } finally {
      await mcp.close();
    }
  });
});

describe('idempotencyKey on JSON-channel mutation frames', () => {
  it('acks a resent frame with its first ack and applies it once; refs are not keys', async () => {
    const boardId = await newBoard();
    const socket = await openJson(t.server.url, boardId);
    try {
      const key = randomUUID();
      const frame = { type: 'add_text', x: 0, y: 0, content: 'frame', idempotencyKey: key };
      socket.send({ ...frame, ref: 1 });
      const first = await socket.next((f) => f.type === 'ack' && f.ref === 1);
      socket.send({ ...frame, ref: 2 });
      const again = await socket.next((f) => f.type === 'ack' && f.ref === 2);
      expect(again.result).toEqual(first.result);
      socket.send({ ...frame, content: 'other', ref: 3 });
      expect(await socket.next((f) => f.ref === 3)).toMatchObject({ type: 'error', code: 'idempotency_key_reused' });
      socket.send({ ...frame, idempotencyKey: '', ref: 4 });
      expect(await socket.next((f) => f.ref === 4)).toMatchObject({ type: 'error', code: 'invalid_idempotency_key' });
      const batch = {
        type: 'batch',
        idempotencyKey: randomUUID(),
        ops: [{ type: 'add_text', x: 0, y: 0, content: 'b' }],
      };
      socket.send({ ...batch, ref: 'b1' });
      const batched = await socket.next((f) => f.type === 'ack' && f.ref === 'b1');
      socket.send({ ...batch, ref: 'b2' });
      expect((await socket.next((f) => f.type === 'ack' && f.ref === 'b2')).result).toEqual(batched.result);
      // Without a key, the same ref twice is two writes.
      socket.send({ type: 'add_text', x: 0, y: 0, content: 'plain', ref: 5 });
      socket.send({ type: 'add_text', x: 0, y: 0, content: 'plain', ref: 5 });
      const firstPlain = await socket.next((f) => f.type === 'ack' && f.ref === 5);
      await socket.next((f) => f.type === 'ack' && f.ref === 5, 5_000, socket.frames.indexOf(firstPlain) + 1);
      expect((await texts(boardId)).map((text) => text.content).sort()).toEqual(['b', 'frame', 'plain', 'plain']);
    } finally {
      socket.close();
    }
  });
});

describe.skipIf(!(await sharedServicesAvailable()))('across instances of the shared setup', () => {
  it('replays on one instance the answer another stored, and refuses another request under its key', async () => {
    const env = await freshClusterEnv();
    const [a, b] = await Promise.all([startServer(env), startServer(env)]);
    try {
      const [apiA, apiB] = [client(a.url), client(b.url)];
      const boardId = (await apiA.post('/api/boards', {})).body.id as string;
      const key = randomUUID();
      const body = { x: 5, y: 5, content: 'on a' };
      const first = await apiA.post(`/api/boards/${boardId}/texts`, body, keyed(key));
      const again = await apiB.post(`/api/boards/${boardId}/texts`, body, keyed(key));
      expect(again.status).toBe(200);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body).toEqual(first.body);
      expect((await apiB.post(`/api/boards/${boardId}/texts`, { ...body, x: 6 }, keyed(key))).status).toBe(422);
      expect((await apiB.get(`/json/${boardId}`)).body.texts).toHaveLength(1);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
