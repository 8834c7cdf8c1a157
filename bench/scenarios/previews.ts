/**
 * Someone reads a small board while, on another board, people edit Mermaid
 * diagrams and an agent asks for the board's preview after each edit. Every
 * edit is a diagram no cache has seen, so its write and its preview lay it
 * out. What is measured is the bystander's `GET /json`: the same requests with
 * nothing else running are the baseline, in the same run.
 */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { tempDataDir, testEnv } from '../../test/helpers/child-server.js';
import { createBoard } from '../lib/clients.js';
import { spawnService } from '../lib/processes.js';
import type { Row, Section } from '../lib/report.js';
import { ms, ratio, summarize } from '../lib/stats.js';

const DIAGRAMS = 3;
const BYSTANDER_GAP_MS = 20;

/** A ten-state diagram, about half a second of layout, new for every `seed`. */
function stateDiagram(seed: string): string {
  const name = (i: number) => `${['Idle', 'Loading', 'Ready', 'Saving', 'Failed'][i % 5]}${Math.floor(i / 5)}_${seed}`;
  const lines = ['stateDiagram-v2', `  [*] --> ${name(0)}`];
  for (let i = 0; i < 10; i++) {
    lines.push(`  ${name(i)} --> ${name((i + 1) % 10)}: next step ${i}`);
    lines.push(`  ${name(i)} --> ${name((i + 3) % 10)}: on event ${i}`);
  }
  return ['```mermaid', ...lines, `  ${name(9)} --> [*]`, '```'].join('\n');
}

/** Times of sequential reads of `url`, one every gap, until `until` settles, or `until` of them when it is a number. */
async function bystander(url: string, until: Promise<unknown> | number): Promise<number[]> {
  const times: number[] = [];
  let done = false;
  if (typeof until !== 'number') void until.finally(() => (done = true));
  while (typeof until === 'number' ? times.length < until : !done) {
    const started = performance.now();
    await (await fetch(url)).text();
    times.push(performance.now() - started);
    await sleep(BYSTANDER_GAP_MS);
  }
  return times;
}

/** `spawn` starts the service under test: this checkout's by default, another's to compare (bench/lib/processes.ts). */
export async function previewsScenario(quick: boolean, spawn = spawnService): Promise<Section> {
  const rounds = quick ? 3 : 10;
  const dir = await tempDataDir();
  const server = await spawn(testEnv(dir));
  try {
    const small = await createBoard(server.url, { content: { texts: [{ x: 0, y: 0, content: 'Read me' }] } });
    const diagrams = await createBoard(server.url, {});
    const read = `${server.url}/json/${small}`;
    const post = (body: unknown) =>
      fetch(`${server.url}/api/boards/${diagrams}/texts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((response) => response.text());

    // Threads (and the server's caches) warm: one diagram written and previewed before anything is timed.
    await post({ id: 'warm', x: 0, y: -900, content: stateDiagram(randomUUID()) });
    await (await fetch(`${server.url}/svg-preview/${diagrams}`)).text();
    const alone = summarize(await bystander(read, quick ? 100 : 300));

    const writes: number[] = [];
    const previews: number[] = [];
    const load = (async () => {
      for (let round = 0; round < rounds; round++) {
        for (let i = 0; i < DIAGRAMS; i++) {
          const started = performance.now();
          await post({ id: `diagram-${i}`, x: i * 700, y: 0, content: stateDiagram(randomUUID().slice(0, 8)) });
          writes.push(performance.now() - started);
        }
        const started = performance.now();
        await (await fetch(`${server.url}/svg-preview/${diagrams}`)).text();
        previews.push(performance.now() - started);
      }
    })();
    const beside = summarize(await bystander(read, load));
    await load;
    const written = summarize(writes);
    const drawn = summarize(previews);

    const rows: Row[] = [
      {
        measure: 'a bystander GET /json beside diagram edits and previews: p50',
        ours: ms(beside.p50),
        baseline: ms(alone.p50),
        ratio: ratio(beside.p50, alone.p50),
        note: `${beside.n} reads, one every ${BYSTANDER_GAP_MS} ms`,
      },
      {
        measure: 'a bystander GET /json beside diagram edits and previews: p99',
        ours: ms(beside.p99),
        baseline: ms(alone.p99),
        ratio: ratio(beside.p99, alone.p99),
        note: 'what waits behind another board’s picture',
      },
    ];
    return {
      title: 'Previews beside other requests',
      baseline:
        'The same bystander reads of a small board, with no preview or diagram edit running (same server, same run).',
      rows,
      notes: [
        `${rounds} rounds: ${DIAGRAMS} REST writes of a new ten-state Mermaid diagram (p50 ${ms(written.p50)} ms), then GET /svg-preview of that board (p50 ${ms(drawn.p50)} ms, p99 ${ms(drawn.p99)} ms).`,
        'Diagram layout and preview drawing run in the preview threads (docs/preview.md); the machine has 2 cores, shared with the benchmark process.',
      ],
    };
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
