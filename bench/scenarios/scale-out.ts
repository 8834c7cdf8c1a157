/**
 * The shared setup (PostgreSQL and Redis on this machine, docs/deploy.md):
 * live fan-out to clients on another instance than the writer's, against
 * clients on the writer's own instance in the same cluster; and durable write
 * throughput of two instances together against one alone. The embedded SQLite
 * instance is measured beside them for reference.
 */
import { rm } from 'node:fs/promises';
import { type ChildServer, tempDataDir, testEnv } from '../../test/helpers/child-server.js';
import { freshClusterEnv, sharedServicesAvailable } from '../../test/helpers/shared-services.js';
import { spawnService } from '../lib/processes.js';
import type { Row, Section } from '../lib/report.js';
import { ms, ratio, summarize } from '../lib/stats.js';
import { measureOurs } from './fanout.js';
import { load, prepare } from './writes.js';

const OPEN = { RATE_LIMITS: 'off', MAX_SOCKETS_PER_IP: '5000', MAX_CONNECTIONS_PER_IP: '5000' };
const BOARDS = 100;

const TITLE = 'Scale-out: two instances on PostgreSQL and Redis';

export async function scaleOutScenario(quick: boolean): Promise<Section> {
  if (!(await sharedServicesAvailable())) {
    return {
      title: TITLE,
      baseline: 'n/a',
      rows: [],
      notes: ['Skipped: Redis or PostgreSQL is not running here (scripts/start-shared-services.sh starts them).'],
    };
  }
  const seconds = quick ? 3 : 10;
  const rounds = quick ? 10 : 100;
  const sizes = quick ? [50] : [1, 50, 200];
  const env = { ...(await freshClusterEnv()), ...OPEN };
  const dirs = [await tempDataDir(), await tempDataDir(), await tempDataDir()];
  const servers: ChildServer[] = [];
  try {
    const [a, b, embedded] = await Promise.all([
      spawnService(testEnv(dirs[0], env)),
      spawnService(testEnv(dirs[1], env)),
      spawnService(testEnv(dirs[2], OPEN)),
    ]);
    servers.push(a, b, embedded);
    const rows: Row[] = [];

    for (const n of sizes) {
      for (const kind of ['json', 'yjs'] as const) {
        const same = summarize((await measureOurs(a.url, kind, n, rounds)).fromSend);
        const cross = summarize((await measureOurs(a.url, kind, n, rounds, b.url)).fromSend);
        const single = summarize((await measureOurs(embedded.url, kind, n, rounds)).fromSend);
        const label = `${kind === 'json' ? 'JSON-channel' : 'Yjs'} clients, N=${n}`;
        rows.push(
          {
            measure: `${label}: write on A, clients on B, p50`,
            ours: ms(cross.p50),
            baseline: ms(same.p50),
            ratio: ratio(cross.p50, same.p50),
            note: 'baseline: clients on A',
          },
          {
            measure: `${label}: write on A, clients on B, p99`,
            ours: ms(cross.p99),
            baseline: ms(same.p99),
            ratio: ratio(cross.p99, same.p99),
            note: `spec: about 100 ms; embedded SQLite instance p99 ${ms(single.p99)} ms`,
          },
        );
      }
    }

    // Throughput: each instance writes its own half of the boards (sticky routing), together, against one instance alone.
    const targetsA = await prepare(a.url, BOARDS);
    const targetsB = await prepare(b.url, BOARDS);
    await load(a.url, targetsA, 1); // warm-up
    const alone = await load(a.url, targetsA, seconds);
    const [onA, onB] = await Promise.all([load(a.url, targetsA, seconds), load(b.url, targetsB, seconds)]);
    const together = onA.rps + onB.rps;
    // Round robin without stickiness: both instances write the same boards.
    const [mixedA, mixedB] = await Promise.all([load(a.url, targetsA, seconds), load(b.url, targetsA, seconds)]);
    const embeddedTargets = await prepare(embedded.url, BOARDS);
    const sqlite = await load(embedded.url, embeddedTargets, seconds);
    rows.push(
      {
        measure: `writes over ${BOARDS} boards: two instances, sticky (req/s)`,
        ours: together.toFixed(0),
        baseline: alone.rps.toFixed(0),
        ratio: ratio(together, alone.rps),
        note: `baseline: one instance alone; ${onA.errors + onB.errors} errors`,
      },
      {
        measure: 'writes: two instances, the same boards on both (req/s)',
        ours: (mixedA.rps + mixedB.rps).toFixed(0),
        baseline: alone.rps.toFixed(0),
        ratio: ratio(mixedA.rps + mixedB.rps, alone.rps),
        note: 'round robin without stickiness',
      },
      {
        measure: 'writes: latency p99, two instances sticky',
        ours: ms(Math.max(onA.p99, onB.p99)),
        baseline: ms(alone.p99),
        ratio: alone.p99 === 0 ? 'n/a' : ratio(Math.max(onA.p99, onB.p99), alone.p99),
      },
      {
        measure: 'writes: one shared-setup instance vs the embedded SQLite one (req/s)',
        ours: alone.rps.toFixed(0),
        baseline: sqlite.rps.toFixed(0),
        ratio: ratio(alone.rps, sqlite.rps),
        note: 'the cost of PostgreSQL commits and Redis relays',
      },
    );
    return {
      title: TITLE,
      baseline:
        "fan-out: the same write with the clients on the writer's own instance of the same cluster; throughput: one instance of the cluster alone.",
      rows,
      notes: [
        'Everything runs on this one 2-core machine: both instances, PostgreSQL, Redis, the clients and autocannon share its cores, so two instances cannot show the gain they would on two machines; the ratio shows what the shared setup costs, not how it scales.',
        `Fan-out is timed from when the REST write was sent (its journal commit in PostgreSQL included) to its arrival at each client; ${rounds} rounds per figure.`,
        `Throughput: autocannon with 10 connections per instance, ${seconds} s per figure; each write updates one text in place, rotating over ${BOARDS} boards.`,
      ],
    };
  } finally {
    for (const server of servers) {
      server.process.kill('SIGTERM');
      await server.exited;
    }
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  }
}
