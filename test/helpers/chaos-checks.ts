/**
 * What every chaos test checks once its fault is healed: nothing acknowledged
 * lost (on both instances and on a fresh third), convergence of every client
 * within a bound, no answer later than its bound, every refusal a known code.
 * Soft expectations, so that one run reports every check that fails.
 */
import { expect } from 'vitest';
import { type ChaosCluster, type Load, MAX_LAG_MS, stopInstance, timedFetch } from './chaos.js';
import { eventually } from './realtime.js';

/** The codes a refusal may carry while a dependency is away; never a bare 500. */
export const REFUSAL_CODES = ['storage_unavailable', 'outcome_unknown', 'rate_limited'];
/** No request, frame or /readyz waits longer than this for its answer. */
export const MAX_ANSWER_MS = 5_000;
/** Every client shows the final state within this after the writes stop. */
export const CONVERGENCE_MS = 5_000;

const textIds = async (url: string, board: string): Promise<string[]> => {
  const answer = await timedFetch(`${url}/json/${board}`, {}, 5_000);
  if (answer.status !== 200) throw new Error(`GET /json answered ${answer.status} ${answer.code}`);
  return (answer.body.texts as { id: string }[]).map((text) => text.id).sort();
};

const sorted = (ids: Iterable<string>) => [...ids].sort();

/**
 * Stops the writers and checks the state that follows the heal. `unreachable`
 * names an instance that was down for a while (its clients' refused
 * connections are not hangs). Returns the figures to print.
 */
export async function checkAfterHeal(
  cluster: ChaosCluster,
  load: Load,
  heal: number,
  unreachable?: string,
): Promise<{ convergedMs: number; maxRestMs: number; maxFrameMs: number; refusals: number; acknowledged: number }> {
  await load.stopWriting();
  const rest = load.rest.filter((write) => write.status >= 200 && write.status < 300);
  const frames = load.json.flatMap((writer) => writer.frames);
  const acked = [...rest.map((write) => write.id!), ...frames.filter((f) => f.outcome === 'ack').map((f) => f.id!)];
  const edits = load.yjs.flatMap((writer) => writer.edits);

  // Converged: both instances, both Yjs clients and both JSON clients show the same texts, which hold every acknowledged write and every Yjs edit.
  let converged = -1;
  try {
    await eventually(async () => {
      const [onA, onB] = await Promise.all([textIds(cluster.a.url, load.board), textIds(cluster.b.url, load.board)]);
      expect(onA).toEqual(expect.arrayContaining([...acked, ...edits]));
      expect(onB).toEqual(onA);
      for (const writer of load.yjs) expect(sorted(writer.texts())).toEqual(onA);
      for (const writer of load.json) expect(sorted(writer.view)).toEqual(onA);
      converged = Date.now();
    }, CONVERGENCE_MS);
  } catch (error) {
    expect.soft((error as Error).message, `converged within ${CONVERGENCE_MS} ms of the writes' end`).toBe('');
  }

  expect
    .soft(
      load.lags
        .filter((lag) => lag.missing.length > 0)
        .map(({ instance, missing }) => `${instance}: ${missing.length}`),
      `no read misses the other instance's writes acknowledged ${MAX_LAG_MS} ms before`,
    )
    .toEqual([]);
  const onA = await textIds(cluster.a.url, load.board);
  expect.soft(new Set(onA).size, 'no text twice').toBe(onA.length);
  const third = await cluster.third();
  try {
    expect
      .soft(await textIds(third.url, load.board), 'a fresh instance holds every acknowledged write and Yjs edit')
      .toEqual(expect.arrayContaining([...acked, ...edits]));
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
    convergedMs: converged < 0 ? -1 : converged - heal,
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
