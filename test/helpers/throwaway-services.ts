/**
 * A Redis and a PostgreSQL of a test's own, on free ports, for tests that stop
 * and start them (the shared ones on 6379 and 5439 serve other test files at
 * the same time and must never be stopped). Started the way
 * scripts/start-shared-services.sh starts the shared ones.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The newest PostgreSQL server binaries Debian installed, or undefined. */
function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((version) => existsSync(join(root, version, 'bin', 'initdb')))
    .sort((a, b) => Number(a) - Number(b));
  return versions.length ? join(root, versions.at(-1)!, 'bin') : undefined;
}

function onPath(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Whether redis-server and PostgreSQL's binaries are here; when not, says so loudly (the tests are then skipped). */
export function throwawayServicesAvailable(): boolean {
  const missing = [!onPath('redis-server') && 'redis-server', !postgresBin() && 'PostgreSQL (initdb, pg_ctl)'].filter(
    Boolean,
  );
  if (missing.length === 0) return true;
  console.warn(
    `\n${'!'.repeat(78)}\n!! SKIPPING the readiness tests of the shared setup: no ${missing.join(' and ')}.\n!! Run ./scripts/start-shared-services.sh (CI always does) to install them.\n${'!'.repeat(78)}\n`,
  );
  return false;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A TCP port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export type Service = { url: string; stop(): void; start(): void };

/** A throwaway Redis, with its process id for faults a clean shutdown cannot show (SIGKILL, SIGSTOP). */
export type RedisService = Service & { pid(): number };

export async function throwawayRedis(): Promise<RedisService> {
  const port = await freePort();
  const start = () =>
    execFileSync('redis-server', [
      '--bind',
      '127.0.0.1',
      '--port',
      String(port),
      '--save',
      '',
      '--appendonly',
      'no',
      '--daemonize',
      'yes',
    ]);
  const stop = () => {
    try {
      execFileSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), 'shutdown', 'nosave'], {
        stdio: 'ignore',
        timeout: 5_000,
      });
    } catch {} // already stopped
  };
  start();
  // daemonize returns before it listens
  for (let i = 0; i < 50; i++) {
    try {
      execFileSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), 'ping'], { stdio: 'ignore' });
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  // Asked of Redis only while the last one known is gone (a restart after a SIGKILL runs under another id): a frozen one cannot answer.
  let known = 0;
  const pid = () => {
    if (known && alive(known)) return known;
    const info = execFileSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), 'info', 'server'], {
      timeout: 5_000,
    }).toString();
    known = Number(/process_id:(\d+)/.exec(info)?.[1]);
    return known;
  };
  pid();
  return { url: `redis://127.0.0.1:${port}`, start, stop, pid };
}

/** A throwaway PostgreSQL; `crash` stops it as a power cut would (`-m immediate`: no checkpoint, clients cut off). */
export type PostgresService = Service & { crash(): void; remove(): Promise<void> };

export async function throwawayPostgres(): Promise<PostgresService> {
  const bin = postgresBin()!;
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'boards-pg-'));
  const root = process.getuid?.() === 0;
  // PostgreSQL refuses to run as root: as in start-shared-services.sh, root runs it as the postgres user.
  const run = (command: string) =>
    execFileSync(root ? 'su' : 'sh', root ? ['postgres', '-s', '/bin/sh', '-c', command] : ['-c', command], {
      stdio: 'ignore',
    });
  if (root) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
    await chown(dir, uid, gid);
  }
  run(`${bin}/initdb -D ${dir} -A trust -U postgres`);
  const start = () =>
    run(`${bin}/pg_ctl -D ${dir} -l ${dir}/server.log -w -o '-h 127.0.0.1 -p ${port} -k ${dir}' start`);
  const stop = () => run(`${bin}/pg_ctl -D ${dir} -m fast -w stop`);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    crash: () => run(`${bin}/pg_ctl -D ${dir} -m immediate -w stop`),
    remove: async () => {
      try {
        stop();
      } catch {} // already stopped
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A Redis and a PostgreSQL of one's own, with the environment that points an instance at both. */
export type ThrowawaySetup = {
  redis: RedisService;
  postgres: PostgresService;
  env: Record<string, string>;
  /** Stops both (a frozen Redis is woken first, so that it can stop) and removes PostgreSQL's files. */
  remove(): Promise<void>;
};

export async function throwawaySetup(prefix: string): Promise<ThrowawaySetup> {
  const [redis, postgres] = await Promise.all([throwawayRedis(), throwawayPostgres()]);
  const env = { REDIS_URL: redis.url, DATABASE_URL: postgres.url, REDIS_PREFIX: prefix, DATABASE_POOL_SIZE: '4' };
  const remove = async () => {
    try {
      process.kill(redis.pid(), 'SIGCONT');
    } catch {} // not running
    redis.stop();
    await postgres.remove();
  };
  return { redis, postgres, env, remove };
}
