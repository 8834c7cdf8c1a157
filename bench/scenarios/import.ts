/**
 * Import: POST /api/boards with 2550 items (500 texts, 2000 strokes, 50 images)
 * against a server in another process, vs building the same Y.Doc in process
 * without HTTP or storage.
 */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import * as Y from 'yjs';
import { tempDataDir, testEnv } from '../../test/helpers/child-server.js';
import { PNG_1PX } from '../../test/helpers/http.js';
import { spawnService } from '../lib/processes.js';
import type { Section } from '../lib/report.js';
import { ms, ratio, sample, summarize } from '../lib/stats.js';

export function fullDrawContent() {
  const points = (i: number) => Array.from({ length: 50 }, (_, k) => [i + k, (i * 7 + k * 3) % 500]);
  return {
    texts: Array.from({ length: 500 }, (_, i) => ({
      x: (i % 25) * 300,
      y: Math.floor(i / 25) * 200,
      content: `Note ${i}\n- [ ] check ${i}`,
    })),
    lines: Array.from({ length: 2000 }, (_, i) => ({ points: points(i), color: i % 2 ? 'blue' : 'red' })),
    images: Array.from({ length: 50 }, (_, i) => ({ x: i * 50, y: -200, width: 40, height: 40, dataUrl: PNG_1PX })),
  };
}

/**
 * The same 2550 items written into a bare Y.Doc in one transaction, and the
 * update encoded (which any storage of it needs): the CRDT cost alone.
 */
function buildInProcess(content: ReturnType<typeof fullDrawContent>): Uint8Array {
  const doc = new Y.Doc();
  const now = new Date().toISOString();
  doc.transact(() => {
    const texts = doc.getMap('texts');
    const lines = doc.getMap('lines');
    const images = doc.getMap('images');
    for (const text of content.texts) {
      const id = randomUUID();
      texts.set(id, { id, ...text, author: 'ai:import', last_updated: now });
    }
    for (const line of content.lines) {
      const id = randomUUID();
      lines.set(id, { id, ...line, width: 3, author: 'ai:import', last_updated: now });
    }
    for (const image of content.images) {
      const id = randomUUID();
      const { dataUrl: _payload, ...rest } = image;
      images.set(id, {
        id,
        ...rest,
        blob: 'x'.repeat(64),
        mime: 'image/png',
        bytes: 70,
        author: 'ai:import',
        last_updated: now,
      });
    }
  });
  return Y.encodeStateAsUpdate(doc);
}

export async function importScenario(quick: boolean): Promise<Section> {
  const runs = quick ? 5 : 30;
  const content = fullDrawContent();
  const body = JSON.stringify({ content });
  const dataDir = await tempDataDir();
  const server = await spawnService(testEnv(dataDir));
  try {
    const ours = summarize(
      await sample(runs, 3, async () => {
        const res = await fetch(`${server.url}/api/boards`, {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json' },
        });
        if (res.status !== 200) throw new Error(`import failed: ${res.status} ${await res.text()}`);
        await res.arrayBuffer();
      }),
    );
    const baseline = summarize(await sample(runs, 3, () => buildInProcess(content)));
    return {
      title: 'Import of 2550 items',
      baseline:
        'the same 2550 items written into a bare Y.Doc in one transaction in process and encoded as one update (no HTTP, no validation, no storage).',
      rows: [
        {
          measure: 'p50',
          ours: ms(ours.p50),
          baseline: ms(baseline.p50),
          ratio: ratio(ours.p50, baseline.p50),
          note: `target < 250 ms; ${ours.n} runs`,
        },
        { measure: 'p99', ours: ms(ours.p99), baseline: ms(baseline.p99), ratio: ratio(ours.p99, baseline.p99) },
      ],
      notes: [
        `Request body: ${(body.length / 1024).toFixed(0)} KiB of JSON; strokes of 50 points each; the server runs in a child process.`,
      ],
    };
  } finally {
    server.process.kill('SIGTERM');
    await server.exited;
    await rm(dataDir, { recursive: true, force: true });
  }
}
