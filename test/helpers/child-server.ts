/**
 * The real entry point (app/main.ts) in a child process, for tests that kill
 * it and for benchmarks that load it from another process. Free of vitest, so
 * bench/ can use it too.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The project's root directory. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export async function tempDataDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'boards-test-'));
}

/**
 * The environment of a server under test: port 0, loopback, a given DATA_DIR,
 * quiet logs, rate limits off (a test file creates far more than 5 boards a
 * minute; the rate-limit tests switch them on), and no drain on SIGTERM (the
 * readiness test sets one).
 */
export function testEnv(dataDir: string, env: Record<string, string> = {}): Record<string, string> {
  return {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'error',
    RATE_LIMITS: 'off',
    SHUTDOWN_DRAIN_MS: '0',
    ...env,
  };
}

/** The settle the test servers use: a tenth of the contract's 3 s (the tests of the real value set NOTIFICATION_SETTLE_MS). */
export const TEST_SETTLE_MS = 300;

/**
 * Short clocks for the servers under test, so that no test waits out the
 * contract's seconds: the settle, its max wait, and the relay's heartbeat,
 * catch-up tick and hand-over. One test per clock sets the real value.
 */
export const TEST_CLOCKS: Readonly<Record<string, string>> = {
  NOTIFICATION_SETTLE_MS: String(TEST_SETTLE_MS),
  NOTIFICATION_MAX_WAIT_MS: String(5 * TEST_SETTLE_MS),
  RELAY_HEARTBEAT_MS: '200',
  CATCH_UP_INTERVAL_MS: '100',
  RELAY_HAND_OVER_MS: '500',
};

/** The relay's clocks at their defaults: for the chaos tests, whose figures docs/reliability.md gives. */
export const REAL_RELAY_CLOCKS: Readonly<Record<string, undefined>> = {
  RELAY_HEARTBEAT_MS: undefined,
  CATCH_UP_INTERVAL_MS: undefined,
  RELAY_HAND_OVER_MS: undefined,
};

/**
 * testEnv with the short clocks: what every test server runs with unless a
 * test says otherwise. A variable set to undefined is left out, so that the
 * server takes its default (a test of a clock's real value).
 */
export function testServerEnv(dataDir: string, env: Record<string, string | undefined> = {}): Record<string, string> {
  const merged = testEnv(dataDir, { ...TEST_CLOCKS, ...env } as Record<string, string>);
  for (const [name, value] of Object.entries(merged)) if (value === undefined) delete merged[name];
  return merged;
}

/** The caller of in-process domain calls in tests (filling a board fast, reading its document). */
export const TEST_CALLER = { surface: 'rest', ip: '127.0.0.1' } as const;

export type Spawned = {
  url: string;
  process: ChildProcess;
  /** The exit code once the process has exited. */
  exited: Promise<number | null>;
  /** Everything the process wrote to stdout and stderr so far ('' unless captured). */
  output(): string;
  /** Sends the signal (SIGTERM by default) and resolves once the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
};

/**
 * Runs an entry point of this project in a child process and resolves once it
 * prints "ready at <url>": a TypeScript one through tsx, a built one (`.js`,
 * what `npm start` runs) as it is, with `nodeFlags` before it. With
 * `captureOutput`, stderr is kept with stdout instead of passed through, so a
 * test can search all of it. `root` is the checkout the entry is in (this one unless told).
 */
export async function spawnReady(
  entry: string,
  env: Record<string, string> = {},
  options: { captureOutput?: boolean; nodeFlags?: string[]; root?: string; readyWithinMs?: number } = {},
): Promise<Spawned> {
  const loader = entry.endsWith('.js') ? [] : ['--import', 'tsx'];
  const root = options.root ?? ROOT;
  const child = spawn(process.execPath, [...(options.nodeFlags ?? []), ...loader, join(root, entry)], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', options.captureOutput ? 'pipe' : 'inherit'],
  });
  const chunks: Buffer[] = [];
  if (options.captureOutput) {
    child.stdout!.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr!.on('data', (chunk: Buffer) => chunks.push(chunk));
  }
  const output = () => Buffer.concat(chunks).toString('utf8');
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    const within = options.readyWithinMs ?? 20_000;
    // A child that never got ready is not left behind running.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${entry} did not start within ${within / 1000} s\n${output()}`));
    }, within);
    lines.on('line', (line) => {
      const match = /ready at (\S+)/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`${entry} exited with ${code} before it was ready\n${output()}`)));
  });
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return { url, process: child, exited, output, stop };
}

export type ChildServer = { url: string; process: ChildProcess; exited: Promise<number | null> };

/** The real entry point (app/main.ts) in a child process; resolves once it prints its URL. */
export async function startChildServer(
  dataDir: string,
  env: Record<string, string | undefined> = {},
): Promise<ChildServer> {
  return spawnReady('app/main.ts', testServerEnv(dataDir, env));
}
