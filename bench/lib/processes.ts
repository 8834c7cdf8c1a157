/** Child processes for benchmarks: servers under test and baselines, each in its own process. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export type Spawned = { url: string; process: ChildProcess; stop(signal?: NodeJS.Signals): Promise<void> };

/** Runs a TypeScript entry point of this project and resolves with the URL it prints as "ready at <url>". */
export function spawnReady(entry: string, env: Record<string, string> = {}): Promise<Spawned> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(process.cwd(), entry)], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /ready at (\S+)/.exec(line);
      if (match) resolve({ url: match[1], process: child, stop: async (signal = 'SIGTERM') => { child.kill(signal); await exited; } });
    });
    child.once('exit', (code) => reject(new Error(`${entry} exited with ${code} before it was ready`)));
  });
}

/** Resident memory of a process, in bytes (Linux). */
export function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}
