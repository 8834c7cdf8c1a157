/**
 * Two instances on a Redis and a PostgreSQL of the test's own, with Redis
 * killed (SIGKILL) under them: each catches up from PostgreSQL, which holds
 * every acknowledged write, so B's reads, its Yjs clients and its JSON-channel
 * clients keep up with A's writes, and a lock set on A stops B's writers.
 * Once Redis is back the relay takes over with no gap and no duplicate op.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildServer, startChildServer, tempDataDir } from './helpers/child-server.js';
import { client } from './helpers/http.js';
import { connectYjs, eventually, type JsonClient, openJson } from './helpers/realtime.js';
import {
  throwawayPostgres,
  throwawayRedis,
  throwawayServicesAvailable,
  type Service,
} from './helpers/throwaway-services.js';

const services = throwawayServicesAvailable();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Kills the Redis server at once, as a crash would (no goodbye to its clients). */
function killRedis(redis: Service): void {
  const port = new URL(redis.url).port;
  const info = execFileSync('redis-cli', ['-h', '127.0.0.1', '-p', port, 'info', 'server']).toString();
  const pid = Number(/process_id:(\d+)/.exec(info)![1]);
  process.kill(pid, 'SIGKILL');
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
  let a: ChildServer;
  let b: ChildServer;
  beforeAll(async () => {
    redis = await throwawayRedis();
    postgres = await throwawayPostgres();
    const env = {
      REDIS_URL: redis.url,
      DATABASE_URL: postgres.url,
      REDIS_PREFIX: 'catch-up',
      DATABASE_POOL_SIZE: '4',
    };
    [a, b] = await Promise.all([
      startChildServer(await tempDataDir(), env),
      startChildServer(await tempDataDir(), env),
    ]);
  }, 60_000);
  afterAll(async () => {
    for (const server of [a, b]) {
      server?.process.kill('SIGTERM');
      await server?.exited;
    }
    redis?.stop();
    await postgres?.remove();
  });

  it('B catches up with A from PostgreSQL, a lock on A stops B writers, and the relay takes over with no gap or duplicate', async () => {
    const { id } = (await client(a.url).post('/api/boards')).body;
    const locked = (await client(a.url).post('/api/boards')).body.id as string;
    const jsonOnB = await openJson(b.url, id);
    const jsonOnA = await openJson(a.url, id);
    const [yjsOnB, yjsOnA] = [connectYjs(b.url, id), connectYjs(a.url, id)];
    await Promise.all([yjsOnB.synced, yjsOnA.synced]);
    const writerOnB = await openJson(b.url, locked);
    const yjsWriterOnB = connectYjs(b.url, locked);
    await yjsWriterOnB.synced;
    const written: string[] = [await addText(a.url, id, 'before the fault')];
    await eventually(async () => expect(await textIds(b.url, id)).toEqual(written), 2_000);

    killRedis(redis);
    await sleep(300);
    // A's acknowledged writes show on B within about 2 s: its reads, its Yjs and JSON-channel clients.
    const delays: number[] = [];
    for (let i = 0; i < 4; i++) {
      const text = await addText(a.url, id, `written on A without Redis ${i}`);
      written.push(text);
      const answered = Date.now();
      await eventually(async () => expect(await textIds(b.url, id)).toContain(text), 2_500);
      delays.push(Date.now() - answered);
      await eventually(() => expect(yjsOnB.doc.getMap('texts').has(text)).toBe(true), 1_000);
      await jsonOnB.next((f) => f.type === 'op' && f.item?.id === text, 1_000);
    }
    // And B's writes reach A's clients the same way.
    const fromB = await addText(b.url, id, 'written on B without Redis');
    written.push(fromB);
    await eventually(() => expect(yjsOnA.doc.getMap('texts').has(fromB)).toBe(true), 2_500);
    console.log(`without Redis, A's write on B's /json after ${delays.join(', ')} ms`);

    // A lock set on A stops B's open writers, though no event can reach B.
    const lock = await client(a.url).post(`/api/boards/${locked}/lock`, { mode: 'write' });
    expect(lock.status).toBe(200);
    const lockedAt = Date.now();
    await eventually(() => expect(yjsWriterOnB.provider.authorizedScope).toBe('readonly'), 2_500);
    await eventually(async () => {
      writerOnB.send({ type: 'add_text', ref: `try-${Date.now()}`, x: 0, y: 0, content: 'after the lock' });
      const answer = await writerOnB.next((f) => f.type === 'error' || f.type === 'ack', 500, writerOnB.frames.length);
      expect(answer).toMatchObject({ type: 'error', code: 'board_locked' });
    }, 2_500);
    console.log(`without Redis, a lock set on A refused B's writers after ${Date.now() - lockedAt} ms`);

    // Redis comes back while both instances keep writing: nothing is missed, nothing comes twice.
    const writing = (async () => {
      for (let i = 0; i < 30; i++) {
        written.push(await addText(i % 2 ? a.url : b.url, id, `through the hand-over ${i}`));
        await sleep(150);
      }
    })();
    await sleep(1_000);
    redis.start();
    await writing;
    written.sort();
    await eventually(async () => {
      expect(await textIds(a.url, id)).toEqual(written);
      expect(await textIds(b.url, id)).toEqual(written);
      for (const yjs of [yjsOnA, yjsOnB]) expect([...yjs.doc.getMap('texts').keys()].sort()).toEqual(written);
      for (const json of [jsonOnA, jsonOnB]) expect([...opsPerItem(json).keys()].sort()).toEqual(written);
    }, 5_000);
    await sleep(500); // a late duplicate would arrive about now
    for (const json of [jsonOnA, jsonOnB]) for (const [, count] of opsPerItem(json)) expect(count).toBe(1);
    // The relay carries changes again.
    const after = await addText(a.url, id, 'relayed again');
    await jsonOnB.next((f) => f.type === 'op' && f.item?.id === after, 1_000);

    for (const json of [jsonOnA, jsonOnB, writerOnB]) json.close();
    for (const yjs of [yjsOnA, yjsOnB, yjsWriterOnB]) yjs.destroy();
  }, 60_000);
});
