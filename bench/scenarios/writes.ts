/**
 * Durable REST writes: `POST /texts` throughput and latency on one board and
 * spread over 100 boards, with the durability promise on, measured by
 * autocannon from this process against the server in another. Baseline: a bare
 * Fastify route parsing the same body with the same zod schema. The journal's
 * own cost is the same run with the journal off (for the figure only).
 */
import { rm } from 'node:fs/promises';
import autocannon from 'autocannon';
import { tempDataDir, testEnv } from '../../test/helpers/child-server.js';
import { spawnReady, spawnService, type Spawned } from '../lib/processes.js';
import type { Row, Section } from '../lib/report.js';
import { ms, percentile, ratio } from '../lib/stats.js';

const CONNECTIONS = 10;
/**
 * Load before each figure, on every server alike. After one second on a new set
 * of boards, V8 was still compiling and optimising the paths they take (about
 * 120 functions in the next second, 25 in the one after) on the cores the
 * figure is measured on, and from the third second on next to none
 * (bench/FINDINGS.md, the write path's tenth pass).
 */
const WARM_UP_SECONDS = 3;

type Load = { rps: number; p50: number; p99: number; errors: number };

/** Each board gets one text that the load updates in place, so the 500-text quota never stops it. */
export async function prepare(url: string, boards: number): Promise<{ path: string; id: string }[]> {
  const targets: { path: string; id: string }[] = [];
  for (let i = 0; i < boards; i++) {
    const board = await (await fetch(`${url}/api/boards`, { method: 'POST' })).json();
    const text = await (await fetch(`${url}/api/boards/${board.id}/texts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ x: 0, y: 0, content: 'start' }) })).json();
    targets.push({ path: `/api/boards/${board.id}/texts`, id: text.id });
  }
  return targets;
}

/**
 * autocannon's summary rounds latencies to whole milliseconds (its histogram),
 * which tells nothing under 1 ms: the percentiles are taken from each 2xx
 * response's own duration, which autocannon measures with hrtime and reports
 * in its 'response' event.
 */
export async function load(url: string, targets: { path: string; id: string }[], seconds: number, pick = (next: number) => next % targets.length): Promise<Load> {
  let next = 0;
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const options: autocannon.Options = {
      url,
      connections: CONNECTIONS,
      duration: seconds,
      requests: [
        {
          method: 'POST',
          setupRequest: (request) => {
            const target = targets[pick(next++)];
            return { ...request, path: target.path, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: target.id, x: next % 500, y: 10, content: `an edited note, revision ${next}` }) };
          },
        },
      ],
    };
    const run = autocannon(options, (error, done) => (error ? reject(error) : resolve(done)));
    run.on('response', (_client, status, _bytes, milliseconds) => {
      if (status >= 200 && status < 300) latencies.push(milliseconds);
    });
  });
  const sorted = latencies.sort((a, b) => a - b);
  return { rps: result.requests.average, p50: percentile(sorted, 50), p99: percentile(sorted, 99), errors: result.non2xx + result.errors };
}

export async function writesScenario(quick: boolean): Promise<Section> {
  const seconds = quick ? 3 : 10;
  const warmUp = quick ? 1 : WARM_UP_SECONDS;
  const dirs = [await tempDataDir(), await tempDataDir()];
  const started: Spawned[] = [];
  try {
    const ours = await spawnService(testEnv(dirs[0]));
    started.push(ours);
    const noJournal = await spawnService({ ...testEnv(dirs[1]), UNSAFE_NO_JOURNAL: '1' });
    started.push(noJournal);
    const bare = await spawnReady('bench/baselines/bare-fastify.ts');
    started.push(bare);
    const rows: Row[] = [];
    for (const boards of [1, 100]) {
      const targets = await prepare(ours.url, boards);
      const unsafeTargets = await prepare(noJournal.url, boards);
      const bareTargets = targets.map((target) => ({ ...target }));
      // The same warm-up for all three: a cold process measured after a warm one reads as slower than it is.
      await load(ours.url, targets, warmUp);
      await load(noJournal.url, unsafeTargets, warmUp);
      await load(bare.url, bareTargets, warmUp);
      const durable = await load(ours.url, targets, seconds);
      const unjournalled = await load(noJournal.url, unsafeTargets, seconds);
      const baseline = await load(bare.url, bareTargets, seconds);
      const label = boards === 1 ? 'one board' : '100 boards';
      rows.push(
        { measure: `${label}: throughput (req/s)`, ours: durable.rps.toFixed(0), baseline: baseline.rps.toFixed(0), ratio: `${((durable.rps / baseline.rps) * 100).toFixed(0)}% of baseline`, note: boards === 1 ? 'target at least 40%' : `${durable.errors} errors` },
        { measure: `${label}: latency p50 (ms)`, ours: ms(durable.p50), baseline: ms(baseline.p50), ratio: ratio(durable.p50, baseline.p50) },
        { measure: `${label}: latency p99 (ms)`, ours: ms(durable.p99), baseline: ms(baseline.p99), ratio: ratio(durable.p99, baseline.p99), note: 'target at most 3x' },
        { measure: `${label}: same writes with the journal off (req/s)`, ours: unjournalled.rps.toFixed(0), baseline: baseline.rps.toFixed(0), ratio: `journal costs ${((1 - durable.rps / unjournalled.rps) * 100).toFixed(0)}% of throughput`, note: 'figure only: without the journal a 2xx is not durable' },
      );
    }
    return {
      title: 'Durable REST writes',
      baseline: 'a bare Fastify route (its own process, like the service) that parses the same body with the same zod schema and answers the same JSON, with no document and no storage.',
      rows,
      notes: [
        `autocannon, ${CONNECTIONS} connections, ${seconds} s per figure after ${warmUp} s of the same load on each server, from the benchmark process to each server in its own process; rate limits off.`,
        "Latencies are each 2xx response's own duration as autocannon measures it (hrtime), not its summary's whole milliseconds.",
        'Each write updates one text in place (a Y transaction, a journal commit in SQLite WAL, the response); with 100 boards the writes rotate over them.',
      ],
    };
  } finally {
    for (const child of started) await child.stop();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  }
}
