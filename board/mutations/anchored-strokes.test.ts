/** Arrows tied to items: where they meet an item's edge, how they follow it, and which ends carry a head. */
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import type { StrokeItem } from '../model/document-model.js';
import { boardMaps } from '../model/document-model.js';
import { arrowheadOf } from '../model/items.js';
import { exitPoint } from './anchored-strokes.js';
import { moveItem, upsertStroke, upsertText } from './draw.js';
import { localWrite } from './local-write.js';

/** Every text is laid out 100 × 40 here, as the server's layout or the app's element would say. */
const writer = {
  boardId: 'board',
  mode: 'draw' as const,
  author: 'ai:test',
  textSize: () => ({ width: 100, height: 40 }),
};

/** A board with two texts and an arrow from the first to the second, drawn from centre to centre. */
function arrowBetweenTwoTexts() {
  const doc = new Y.Doc();
  const ids = localWrite(
    doc,
    writer,
    (w) => {
      const from = upsertText(w, { x: 0, y: 0, content: 'from' }).id;
      const to = upsertText(w, { x: 300, y: 0, content: 'to' }).id;
      const line = upsertStroke(w, {
        points: [
          [50, 20],
          [350, 20],
        ],
        anchors: { start: { kind: 'text', id: from, dx: 50, dy: 20 }, end: { kind: 'text', id: to, dx: 50, dy: 20 } },
      }).id;
      return { from, to, line };
    },
    'test',
  );
  return { doc, ...ids, stroke: () => boardMaps(doc).lines.get(ids.line) as StrokeItem };
}

describe('exitPoint', () => {
  const box = { x: 0, y: 0, width: 100, height: 50 };
  it('is where the ray from the centre leaves the box', () => {
    expect(exitPoint(box, { x: 200, y: 25 })).toEqual({ x: 100, y: 25 });
    expect(exitPoint(box, { x: 50, y: 200 })).toEqual({ x: 50, y: 50 });
    expect(exitPoint(box, { x: -100, y: -50 })).toEqual({ x: 0, y: 0 });
  });

  it('is the centre when the target is the centre', () => {
    expect(exitPoint(box, { x: 50, y: 25 })).toEqual({ x: 50, y: 25 });
  });
});

describe('an anchored straight stroke', () => {
  it('is drawn edge to edge, not centre to centre', () => {
    const { stroke } = arrowBetweenTwoTexts();
    expect(stroke().points).toEqual([
      [100, 20],
      [300, 20],
    ]);
  });

  it('is routed again, in the same write, when its target moves', () => {
    const { doc, to, stroke } = arrowBetweenTwoTexts();
    localWrite(doc, writer, (w) => moveItem(w, 'texts', to, { x: 0, y: 300 }), 'test');
    // The target is now straight below: the arrow leaves the bottom edge and meets the top one.
    expect(stroke().points).toEqual([
      [50, 40],
      [50, 300],
    ]);
    expect(stroke().anchors?.end).toMatchObject({ id: to, dx: 50, dy: 0 });
  });
});

describe('arrowheadOf', () => {
  const anchored = { anchors: { end: { kind: 'text' as const, id: 't', dx: 0, dy: 0 } } };
  it('is what the stroke says, anchored or not', () => {
    expect(arrowheadOf({ arrowhead: 'end' })).toBe('end');
    expect(arrowheadOf({ ...anchored, arrowhead: 'none' })).toBe('none');
    expect(arrowheadOf({ arrowhead: 'both' })).toBe('both');
  });

  it('is the end when that is anchored and the stroke names none, as before the field', () => {
    expect(arrowheadOf(anchored)).toBe('end');
    expect(arrowheadOf({ anchors: { start: anchored.anchors.end } })).toBe('none');
    expect(arrowheadOf({})).toBe('none');
  });
});
