/**
 * Chaos, Redis side: under a steady load on two instances, Redis is killed,
 * frozen (SIGSTOP, a hung dependency), and cut off from instance A by a proxy
 * that first holds and then resets its connections. After each heal nothing
 * acknowledged is lost and every client converges (test/helpers/chaos-checks.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChaosCluster, linesSince, type Load, startChaosCluster, startLoad } from './helpers/chaos.js';
import { checkAfterHeal, checkReadiness, MAX_FAULT_LOG_LINES } from './helpers/chaos-checks.js';
import { throwawayServicesAvailable } from './helpers/throwaway-services.js';

const available = throwawayServicesAvailable();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A hung Redis is detected within this (a ping with a timeout), and /readyz says so. */
const DETECTION_MS = 5_000;

describe.skipIf(!available)('chaos: Redis faults under load', () => {
  let cluster: ChaosCluster;
  beforeAll(async () => {
    cluster = await startChaosCluster('chaos-redis');
  }, 60_000);
  afterAll(() => cluster?.stop(), 60_000);

  /** Load, then the fault for `faultMs`, the heal, and every check; `affected` are the instances that lose Redis. */
  async function underFault(
    name: string,
    fault: { inject(): void; heal(): void; ms: number },
    affected: string[],
  ): Promise<void> {
    const load: Load = await startLoad(cluster);
    try {
      await sleep(1_500);
      const logFrom = [cluster.a, cluster.b].map((instance) => instance.process.output().length);
      const injected = Date.now();
      fault.inject();
      await sleep(fault.ms);
      fault.heal();
      const healed = Date.now();
      await sleep(2_000);
      const logLines = [cluster.a, cluster.b].map((instance, i) => linesSince(instance, logFrom[i]).length);
      const figures = await checkAfterHeal(cluster, load, healed);
      checkReadiness(load, healed);
      // The redis-health part: a lost or hung Redis shows in /readyz as degraded (200: the store still serves).
      for (const instance of affected) {
        const during = load.readiness.filter(
          (sample) => sample.instance === instance && sample.at >= injected + DETECTION_MS && sample.at < healed,
        );
        expect
          .soft(
            during.filter((sample) => sample.status !== 200 || !sample.body?.degraded?.includes('redis')),
            `${instance}: /readyz says degraded: ["redis"] within ${DETECTION_MS} ms of the fault`,
          )
          .toEqual([]);
      }
      for (const [i, lines] of logLines.entries())
        expect.soft(lines, `${['A', 'B'][i]}: log lines over the fault`).toBeLessThanOrEqual(MAX_FAULT_LOG_LINES);
      console.log(`${name}: ${JSON.stringify({ ...figures, logLines })}`);
    } finally {
      load.close();
      for (const instance of [cluster.a, cluster.b])
        if (instance.process.process.exitCode !== null || instance.process.process.signalCode !== null)
          console.log(`${instance.name} exited: ${instance.process.output().slice(-3000)}`);
    }
  }

  it('Redis SIGKILLed, then started again', async () => {
    const { redis } = cluster.services;
    await underFault(
      'redis killed',
      { inject: () => process.kill(redis.pid(), 'SIGKILL'), heal: () => redis.start(), ms: 6_000 },
      ['A', 'B'],
    );
  }, 90_000);

  it('Redis frozen (SIGSTOP) for 8 s, then woken', async () => {
    const pid = cluster.services.redis.pid();
    await underFault(
      'redis frozen',
      { inject: () => process.kill(pid, 'SIGSTOP'), heal: () => process.kill(pid, 'SIGCONT'), ms: 8_000 },
      ['A', 'B'],
    );
  }, 90_000);

  it('A cut off from Redis: connections held for 5 s, then reset for 3 s, then passed again', async () => {
    const { proxy } = cluster;
    await underFault(
      'A partitioned',
      {
        inject: () => {
          proxy.set('hold');
          setTimeout(() => proxy.set('reset'), 5_000);
        },
        heal: () => proxy.set('pass'),
        ms: 8_000,
      },
      ['A'],
    );
  }, 90_000);
});
