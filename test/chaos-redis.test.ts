/**
 * Chaos, Redis side: under a steady load on two instances, Redis is killed,
 * frozen (SIGSTOP, a hung dependency), and cut off from instance A by a proxy
 * that first holds and then resets its connections. After each heal nothing
 * acknowledged is lost and every client converges (test/helpers/chaos-checks.ts).
 */
import { describe, expect, it } from 'vitest';
import { type FaultRun, underFault, useChaosCluster } from './helpers/chaos-checks.js';
import { throwawayServicesAvailable } from './helpers/throwaway-services.js';

const available = throwawayServicesAvailable();
/** A lost or hung Redis is detected within this (a ping with a timeout), and /readyz says so. */
const DETECTION_MS = 5_000;

/**
 * The redis-health part: while Redis is away, /readyz of the instances that
 * lost it says 200 degraded: ["redis"] (the store still serves; docs/operations.md).
 */
const degradedWhileAway =
  (...instances: string[]) =>
  ({ load, injected, healed }: FaultRun) => {
    for (const instance of instances) {
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
  };

describe.skipIf(!available)('chaos: Redis faults under load', () => {
  const t = useChaosCluster('chaos-redis');

  it('Redis SIGKILLed, then started again', async () => {
    const { redis } = t.cluster.services;
    const fault = {
      name: 'redis killed',
      inject: () => void process.kill(redis.pid(), 'SIGKILL'),
      heal: () => redis.start(),
      ms: 6_000,
    };
    await underFault(t.cluster, fault, degradedWhileAway('A', 'B'));
  }, 90_000);

  it('Redis frozen (SIGSTOP) for 8 s, then woken', async () => {
    const pid = t.cluster.services.redis.pid();
    const fault = {
      name: 'redis frozen',
      inject: () => void process.kill(pid, 'SIGSTOP'),
      heal: () => void process.kill(pid, 'SIGCONT'),
      ms: 8_000,
    };
    await underFault(t.cluster, fault, degradedWhileAway('A', 'B'));
  }, 90_000);

  it('A cut off from Redis: connections held for 5 s, then reset for 3 s, then passed again', async () => {
    const { proxy } = t.cluster;
    const fault = {
      name: 'A partitioned',
      inject: () => {
        proxy.set('hold');
        setTimeout(() => proxy.set('reset'), 5_000);
      },
      heal: () => proxy.set('pass'),
      ms: 8_000,
    };
    await underFault(t.cluster, fault, degradedWhileAway('A'));
  }, 90_000);
});
