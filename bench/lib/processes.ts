/** Child processes for benchmarks: servers under test and baselines, each in its own process. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, type Spawned, spawnReady } from '../../test/helpers/child-server.js';

export { type Spawned, spawnReady };

/**
 * The service as `npm start` runs it, read from that script (`node <flags>
 * <entry>`): tsc's output, not the TypeScript run through tsx, whose transform
 * adds a call per named closure, with the V8 flags the script gives (docs/runtime.md). Baselines still run
 * through tsx, without flags: each defines its few handlers once.
 */
export const SERVICE_COMMAND = startCommand(ROOT);

function startCommand(root: string): { entry: string; nodeFlags: string[] } {
  const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const [node, ...rest] = scripts.start.trim().split(/\s+/);
  const entry = rest.pop();
  if (node !== 'node' || !entry?.endsWith('.js') || rest.some((flag) => !flag.startsWith('--'))) {
    throw new Error(`package.json's start script is not "node [--flags] <entry>.js": ${scripts.start}`);
  }
  return { entry, nodeFlags: rest };
}

let built = false;

/** Builds the service from the current sources, once per benchmark run (tsc takes a few seconds). */
function buildService(): void {
  if (built) return;
  execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  built = true;
}

/** The service in its own process with `env` (testEnv's, for a temp data directory), built from the current sources. */
export function spawnService(env: Record<string, string>): Promise<Spawned> {
  buildService();
  return spawnReady(SERVICE_COMMAND.entry, env, { nodeFlags: SERVICE_COMMAND.nodeFlags });
}

/** The service of another checkout, already built (`npm run build`), as its own `npm start` runs it. */
export function spawnCheckout(root: string, env: Record<string, string>): Promise<Spawned> {
  const { entry, nodeFlags } = startCommand(root);
  return spawnReady(entry, env, { nodeFlags, root });
}

/** Resident memory of a process, in bytes (Linux). */
export function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

const CLOCK_TICKS_PER_S = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** CPU time a process has used so far, user and system, in milliseconds (Linux; clock-tick resolution). */
export function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S;
}
