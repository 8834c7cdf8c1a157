import { configDefaults, defineConfig, type ViteUserConfig } from 'vitest/config';
import LongestFirst from './test/helpers/sequencer.js';
import { sharedServicesAvailable } from './test/helpers/shared-services.js';

/**
 * The suite in five projects: unit (no server), server (the real server in
 * process), browser (the app in headless Chromium, one per worker), processes
 * (servers and services as child processes, killed and restarted), and the
 * shared setup; the timing files run last, alone.
 *
 * Every test file runs on the embedded SQLite default. The functional suites of
 * every surface run a second time with their in-process servers on PostgreSQL
 * and Redis (TEST_SHARED_SETUP=1), when those answer: the shared setup must
 * behave the same. Files that look inside the SQLite file or steer time with a
 * fake clock (which Redis's windows do not follow) stay on SQLite only.
 */
const SHARED_SETUP_FILES = [
  'rest-draw',
  'rest-todo',
  'rest-boards',
  'mcp',
  'mcp-notifications',
  'mcp-lock-subscriptions',
  'realtime-json',
  'realtime-yjs',
  'exports',
  'preview',
  'preview-shapes',
  'preview-pool',
  'quotas',
  'history',
  'mcp-history',
  'keep-loaded',
  'idempotency',
  'view-links',
  'shapes',
].map((name) => `test/${name}.test.ts`);

/**
 * Files that start no server of ours: the schemas, the stores against their
 * engines, the layer and reference checks. They answer in seconds.
 */
const UNIT_FILES = [
  'clocks',
  'compensation',
  'draw-snapping',
  'history-thinning',
  'layers',
  'openapi-lint',
  'pg-committed-feed',
  'pg-journal',
  'references',
  'request-logs',
  'schema',
  'store-contract',
].map((name) => `test/${name}.test.ts`);

/** The domain's own tests, beside the modules they test: no server, no I/O, as browser-safe as the domain. */
const DOMAIN_FILES = ['board/**/*.test.ts'];

/** Files that start servers or services as processes of their own: they kill, stop and restart them. */
const PROCESS_FILES = [
  'built-service',
  'chaos-redis',
  'chaos-store',
  'collab-recovery',
  'crash-consistency',
  'durability',
  'mcp-conformance',
  'persistence',
  'readyz',
  'redis-health',
  'relay-catch-up',
  'runtime',
  'view-links-cluster',
  'scale-out',
  'storage-faults',
  'time',
].map((name) => `test/${name}.test.ts`);

/** Files that judge the event loop's delay or answer times in ms: they run last, alone, since another file beside them moves it. */
const ALONE_FILES = ['test/soak.test.ts', 'test/preview-latency.test.ts'];

export default defineConfig(async (): Promise<ViteUserConfig> => {
  const shared = await sharedServicesAvailable();
  return {
    test: {
      testTimeout: 30_000,
      hookTimeout: 30_000,
      pool: 'forks',
      // Vitest's default on 2 cores is one file at a time; most files wait on servers, browsers and timers: four at a time keep the CPU busy (docs/performance.md).
      maxWorkers: 4,
      reporters: ['default', './test/helpers/summary-reporter.ts'],
      // Longest first, Chromium files and the others in turn (test/helpers/sequencer.ts).
      sequence: { sequencer: LongestFirst },
      // One migrated PostgreSQL template per run, which every fresh database copies; the run's databases dropped after it.
      globalSetup: ['test/helpers/pg-template.ts'],
      projects: [
        // Inline projects inherit the options above. `vitest run --project <name>` runs one.
        { test: { name: 'unit', include: [...UNIT_FILES, ...DOMAIN_FILES] } },
        {
          test: {
            name: 'server',
            include: ['test/*.test.ts'],
            exclude: [...configDefaults.exclude, ...UNIT_FILES, ...PROCESS_FILES, ...ALONE_FILES],
          },
        },
        {
          test: {
            name: 'browser',
            include: ['test/browser/*.test.ts'],
            globalSetup: ['test/helpers/chromium-servers.ts'],
          },
        },
        { test: { name: 'processes', include: PROCESS_FILES } },
        ...(shared
          ? [{ test: { name: 'shared-setup', include: SHARED_SETUP_FILES, env: { TEST_SHARED_SETUP: '1' } } }]
          : []),
        { test: { name: 'alone', include: ALONE_FILES, maxWorkers: 1, sequence: { groupOrder: 1 } } },
      ],
    },
  };
});
