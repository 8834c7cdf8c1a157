/**
 * Chaos, store and instance side: under a steady load on two instances,
 * PostgreSQL is stopped as by a power cut (`-m immediate`) and started again,
 * and instance A is SIGKILLed and started again on its port. After each heal
 * nothing acknowledged is lost and every client converges (test/helpers/chaos-checks.ts).
 */
import { describe, expect, it } from 'vitest';
import { underFault, useChaosCluster } from './helpers/chaos-checks.js';
import { throwawayServicesAvailable } from './helpers/throwaway-services.js';

const available = throwawayServicesAvailable();

describe.skipIf(!available)('chaos: PostgreSQL and instance faults under load', () => {
  const t = useChaosCluster('chaos-store');

  it('PostgreSQL stopped -m immediate for 6 s, then started again', async () => {
    const { postgres } = t.cluster.services;
    const fault = { name: 'postgres stopped', inject: () => postgres.crash(), heal: () => postgres.start(), ms: 6_000 };
    await underFault(t.cluster, fault, ({ load, injected, healed }) => {
      for (const instance of ['A', 'B'])
        expect
          .soft(
            load.readiness.some(
              (sample) =>
                sample.instance === instance &&
                sample.at > injected &&
                sample.at < healed &&
                sample.status === 503 &&
                sample.body?.reasons?.includes('store_unavailable'),
            ),
            `${instance}: /readyz 503 store_unavailable while PostgreSQL is away`,
          )
          .toBe(true);
    });
  }, 90_000);

  it('instance A SIGKILLed, then started again on its port', async () => {
    const fault = {
      name: 'instance killed',
      inject: () => t.cluster.killA(),
      heal: () => t.cluster.restart('a'),
      ms: 3_000,
      unreachable: 'A',
      // A stock provider whose server is gone retries with a growing backoff (full jitter, up to 30 s), and its
      // address is A's own here: behind a balancer its first retry would reach B.
      convergeWithinMs: 30_000,
    };
    await underFault(t.cluster, fault, ({ load }) => {
      expect
        .soft(
          load.readiness.filter((sample) => sample.instance === 'B' && sample.status !== 200),
          'B stays ready while A is down',
        )
        .toEqual([]);
    });
  }, 90_000);
});
