/**
 * The order files start in. Vitest's own order runs each project after the
 * one before it, so every Chromium file ran at once and then every server
 * file; on two cores the first half was short of CPU and the second waited on
 * timers and fault windows with a core idle. Here the longest files start
 * first (the run ends when the last long file does), taking Chromium files
 * and the others in turn, each queue in step with its share of the time, so
 * that the workers share the cores between pages that draw and servers that
 * wait (docs/performance.md, "The test suite").
 */
import { stat } from 'node:fs/promises';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, in seconds, by project and path, as a full run
 * alone on this 2-core machine measured them (docs/performance.md, "The test
 * suite"): the order on a fresh clone, whose cache holds no times. Most are
 * fault and property tests whose time is not in their size. A stale figure
 * only changes the order.
 */
const MEASURED_SECONDS: Record<string, number> = {
  'server test/hostile-input.test.ts': 65,
  'processes test/crash-consistency.test.ts': 59,
  'processes test/scale-out.test.ts': 56,
  'processes test/chaos-redis.test.ts': 48,
  'server test/lock-matrix.test.ts': 30,
  'processes test/relay-catch-up.test.ts': 29,
  'processes test/chaos-store.test.ts': 29,
  'shared-setup test/history.test.ts': 26,
  'processes test/redis-health.test.ts': 25,
  'shared-setup test/keep-loaded.test.ts': 25,
  'server test/history.test.ts': 20,
  'server test/keep-loaded.test.ts': 17,
};

/** What a file's bytes take, by project, in ms per byte (medians of the same run): the estimate for the rest. */
const MS_PER_BYTE: Record<string, number> = { browser: 1, processes: 2, 'shared-setup': 1, server: 0.6, unit: 0.1 };

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const estimates = new Map<TestSpecification, number>();
    await Promise.all(
      files.map(async (spec) => {
        const cached = this.ctx.cache.getTestSpecificationResult(spec)?.duration;
        const measured = MEASURED_SECONDS[`${spec.project.name} ${relative(this.ctx.config.root, spec.moduleId)}`];
        const bytes = (await stat(spec.moduleId)).size;
        estimates.set(spec, cached ?? (measured ? measured * 1000 : bytes * (MS_PER_BYTE[spec.project.name] ?? 1)));
      }),
    );
    const longestFirst = (specs: TestSpecification[]) =>
      specs.sort((a, b) => (estimates.get(b) ?? 0) - (estimates.get(a) ?? 0));
    const groups = new Map<number, TestSpecification[]>();
    for (const spec of files) {
      const order = spec.project.config.sequence.groupOrder;
      const group = groups.get(order) ?? [];
      groups.set(order, group);
      group.push(spec);
    }
    return [...groups.keys()]
      .sort((a, b) => a - b)
      .flatMap((order) => {
        const specs = groups.get(order) ?? [];
        const pages = longestFirst(specs.filter((spec) => spec.project.name === 'browser'));
        const others = longestFirst(specs.filter((spec) => spec.project.name !== 'browser'));
        return inTurn([pages, others], (spec) => estimates.get(spec) ?? 0);
      });
  }
}

/** Merges queues so that each has started the same share of its own time at every point: they end together. */
function inTurn<T>(queues: T[][], time: (item: T) => number): T[] {
  const totals = queues.map((queue) => queue.reduce((sum, item) => sum + time(item), 0) || 1);
  const started = queues.map(() => 0);
  const next = queues.map(() => 0);
  const merged: T[] = [];
  for (;;) {
    let pick = -1;
    for (let q = 0; q < queues.length; q++)
      if (next[q] < queues[q].length && (pick < 0 || started[q] / totals[q] < started[pick] / totals[pick])) pick = q;
    if (pick < 0) return merged;
    const item = queues[pick][next[pick]++];
    started[pick] += time(item);
    merged.push(item);
  }
}
