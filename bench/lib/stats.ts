/** Timing and summary statistics for benchmarks. */
import { performance } from 'node:perf_hooks';

export type Summary = { n: number; p50: number; p99: number; mean: number };

/** Nearest-rank percentile of a sample (0 < p <= 100). */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1];
}

export function summarize(samples: number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = samples.reduce((sum, x) => sum + x, 0) / samples.length;
  return { n: samples.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), mean };
}

/** Runs fn `warmup` times unmeasured, then `runs` times, returning each run's milliseconds. */
export async function sample(runs: number, warmup: number, fn: () => unknown | Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return samples;
}

export const ms = (value: number) => (value < 1 ? value.toFixed(3) : value < 100 ? value.toFixed(2) : value.toFixed(0));
export const ratio = (ours: number, baseline: number) => `${(ours / baseline).toFixed(2)}x`;
