/**
 * A Redis that hangs (SIGSTOP) or dies (SIGKILL) under the shared setup: the
 * instance sees it within 5 s (a timed ping) and says so in /readyz (200,
 * degraded) and /metrics, socket frames and Yjs updates under the default
 * rate limits are still acknowledged within about a second (their count is
 * decided by the instance itself), and the logs get a handful of JSON lines
 * with counts, not a stack per failed publish. Each test has a Redis of its
 * own; the file has a PostgreSQL of its own.
 */
import { execFileSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Spawned, spawnReady, tempDataDir, testEnv } from './helpers/child-server.js';
import { client } from './helpers/http.js';
import { scrape } from './helpers/metrics.js';
import { connectYjs, eventually, openJson } from './helpers/realtime.js';
import {
  type Service,
  throwawayPostgres,
  throwawayRedis,
  throwawayServicesAvailable,
} from './helpers/throwaway-services.js';

const services = throwawayServicesAvailable();

/** What a test started: stopped after it, whether it passed or not. */
const started = { servers: [] as Spawned[], redis: [] as Service[] };

async function redisOfOwn(): Promise<Service> {
  const redis = await throwawayRedis();
  started.redis.push(redis);
  return redis;
}

/** The process id of a throwaway Redis, to signal it. */
function redisPid(redis: Service): number {
  const { hostname, port } = new URL(redis.url);
  const info = execFileSync('redis-cli', ['-h', hostname, '-p', port, 'info', 'server']).toString();
  return Number(/process_id:(\d+)/.exec(info)![1]);
}

/** One instance of the shared setup in a child process, rate limits on (the default), its output kept. */
async function instance(redis: Service, databaseUrl: string, env: Record<string, string> = {}): Promise<Spawned> {
  const server = await spawnReady(
    'app/main.ts',
    testEnv(await tempDataDir(), {
      REDIS_URL: redis.url,
      DATABASE_URL: databaseUrl,
      REDIS_PREFIX: `health${Math.random().toString(36).slice(2, 8)}`,
      DATABASE_POOL_SIZE: '4',
      RATE_LIMITS: 'on',
      ...env,
    }),
    { captureOutput: true },
  );
  started.servers.push(server);
  return server;
}

/** A board with a JSON-channel client and a synced Yjs client on it. */
async function boardWithClients(url: string) {
  const { id } = (await client(url).post('/api/boards')).body;
  const json = await openJson(url, id);
  const yjs = connectYjs(url, id);
  await yjs.synced;
  const close = () => {
    json.close();
    yjs.destroy();
  };
  return { id, json, yjs, close };
}

/** Milliseconds until a mutation frame is acknowledged. */
async function frameAckMs(json: Awaited<ReturnType<typeof openJson>>, ref: string): Promise<number> {
  const sent = Date.now();
  json.send({ type: 'add_text', ref, x: 0, y: 0, content: ref });
  await json.next((frame) => frame.type === 'ack' && frame.ref === ref, 10_000);
  return Date.now() - sent;
}

/** Milliseconds until a Yjs update is acknowledged (the provider has nothing unsynced left). */
async function yjsAckMs(yjs: ReturnType<typeof connectYjs>, id: string): Promise<number> {
  const sent = Date.now();
  yjs.doc
    .getMap('texts')
    .set(id, { id, x: 0, y: 0, content: id, author: 'user:yjs', last_updated: new Date().toISOString() });
  await eventually(() => expect(yjs.provider.hasUnsyncedChanges).toBe(false), 10_000);
  return Date.now() - sent;
}

/** Milliseconds until /readyz answers the body expected. */
async function readyzWithin(url: string, body: object, timeoutMs: number): Promise<number> {
  const since = Date.now();
  await eventually(async () => expect((await client(url).get('/readyz')).body).toEqual(body), timeoutMs);
  return Date.now() - since;
}

/** The JSON lines an instance logged after its ready line (anything not JSON fails the parse). */
function loggedLines(server: Spawned): Record<string, unknown>[] {
  const lines = server.output().split('\n').filter(Boolean);
  const start = lines.findIndex((line) => line.includes('board service ready at'));
  return lines.slice(start + 1).map((line) => JSON.parse(line));
}

describe.skipIf(!services)('Redis faults under the shared setup', () => {
  let postgres: Service & { remove(): Promise<void> };
  beforeAll(async () => {
    postgres = await throwawayPostgres();
  }, 60_000);
  afterAll(() => postgres?.remove());
  afterEach(async () => {
    await Promise.all(started.servers.splice(0).map((server) => server.stop('SIGKILL')));
    for (const redis of started.redis.splice(0)) redis.stop();
  });

  it('a frozen Redis (SIGSTOP): degraded within 5 s, frames and Yjs updates acknowledged within a second, boards still load, ready again after SIGCONT', async () => {
    const redis = await redisOfOwn();
    const REDIS_PREFIX = 'frozen';
    // One after the other: two starting at once on a busy machine can miss the start timeout.
    const server = await instance(redis, postgres.url, { REDIS_PREFIX });
    const other = await instance(redis, postgres.url, { REDIS_PREFIX });
    const pid = redisPid(redis);
    let fresh: Awaited<ReturnType<typeof openJson>> | undefined;
    try {
      const { id, json, yjs, close } = await boardWithClients(server.url);
      expect((await client(server.url).get('/readyz')).body).toEqual({ status: 'ready' });
      process.kill(pid, 'SIGSTOP');
      const frozen = Date.now();
      try {
        // Before the ping has noticed: the shared counter's answer is awaited for a bounded time only.
        expect(await frameAckMs(json, 'unnoticed')).toBeLessThan(1_000);
        expect(await yjsAckMs(yjs, 'unnoticed-yjs')).toBeLessThan(1_000);
        await readyzWithin(server.url, { status: 'ready', degraded: ['redis'] }, 6_000);
        expect(Date.now() - frozen).toBeLessThan(5_000);
        // Known down: Redis is not asked at all.
        expect(await frameAckMs(json, 'known')).toBeLessThan(500);
        expect(await yjsAckMs(yjs, 'known-yjs')).toBeLessThan(1_000);
        const figures = await scrape(`${server.url}/metrics`);
        expect(figures.value('board_redis_up')).toBe(0);
        expect(figures.value('board_redis_local_decisions_total', { reason: 'no_answer' })).toBeGreaterThan(0);
        expect(figures.value('board_redis_local_decisions_total', { reason: 'redis_down' })).toBeGreaterThan(0);
        expect((await client(server.url).get(`/api/boards/${id}`)).status).toBe(200);
        // A board first loaded now loads without its Redis channel.
        const freshId = (await client(server.url).post('/api/boards')).body.id;
        const loading = Date.now();
        const written = client(server.url).post(`/api/boards/${freshId}/texts`, { x: 0, y: 0, content: 'frozen' });
        expect((await written).status).toBe(200);
        expect(Date.now() - loading).toBeLessThan(1_000);
        fresh = await openJson(server.url, freshId);
      } finally {
        process.kill(pid, 'SIGCONT');
      }
      await readyzWithin(server.url, { status: 'ready' }, 5_000);
      // It has its channel once Redis is back: an edit on the other instance reaches it.
      await sleep(300);
      const joined = fresh!;
      const onOther = await client(other.url).post(`/api/boards/${joined.snapshot.board.boardId}/texts`, {
        x: 1,
        y: 1,
        content: 'written on the other instance',
      });
      expect(onOther.status).toBe(200);
      await joined.next(
        (frame) => frame.type === 'op' && frame.item?.content === 'written on the other instance',
        3_000,
      );
      expect((await scrape(`${server.url}/metrics`)).value('board_redis_up')).toBe(1);
      expect(await frameAckMs(json, 'after')).toBeLessThan(1_000);
      close();
    } finally {
      process.kill(pid, 'SIGCONT'); // before afterEach stops it, which a frozen Redis would not answer
      fresh?.close();
    }
  }, 60_000);

  it('a killed Redis (SIGKILL) under 25 writes/s: degraded within 5 s, writes acknowledged, a handful of JSON log lines with counts (none at LOG_LEVEL=fatal)', async () => {
    const redis = await redisOfOwn();
    const logged = await instance(redis, postgres.url);
    const quiet = await instance(redis, postgres.url, { LOG_LEVEL: 'fatal' });
    const { json, yjs, close } = await boardWithClients(logged.url);
    // REST's limit is 60 writes per 10 s per board: the load is spread over boards.
    const boards = await Promise.all(
      [logged, logged, logged, quiet, quiet, quiet].map(async (server) => ({
        server,
        id: (await client(server.url).post('/api/boards')).body.id as string,
      })),
    );
    // Loaded before Redis goes (a board first loaded without Redis is the frozen test's).
    for (const { server, id } of boards)
      expect((await client(server.url).post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'loaded' })).status).toBe(
        200,
      );
    process.kill(redisPid(redis), 'SIGKILL');
    // Soft: the load and the logs below are checked whatever readiness said.
    await expect
      .soft(readyzWithin(logged.url, { status: 'ready', degraded: ['redis'] }, 5_000))
      .resolves.toBeTypeOf('number');
    expect.soft(await frameAckMs(json, 'killed')).toBeLessThan(1_000);
    expect.soft(await yjsAckMs(yjs, 'killed-yjs')).toBeLessThan(1_000);
    // About 25 writes/s on each instance for 5 s.
    const statuses: Promise<number>[] = [];
    for (let turn = 0; turn < 125; turn++) {
      for (const server of [logged, quiet]) {
        const { id } = boards.filter((board) => board.server === server)[turn % 3];
        statuses.push(
          client(server.url)
            .post(`/api/boards/${id}/texts`, { x: turn, y: 0, content: `write ${turn}` })
            .then((res) => res.status),
        );
      }
      await sleep(40);
    }
    expect(new Set(await Promise.all(statuses))).toEqual(new Set([200]));
    const figures = await scrape(`${logged.url}/metrics`);
    expect.soft(figures.value('board_redis_publish_failures_total', { kind: 'events' })).toBeGreaterThan(100);
    close();

    const faults = loggedLines(logged).filter((line) => typeof line.kind === 'string');
    expect(faults.length).toBeGreaterThan(0);
    expect(faults.length).toBeLessThanOrEqual(12);
    for (const line of faults) expect(line).toMatchObject({ level: 50, count: expect.any(Number) });
    expect(loggedLines(quiet)).toEqual([]);
  }, 60_000);
});
