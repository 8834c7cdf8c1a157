/**
 * Mutations of shapes and frames (the contract's shapes extension): a shape is an outline with a
 * label that connectors end on; a frame is a titled area whose members are the
 * items wholly inside it, found by geometry where the move is applied, so the
 * server and the app move the same items.
 */
import type { FrameInput, ShapeInput } from '../../schema/index.js';
import type { FrameItem, ReadMap, ReadMaps, ShapeItem } from '../model/document-model.js';
import { errors } from '../model/errors.js';
import { type Box, liesWithin, strokeBBox } from '../model/geometry.js';
import { ITEM_QUOTAS, requireRoom } from '../model/item-quotas.js';
import { itemCount, putItem, setPresentFields, stamp } from '../model/items.js';
import { followAnchors } from './anchored-strokes.js';
import { type BoardWrite, requireMode } from './board-write.js';

/** Creates a shape, or updates the one `id` names; strokes anchored to it are routed to its outline again. */
export function upsertShape(w: BoardWrite, input: ShapeInput): ShapeItem {
  requireMode(w, 'draw');
  const current = input.id === undefined ? undefined : w.maps.shapes.get(input.id);
  if (!current) requireRoom(ITEM_QUOTAS.shapes, itemCount(w, 'shapes'));
  const item: ShapeItem = {
    ...current,
    ...stamp(w, current, input.author),
    shape: input.shape,
    x: input.x,
    y: input.y,
    width: input.width,
    height: input.height,
    color: input.color ?? current?.color ?? 'auto',
    fill: input.fill ?? current?.fill ?? 'none',
  };
  setPresentFields(item, input, ['label']);
  putItem(w, 'shapes', item);
  if (current) followAnchors(w, item.id, item.x - current.x, item.y - current.y);
  return item;
}

/** Creates a frame, or updates the one `id` names; a new size or place moves nothing (only a move carries members). */
export function upsertFrame(w: BoardWrite, input: FrameInput): FrameItem {
  requireMode(w, 'draw');
  const current = input.id === undefined ? undefined : w.maps.frames.get(input.id);
  if (!current) requireRoom(ITEM_QUOTAS.frames, itemCount(w, 'frames'));
  const item: FrameItem = {
    ...current,
    ...stamp(w, current, input.author),
    x: input.x,
    y: input.y,
    width: input.width,
    height: input.height,
  };
  setPresentFields(item, input, ['title']);
  putItem(w, 'frames', item);
  return item;
}

/** What an edit of an existing shape or frame may change: any field it was written with but its id and author. */
type Edit<I> = Partial<Omit<I, 'id' | 'author'>>;

/** Changes the given fields of the shape `id` names, keeping the others (and its author); null when there is none. */
export function editShape(w: BoardWrite, id: string, change: Edit<ShapeInput>): ShapeItem | null {
  const current = w.maps.shapes.get(id);
  if (!current) return null;
  const { author: _author, last_updated: _at, ...fields } = current;
  return upsertShape(w, { ...fields, ...change });
}

/** editShape for a frame: a new size or place moves nothing, as upsertFrame. */
export function editFrame(w: BoardWrite, id: string, change: Edit<FrameInput>): FrameItem | null {
  const current = w.maps.frames.get(id);
  if (!current) return null;
  const { author: _author, last_updated: _at, ...fields } = current;
  return upsertFrame(w, { ...fields, ...change });
}

/** An item a frame holds, by the map it is in. */
export type Member = { map: 'texts' | 'lines' | 'images' | 'shapes'; id: string };

/** What membership reads of a board: its draw items, and the size a text or link is laid out at. */
export type MemberMaps = {
  [K in Member['map']]: { values(): IterableIterator<ReadMaps[K] extends ReadMap<infer T> ? T : never> };
};

/**
 * The items wholly inside a frame's box: texts and links (at the size they
 * are laid out at; one of unknown size is no member), images, shapes and
 * strokes. Frames are never members: they do not nest.
 */
export function frameMembers(maps: MemberMaps, textSize: BoardWrite['textSize'], frame: Box): Member[] {
  const members: Member[] = [];
  for (const node of maps.texts.values()) {
    const size = textSize(node);
    if (size && liesWithin({ x: node.x, y: node.y, ...size }, frame)) members.push({ map: 'texts', id: node.id });
  }
  for (const image of maps.images.values()) if (liesWithin(image, frame)) members.push({ map: 'images', id: image.id });
  for (const shape of maps.shapes.values()) if (liesWithin(shape, frame)) members.push({ map: 'shapes', id: shape.id });
  for (const stroke of maps.lines.values())
    if (liesWithin(strokeBBox(stroke.points), frame)) members.push({ map: 'lines', id: stroke.id });
  return members;
}

/**
 * Moves a frame's top-left to (x, y) and its members by the same delta, in
 * this write. A stroke among the members moves whole; one anchored to a
 * member and not itself a member follows its anchor as for any move.
 */
export function moveFrame(w: BoardWrite, id: string, x: number, y: number): { frame: FrameItem; members: string[] } {
  requireMode(w, 'draw');
  const current = w.maps.frames.get(id);
  if (!current) throw errors.itemNotFound('frame', id);
  const [dx, dy] = [x - current.x, y - current.y];
  const members = frameMembers(w.maps, w.textSize, current);
  const frame: FrameItem = { ...current, x, y, last_updated: w.now };
  w.maps.frames.set(id, frame);
  if (dx === 0 && dy === 0) return { frame, members: members.map((member) => member.id) };
  const carried = new Set(members.filter((member) => member.map === 'lines').map((member) => member.id));
  for (const member of members) {
    if (member.map === 'lines') {
      const stroke = w.maps.lines.get(member.id);
      if (stroke) {
        const points = stroke.points.map(([px, py]): [number, number] => [px + dx, py + dy]);
        w.maps.lines.set(member.id, { ...stroke, points, last_updated: w.now });
      }
    } else {
      if (member.map === 'texts') shift(w.maps.texts, member.id, dx, dy, w.now);
      else if (member.map === 'images') shift(w.maps.images, member.id, dx, dy, w.now);
      else shift(w.maps.shapes, member.id, dx, dy, w.now);
      followAnchors(w, member.id, dx, dy, carried);
    }
  }
  return { frame, members: members.map((member) => member.id) };
}

/** Moves an item placed by its top-left (a text, link, image or shape) by (dx, dy). */
function shift<T extends { x: number; y: number; last_updated: string }>(
  map: { get(id: string): T | undefined; set(id: string, item: T): void },
  id: string,
  dx: number,
  dy: number,
  now: string,
): void {
  const item = map.get(id);
  if (item) map.set(id, { ...item, x: item.x + dx, y: item.y + dy, last_updated: now });
}
