/** Checks on where an anchored arrow's ends sit: on an item's edge, on the line between centres. */
import { expect } from 'vitest';

export type Box = { x: number; y: number; width: number; height: number };
export type At = { x: number; y: number };

export const centreOf = (box: Box): At => ({ x: box.x + box.width / 2, y: box.y + box.height / 2 });

/** How far `point` is from the edge of `box` (0 on its outline). */
export function edgeDistance(point: At, box: Box): number {
  const [left, right, top, bottom] = [box.x, box.x + box.width, box.y, box.y + box.height];
  const outsideX = Math.max(left - point.x, 0, point.x - right);
  const outsideY = Math.max(top - point.y, 0, point.y - bottom);
  if (outsideX || outsideY) return Math.hypot(outsideX, outsideY);
  return Math.min(point.x - left, right - point.x, point.y - top, bottom - point.y);
}

/** How far `point` is from the straight line through `a` and `b`. */
export function lineDistance(point: At, a: At, b: At): number {
  const length = Math.hypot(b.x - a.x, b.y - a.y);
  return Math.abs((b.x - a.x) * (a.y - point.y) - (a.x - point.x) * (b.y - a.y)) / length;
}

/** `point` lies on the edge of `box`, on the line from its centre towards `toward`, within `tolerance` px. */
export function expectOnEdge(point: At, box: Box, toward: At, tolerance: number, what = ''): void {
  const detail = `${what} ${JSON.stringify({ point, box, toward })}`;
  expect(edgeDistance(point, box), `off the edge: ${detail}`).toBeLessThanOrEqual(tolerance);
  expect(lineDistance(point, centreOf(box), toward), `off the centre line: ${detail}`).toBeLessThanOrEqual(tolerance);
  // On the side of the box that faces `toward`, not the far one.
  const c = centreOf(box);
  expect(
    (point.x - c.x) * (toward.x - c.x) + (point.y - c.y) * (toward.y - c.y),
    `facing away: ${detail}`,
  ).toBeGreaterThan(0);
}
