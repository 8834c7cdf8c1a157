/** Child processes for benchmarks: servers under test and baselines, each in its own process. */
import { readFileSync } from 'node:fs';

export { spawnReady, type Spawned } from '../../test/helpers/child-server.js';

/** Resident memory of a process, in bytes (Linux). */
export function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}
