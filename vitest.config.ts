import { configDefaults, defineConfig, type ViteUserConfig } from 'vitest/config';
import { sharedServicesAvailable } from './test/helpers/shared-services.js';

/**
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
  'preview-pool',
  'quotas',
  'history',
  'mcp-history',
  'keep-loaded',
  'idempotency',
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
      // Vitest's default on 2 cores is one file at a time; most files wait on servers, browsers and timers, not the CPU.
      maxWorkers: 2,
      reporters: ['default', './test/helpers/summary-reporter.ts'],
      projects: [
        // Inline projects inherit the options above.
        {
          test: {
            name: 'sqlite',
            include: ['test/**/*.test.ts'],
            exclude: [...configDefaults.exclude, ...ALONE_FILES],
            globalSetup: ['test/helpers/chromium-servers.ts'],
          },
        },
        { test: { name: 'sqlite-alone', include: ALONE_FILES, maxWorkers: 1, sequence: { groupOrder: 1 } } },
        ...(shared
          ? [{ test: { name: 'shared-setup', include: SHARED_SETUP_FILES, env: { TEST_SHARED_SETUP: '1' } } }]
          : []),
      ],
    },
  };
});
