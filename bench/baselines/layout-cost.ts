/**
 * One board document layout's cost, in a process of its own (`--expose-gc`):
 * `former` stores each item as one plain object (the layout before field-level
 * merges), `fields` as the board's item maps store it (a nested Y.Map per
 * item, typed fields as Y.Text). For a full draw board (500 texts, 2000
 * strokes of 50 points, 50 images) and a small one (20 items): heap bytes per
 * loaded board (with the readers' plain mirror for `fields`), the encoded
 * state, the time to load it (applyUpdate, and the mirror built), and the time
 * of one item's edit.
 */
import { randomUUID } from 'node:crypto';
import * as Y from 'yjs';
import { boardMaps } from '../../board/model/document-model.js';
import type { InkColor } from '../../schema/index.js';

type Layout = 'former' | 'fields';
const layout = process.argv[2] as Layout;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

function items(size: 'full' | 'small') {
  const now = new Date().toISOString();
  const [texts, lines, points] = size === 'full' ? [500, 2000, 50] : [10, 10, 3];
  return {
    texts: Array.from({ length: texts }, (_, i) => ({
      id: randomUUID(),
      x: (i % 25) * 300,
      y: Math.floor(i / 25) * 200,
      content: `Note ${i}\n- [ ] check ${i}`,
      author: 'ai:import',
      last_updated: now,
    })),
    lines: Array.from({ length: lines }, (_, i) => ({
      id: randomUUID(),
      points: Array.from({ length: points }, (_, k): [number, number] => [i + k, (i * 7 + k * 3) % 500]),
      color: (i % 2 ? 'blue' : 'red') as InkColor,
      width: 3,
      author: 'ai:import',
      last_updated: now,
    })),
  };
}

function build(content: ReturnType<typeof items>): Y.Doc {
  const doc = new Y.Doc();
  doc.transact(() => {
    if (layout === 'former') {
      for (const text of content.texts) doc.getMap('texts').set(text.id, text);
      for (const line of content.lines) doc.getMap('lines').set(line.id, line);
    } else {
      const maps = boardMaps(doc);
      for (const text of content.texts) maps.texts.set(text.id, text);
      for (const line of content.lines) maps.lines.set(line.id, line);
    }
  });
  return doc;
}

/** A loaded board as the server holds it: the document, and for `fields` the item maps' mirror. */
function load(update: Uint8Array): Y.Doc {
  const doc = new Y.Doc();
  Y.applyUpdate(doc, update);
  if (layout === 'fields') boardMaps(doc);
  return doc;
}

function heapPerBoard(update: Uint8Array, count: number): number {
  gc?.();
  const before = process.memoryUsage().heapUsed;
  const docs = Array.from({ length: count }, () => load(update));
  gc?.();
  const bytes = (process.memoryUsage().heapUsed - before) / docs.length;
  return bytes;
}

function timed(run: () => void, times: number): number[] {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const start = performance.now();
    run();
    samples.push(performance.now() - start);
  }
  return samples;
}

const full = items('full');
const fullState = Y.encodeStateAsUpdate(build(full));
const smallState = Y.encodeStateAsUpdate(build(items('small')));
const doc = load(fullState);
const target = full.texts[0];
let step = 0;
const edit = () =>
  doc.transact(() => {
    step++;
    const next = { ...target, x: target.x + step, content: `${target.content} ${step}` };
    if (layout === 'former') doc.getMap('texts').set(target.id, next);
    else boardMaps(doc).texts.set(target.id, next);
  });
console.log(
  JSON.stringify({
    layout,
    fullBytes: fullState.byteLength,
    smallBytes: smallState.byteLength,
    fullHeap: heapPerBoard(fullState, 20),
    smallHeap: heapPerBoard(smallState, 1000),
    loadMs: timed(() => load(fullState), 15),
    editMs: timed(edit, 500),
  }),
);
