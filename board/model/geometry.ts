/** The plane items lie in: boxes, points, and the box a stroke's points span. */
import type { Point } from '../../schema/index.js';

export type World = { x: number; y: number };
export type Box = World & { width: number; height: number };

/** Integer bounding box of a point list: floor of the top-left, ceil of the bottom-right. */
export function strokeBBox(points: Point[]): Box {
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of points) {
    minX = Math.min(minX, x);
    minY = Math.min(minY, y);
    maxX = Math.max(maxX, x);
    maxY = Math.max(maxY, y);
  }
  const left = Math.floor(minX);
  const top = Math.floor(minY);
  return { x: left, y: top, width: Math.ceil(maxX) - left, height: Math.ceil(maxY) - top };
}

/** Whether `box` lies wholly inside `area`, edges included. */
export const liesWithin = (box: Box, area: Box): boolean =>
  box.x >= area.x &&
  box.y >= area.y &&
  box.x + box.width <= area.x + area.width &&
  box.y + box.height <= area.y + area.height;

/** Whether `box` and `area` share any point, edges included. */
export const overlaps = (box: Box, area: Box): boolean =>
  box.x <= area.x + area.width &&
  area.x <= box.x + box.width &&
  box.y <= area.y + area.height &&
  area.y <= box.y + box.height;
