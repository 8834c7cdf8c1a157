/**
 * Two instances on a Redis and a PostgreSQL of the test's own, with Redis
 * killed (SIGKILL) under them, or A alone cut off from it: each catches up
 * from PostgreSQL, which holds every acknowledged write, so B's reads, its Yjs
 * clients and its JSON-channel clients keep up with A's writes, and a lock set
 * on A stops B's writers and ends B's MCP subscriptions that may no longer
 * read. Once Redis is back the relay takes over with no gap and no duplicate op.
 */
import { execFileSync } from 'node:child_process';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ChildServer,
  startChildServer,
  TEST_CLOCKS,
  TEST_SETTLE_MS,
  tempDataDir,
} from './helpers/child-server.js';
import { client } from './helpers/http.js';
import { connectMcp, connectModernMcp } from './helpers/mcp.js';
import { connectYjs, eventually, type JsonClient, openJson } from './helpers/realtime.js';
import {
  freePort,
  type Service,
  throwawayPostgres,
  throwawayRedis,
  throwawayServicesAvailable,
} from './helpers/throwaway-services.js';

const services = throwawayServicesAvailable();

/** The instances' clocks (test/helpers/child-server.ts): a catch-up tick, a heartbeat, the hand-over. */
const TICK_MS = Number(TEST_CLOCKS.CATCH_UP_INTERVAL_MS);
const HEARTBEAT_MS = Number(TEST_CLOCKS.RELAY_HEARTBEAT_MS);
const HAND_OVER_MS = Number(TEST_CLOCKS.RELAY_HAND_OVER_MS);

/** Kills the Redis server at once, as a crash would (no goodbye to its clients). */
function killRedis(redis: Service): void {
  const port = new URL(redis.url).port;
  const info = execFileSync('redis-cli', ['-h', '127.0.0.1', '-p', port, 'info', 'server']).toString();
  const pid = Number(/process_id:(\d+)/.exec(info)![1]);
  process.kill(pid, 'SIGKILL');
}

/** A TCP proxy to Redis that can cut every connection through it and refuse new ones, until healed. */
async function redisProxy(redis: Service) {
  const target = Number(new URL(redis.url).port);
  const port = await freePort();
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const heal = () =>
    new Promise<void>((resolve) => {
      server = createServer((downstream) => {
        const upstream = connect(target, '127.0.0.1');
        const end = () => {
          downstream.destroy();
          upstream.destroy();
        };
        for (const socket of [downstream, upstream]) {
          sockets.add(socket);
          socket.on('error', end).on('close', end);
        }
        downstream.pipe(upstream).pipe(downstream);
      });
      server.listen(port, '127.0.0.1', resolve);
    });
  const cut = () => {
    server?.close();
    for (const socket of sockets) socket.destroy();
    sockets.clear();
  };
  await heal();
  return { url: `redis://127.0.0.1:${port}`, cut, heal };
}

/** The ids of a board's texts as an instance serves them. */
async function textIds(url: string, boardId: string): Promise<string[]> {
  const res = await client(url).get(`/json/${boardId}`);
  expect(res.status).toBe(200);
  return (res.body.texts as { id: string }[]).map((text) => text.id).sort();
}

/** How many `op` frames a JSON-channel client got for each item id. */
function opsPerItem(json: JsonClient): Map<string, number> {
  const counts = new Map<string, number>();
  for (const frame of json.frames)
    if (frame.type === 'op' && frame.op === 'upsert') counts.set(frame.item.id, (counts.get(frame.item.id) ?? 0) + 1);
  return counts;
}

async function addText(url: string, boardId: string, content: string): Promise<string> {
  const res = await client(url).post(`/api/boards/${boardId}/texts`, { x: 0, y: 0, content });
  expect(res.status).toBe(200);
  return res.body.id;
}

describe.skipIf(!services)('two instances while Redis is down', () => {
  let redis: Service;
  let postgres: Service & { remove(): Promise<void> };
  let proxy: Awaited<ReturnType<typeof redisProxy>>;
  /** A reaches Redis through the proxy, B directly. */
  let a: ChildServer;
  let b: ChildServer;
  beforeAll(async () => {
    redis = await throwawayRedis();
    postgres = await throwawayPostgres();
    proxy = await redisProxy(redis);
    const env = { DATABASE_URL: postgres.url, REDIS_PREFIX: 'catch-up', DATABASE_POOL_SIZE: '4' };
    [a, b] = await Promise.all([
      startChildServer(await tempDataDir(), { ...env, REDIS_URL: proxy.url }),
      startChildServer(await tempDataDir(), { ...env, REDIS_URL: redis.url }),
    ]);
  }, 60_000);
  afterAll(async () => {
    for (const server of [a, b]) {
      // Throwaway data: a test that failed with Redis away need not wait for a clean shutdown.
      server?.process.kill('SIGKILL');
      await server?.exited;
    }
    proxy?.cut();
    redis?.stop();
    await postgres?.remove();
  });

  /**
   * The previous case's hand-over is over: B reads nothing from PostgreSQL until it misses A again. Once both
   * reach Redis again, B hears A within a heartbeat, catches up for the hand-over, and stops at its next tick.
   */
  async function handedOver() {
    for (const server of [a, b])
      await eventually(
        async () => expect((await client(server.url).get('/readyz')).body).toEqual({ status: 'ready' }),
        10_000,
      );
    await sleep(HEARTBEAT_MS + HAND_OVER_MS + 2 * TICK_MS + 500);
  }

  type Clients = Awaited<ReturnType<typeof watchers>>;

  /** Clients of a board on both instances, synced. */
  async function watchers(id: string) {
    const [jsonOnA, jsonOnB] = await Promise.all([openJson(a.url, id), openJson(b.url, id)]);
    const [yjsOnA, yjsOnB] = [connectYjs(a.url, id), connectYjs(b.url, id)];
    await Promise.all([yjsOnA.synced, yjsOnB.synced]);
    return {
      jsonOnA,
      jsonOnB,
      yjsOnA,
      yjsOnB,
      close() {
        for (const json of [jsonOnA, jsonOnB]) json.close();
        for (const yjs of [yjsOnA, yjsOnB]) yjs.destroy();
      },
    };
  }

  /** Both instances and every client hold exactly the written texts, each announced by one `op` frame. */
  async function converged(id: string, written: string[], clients: Clients) {
    const all = [...written].sort();
    await eventually(async () => {
      expect(await textIds(a.url, id)).toEqual(all);
      expect(await textIds(b.url, id)).toEqual(all);
      for (const yjs of [clients.yjsOnA, clients.yjsOnB])
        expect([...yjs.doc.getMap('texts').keys()].sort()).toEqual(all);
      for (const json of [clients.jsonOnA, clients.jsonOnB]) expect([...opsPerItem(json).keys()].sort()).toEqual(all);
    }, 5_000);
    await sleep(500); // a late duplicate would arrive about now
    for (const json of [clients.jsonOnA, clients.jsonOnB])
      for (const [, count] of opsPerItem(json)) expect(count).toBe(1);
  }

  /**
   * Writes on A, each seen by B's reads, Yjs and JSON-channel clients within
   * `withinMs`, then one on B seen by A's Yjs client: the ids written and how
   * long B's reads took to show each of A's writes.
   */
  async function writeAcross(id: string, clients: Clients, withinMs: number) {
    const written: string[] = [];
    const delays: number[] = [];
    for (let i = 0; i < 3; i++) {
      const text = await addText(a.url, id, `written on A ${i}`);
      written.push(text);
      const answered = Date.now();
      await eventually(async () => expect(await textIds(b.url, id)).toContain(text), withinMs);
      delays.push(Date.now() - answered);
      await eventually(() => expect(clients.yjsOnB.doc.getMap('texts').has(text)).toBe(true), 1_000);
      await clients.jsonOnB.next((f) => f.type === 'op' && f.item?.id === text, 1_000);
    }
    const fromB = await addText(b.url, id, 'written on B');
    written.push(fromB);
    await eventually(() => expect(clients.yjsOnA.doc.getMap('texts').has(fromB)).toBe(true), withinMs);
    return { written, delays };
  }

  /** Writes on A and B in turn while `during` runs (a fault healing): what was written. */
  async function writeThrough(id: string, during: () => Promise<void> | void): Promise<string[]> {
    const written: string[] = [];
    const writing = (async () => {
      for (let i = 0; i < 30; i++) {
        written.push(await addText(i % 2 ? a.url : b.url, id, `through the hand-over ${i}`));
        await sleep(150);
      }
    })();
    await sleep(1_000);
    await during();
    await writing;
    return written;
  }

  it('A cut off from Redis while B is not: each catches up with the other, and they converge once A is back', async () => {
    const { id } = (await client(a.url).post('/api/boards')).body;
    const clients = await watchers(id);
    proxy.cut();
    await sleep(300);
    // B's own connection is fine: it learns from A's missing heartbeats that A relays nothing.
    const { written, delays } = await writeAcross(id, clients, 4_000);
    console.log(`A cut off from Redis: A's write on B's /json after ${delays.join(', ')} ms`);

    written.push(...(await writeThrough(id, () => proxy.heal())));
    await converged(id, written, clients);
    clients.close();
  });

  it('A cut off from Redis locks a board all: the MCP subscriptions on B made while it was open hear nothing more, a keyed one does', async () => {
    await handedOver();
    const { id } = (await client(a.url).post('/api/boards')).body;
    const uri = `svc://board/${id}/state.json`;
    const session = await connectMcp(b.url);
    await session.client.subscribeResource({ uri });
    const stale = await connectModernMcp(b.url);
    const staleListen = await stale.modern.listen({ resourceSubscriptions: [uri] });
    proxy.cut();
    await sleep(300);

    const { key } = (await client(a.url).post(`/api/boards/${id}/lock`, { mode: 'all' })).body;
    const lockedAt = Date.now();
    // A read on B reads the locked record before B catches up: that must not hide the lock from its listeners.
    expect((await client(b.url).get(`/json/${id}`)).status).toBe(401);
    expect(await Promise.race([staleListen.closed, sleep(5_000).then(() => 'still open')])).toBe('remote');
    console.log(`without A's relay, a lock set on A ended B's listen stream after ${Date.now() - lockedAt} ms`);
    const keyed = await connectModernMcp(b.url, { headers: { 'x-board-key': key } });
    const keyedListen = await keyed.modern.listen({ resourceSubscriptions: [uri] });
    const edit = { x: 0, y: 0, content: 'after the lock' };
    expect((await client(a.url).post(`/api/boards/${id}/texts`, edit, { 'x-board-key': key })).status).toBe(200);
    await eventually(() => expect(keyed.updates).toContain(uri), 10_000);
    await sleep(TEST_SETTLE_MS + 1_000); // the others' settle of the same edit has long passed
    expect(session.updates).toEqual([]);
    expect(stale.updates).toEqual([]);

    await proxy.heal();
    await keyedListen.close();
    await Promise.all([session.close(), stale.close(), keyed.close()]);
  });

  it('A cut off from Redis erases a board: B closes its JSON channel, though a read on B saw the erasure first', async () => {
    await handedOver();
    const { id } = (await client(a.url).post('/api/boards')).body;
    const json = await openJson(b.url, id);
    proxy.cut();
    await sleep(300);
    expect((await client(a.url).request('DELETE', `/api/boards/${id}`)).status).toBe(200);
    const erasedAt = Date.now();
    expect((await client(b.url).get(`/json/${id}`)).status).toBe(404);
    expect(await json.next((f) => f.type === 'board_erased', 5_000)).toMatchObject({ boardId: id });
    console.log(`without A's relay, an erasure on A reached B's JSON channel after ${Date.now() - erasedAt} ms`);
    expect((await json.closed).code).toBeGreaterThanOrEqual(4000);
    await proxy.heal();
  });

  it('B catches up with A from PostgreSQL, a lock on A stops B writers, and the relay takes over with no gap or duplicate', async () => {
    const { id } = (await client(a.url).post('/api/boards')).body;
    const locked = (await client(a.url).post('/api/boards')).body.id as string;
    const clients = await watchers(id);
    const writerOnB = await openJson(b.url, locked);
    const yjsWriterOnB = connectYjs(b.url, locked);
    await yjsWriterOnB.synced;
    const before = await addText(a.url, id, 'before the fault');
    await eventually(async () => expect(await textIds(b.url, id)).toEqual([before]), 2_000);

    killRedis(redis);
    await sleep(300);
    // A's acknowledged writes show on B within about 2 s: its reads, its Yjs and JSON-channel clients.
    const { written, delays } = await writeAcross(id, clients, 2_500);
    written.push(before);
    console.log(`without Redis, A's write on B's /json after ${delays.join(', ')} ms`);

    // A long poll on B wakes for an edit on A to a board B has not loaded.
    const quiet = (await client(a.url).post('/api/boards')).body.id as string;
    const waiting = client(b.url).get(`/api/boards/${quiet}/wait?timeout_ms=10000`);
    await sleep(10 * TICK_MS); // B has read the board as it stands
    await addText(a.url, quiet, 'for the long poll');
    const edited = Date.now();
    expect((await waiting).body).toMatchObject({ updated: true, timedOut: false });
    console.log(`without Redis, a long poll on B woke ${Date.now() - edited} ms after an edit on A`);
    const loadedWithoutRedis = await openJson(b.url, quiet);

    // A lock set on A stops B's open writers, though no event can reach B.
    const lock = await client(a.url).post(`/api/boards/${locked}/lock`, { mode: 'write' });
    expect(lock.status).toBe(200);
    const lockedAt = Date.now();
    await eventually(() => expect(yjsWriterOnB.provider.authorizedScope).toBe('readonly'), 2_500);
    const yjsReadOnly = Date.now() - lockedAt;
    await eventually(async () => {
      writerOnB.send({ type: 'add_text', ref: `try-${Date.now()}`, x: 0, y: 0, content: 'after the lock' });
      const answer = await writerOnB.next((f) => f.type === 'error' || f.type === 'ack', 500, writerOnB.frames.length);
      expect(answer).toMatchObject({ type: 'error', code: 'board_locked' });
    }, 2_500);
    console.log(
      `without Redis, a lock set on A made B's Yjs writer read-only after ${yjsReadOnly} ms, refused its /ws frames by ${Date.now() - lockedAt} ms`,
    );

    // Redis comes back while both instances keep writing: nothing is missed, nothing comes twice.
    written.push(...(await writeThrough(id, () => redis.start())));
    await converged(id, written, clients);
    // Once handed over, the relay alone carries changes, to boards loaded before the fault and during it.
    await handedOver();
    for (const [board, json] of [
      [id, clients.jsonOnB],
      [quiet, loadedWithoutRedis],
    ] as const) {
      const after = await addText(a.url, board, 'relayed again');
      await json.next((f) => f.type === 'op' && f.item?.id === after, 1_000);
    }
    loadedWithoutRedis.close();

    clients.close();
    writerOnB.close();
    yjsWriterOnB.destroy();
  });
});
