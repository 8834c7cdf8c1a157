import type { Anchor, Point, ShapeKind } from '../../schema/index.js';
import type { StrokeItem } from '../model/document-model.js';
import type { Box, World } from '../model/geometry.js';
import type { ItemMap } from '../model/item-map.js';
import type { BoardWrite } from './board-write.js';

/** A stored coordinate: to a tenth of a pixel, as the app stores what it draws. */
const tenth = (value: number) => Math.round(value * 10) / 10;

const centreOf = (box: Box): World => ({ x: box.x + box.width / 2, y: box.y + box.height / 2 });

/** Where the ray from the centre of `box` towards `to` leaves the box (the centre itself when `to` is there). */
export function exitPoint(box: Box, to: World): World {
  const from = centreOf(box);
  const [dx, dy] = [to.x - from.x, to.y - from.y];
  if (dx === 0 && dy === 0) return from;
  const t = Math.min(
    dx === 0 ? Infinity : box.width / 2 / Math.abs(dx),
    dy === 0 ? Infinity : box.height / 2 / Math.abs(dy),
  );
  return { x: from.x + dx * t, y: from.y + dy * t };
}

/** An item an end can meet: its box, and the outline within it (a text's or image's is its box). */
export type Outlined = Box & { outline?: ShapeKind };

/**
 * Where the ray from the centre of an item towards `to` crosses its outline:
 * the box's edge, the ellipse inscribed in it, or the diamond joining the
 * middles of its sides (the shapes extension: an end meets the outline, not the box).
 */
export function outlinePoint(item: Outlined, to: World): World {
  if (item.outline === undefined || item.outline === 'rectangle') return exitPoint(item, to);
  const from = centreOf(item);
  const [dx, dy] = [to.x - from.x, to.y - from.y];
  if (dx === 0 && dy === 0) return from;
  const [a, b] = [item.width / 2, item.height / 2];
  const t = item.outline === 'ellipse' ? 1 / Math.hypot(dx / a, dy / b) : 1 / (Math.abs(dx) / a + Math.abs(dy) / b);
  return { x: from.x + dx * t, y: from.y + dy * t };
}

/** The item an anchor names as this write sees it; null when it is gone or its size is unknown to this write. */
function anchorBox(w: BoardWrite, anchor: Anchor): Outlined | null {
  const image = w.maps.images.get(anchor.id);
  if (image) return { x: image.x, y: image.y, width: image.width, height: image.height };
  const shape = w.maps.shapes.get(anchor.id);
  if (shape) return { x: shape.x, y: shape.y, width: shape.width, height: shape.height, outline: shape.shape };
  const node = w.maps.texts.get(anchor.id);
  const size = node && w.textSize(node);
  return node && size ? { x: node.x, y: node.y, width: size.width, height: size.height } : null;
}

/**
 * A straight anchored stroke run edge to edge, its anchors' offsets set to
 * where its ends now are; the stroke unchanged when it is not straight, has
 * both ends on one item, or no anchored item with a known box.
 */
export function routed(w: BoardWrite, stroke: StrokeItem): StrokeItem {
  const { anchors, points } = stroke;
  if (!anchors || points.length !== 2 || anchors.start?.id === anchors.end?.id) return stroke;
  const start = anchors.start && anchorBox(w, anchors.start);
  const end = anchors.end && anchorBox(w, anchors.end);
  if (!start && !end) return stroke;
  const [p, q] = points.map(([x, y]) => ({ x, y }));
  const from = start ? outlinePoint(start, end ? centreOf(end) : q) : p;
  const to = end ? outlinePoint(end, start ? centreOf(start) : p) : q;
  const tie = (anchor: Anchor, box: Box | null | undefined, at: World): Anchor =>
    box ? { ...anchor, dx: tenth(at.x - box.x), dy: tenth(at.y - box.y) } : anchor;
  return {
    ...stroke,
    points: [
      [tenth(from.x), tenth(from.y)],
      [tenth(to.x), tenth(to.y)],
    ],
    anchors: {
      ...(anchors.start && { start: tie(anchors.start, start, from) }),
      ...(anchors.end && { end: tie(anchors.end, end, to) }),
    },
  };
}

/**
 * Brings the strokes anchored to a node that moved by (dx, dy), or changed
 * size, to it: each anchored end moves by the delta and the pull fades along
 * the stroke to the other end (a stroke with both ends on the node moves
 * whole); then a straight stroke is routed edge to edge. Strokes in `moved`
 * were moved whole by the same write (a frame's members) and stay as they are.
 */
export function followAnchors(
  w: BoardWrite,
  nodeId: string,
  dx: number,
  dy: number,
  moved?: ReadonlySet<string>,
): void {
  for (const id of strokesAnchoredTo(w, nodeId)) {
    if (moved?.has(id)) continue;
    const stroke = w.maps.lines.get(id);
    if (!stroke) continue;
    const startFollows = stroke.anchors?.start?.id === nodeId;
    const endFollows = stroke.anchors?.end?.id === nodeId;
    if (!startFollows && !endFollows) continue;
    const weights = pathFractions(stroke.points);
    const points = stroke.points.map(([x, y], i): Point => {
      const weight = (startFollows ? 1 - weights[i] : 0) + (endFollows ? weights[i] : 0);
      return [x + dx * weight, y + dy * weight];
    });
    const next = routed(w, { ...stroke, points });
    // A resize that leaves the stroke where it was writes nothing: an unchanged value is still an update.
    if (JSON.stringify([next.points, next.anchors]) !== JSON.stringify([stroke.points, stroke.anchors]))
      w.maps.lines.set(stroke.id, next);
  }
}

/**
 * The committed strokes anchored to each node, by node id: built once per
 * version of the strokes map (an observer drops it when the map changes), so
 * moving 50 items a frame reads it 50 times instead of walking 2000 strokes
 * 50 times.
 */
const anchorIndexes = new WeakMap<ItemMap<StrokeItem>, Map<string, string[]>>();

function anchorIndex(lines: ItemMap<StrokeItem>): Map<string, string[]> {
  let index = anchorIndexes.get(lines);
  if (index) return index;
  index = new Map();
  for (const stroke of lines.values()) {
    for (const anchor of [stroke.anchors?.start, stroke.anchors?.end]) {
      if (anchor) index.set(anchor.id, [...(index.get(anchor.id) ?? []), stroke.id]);
    }
  }
  if (!anchorIndexes.has(lines)) lines.observe(() => anchorIndexes.delete(lines));
  anchorIndexes.set(lines, index);
  return index;
}

/** Ids of the strokes that may be anchored to a node as this write sees them: the committed ones, and any the write itself changed. */
function strokesAnchoredTo(w: BoardWrite, nodeId: string): Set<string> {
  const { map, cleared } = w.maps.lines.committed;
  const ids = new Set(cleared ? [] : (anchorIndex(map as ItemMap<StrokeItem>).get(nodeId) ?? []));
  for (const id of w.maps.lines.changedKeys()) ids.add(id);
  return ids;
}

/** Fraction of the path length travelled at each point (by index when the path has no length). */
function pathFractions(points: Point[]): number[] {
  const lengths = [0];
  for (let i = 1; i < points.length; i++) {
    lengths.push(lengths[i - 1] + Math.hypot(points[i][0] - points[i - 1][0], points[i][1] - points[i - 1][1]));
  }
  const total = lengths[lengths.length - 1];
  if (total === 0) return points.map((_, i) => (points.length === 1 ? 0 : i / (points.length - 1)));
  return lengths.map((length) => length / total);
}
