/**
 * The arrow and eraser tools' geometry: where an arrow between two items
 * starts and ends and what it is anchored to, and which strokes an eraser's
 * path crosses.
 */

import { strokeBBox } from '../../../board/model/geometry.js';
import { type Outlined, outlinePoint } from '../../../board/mutations/anchored-strokes.js';
import type { Anchor, Anchors, Point, ShapeKind, StrokeInput } from '../../../schema/index.js';
import type { ItemLayer } from './items.js';
import { type Box, round, type World } from './view.js';

/** How near a stroke the eraser must pass, in screen pixels. */
export const ERASER_RADIUS_PX = 8;

/** An item an arrow end can be anchored to: a text, an image or a shape (ending on its outline: anchors name no other kind). */
export type Node = { id: string; kind: Anchor['kind']; box: Outlined };

const ANCHOR_KIND = { texts: 'text', images: 'image', shapes: 'shape' } as const;

/** The text, image or shape an arrow end lies on, from the item id under the pointer. */
export function nodeAt(layer: ItemLayer, id: string | null): Node | null {
  if (!id) return null;
  const kind = layer.kindOf(id);
  const element = layer.elements.get(id);
  if ((kind !== 'texts' && kind !== 'images' && kind !== 'shapes') || !element) return null;
  const box = layer.boxOf(element);
  const outline = kind === 'shapes' ? layer.maps().shapes.get(id)?.shape : undefined;
  return box && { id, kind: ANCHOR_KIND[kind], box: { ...box, outline } };
}

const centre = (box: Box): World => ({ x: box.x + box.width / 2, y: box.y + box.height / 2 });

/**
 * The stroke an arrow gesture makes, from its press at `a` to its release at
 * `b`: a straight line between the items under its ends, edge to edge on the
 * line between their centres, each end anchored to its item by its offset
 * from the item's top-left, with its head at the release whether or not an
 * item is there. The domain routes it the same way again whenever either item
 * moves or resizes (anchored-strokes.ts).
 */
export function arrowStroke(
  from: Node | null,
  a: World,
  to: Node | null,
  b: World,
): Pick<StrokeInput, 'points' | 'anchors' | 'arrowhead'> {
  const p = from ? outlinePoint(from.box, to ? centre(to.box) : b) : a;
  const q = to ? outlinePoint(to.box, from ? centre(from.box) : a) : b;
  const points: Point[] = [
    [round(p.x), round(p.y)],
    [round(q.x), round(q.y)],
  ];
  const anchor = (node: Node, [x, y]: Point): Anchor => ({
    kind: node.kind,
    id: node.id,
    dx: round(x - node.box.x),
    dy: round(y - node.box.y),
  });
  const anchors: Anchors = {};
  if (from) anchors.start = anchor(from, points[0]);
  if (to && to.id !== from?.id) anchors.end = anchor(to, points[1]);
  return { points, arrowhead: 'end', ...(anchors.start || anchors.end ? { anchors } : {}) };
}

/** The squared distance from p to the segment a–b. */
function segmentDistance2(p: World, a: Point, b: Point): number {
  const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
  const length2 = dx * dx + dy * dy;
  const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - a[0]) * dx + (p.y - a[1]) * dy) / length2));
  const [x, y] = [a[0] + t * dx - p.x, a[1] + t * dy - p.y];
  return x * x + y * y;
}

/** Points along from–to every half radius, so a fast swipe misses nothing between two pointer events; and their box, grown by the radius. */
function sampled(from: World, to: World, radius: number): { samples: World[]; box: Box } {
  const steps = Math.max(1, Math.ceil(Math.hypot(to.x - from.x, to.y - from.y) / (radius / 2)));
  const samples = Array.from({ length: steps + 1 }, (_, i) => ({
    x: from.x + ((to.x - from.x) * i) / steps,
    y: from.y + ((to.y - from.y) * i) / steps,
  }));
  const [x, y] = [Math.min(from.x, to.x) - radius, Math.min(from.y, to.y) - radius];
  const box = { x, y, width: Math.abs(to.x - from.x) + 2 * radius, height: Math.abs(to.y - from.y) + 2 * radius };
  return { samples, box };
}

const apart = (a: Box, b: Box) =>
  a.x > b.x + b.width || a.y > b.y + b.height || a.x + a.width < b.x || a.y + a.height < b.y;

/**
 * The strokes the eraser touches moving from `from` to `to` (world
 * coordinates, `radius` in world pixels).
 */
export function strokesCrossed(layer: ItemLayer, from: World, to: World, radius: number): string[] {
  const { samples, box: path } = sampled(from, to, radius);
  const hit: string[] = [];
  for (const [id, stroke] of layer.maps().lines.entries()) {
    const { points } = stroke;
    // Cheap rejection by bounding box before the per-segment test.
    if (apart(layer.strokeBox(id) ?? strokeBBox(points), path)) continue;
    const near = samples.some((p) => {
      if (points.length === 1) return segmentDistance2(p, points[0], points[0]) <= radius * radius;
      for (let i = 1; i < points.length; i++)
        if (segmentDistance2(p, points[i - 1], points[i]) <= radius * radius) return true;
      return false;
    });
    if (near) hit.push(id);
  }
  return hit;
}

/**
 * The other items the eraser touches on the same path, as tldraw's eraser
 * does: a shape where the path meets its outline (inside too, when it is
 * filled), a text, link or image anywhere on its box, a frame on its edge
 * only, so erasing inside a frame leaves the frame (and erasing a frame keeps
 * what it holds).
 */
export function itemsCrossed(layer: ItemLayer, from: World, to: World, radius: number): string[] {
  const { samples, box: path } = sampled(from, to, radius);
  const { texts, images, shapes, frames } = layer.maps();
  const hit: string[] = [];
  const outlined = (id: string, box: Box, inside: boolean, outline?: ShapeKind) => {
    if (apart(box, path)) return;
    const shape: Outlined = { x: box.x, y: box.y, width: box.width, height: box.height, outline };
    const middle = centre(box);
    const touches = samples.some((p) => {
      const atCentre = p.x === middle.x && p.y === middle.y; // which has no way out: any will do
      const edge = outlinePoint(shape, atCentre ? { x: p.x + 1, y: p.y } : p);
      const [toPoint, toEdge] = [
        Math.hypot(p.x - middle.x, p.y - middle.y),
        Math.hypot(edge.x - middle.x, edge.y - middle.y),
      ];
      return inside ? toPoint <= toEdge + radius : Math.abs(toPoint - toEdge) <= radius;
    });
    if (touches) hit.push(id);
  };
  for (const shape of shapes.values()) outlined(shape.id, shape, shape.fill !== 'none', shape.shape);
  for (const frame of frames.values()) outlined(frame.id, frame, false);
  for (const id of [...texts.keys(), ...images.keys()]) {
    const element = layer.elements.get(id);
    const box = element && layer.boxOf(element);
    if (box) outlined(id, box, true);
  }
  return hit;
}
