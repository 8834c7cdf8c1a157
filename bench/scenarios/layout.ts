/**
 * The document layout's cost (docs/document-model.md): a nested Y.Map per
 * item with typed fields as Y.Text, against the former one plain object per
 * item, each measured in a process of its own, in turns, in the same run.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Section } from '../lib/report.js';
import { ms, ratio, summarize } from '../lib/stats.js';

type Cost = {
  fullBytes: number;
  smallBytes: number;
  fullHeap: number;
  smallHeap: number;
  loadMs: number[];
  editMs: number[];
};

async function measure(layout: 'former' | 'fields'): Promise<Cost> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', join(process.cwd(), 'bench/baselines/layout-cost.ts'), layout],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  return JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as Cost;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function layoutScenario(quick: boolean): Promise<Section> {
  const rounds = quick ? 1 : 3;
  const fields: Cost[] = [];
  const former: Cost[] = [];
  for (let round = 0; round < rounds; round++) {
    former.push(await measure('former'));
    fields.push(await measure('fields'));
  }
  const pick = (costs: Cost[], key: 'fullBytes' | 'smallBytes' | 'fullHeap' | 'smallHeap') =>
    median(costs.map((cost) => cost[key]));
  const all = (costs: Cost[], key: 'loadMs' | 'editMs') => costs.flatMap((cost) => cost[key]);
  const bytesRow = (measure: string, key: 'fullBytes' | 'smallBytes' | 'fullHeap' | 'smallHeap', note?: string) => ({
    measure,
    ours: kb(pick(fields, key)),
    baseline: kb(pick(former, key)),
    ratio: ratio(pick(fields, key), pick(former, key)),
    note,
  });
  const load = { ours: summarize(all(fields, 'loadMs')), base: summarize(all(former, 'loadMs')) };
  const edit = { ours: summarize(all(fields, 'editMs')), base: summarize(all(former, 'editMs')) };
  return {
    title: 'Document layout: field-level merges',
    baseline: 'the former layout (one plain object per item) with the same items, in a process of its own, in turns',
    rows: [
      bytesRow(
        'heap per loaded full board (500 texts, 2000 strokes)',
        'fullHeap',
        'the document and the readers’ mirror',
      ),
      bytesRow('heap per loaded small board (20 items)', 'smallHeap'),
      bytesRow('stored state, full board', 'fullBytes'),
      bytesRow('stored state, small board', 'smallBytes'),
      {
        measure: 'load of a full board p50',
        ours: ms(load.ours.p50),
        baseline: ms(load.base.p50),
        ratio: ratio(load.ours.p50, load.base.p50),
        note: 'Y.applyUpdate, and the mirror built',
      },
      {
        measure: 'one item edited (a move and a word) p50, µs',
        ours: (edit.ours.p50 * 1000).toFixed(1),
        baseline: (edit.base.p50 * 1000).toFixed(1),
        ratio: ratio(edit.ours.p50, edit.base.p50),
        note: 'on a full board',
      },
    ],
  };
}
