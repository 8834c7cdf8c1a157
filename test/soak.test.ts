/**
 * A bounded soak: hundreds of boards and WebSocket clients, writes near the rate
 * limits, for SOAK_SECONDS (30 by default; set it higher for a longer run).
 * Memory must level off, idle boards must unload, the event loop must stay
 * responsive, and the rate limit must hold under concurrency.
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_BOARD_STANDARD } from '../schema/index.js';
import { client } from './helpers/http.js';
import { scrape } from './helpers/metrics.js';
import { connectJson, connectYjs, eventually, type JsonClient, type YjsClient } from './helpers/realtime.js';
import { type ChildServer, startChildServer, tempDataDir } from './helpers/server.js';

const SOAK_MS = Number(process.env.SOAK_SECONDS ?? 30) * 1000;
const BOARDS = 200;
const HOT_BOARDS = 10;
const YJS_CLIENTS = 100;
const COOL_WRITES_PER_ROUND = 20;

let dataDir: string;
let server: ChildServer;

beforeAll(async () => {
  dataDir = await tempDataDir();
  server = await startChildServer(dataDir, {
    RATE_LIMITS: 'on',
    TRUST_PROXY: 'true',
    STORE_DEBOUNCE_MS: '200',
    STORE_MAX_DEBOUNCE_MS: '1000',
    KEEP_LOADED_MS: '1000',
  });
});
afterAll(async () => {
  server.process.kill('SIGTERM');
  await server.exited;
  await rm(dataDir, { recursive: true, force: true });
});

describe('soak', () => {
  it(
    `${BOARDS} boards, ${2 * BOARDS + YJS_CLIENTS} WebSocket clients, writes near the limits: memory levels off, idle boards unload, the loop stays responsive`,
    async () => {
      const api = client(server.url);
      // Each scrape answers for the second since the last: prom-client resets its event-loop histogram then.
      const figures = async () => {
        const metrics = await scrape(`${server.url}/metrics`);
        return {
          rssBytes: metrics.value('process_resident_memory_bytes'),
          loadedBoards: metrics.value('board_loaded_boards'),
          loopDelayP99Ms: metrics.value('nodejs_eventloop_lag_p99_seconds') * 1000,
        };
      };
      // Each board is created from its own address (behind the trusted-proxy setting) so creation limits do not interfere.
      const boards: string[] = [];
      for (let i = 0; i < BOARDS; i++)
        boards.push(
          (await api.post('/api/boards', undefined, { 'x-forwarded-for': `10.9.${i >> 8}.${i & 255}` })).body.id,
        );
      // Two JSON clients per board, each from its own address (one client IP may hold 128 sockets).
      const json: JsonClient[] = await Promise.all(
        [...boards, ...boards].map((id, i) =>
          connectJson(server.url, id, { headers: { 'x-forwarded-for': `10.8.${i >> 8}.${i & 255}` } }),
        ),
      );
      const yjs: YjsClient[] = boards.slice(0, YJS_CLIENTS).map((id) => connectYjs(server.url, id));
      await Promise.all(yjs.map((c) => c.synced));

      const samples: number[] = [];
      const loopDelays: number[] = [];
      let written = 0;
      let refused = 0;
      const started = Date.now();
      const sampler = setInterval(async () => {
        const sample = await figures();
        samples.push(sample.rssBytes);
        loopDelays.push(sample.loopDelayP99Ms);
      }, 1000);
      // Hot boards get about 5 writes a second (the limit is 6), the others one every couple of seconds between them.
      while (Date.now() - started < SOAK_MS) {
        const round = Date.now();
        const targets = [
          ...boards.slice(0, HOT_BOARDS),
          ...Array.from(
            { length: COOL_WRITES_PER_ROUND },
            () => boards[HOT_BOARDS + Math.floor(Math.random() * (BOARDS - HOT_BOARDS))],
          ),
        ];
        const results = await Promise.all(
          targets.map((id, i) =>
            api.post(`/api/boards/${id}/strokes`, { points: [i, 0, i + 5, 5, i + 10, 0], color: 'blue' }),
          ),
        );
        for (const res of results) res.status === 200 ? written++ : refused++;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, 200 - (Date.now() - round))));
      }
      clearInterval(sampler);
      loopDelays.sort((a, b) => a - b);
      const loopDelayP99Ms = loopDelays[Math.floor(loopDelays.length * 0.9)];
      expect(written).toBeGreaterThan((SOAK_MS / 1000) * 50);
      expect(refused).toBe(0);

      // Memory levels off after warm-up: the last third stays near the first.
      const third = Math.max(1, Math.floor(samples.length / 3));
      const warm = Math.max(...samples.slice(0, third));
      const late = Math.max(...samples.slice(-third));
      console.log(
        `soak: ${written} writes in ${SOAK_MS / 1000} s; RSS after warm-up ${(warm / 2 ** 20).toFixed(0)} MiB, at the end ${(late / 2 ** 20).toFixed(0)} MiB; event-loop delay p99 in 9 seconds of 10: ${loopDelayP99Ms.toFixed(0)} ms, worst second ${loopDelays.at(-1)?.toFixed(0)} ms`,
      );
      expect(late).toBeLessThan(warm * 1.3 + 30 * 2 ** 20);
      expect(loopDelayP99Ms).toBeLessThan(200);

      // Every acknowledged write reached every JSON client of its board.
      const perBoard = await Promise.all(
        boards.slice(0, HOT_BOARDS).map(async (id) => (await api.get(`/json/${id}`)).body.lines.length),
      );
      await new Promise((resolve) => setTimeout(resolve, 500)); // the last op frames are on their way
      for (const [i, c] of json.slice(0, HOT_BOARDS).entries())
        expect(c.frames.filter((f) => f.type === 'op').length).toBe(perBoard[i]);

      // Idle boards unload once everyone has gone.
      for (const c of json) c.close();
      for (const c of yjs) c.destroy();
      await eventually(async () => expect((await figures()).loadedBoards).toBe(0), 10_000);
    },
    SOAK_MS + 60_000,
  );

  it('the per-board limit holds under concurrency: of 100 simultaneous requests exactly 60 pass', async () => {
    const api = client(server.url);
    const { id } = (await api.post('/api/boards', undefined, { 'x-forwarded-for': '10.99.0.1' })).body;
    const results = await Promise.all(Array.from({ length: 100 }, () => api.get(`/json/${id}`)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(RATE_BOARD_STANDARD);
    expect(results.filter((r) => r.status === 429)).toHaveLength(100 - RATE_BOARD_STANDARD);
  });
});
