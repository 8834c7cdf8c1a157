/**
 * Align and distribute, as tldraw and Figma do them: where each box of a
 * selection goes. Pure geometry over the items' boxes; the actions that write
 * the moves are in actions/arrange.ts.
 */
import type { Box, World } from './view.js';

/** An edge or centre line the boxes are aligned on: the selection's own (its leftmost left, its centre...). */
export type Alignment = 'left' | 'centre' | 'right' | 'top' | 'middle' | 'bottom';

/** The new top-left corner of each box of `boxes` aligned on `to` of the box around them all. */
export function alignBoxes(boxes: ReadonlyMap<string, Box>, to: Alignment): Map<string, World> {
  const all = [...boxes.values()];
  const left = Math.min(...all.map((box) => box.x));
  const top = Math.min(...all.map((box) => box.y));
  const right = Math.max(...all.map((box) => box.x + box.width));
  const bottom = Math.max(...all.map((box) => box.y + box.height));
  const place = (box: Box): World => {
    switch (to) {
      case 'left':
        return { x: left, y: box.y };
      case 'centre':
        return { x: (left + right) / 2 - box.width / 2, y: box.y };
      case 'right':
        return { x: right - box.width, y: box.y };
      case 'top':
        return { x: box.x, y: top };
      case 'middle':
        return { x: box.x, y: (top + bottom) / 2 - box.height / 2 };
      case 'bottom':
        return { x: box.x, y: bottom - box.height };
    }
  };
  return new Map([...boxes].map(([id, box]) => [id, place(box)]));
}

/**
 * The new top-left corner of each box of `boxes` spread along `axis` with equal
 * gaps between them, the first and the last (by their start) staying where
 * they are, as tldraw does; boxes too wide for any gap are spread by their
 * centres instead.
 */
export function distributeBoxes(boxes: ReadonlyMap<string, Box>, axis: 'x' | 'y'): Map<string, World> {
  const size = axis === 'x' ? 'width' : 'height';
  const sorted = [...boxes].sort(([, a], [, b]) => a[axis] - b[axis]);
  const [first, last] = [sorted[0][1], sorted[sorted.length - 1][1]];
  const span = last[axis] + last[size] - first[axis];
  const gap = (span - sorted.reduce((sum, [, box]) => sum + box[size], 0)) / (sorted.length - 1);
  const centreStep = (last[axis] + last[size] / 2 - (first[axis] + first[size] / 2)) / (sorted.length - 1);
  const places = new Map<string, World>();
  let next = first[axis];
  sorted.forEach(([id, box], i) => {
    const at = gap >= 0 ? next : first[axis] + first[size] / 2 + centreStep * i - box[size] / 2;
    next = at + box[size] + gap;
    places.set(id, axis === 'x' ? { x: at, y: box.y } : { x: box.x, y: at });
  });
  return places;
}
