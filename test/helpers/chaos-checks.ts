/**
 * What every chaos test checks once its fault is healed: nothing acknowledged
 * lost (on both instances and on a fresh third), convergence of every client
 * within a bound, no answer later than its bound, every refusal a known code.
 * Soft expectations, so that one run reports every check that fails.
 */

import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect } from 'vitest';
import {
  type ChaosCluster,
  type Instance,
  type Load,
  linesSince,
  MAX_LAG_MS,
  startChaosCluster,
  startLoad,
  stopInstance,
  timedFetch,
} from './chaos.js';
import { eventually } from './realtime.js';

/** The codes a refusal may carry while a dependency is away; never a bare 500. */
export const REFUSAL_CODES = ['storage_unavailable', 'outcome_unknown', 'rate_limited'];
/** No request, frame or /readyz waits longer than this for its answer. */
export const MAX_ANSWER_MS = 6_000;
/** Every client shows the final state within this after the writes stop. */
export const CONVERGENCE_MS = 5_000;

type Text = { id: string; content: string };

const textsOn = async (url: string, board: string): Promise<Text[]> => {
  const answer = await timedFetch(`${url}/json/${board}`, {}, 5_000);
  if (answer.status !== 200) throw new Error(`GET /json answered ${answer.status} ${answer.code}`);
  return answer.body.texts;
};

/** The ids of `wanted` that `view` lacks, as a line to read (a count and a few of them); null when none. */
function lacking(what: string, wanted: Iterable<string>, view: Set<string>): string | null {
  const missing = [...wanted].filter((id) => !view.has(id));
  return missing.length ? `${what} lacks ${missing.length}: ${missing.slice(0, 4).join(', ')}` : null;
}

/**
 * Stops the writers and checks the state that follows the heal. `unreachable`
 * names an instance that was down for a while (its clients' refused
 * connections are not hangs). Returns the figures to print.
 */
export async function checkAfterHeal(
  cluster: ChaosCluster,
  load: Load,
  { unreachable, convergeWithinMs = CONVERGENCE_MS }: { unreachable?: string; convergeWithinMs?: number } = {},
): Promise<{ convergedMs: number; maxRestMs: number; maxFrameMs: number; refusals: number; acknowledged: number }> {
  await load.stopWriting();
  const stopped = Date.now();
  const rest = load.rest.filter((write) => write.status >= 200 && write.status < 300);
  const frames = load.json.flatMap((writer) => writer.frames);
  const acked = [...rest.map((write) => write.id!), ...frames.filter((f) => f.outcome === 'ack').map((f) => f.id!)];
  const edits = load.yjs.flatMap((writer) => writer.edits);

  const expected = [...acked, ...edits];

  // Converged: both instances, both Yjs clients and both JSON clients show the same texts, which hold every acknowledged write and every Yjs edit.
  const differences = async (): Promise<string[]> => {
    const [onA, onB] = await Promise.all([textsOn(cluster.a.url, load.board), textsOn(cluster.b.url, load.board)]);
    const reference = new Set(onA.map((text) => text.id));
    const views: [string, Set<string>][] = [
      ['B /json', new Set(onB.map((text) => text.id))],
      ...load.yjs.map((writer, i): [string, Set<string>] => [`Yjs client ${i}`, writer.texts()]),
      ...load.json.map((writer, i): [string, Set<string>] => [`JSON client ${i}`, writer.view]),
    ];
    return [
      lacking('A /json', expected, reference),
      ...views.flatMap(([name, view]) => [
        lacking(name, reference, view),
        lacking(`A /json (beside ${name})`, view, reference),
      ]),
    ].filter((line): line is string => line !== null);
  };
  let converged = -1;
  try {
    await eventually(async () => {
      expect(await differences()).toEqual([]);
      converged = Date.now();
    }, convergeWithinMs);
  } catch {
    expect.soft(await differences(), `converged within ${convergeWithinMs} ms of the writes' end`).toEqual([]);
  }

  expect
    .soft(
      load.lags
        .filter((lag) => lag.missing.length > 0)
        .map(({ instance, missing }) => `${instance}: ${missing.length}`),
      `no read misses the other instance's writes acknowledged ${MAX_LAG_MS} ms before`,
    )
    .toEqual([]);
  const onA = await textsOn(cluster.a.url, load.board);
  expect.soft(new Set(onA.map((text) => text.content)).size, 'no text twice').toBe(onA.length);
  // storage_unavailable promises that nothing was changed (outcome_unknown is the code that does not).
  const stored = new Set(onA.map((text) => text.content));
  const refusedContents = [
    ...load.rest.filter((write) => write.code === 'storage_unavailable').map((write) => write.content),
    ...frames.filter((frame) => frame.code === 'storage_unavailable').map((frame) => frame.ref),
  ];
  expect
    .soft(
      refusedContents.filter((content) => stored.has(content)),
      'no write refused with storage_unavailable was stored',
    )
    .toEqual([]);
  const third = await cluster.third();
  try {
    const onC = new Set((await textsOn(third.url, load.board)).map((text) => text.id));
    expect
      .soft(lacking('a fresh instance', expected, onC), 'a fresh instance holds every acknowledged write and Yjs edit')
      .toBeNull();
  } finally {
    await stopInstance(third);
  }

  const answered = load.rest.filter((write) => write.status !== 0 || write.instance !== unreachable);
  expect
    .soft(
      answered.filter((write) => write.status === 0),
      'every REST write is answered',
    )
    .toEqual([]);
  const refused = load.rest.filter((write) => write.status >= 300);
  expect
    .soft(
      refused.filter((write) => !REFUSAL_CODES.includes(write.code ?? '')),
      'every REST refusal carries a known code',
    )
    .toEqual([]);
  const maxRestMs = Math.max(...answered.map((write) => write.ms));
  expect.soft(maxRestMs, 'the slowest REST answer (ms)').toBeLessThan(MAX_ANSWER_MS);

  expect
    .soft(
      frames.filter((frame) => frame.outcome === undefined),
      'every JSON-channel frame is answered (or its socket closed)',
    )
    .toEqual([]);
  expect
    .soft(
      frames.filter((frame) => frame.outcome === 'error' && !REFUSAL_CODES.includes(frame.code ?? '')),
      'every JSON-channel refusal carries a known code',
    )
    .toEqual([]);
  const maxFrameMs = Math.max(0, ...frames.map((frame) => frame.ms ?? 0));
  expect.soft(maxFrameMs, 'the slowest JSON-channel answer (ms)').toBeLessThan(MAX_ANSWER_MS);

  return {
    convergedMs: converged < 0 ? -1 : converged - stopped,
    maxRestMs,
    maxFrameMs,
    refusals: refused.length + frames.filter((frame) => frame.outcome === 'error').length,
    acknowledged: acked.length,
  };
}

/** Log lines an instance may write over a fault and the seconds after its heal: errors are logged rate-limited, per kind. */
export const MAX_FAULT_LOG_LINES = 30;

/**
 * /readyz while a fault lasted: never unanswered, 503 only for an unavailable
 * store, and ready again (not degraded) from `settleMs` after the heal.
 */
export function checkReadiness(load: Load, heal: number, settleMs = 3_000): void {
  expect
    .soft(
      load.readiness.filter((sample) => sample.code === 'client_timeout'),
      '/readyz always answers',
    )
    .toEqual([]);
  expect
    .soft(
      load.readiness.filter((sample) => sample.status === 503 && !sample.body?.reasons?.includes('store_unavailable')),
      '/readyz is 503 only when the store is unavailable',
    )
    .toEqual([]);
  const after = load.readiness.filter((sample) => sample.at >= heal + settleMs && sample.status !== 0);
  expect.soft(after.length, '/readyz read after the heal').toBeGreaterThan(0);
  expect
    .soft(
      after.filter((sample) => sample.status !== 200 || sample.body?.degraded?.length),
      '/readyz ready, not degraded, once healed',
    )
    .toEqual([]);
}

const running = (instance: Instance) =>
  instance.process.process.exitCode === null && instance.process.process.signalCode === null;

/** A fault to inject for `ms`, then heal; `unreachable` names an instance it takes down. */
export type Fault = {
  name: string;
  inject(): void | Promise<void>;
  heal(): void | Promise<void>;
  ms: number;
  unreachable?: string;
  /** When clients need longer than CONVERGENCE_MS to come back by themselves. */
  convergeWithinMs?: number;
};

/** When a fault began and was healed, and the load it ran under, for a test's own checks. */
export type FaultRun = { load: Load; injected: number; healed: number };

/**
 * Runs the load, injects the fault, heals it and makes every common check;
 * `more` adds the fault's own checks (readiness during it) before the load closes.
 */
export async function underFault(
  cluster: ChaosCluster,
  fault: Fault,
  more: (run: FaultRun) => void = () => {},
): Promise<void> {
  // An instance that crashed in an earlier test is started again, so that this test still checks its fault.
  for (const name of ['a', 'b'] as const)
    if (!running(cluster[name])) {
      expect
        .soft(cluster[name].process.output().slice(-2_000), `${name.toUpperCase()} crashed before this test`)
        .toBe('');
      await cluster.restart(name);
    }
  const watched = [cluster.a, cluster.b];
  const load = await startLoad(cluster);
  try {
    await sleep(1_500);
    const logFrom = watched.map((instance) => instance.process.output().length);
    const injected = Date.now();
    await fault.inject();
    await sleep(fault.ms);
    await fault.heal();
    const healed = Date.now();
    await sleep(2_000);
    const logLines = watched.map((instance, i) => linesSince(instance, logFrom[i]).length);
    const figures = await checkAfterHeal(cluster, load, fault);
    checkReadiness(load, healed);
    more({ load, injected, healed });
    for (const [i, lines] of logLines.entries())
      expect.soft(lines, `${watched[i].name}: log lines over the fault`).toBeLessThanOrEqual(MAX_FAULT_LOG_LINES);
    console.log(`${fault.name}: ${JSON.stringify({ ...figures, logLines })}`);
  } finally {
    load.close();
    for (const instance of [cluster.a, cluster.b])
      expect
        .soft(running(instance) ? '' : instance.process.output().slice(-3_000), `${instance.name} crashed`)
        .toBe('');
  }
}

/** One chaos cluster for a whole test file: started before its tests, stopped (and its services removed) after them. */
export function useChaosCluster(prefix: string): { cluster: ChaosCluster } {
  const holder = {} as { cluster: ChaosCluster };
  beforeAll(async () => {
    holder.cluster = await startChaosCluster(prefix);
  }, 90_000);
  afterAll(() => holder.cluster?.stop(), 60_000);
  return holder;
}
