/**
 * Durable REST writes: `POST /texts` throughput and latency on one board and
 * spread over 100 boards, with the durability promise on, measured by
 * autocannon from this process against the server in another. Baseline: a bare
 * Fastify route parsing the same body with the same zod schema. The journal's
 * own cost is the same run with the journal off (for the figure only).
 */
import { rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { NOTIFICATION_DEBOUNCE_MS } from '../../schema/limits.js';
import { tempDataDir, testEnv } from '../../test/helpers/child-server.js';
import { type Spawned, spawnReady, spawnService } from '../lib/processes.js';
import type { Row, Section } from '../lib/report.js';
import { ms, ratio, summarize } from '../lib/stats.js';

const CONNECTIONS = 10;
/** Load before each figure, on every server alike, until V8 has done optimising the paths the figure takes. */
const WARM_UP_SECONDS = 3;
/**
 * Turns each server takes, one after another, its figure's time split evenly
 * between them (as the MCP scenario does): a slow spell of this shared
 * machine, seconds long, then falls on every server's figure alike instead
 * of on one of them.
 */
const ROUNDS = 5;
/**
 * Unmeasured load before each turn: a server idle while the two others take
 * their turns serves its first second after the pause more slowly, and the
 * figure is of a server under steady load.
 */
const REWARM_SECONDS = 1;
/**
 * No server is loaded for this long before each turn. A server's turn ends its
 * boards' bursts, and what a burst leaves for later (the store 2 s after it,
 * the version recorded when it settles, NOTIFICATION_DEBOUNCE_MS after it)
 * would otherwise run on the cores while the next server takes its turn: the
 * bare route's among them.
 */
const BETWEEN_TURNS_MS = NOTIFICATION_DEBOUNCE_MS + 1_000;

type Load = { rps: number; p50: number; p99: number; errors: number };
type Samples = { rps: number; latencies: number[]; errors: number };

/** Each board gets one text that the load updates in place, so the 500-text quota never stops it. */
export async function prepare(url: string, boards: number): Promise<{ path: string; id: string }[]> {
  const targets: { path: string; id: string }[] = [];
  for (let i = 0; i < boards; i++) {
    const board = await (await fetch(`${url}/api/boards`, { method: 'POST' })).json();
    const text = await (
      await fetch(`${url}/api/boards/${board.id}/texts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ x: 0, y: 0, content: 'start' }),
      })
    ).json();
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
export async function load(
  url: string,
  targets: { path: string; id: string }[],
  seconds: number,
  pick = (next: number) => next % targets.length,
): Promise<Load> {
  return summarized(await loadSamples(url, targets, seconds, pick));
}

function summarized({ rps, latencies, errors }: Samples): Load {
  const { p50, p99 } = summarize(latencies);
  return { rps, p50, p99, errors };
}

/** The load's throughput and each 2xx response's latency, unsorted. */
async function loadSamples(
  url: string,
  targets: { path: string; id: string }[],
  seconds: number,
  pick = (next: number) => next % targets.length,
): Promise<Samples> {
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
            return {
              ...request,
              path: target.path,
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({
                id: target.id,
                x: next % 500,
                y: 10,
                content: `an edited note, revision ${next}`,
              }),
            };
          },
        },
      ],
    };
    const run = autocannon(options, (error, done) => (error ? reject(error) : resolve(done)));
    run.on('response', (_client, status, _bytes, milliseconds) => {
      if (status >= 200 && status < 300) latencies.push(milliseconds);
    });
  });
  return { rps: result.requests.average, latencies, errors: result.non2xx + result.errors };
}

/**
 * Each server's figure, taken in turns (ROUNDS of them, each after
 * BETWEEN_TURNS_MS of quiet and REWARM_SECONDS of unmeasured load): the mean
 * of its turns' throughputs, and the percentiles of all its turns' latencies
 * together.
 */
async function inTurns(
  servers: { url: string; targets: { path: string; id: string }[] }[],
  seconds: number,
  rounds: number,
): Promise<Load[]> {
  const pooled = servers.map(() => ({ rps: 0, latencies: [] as number[], errors: 0 }));
  for (let round = 0; round < rounds; round++) {
    for (const [i, { url, targets }] of servers.entries()) {
      await sleep(BETWEEN_TURNS_MS);
      await loadSamples(url, targets, REWARM_SECONDS);
      const turn = await loadSamples(url, targets, seconds / rounds);
      pooled[i].rps += turn.rps / rounds;
      pooled[i].errors += turn.errors;
      for (const latency of turn.latencies) pooled[i].latencies.push(latency);
    }
  }
  return pooled.map(summarized);
}

export async function writesScenario(quick: boolean): Promise<Section> {
  const seconds = quick ? 3 : 10;
  const warmUp = quick ? 1 : WARM_UP_SECONDS;
  const rounds = quick ? 1 : ROUNDS;
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
      const [durable, unjournalled, baseline] = await inTurns(
        [
          { url: ours.url, targets },
          { url: noJournal.url, targets: unsafeTargets },
          { url: bare.url, targets: bareTargets },
        ],
        seconds,
        rounds,
      );
      const label = boards === 1 ? 'one board' : '100 boards';
      rows.push(
        {
          measure: `${label}: throughput (req/s)`,
          ours: durable.rps.toFixed(0),
          baseline: baseline.rps.toFixed(0),
          ratio: `${((durable.rps / baseline.rps) * 100).toFixed(0)}% of baseline`,
          note: boards === 1 ? 'target at least 40%' : `${durable.errors} errors`,
        },
        {
          measure: `${label}: latency p50 (ms)`,
          ours: ms(durable.p50),
          baseline: ms(baseline.p50),
          ratio: ratio(durable.p50, baseline.p50),
        },
        {
          measure: `${label}: latency p99 (ms)`,
          ours: ms(durable.p99),
          baseline: ms(baseline.p99),
          ratio: ratio(durable.p99, baseline.p99),
          note: 'target at most 3x',
        },
        {
          measure: `${label}: same writes with the journal off (req/s)`,
          ours: unjournalled.rps.toFixed(0),
          baseline: baseline.rps.toFixed(0),
          ratio: `journal costs ${((1 - durable.rps / unjournalled.rps) * 100).toFixed(0)}% of throughput`,
          note: 'figure only: without the journal a 2xx is not durable',
        },
      );
    }
    return {
      title: 'Durable REST writes',
      baseline:
        'a bare Fastify route (its own process, like the service) that parses the same body with the same zod schema and answers the same JSON, with no document and no storage.',
      rows,
      notes: [
        `autocannon, ${CONNECTIONS} connections, ${seconds} s per figure after ${warmUp} s of the same load on each server, from the benchmark process to each server in its own process; rate limits off.`,
        `The three servers take their figures in ${rounds} turn${rounds === 1 ? '' : 's'} of ${seconds / rounds} s, one server after another, each turn after ${BETWEEN_TURNS_MS / 1000} s with no server loaded (what the turn before left for later, stores and versions, is done) and ${REWARM_SECONDS} s of the same load unmeasured: throughput is the mean of a server's turns, latencies are all its turns' together.`,
        "Latencies are each 2xx response's own duration as autocannon measures it (hrtime), not its summary's whole milliseconds.",
        'Each write updates one text in place (a Y transaction, a journal commit in SQLite WAL, the response); with 100 boards the writes rotate over them.',
      ],
    };
  } finally {
    for (const child of started) await child.stop();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  }
}
