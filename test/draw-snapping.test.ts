/**
 * The pure geometry behind the draw canvas's snapping (web/src/draw/tools/select/snapping.ts)
 * and its align and distribute (web/src/draw/arrange.ts); the browser tests drive both
 * with real input (test/browser/draw-snap-align.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { alignBoxes, distributeBoxes } from '../web/src/draw/arrange.js';
import { snapBox, snapTargets } from '../web/src/draw/tools/select/snapping.js';

const box = (x: number, y: number, width = 100, height = 40) => ({ x, y, width, height });

describe('snapping a dragged box', () => {
  const targets = snapTargets([box(100, 100), box(500, 400, 60, 60)]);

  it('moves its nearest line onto a candidate line within the threshold, and shows the guide from one to the other', () => {
    // Left 103 is 3 from the candidate's left 100; nothing on y is within 5.
    const snap = snapBox(targets, box(0, 300), 103, 0, 5);
    expect([snap.dx, snap.dy]).toEqual([100, 0]);
    expect(snap.guides).toEqual([
      { axis: 'x', at: 100, from: 100, to: 340 },
      { axis: 'x', at: 150, from: 100, to: 340 },
      { axis: 'x', at: 200, from: 100, to: 340 },
    ]);
  });

  it('picks the nearest of the three lines: a centre 1 away beats a left edge 4 away', () => {
    // Width 60: centre at 100 + dx + 30; the candidate's centre is 150, its left 100.
    const snap = snapBox(targets, box(0, 300, 60, 40), 121, 0, 5);
    expect(snap.dx).toBe(120);
    expect(snap.guides.map((guide) => guide.at)).toEqual([150]);
  });

  it('snaps both axes at once, and neither past the threshold', () => {
    const snap = snapBox(targets, box(0, 0, 60, 60), 498, 403, 5);
    expect([snap.dx, snap.dy]).toEqual([500, 400]);
    expect(new Set(snap.guides.map((guide) => guide.axis))).toEqual(new Set(['x', 'y']));
    const free = snapBox(targets, box(0, 0, 60, 60), 300, 250, 5);
    expect(free).toEqual({ dx: 300, dy: 250, guides: [] });
  });

  it('finds its line among thousands by a binary search', () => {
    const many = snapTargets(Array.from({ length: 3000 }, (_, i) => box(i * 37, (i % 50) * 90, 20, 20)));
    const snap = snapBox(many, box(0, 0, 20, 20), 37 * 1234 + 2, 5000, 3);
    expect(snap.dx).toBe(37 * 1234);
  });
});

describe('align and distribute', () => {
  const boxes = new Map([
    ['a', box(100, 100, 50, 20)],
    ['b', box(300, 200, 100, 40)],
    ['c', box(200, 50, 20, 80)],
  ]);

  it('aligns on the edges and centres of the box around them all', () => {
    expect(alignBoxes(boxes, 'left').get('b')).toEqual({ x: 100, y: 200 });
    expect(alignBoxes(boxes, 'right').get('a')).toEqual({ x: 350, y: 100 });
    expect(alignBoxes(boxes, 'centre').get('c')).toEqual({ x: 240, y: 50 });
    expect(alignBoxes(boxes, 'top').get('b')).toEqual({ x: 300, y: 50 });
    expect(alignBoxes(boxes, 'middle').get('a')).toEqual({ x: 100, y: 135 });
    expect(alignBoxes(boxes, 'bottom').get('c')).toEqual({ x: 200, y: 160 });
  });

  it('distributes with equal gaps, the first and last staying', () => {
    const spread = distributeBoxes(boxes, 'x');
    expect(spread.get('a')).toEqual({ x: 100, y: 100 });
    expect(spread.get('b')).toEqual({ x: 300, y: 200 });
    // Span 100..400 holds 170 of boxes: two gaps of 65.
    expect(spread.get('c')).toEqual({ x: 215, y: 50 });
  });

  it('distributes overlapping boxes by their centres', () => {
    const wide = new Map([
      ['a', box(0, 0, 300, 10)],
      ['b', box(50, 0, 300, 10)],
      ['c', box(100, 0, 300, 10)],
      ['d', box(10, 0, 300, 10)],
    ]);
    const spread = distributeBoxes(wide, 'x');
    for (const [i, id] of ['a', 'd', 'b', 'c'].entries()) expect(spread.get(id)?.x).toBeCloseTo((100 / 3) * i, 6);
  });
});
