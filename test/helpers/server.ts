/** Starts the real server on port 0 against a temp DATA_DIR, in process or as a child process. */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll } from 'vitest';
import { type BoardServer, type BuildOptions, buildServer } from '../../app/build-server.js';
import { loadConfig } from '../../app/config.js';
import { tempDataDir, testServerEnv } from './child-server.js';
import { type Client, client } from './http.js';
import { freshClusterEnv } from './shared-services.js';

export { type ChildServer, startChildServer, TEST_CALLER, TEST_SETTLE_MS, tempDataDir } from './child-server.js';

export type TestServer = {
  url: string;
  dataDir: string;
  server: BoardServer;
  /** Closes the server cleanly and starts a new one on the same DATA_DIR. */
  restart(): Promise<TestServer>;
  close(): Promise<void>;
};

/** A server in this process; pass a dataDir to reuse one (it is then not removed on close). */
export async function startServer(
  env: Record<string, string | undefined> = {},
  options: BuildOptions & { dataDir?: string } = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? (await tempDataDir());
  // TEST_SHARED_SETUP=1 runs the in-process servers on PostgreSQL and Redis instead of SQLite.
  if (process.env.TEST_SHARED_SETUP === '1' && !env.DATABASE_URL) env = { ...env, ...(await freshClusterEnv()) };
  const server = await buildServer(loadConfig(testServerEnv(dataDir, env)), options);
  const url = await server.listen();
  let closed = false;
  const shutdown = async () => {
    if (closed) return;
    closed = true;
    await server.close();
  };
  return {
    url,
    dataDir,
    server,
    restart: async () => {
      await shutdown();
      return startServer(env, { ...options, dataDir });
    },
    close: async () => {
      await shutdown();
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** One server for a whole test file: started before its tests, closed after them. */
export function useServer(env: Record<string, string | undefined> = {}): { server: TestServer; api: Client } {
  const context = {} as { server: TestServer; api: Client };
  beforeAll(async () => {
    context.server = await startServer(env);
    context.api = client(context.server.url);
  });
  afterAll(() => context.server?.close());
  return context;
}
