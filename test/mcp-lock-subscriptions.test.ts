/**
 * A lock change reaches MCP subscriptions as it reaches open sockets: a 2025
 * session's `resources/subscribe` and a 2026-07-28 `subscriptions/listen`
 * made while a board was open are told nothing of edits made after an `all`
 * lock (on the instance that locked it, and on another one); a subscriber
 * that presented the right key keeps hearing through every re-lock, and a
 * `write` lock leaves every subscription alone (its reads stay public).
 */

import { setTimeout as sleep } from 'node:timers/promises';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from './helpers/http.js';
import { connectMcp, connectModernMcp, type McpClient } from './helpers/mcp.js';
import { eventually } from './helpers/realtime.js';
import { startServer, type TestServer } from './helpers/server.js';
import { freshClusterEnv } from './helpers/shared-services.js';

/** How long past the moment a keyed subscriber heard an edit the others are given to (wrongly) hear it too. */
const FAIR_WAIT_MS = 1_500;
/** An edit settles after the settle (NOTIFICATION_SETTLE_MS), and across instances the relay brings it first. */
const HEARD_WITHIN_MS = 10_000;

/** A fetch that keeps the text of every event stream it receives (a listen stream's frames, its end included). */
function tappedFetch(streamed: string[]): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (!response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) return response;
    const [tap, passed] = response.body.tee();
    void (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of tap) streamed.push(decoder.decode(chunk, { stream: true }));
    })().catch(() => {});
    return new Response(passed, response);
  };
}

/** A 2025 session that keeps the log messages it is sent. */
async function session(baseUrl: string): Promise<McpClient & { logs: any[] }> {
  const mcp = await connectMcp(baseUrl);
  const logs: any[] = [];
  mcp.client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    logs.push(notification.params);
  });
  return Object.assign(mcp, { logs });
}

/** A 2026-07-28 listen stream to `uris`, with every frame it was sent and how it ended. */
async function listener(baseUrl: string, uris: string[], headers: Record<string, string> = {}) {
  const streamed: string[] = [];
  const mcp = await connectModernMcp(baseUrl, { headers, fetch: tappedFetch(streamed) });
  const subscription = await mcp.modern.listen({ resourceSubscriptions: uris });
  let ended: string | undefined;
  void subscription.closed.then((cause) => {
    ended = cause;
  });
  return {
    mcp,
    /** The JSON-RPC answers to the listen request that its stream carried (an end says why in one). */
    answers: () =>
      streamed
        .join('')
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => JSON.parse(line.slice('data: '.length)))
        .filter((message) => 'id' in message),
    ended: () => ended,
    close: async () => {
      await subscription.close();
      await mcp.close();
    },
  };
}

/**
 * Subscribers on `listenOn` to a board made open on `lockOn`, which then locks
 * it `all` and edits it there, after re-locking it `write` and `all` again
 * with its key. Those that subscribed while it was open are refused at the
 * lock and hear nothing more; those that presented the key keep hearing.
 */
async function allLock(lockOn: string, listenOn: string): Promise<void> {
  const api = client(lockOn);
  const boardId = (await api.post('/api/boards')).body.id as string;
  const state = `svc://board/${boardId}/state.json`;
  const tasks = `svc://board/${boardId}/tasks.json`;

  const before = await session(listenOn);
  await before.client.subscribeResource({ uri: state });
  await before.client.subscribeResource({ uri: tasks });
  const beforeStream = await listener(listenOn, [state, tasks]);

  const { key } = (await api.post(`/api/boards/${boardId}/lock`, { mode: 'all' })).body;
  const keyed = { 'x-board-key': key };

  // Told once, each on its own wire, why it hears nothing more.
  await eventually(() => expect(before.logs).toHaveLength(1), HEARD_WITHIN_MS);
  expect(before.logs[0]).toMatchObject({
    level: 'warning',
    logger: 'subscriptions',
    data: { code: 'board_locked', lockMode: 'all', keyState: 'missing', uris: [state, tasks] },
  });
  await eventually(() => expect(beforeStream.ended()).toBe('remote'), HEARD_WITHIN_MS);
  expect(beforeStream.answers()).toMatchObject([
    {
      jsonrpc: '2.0',
      id: expect.anything(),
      error: {
        code: -32001,
        message: expect.stringMatching(/^No longer listening to .*state\.json.*X-Board-Key/),
        data: { code: 'board_locked', lockMode: 'all', keyState: 'missing', uris: [state, tasks] },
      },
    },
  ]);

  // Subscribers that present the key after the lock: a 2025 session remembers it from a tool call, a listen sends it in its header.
  const after = await session(listenOn);
  await after.call('get_board', { board_id: boardId, access_key: key });
  await after.client.subscribeResource({ uri: state });
  const afterStream = await listener(listenOn, [state], keyed);

  // Re-locks with a key that is still right leave them alone.
  expect((await api.post(`/api/boards/${boardId}/lock`, { mode: 'write' }, keyed)).status).toBe(200);
  expect((await api.post(`/api/boards/${boardId}/lock`, { mode: 'all' }, keyed)).status).toBe(200);
  expect(
    (await api.post(`/api/boards/${boardId}/texts`, { x: 0, y: 0, content: 'after the lock' }, keyed)).status,
  ).toBe(200);

  await eventually(() => {
    expect(after.updates).toContain(state);
    expect(afterStream.mcp.updates).toContain(state);
  }, HEARD_WITHIN_MS);
  await sleep(FAIR_WAIT_MS);
  expect(before.updates).toEqual([]);
  expect(beforeStream.mcp.updates).toEqual([]);
  expect(after.logs).toEqual([]);
  expect(afterStream.ended()).toBeUndefined();

  await Promise.all([before.close(), after.close(), beforeStream.close(), afterStream.close()]);
}

/** Subscribers on `listenOn` to a board made open on `lockOn`, which locks it `write` and edits it: they keep hearing. */
async function writeLock(lockOn: string, listenOn: string): Promise<void> {
  const api = client(lockOn);
  const boardId = (await api.post('/api/boards')).body.id as string;
  const state = `svc://board/${boardId}/state.json`;
  const before = await session(listenOn);
  await before.client.subscribeResource({ uri: state });
  const beforeStream = await listener(listenOn, [state]);

  const { key } = (await api.post(`/api/boards/${boardId}/lock`, { mode: 'write' })).body;
  const edit = { x: 0, y: 0, content: 'after a write lock' };
  expect((await api.post(`/api/boards/${boardId}/texts`, edit, { 'x-board-key': key })).status).toBe(200);

  await eventually(() => {
    expect(before.updates).toEqual([state]);
    expect(beforeStream.mcp.updates).toEqual([state]);
  }, HEARD_WITHIN_MS);
  expect(before.logs).toEqual([]);
  expect(beforeStream.ended()).toBeUndefined();
  await Promise.all([before.close(), beforeStream.close()]);
}

describe.concurrent('a lock change on one instance', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server?.close());

  it('an all lock refuses the subscriptions and listen streams made while the board was open: they hear no later edit, keyed ones do', async () => {
    await allLock(server.url, server.url);
  });

  it('a write lock leaves them alone: reads stay public', async () => {
    await writeLock(server.url, server.url);
  });
});

// The shared setup's run of this file (vitest.config.ts): two instances on one PostgreSQL database and one Redis.
describe.runIf(process.env.TEST_SHARED_SETUP === '1').concurrent('a lock change on another instance', () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    const env = await freshClusterEnv();
    [a, b] = await Promise.all([startServer(env), startServer(env)]);
  });
  afterAll(() => Promise.all([a?.close(), b?.close()]));

  it('an all lock set on A refuses the subscriptions and listen streams on B: they hear no later edit, keyed ones do', async () => {
    await allLock(a.url, b.url);
  });

  it('a write lock set on A leaves the ones on B alone', async () => {
    await writeLock(a.url, b.url);
  });
});
