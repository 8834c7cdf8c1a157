/**
 * Snapping a dragged selection to the items around it, as tldraw and Figma do:
 * the selection box's left, centre and right (top, middle and bottom) snap to
 * another item's within a few screen pixels, and a guide shows each line it
 * then lies on. Pure geometry: the candidates' lines are sorted once when the
 * drag starts, so a pointer move is a binary search per edge (snapper.ts is
 * the DOM side).
 */
import type { Box } from '../../view.js';

/** How near, in screen pixels, an edge or centre must come to another's to snap: the same at any zoom. */
export const SNAP_PX = 6;

/** Two lines this close, in world pixels, are one: a snapped box lies on the line it snapped to, bar rounding. */
const SAME_LINE = 0.05;

/**
 * The lines of one axis, sorted by `at`: each candidate's three (left, centre,
 * right for x), with the candidate's extent along the other axis, which a
 * guide on that line reaches to.
 */
type Lines = { at: Float64Array; from: Float64Array; to: Float64Array };

/** Every candidate's lines on both axes. */
export type SnapTargets = { x: Lines; y: Lines };

/** A guide: on axis `x` a vertical line at x = `at` from y = `from` to `to`; on `y` a horizontal one. */
export type Guide = { axis: 'x' | 'y'; at: number; from: number; to: number };

/** Where a dragged box ends: the drag's offset, corrected onto the lines it snapped to, and their guides. */
export type Snap = { dx: number; dy: number; guides: Guide[] };

/** The three lines of a box on an axis: its start, centre and end. */
const linesOf = (start: number, size: number) => [start, start + size / 2, start + size];

function sortedLines(entries: [at: number, from: number, to: number][]): Lines {
  entries.sort((a, b) => a[0] - b[0]);
  const lines = {
    at: new Float64Array(entries.length),
    from: new Float64Array(entries.length),
    to: new Float64Array(entries.length),
  };
  entries.forEach(([at, from, to], i) => {
    lines.at[i] = at;
    lines.from[i] = from;
    lines.to[i] = to;
  });
  return lines;
}

/** The sorted lines of `boxes`, the items a drag may snap to. */
export function snapTargets(boxes: Iterable<Box>): SnapTargets {
  const xs: [number, number, number][] = [];
  const ys: [number, number, number][] = [];
  for (const box of boxes) {
    for (const at of linesOf(box.x, box.width)) xs.push([at, box.y, box.y + box.height]);
    for (const at of linesOf(box.y, box.height)) ys.push([at, box.x, box.x + box.width]);
  }
  return { x: sortedLines(xs), y: sortedLines(ys) };
}

/** The index of the first line at or after `value` (the length when none is). */
function firstFrom(at: Float64Array, value: number): number {
  let [low, high] = [0, at.length];
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (at[middle] < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The smallest move that puts one of `values` on a line within `threshold`, or null when none is that near. */
function nearest(lines: Lines, values: number[], threshold: number): number | null {
  let best: number | null = null;
  for (const value of values) {
    const next = firstFrom(lines.at, value);
    for (const i of [next - 1, next]) {
      if (i < 0 || i >= lines.at.length) continue;
      const move = lines.at[i] - value;
      if (Math.abs(move) <= threshold && (best === null || Math.abs(move) < Math.abs(best))) best = move;
    }
  }
  return best;
}

/** The guides of the lines among `values` (the box's own, from `from` to `to` across) that candidates share. */
function guidesOn(lines: Lines, axis: Guide['axis'], values: number[], from: number, to: number): Guide[] {
  const guides: Guide[] = [];
  for (const value of new Set(values)) {
    let [low, high, found] = [from, to, false];
    for (let i = firstFrom(lines.at, value - SAME_LINE); i < lines.at.length && lines.at[i] <= value + SAME_LINE; i++) {
      [low, high, found] = [Math.min(low, lines.from[i]), Math.max(high, lines.to[i]), true];
    }
    if (found) guides.push({ axis, at: value, from: low, to: high });
  }
  return guides;
}

/**
 * Where `box`, moved by (dx, dy), snaps among `targets`: on each axis the
 * nearest of its three lines to a candidate's, if within `threshold` world
 * pixels, moves onto it; the guides show every line of the snapped box that a
 * candidate shares, on the axes that snapped.
 */
export function snapBox(targets: SnapTargets, box: Box, dx: number, dy: number, threshold: number): Snap {
  const [x, y] = [box.x + dx, box.y + dy];
  const onX = nearest(targets.x, linesOf(x, box.width), threshold);
  const onY = nearest(targets.y, linesOf(y, box.height), threshold);
  const [sx, sy] = [x + (onX ?? 0), y + (onY ?? 0)];
  const guides = [
    ...(onX === null ? [] : guidesOn(targets.x, 'x', linesOf(sx, box.width), sy, sy + box.height)),
    ...(onY === null ? [] : guidesOn(targets.y, 'y', linesOf(sy, box.height), sx, sx + box.width)),
  ];
  return { dx: sx - box.x, dy: sy - box.y, guides };
}
