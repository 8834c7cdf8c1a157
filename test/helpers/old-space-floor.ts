/**
 * Run by test/built-service.test.ts with the start script's V8 flags and
 * `--expose-gc`: after a full collection, retains `argv[2]` × ~0.7 MB of small
 * objects and prints how many full collections that took (JSON).
 */
import { constants, PerformanceObserver } from 'node:perf_hooks';

const retained: object[][] = [];
const fill = (chunks: number) => {
  for (let i = 0; i < chunks; i++) retained.push(Array.from({ length: 16 * 1024 }, (_, j) => ({ j })));
};
fill(8);
(globalThis as unknown as { gc: () => void }).gc();
let major = 0;
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries())
    if ((entry as unknown as { detail: { kind: number } }).detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR) major++;
});
observer.observe({ entryTypes: ['gc'] });
fill(Number(process.argv[2]));
await new Promise((resolve) => setTimeout(resolve, 200)); // a marking begun during the fill ends, and the observer is told
observer.disconnect();
console.log(JSON.stringify({ major, heapMB: Math.round(process.memoryUsage().heapUsed / 1048576) }));
