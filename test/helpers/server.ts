/** Starts the real server on port 0 against a temp DATA_DIR, in process or as a child process. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll } from 'vitest';
import { buildServer, type BoardServer, type BuildOptions } from '../../server/build-server.js';
import { loadConfig } from '../../server/config.js';
import { client, type Client } from './http.js';

export type TestServer = {
  url: string;
  dataDir: string;
  server: BoardServer;
  /** Closes the server cleanly and starts a new one on the same DATA_DIR. */
  restart(): Promise<TestServer>;
  close(): Promise<void>;
};

export async function tempDataDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'boards-test-'));
}

function testEnv(dataDir: string, env: Record<string, string>) {
  return { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'error', ...env };
}

/** A server in this process; pass a dataDir to reuse one (it is then not removed on close). */
export async function startServer(
  env: Record<string, string> = {},
  options: BuildOptions & { dataDir?: string } = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? (await tempDataDir());
  const server = await buildServer(loadConfig(testEnv(dataDir, env)), options);
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

export type ChildServer = { url: string; process: ChildProcess; exited: Promise<number | null> };

/** The real entry point (server/main.ts) in a child process; resolves once it prints its URL. */
export async function startChildServer(dataDir: string, env: Record<string, string> = {}): Promise<ChildServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, ...testEnv(dataDir, env) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    const timer = setTimeout(() => reject(new Error('child server did not start within 20 s')), 20_000);
    lines.on('line', (line) => {
      const match = /ready at (\S+)/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`child server exited with ${code} before it was ready`)));
  });
  return { url, process: child, exited };
}

/** One server for a whole test file: started before its tests, closed after them. */
export function useServer(env: Record<string, string> = {}): { server: TestServer; api: Client } {
  const context = {} as { server: TestServer; api: Client };
  beforeAll(async () => {
    context.server = await startServer(env);
    context.api = client(context.server.url);
  });
  afterAll(() => context.server?.close());
  return context;
}
