/**
 * Snapshots of boards filled to their quotas: `GET /json` of a draw board (500
 * texts, 2000 strokes of 50 points, 50 images) and of a todo board (200
 * columns, 1000 tasks), the 304 path, and `GET /svg-preview`. Baseline:
 * `JSON.stringify` of the same snapshot object in process.
 */
import { rm } from 'node:fs/promises';
import { tempDataDir, testEnv } from '../../test/helpers/child-server.js';
import { createBoard } from '../lib/clients.js';
import { spawnService } from '../lib/processes.js';
import type { Row, Section } from '../lib/report.js';
import { ms, ratio, sample, summarize } from '../lib/stats.js';
import { fullDrawContent } from './import.js';

export function fullTodoContent() {
  return {
    columns: Array.from({ length: 200 }, (_, i) => ({ title: `Column ${i}`, lane: Math.floor(i / 20) })),
    tasks: Array.from({ length: 1000 }, (_, i) => ({
      columnIndex: i % 200,
      name: `Task ${i}`,
      description: 'Something to do, with a little detail.',
      priority: ['H', 'M', 'L'][i % 3],
      assignee: `person${i % 7}`,
      due_date: '2026-12-01',
      done: i % 4 === 0,
    })),
    lanes: Array.from({ length: 10 }, (_, lane) => ({ lane, title: `Row ${lane}` })),
  };
}

export async function snapshotsScenario(quick: boolean): Promise<Section> {
  const runs = quick ? 30 : 200;
  const dir = await tempDataDir();
  const server = await spawnService({ ...testEnv(dir), STORE_DEBOUNCE_MS: '600000', STORE_MAX_DEBOUNCE_MS: '600000' });
  try {
    const create = (body: unknown) => createBoard(server.url, body);
    const draw = await create({ content: fullDrawContent() });
    const todo = await create({ mode: 'todo', content: fullTodoContent() });
    const get = (path: string, headers: Record<string, string> = {}) =>
      fetch(`${server.url}${path}`, { headers }).then(async (r) => ({
        status: r.status,
        etag: r.headers.get('etag'),
        body: await r.text(),
      }));
    const rows: Row[] = [];
    for (const [label, id] of [
      ['draw board', draw],
      ['todo board', todo],
    ] as const) {
      const first = await get(`/json/${id}`);
      const object = JSON.parse(first.body);
      const baseline = summarize(await sample(runs, 5, () => JSON.stringify(object)));
      const warm = summarize(await sample(runs, 5, () => get(`/json/${id}`)));
      const notModified = summarize(await sample(runs, 5, () => get(`/json/${id}`, { 'if-none-match': first.etag! })));
      // After a change the snapshot is built again: one write, then the read that rebuilds it.
      let i = 0;
      const text = draw === id ? (object.texts[0].id as string) : null; // the board is full: edit an existing text
      const rebuilt = text
        ? summarize(
            await sample(Math.min(runs, 50), 2, async () => {
              await fetch(`${server.url}/api/boards/${id}/texts`, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ id: text, x: i++, y: 0, content: 'edited' }),
              });
              const started = performance.now();
              await get(`/json/${id}`);
              return performance.now() - started;
            }),
          )
        : null;
      rows.push(
        {
          measure: `${label}: GET /json p50`,
          ours: ms(warm.p50),
          baseline: ms(baseline.p50),
          ratio: ratio(warm.p50, baseline.p50),
          note: `${(first.body.length / 1024).toFixed(0)} KiB; target p50 < 10 ms (draw)`,
        },
        {
          measure: `${label}: GET /json p99`,
          ours: ms(warm.p99),
          baseline: ms(baseline.p99),
          ratio: ratio(warm.p99, baseline.p99),
        },
        {
          measure: `${label}: 304 (If-None-Match) p50`,
          ours: ms(notModified.p50),
          baseline: ms(baseline.p50),
          ratio: ratio(notModified.p50, baseline.p50),
          note: 'target < 1 ms',
        },
        {
          measure: `${label}: 304 p99`,
          ours: ms(notModified.p99),
          baseline: ms(baseline.p99),
          ratio: ratio(notModified.p99, baseline.p99),
        },
      );
      if (rebuilt)
        rows.push({
          measure: `${label}: GET /json right after a change (built afresh) p50`,
          ours: ms(rebuilt.p50),
          baseline: ms(baseline.p50),
          ratio: ratio(rebuilt.p50, baseline.p50),
          note: 'the cost a cached read avoids',
        });
      const svg = summarize(await sample(runs, 5, () => get(`/svg-preview/${id}`)));
      rows.push({
        measure: `${label}: GET /svg-preview p50`,
        ours: ms(svg.p50),
        baseline: ms(baseline.p50),
        ratio: ratio(svg.p50, baseline.p50),
        note: `${((await get(`/svg-preview/${id}`)).body.length / 1024).toFixed(0)} KiB`,
      });
    }
    return {
      title: 'Snapshots of boards at their quotas',
      baseline: '`JSON.stringify` of the same snapshot object in the benchmark process (no HTTP, no document).',
      rows,
      notes: [
        `${runs} sequential requests per figure over loopback; the server caches each view per board state, so the figures are the served path; the "after a change" row shows a rebuild.`,
      ],
    };
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
