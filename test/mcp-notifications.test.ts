import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, connectModernMcp, type McpClient, rpcError } from './helpers/mcp.js';
import { TEST_SETTLE_MS, useServer } from './helpers/server.js';

const t = useServer();
// The contract's settle ("about 3 s"), the server's default: the tests of its timing and of a burst's aggregation.
const real = useServer({ NOTIFICATION_SETTLE_MS: undefined, NOTIFICATION_MAX_WAIT_MS: undefined });
let mcp: McpClient;
let mcpReal: McpClient;

beforeAll(async () => {
  [mcp, mcpReal] = await Promise.all([connectMcp(t.server.url), connectMcp(real.server.url)]);
});
afterAll(() => Promise.all([mcp.close(), mcpReal.close()]));

const updatesFor = (uri: string, on = mcp) => on.updates.filter((update) => update === uri).length;

async function until(condition: () => boolean, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('not reached in time');
    await sleep(25);
  }
  return Date.now() - started;
}

describe.concurrent('resources/updated notifications', () => {
  it('one notification about 3 s after an edit through REST (the default settle)', async () => {
    const { board_id } = await mcpReal.call('create_board', {});
    const uri = `svc://board/${board_id}/state.json`;
    await mcpReal.client.subscribeResource({ uri });
    const started = Date.now();
    await real.api.post(`/api/boards/${board_id}/texts`, { x: 0, y: 0, content: 'from REST' });
    await until(() => updatesFor(uri, mcpReal) === 1, 6_000);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(2_500);
    expect(elapsed).toBeLessThan(5_000);
    await sleep(1_000);
    expect(updatesFor(uri, mcpReal)).toBe(1);
  });

  it('a burst of 20 edits gives one notification (the default settle)', async () => {
    const { board_id } = await mcpReal.call('create_board', {});
    const uri = `svc://board/${board_id}/state.json`;
    await mcpReal.client.subscribeResource({ uri });
    for (let i = 0; i < 20; i++) {
      await real.api.post(`/api/boards/${board_id}/strokes`, { points: [i, 0, i, 10] });
      await sleep(40);
    }
    await until(() => updatesFor(uri, mcpReal) >= 1, 6_000);
    await sleep(1_500);
    expect(updatesFor(uri, mcpReal)).toBe(1);
  });

  it('tasks.json of a todo board; edits through MCP count too; unsubscribe stops them', async () => {
    const { board_id } = await mcp.call('create_board', { mode: 'todo' });
    const uri = `svc://board/${board_id}/tasks.json`;
    await mcp.client.subscribeResource({ uri });
    const column = (await mcp.call('list_tasks', { board_id })).columns[0].id;
    await mcp.call('create_task', { board_id, column_id: column, name: 'heard' });
    await until(() => updatesFor(uri) === 1, 6_000);
    await mcp.client.unsubscribeResource({ uri });
    await mcp.call('create_task', { board_id, column_id: column, name: 'unheard' });
    await sleep(TEST_SETTLE_MS + 800); // past its settle, with the margin the default settle had
    expect(updatesFor(uri)).toBe(1);
  });

  it('open_board subscribes the session to state.json', async () => {
    const { id: board_id } = (await t.api.post('/api/boards')).body;
    await mcp.call('open_board', { board: board_id });
    await t.api.post(`/api/boards/${board_id}/links`, { x: 0, y: 0, url: 'https://heard.test' });
    await until(() => updatesFor(`svc://board/${board_id}/state.json`) === 1, 6_000);
  });

  it('preview.svg is not subscribable; a locked board needs its key to subscribe', async () => {
    const { board_id, access_key } = await mcp.call('create_board', { lock: 'all' });
    await expect(mcp.client.subscribeResource({ uri: `svc://board/${board_id}/preview.svg` })).rejects.toMatchObject({
      code: -32602,
    });
    // The creating session holds the key it was given; another agent's does not.
    const stranger = await connectMcp(t.server.url);
    try {
      await expect(
        stranger.client.subscribeResource({ uri: `svc://board/${board_id}/state.json` }),
      ).rejects.toMatchObject({ code: -32001 });
      await stranger.call('get_board', { board_id, access_key }); // the session now holds the key
      await stranger.client.subscribeResource({ uri: `svc://board/${board_id}/state.json` });
    } finally {
      await stranger.close();
    }
  });
});

describe('subscriptions/listen (2026-07-28) with URIs it cannot all subscribe', () => {
  it('subscribes the ones it can and leaves the refused ones out of its acknowledgment; refuses only when none passes', async () => {
    const modern = await connectModernMcp(t.server.url);
    try {
      const open = await modern.call('create_board', {});
      const locked = await modern.call('create_board', { lock: 'all' });
      const good = `svc://board/${open.board_id}/state.json`;
      const subscription = await modern.modern.listen({
        resourceSubscriptions: [
          `svc://board/${locked.board_id}/state.json`,
          good,
          `svc://board/${open.board_id}/preview.svg`,
          'svc://board/6f1d7a52-8f0e-4c8e-9d0c-3a4b5c6d7e8f/tasks.json',
        ],
      });
      try {
        expect(subscription.honoredFilter.resourceSubscriptions).toEqual([good]);
        await t.api.post(`/api/boards/${open.board_id}/texts`, { x: 0, y: 0, content: 'heard' });
        await until(() => modern.updates.includes(good), 8_000);
      } finally {
        await subscription.close();
      }
      await expect(
        modern.modern.listen({ resourceSubscriptions: [`svc://board/${locked.board_id}/state.json`] }),
      ).rejects.toMatchObject({ code: -32001 });
    } finally {
      await modern.close();
    }
  });
});

describe('the server instructions say how a refused call answers, truly for each era', () => {
  it('2026-07-28: an isError result; 2025: an isError result for bad arguments, a JSON-RPC error for a lock', async () => {
    const modern = await connectModernMcp(t.server.url);
    try {
      const { board_id } = await modern.call('create_board', { lock: 'write' });
      expect(modern.modern.getInstructions()).toContain('A refused call answers isError');
      expect((await modern.raw('add_text', { board_id, x: 0, y: 0, content: 'x' })).isError).toBe(true);
      const legacy = mcp.client.getInstructions()!;
      expect(legacy).not.toContain('A refused call answers isError');
      expect(legacy).toContain('JSON-RPC error with data.code');
      expect((await rpcError(mcp.call('add_text', { board_id, x: 0, y: 0, content: 'x' }))).data.code).toBe(
        'board_locked',
      );
      expect((await mcp.raw('add_text', { board_id, x: 'left', y: 0, content: 'x' })).isError).toBe(true);
    } finally {
      await modern.close();
    }
  });
});

describe.concurrent('long poll: MCP wait_for_update and GET /wait', () => {
  it('wait_for_update returns after the edit burst settles, with the new etag', async () => {
    const { board_id } = await mcp.call('create_board', {});
    const waiting = mcp.call('wait_for_update', { board_id, timeout_ms: 20_000 });
    await sleep(200);
    await t.api.post(`/api/boards/${board_id}/texts`, { x: 0, y: 0, content: 'wake up' });
    const result = await waiting;
    expect(result).toMatchObject({ boardId: board_id, updated: true, timedOut: false });
    expect(result.etag).toBe((await t.api.get(`/json/${board_id}`)).headers.get('etag'));
  });

  it('wait_for_update times out (timeout_ms clamped to at least 1000)', async () => {
    const { board_id } = await mcp.call('create_board', {});
    const started = Date.now();
    const result = await mcp.call('wait_for_update', { board_id, timeout_ms: 10 });
    expect(result).toMatchObject({ updated: false, timedOut: true, etag: expect.any(String) });
    expect(Date.now() - started).toBeGreaterThanOrEqual(990);
  });

  it('GET /wait returns on an edit burst and on timeout', async () => {
    const { id } = (await t.api.post('/api/boards')).body;
    const waiting = t.api.get(`/api/boards/${id}/wait?timeout_ms=20000`);
    await sleep(200);
    await t.api.post(`/api/boards/${id}/strokes`, { points: [0, 0, 1, 1] });
    const res = await waiting;
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual({
      boardId: id,
      updated: true,
      timedOut: false,
      etag: (await t.api.get(`/json/${id}`)).headers.get('etag'),
    });
    const timeout = await t.api.get(`/api/boards/${id}/wait?timeout_ms=1000`);
    expect(timeout.body).toMatchObject({ updated: false, timedOut: true });
    expect((await t.api.get(`/api/boards/${id}/wait?timeout_ms=soon`)).body).toMatchObject({
      code: 'invalid_payload',
      field: 'timeout_ms',
    });
  });

  it('a waiter on a board that is erased returns at once; lock rules apply', async () => {
    const { id } = (await t.api.post('/api/boards')).body;
    const started = Date.now();
    const waiting = t.api.get(`/api/boards/${id}/wait?timeout_ms=30000`);
    await sleep(200);
    await t.api.del(`/api/boards/${id}`);
    const res = await waiting;
    expect(res.body).toMatchObject({ boardId: id, updated: true, deleted: true });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect((await t.api.get(`/api/boards/${id}/wait?timeout_ms=1000`)).status).toBe(404);

    const locked = (await t.api.post('/api/boards', { lock: 'all' })).body;
    expect((await t.api.get(`/api/boards/${locked.id}/wait?timeout_ms=1000`)).status).toBe(401);
    expect(
      (await t.api.get(`/api/boards/${locked.id}/wait?timeout_ms=1000`, { 'x-board-key': locked.access_key })).body
        .timedOut,
    ).toBe(true);
  });
});
