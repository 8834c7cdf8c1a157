/**
 * Mutations of draw boards: texts, links, strokes, images, moves and erases.
 * Each takes validated input and runs inside the caller's one Y transaction;
 * every check comes before the first change, so a rejected call changes nothing.
 */
import type {
  Anchors,
  DrawKind,
  ImageInput,
  ImageResizeInput,
  LinkInput,
  MoveInput,
  StrokeInput,
  TextInput,
} from '../../schema/index.js';
import {
  base64DecodedBytes,
  MAX_IMAGE_BYTES,
  MAX_TEXT_CHARS,
  parseImageDataUrl,
  STROKE_WIDTH_PX,
} from '../../schema/index.js';
import type { ImageItem, LinkItem, ShapeItem, StrokeItem, TextItem, TextNode } from '../model/document-model.js';
import { isLink } from '../model/document-model.js';
import { errors } from '../model/errors.js';
import { strokeBBox } from '../model/geometry.js';
import { ITEM_QUOTAS, requireImageBytes, requireRoom } from '../model/item-quotas.js';
import { dropItem, itemCount, putItem, setPresentFields, stamp } from '../model/items.js';
import { followAnchors, routed } from './anchored-strokes.js';
import { type BoardWrite, type CountedMap, requireMode } from './board-write.js';
import { moveFrame } from './shapes.js';

/** Creates a text, or updates the text `id` names (its author stays; omitted optional fields keep their value). */
export function upsertText(w: BoardWrite, input: TextInput): TextItem {
  requireMode(w, 'draw');
  if (input.content.length > MAX_TEXT_CHARS) {
    throw errors.quotaExceeded(
      'text_chars',
      `a text holds at most ${MAX_TEXT_CHARS} characters (got ${input.content.length})`,
    );
  }
  const found = input.id === undefined ? undefined : w.maps.texts.get(input.id);
  const current = found && !isLink(found) ? found : undefined;
  if (!current) requireRoom(ITEM_QUOTAS.texts, itemCount(w, 'texts'));
  if (current && input.postit === undefined && input.diagram === true && current.postit) {
    throw errors.invalidPayload('diagram', 'a text cannot be both a post-it and a diagram frame');
  }
  if (current && input.diagram === undefined && input.postit === true && current.diagram) {
    throw errors.invalidPayload('postit', 'a text cannot be both a post-it and a diagram frame');
  }
  const item: TextItem = {
    ...current,
    ...stamp(w, current, input.author),
    x: input.x,
    y: input.y,
    content: input.content,
  };
  setPresentFields(item, input, ['color', 'width', 'postit', 'diagram']);
  putItem(w, 'texts', item);
  if (current) followAnchors(w, item.id, item.x - current.x, item.y - current.y);
  return item;
}

/** The link write response of the spec. */
export function linkResult(link: LinkItem) {
  const { id, x, y, url, author } = link;
  return { id, x, y, url, author, kind: 'link' as const };
}

/** Creates a link, or updates the link `id` names. */
export function upsertLink(w: BoardWrite, input: LinkInput): LinkItem {
  requireMode(w, 'draw');
  const found = input.id === undefined ? undefined : w.maps.texts.get(input.id);
  const current = found && isLink(found) ? found : undefined;
  if (!current) requireRoom(ITEM_QUOTAS.texts, itemCount(w, 'texts'));
  const item: LinkItem = { ...stamp(w, current, input.author), kind: 'link', x: input.x, y: input.y, url: input.url };
  putItem(w, 'texts', item);
  if (current) followAnchors(w, item.id, item.x - current.x, item.y - current.y);
  return item;
}

/** The stroke write response of the spec. */
export function strokeResult(stroke: StrokeItem) {
  return {
    id: stroke.id,
    pointCount: stroke.points.length,
    color: stroke.color,
    bbox: strokeBBox(stroke.points),
    author: stroke.author,
  };
}

/** The map that holds the items an anchor of each kind names. */
const ANCHORED_IN = { text: 'texts', image: 'images', shape: 'shapes' } as const;

/**
 * Refuses an end tied to an item this board does not hold under that kind. An
 * end the stroke already had stays as it is (its item may have been erased
 * since, which leaves the stroke where it is), so a snapshot sent back works.
 */
function requireAnchoredItems(w: BoardWrite, anchors: Anchors | undefined, current: Anchors | undefined): void {
  for (const end of ['start', 'end'] as const) {
    const anchor = anchors?.[end];
    if (!anchor || (anchor.id === current?.[end]?.id && anchor.kind === current?.[end]?.kind)) continue;
    if (!w.maps[ANCHORED_IN[anchor.kind]].has(anchor.id))
      throw errors.invalidPayload(`anchors.${end}.id`, `names no ${anchor.kind} on this board`);
  }
}

/** Creates a stroke, or replaces the points (and colour, anchors, arrowheads, label) of the stroke `id` names. */
export function upsertStroke(w: BoardWrite, input: StrokeInput): StrokeItem {
  requireMode(w, 'draw');
  const current = input.id === undefined ? undefined : w.maps.lines.get(input.id);
  if (!current) requireRoom(ITEM_QUOTAS.lines, itemCount(w, 'lines'));
  const item: StrokeItem = {
    ...current,
    ...stamp(w, current, input.author),
    points: input.points,
    color: input.color ?? current?.color ?? 'auto',
    width: STROKE_WIDTH_PX,
  };
  requireAnchoredItems(w, input.anchors, current?.anchors);
  setPresentFields(item, input, ['anchors', 'arrowhead', 'label']);
  const placed = routed(w, item);
  putItem(w, 'lines', placed);
  return placed;
}

/** The image write response of the spec. */
export function imageResult(image: ImageItem) {
  const { id, x, y, width, height, author } = image;
  return { id, x, y, width, height, hasThumbDataUrl: image.thumbDataUrl !== undefined, author };
}

/** Creates an image, or replaces the image `id` names; the payload goes to the blob store. */
export function upsertImage(w: BoardWrite, input: ImageInput): ImageItem {
  requireMode(w, 'draw');
  const parsed = parseImageDataUrl(input.dataUrl);
  if (!parsed) throw errors.invalidPayload('dataUrl', 'not an image data URL');
  const bytes = base64DecodedBytes(parsed.base64);
  if (bytes > MAX_IMAGE_BYTES) {
    throw errors.quotaExceeded(
      'image_bytes_per_item',
      `an image holds at most ${MAX_IMAGE_BYTES} bytes (got ${bytes})`,
    );
  }
  const current = input.id === undefined ? undefined : w.maps.images.get(input.id);
  if (!current) requireRoom(ITEM_QUOTAS.images, itemCount(w, 'images'));
  let total = bytes;
  for (const image of w.maps.images.values()) if (image.id !== current?.id) total += image.bytes;
  requireImageBytes(total);
  const blob = w.blobs.put(w.boardId, input.dataUrl);
  const { x, y, width, height } = input;
  const item: ImageItem = {
    ...current,
    ...stamp(w, current, input.author),
    x,
    y,
    width,
    height,
    blob,
    mime: parsed.mime,
    bytes,
  };
  setPresentFields(item, input, ['thumbDataUrl']);
  putItem(w, 'images', item);
  if (current) followAnchors(w, item.id, x - current.x, y - current.y);
  return item;
}

/**
 * Sets an image's size, keeping its payload (upsertImage needs the payload,
 * which a browser resizing an image does not hold). The size is checked by the
 * schema at the edge (ImageResizeInput); the mode and the image here.
 */
export function resizeImage(w: BoardWrite, id: string, size: ImageResizeInput): ImageItem {
  requireMode(w, 'draw');
  const current = w.maps.images.get(id);
  if (!current) throw errors.itemNotFound('image', id);
  const item: ImageItem = { ...current, width: size.width, height: size.height, last_updated: w.now };
  putItem(w, 'images', item);
  followAnchors(w, id, 0, 0);
  return item;
}

/** The item a move places by its top-left: a text, link, image or shape (strokes and frames move their own way). */
function findNode(w: BoardWrite, kind: DrawKind, id: string): TextNode | ImageItem | ShapeItem | undefined {
  switch (kind) {
    case 'texts':
      return w.maps.texts.get(id); // links are listed among texts, so `texts` reaches them too
    case 'links': {
      const node = w.maps.texts.get(id);
      return node && isLink(node) ? node : undefined;
    }
    case 'images':
      return w.maps.images.get(id);
    case 'shapes':
      return w.maps.shapes.get(id);
    case 'strokes':
    case 'lines':
    case 'frames':
      return undefined;
  }
}

/**
 * Moves an item: texts, links, images and shapes put their top-left at (x, y);
 * a stroke is translated so its bounding-box top-left lands there; a frame
 * carries its members along (shapes.ts), and its answer lists them. Strokes
 * anchored to a moved item follow it (anchored-strokes.ts).
 */
export function moveItem(
  w: BoardWrite,
  kind: DrawKind,
  id: string,
  to: MoveInput,
): { id: string; x: number; y: number; members?: string[] } {
  requireMode(w, 'draw');
  if (kind === 'strokes' || kind === 'lines') {
    const stroke = w.maps.lines.get(id);
    if (!stroke) throw errors.itemNotFound('stroke', id);
    let [minX, minY] = [Infinity, Infinity];
    for (const [x, y] of stroke.points) [minX, minY] = [Math.min(minX, x), Math.min(minY, y)];
    const [dx, dy] = [to.x - minX, to.y - minY];
    w.maps.lines.set(id, { ...stroke, points: stroke.points.map(([x, y]) => [x + dx, y + dy]), last_updated: w.now });
    return { id, x: to.x, y: to.y };
  }
  if (kind === 'frames') return { id, x: to.x, y: to.y, members: moveFrame(w, id, to.x, to.y).members };
  const node = findNode(w, kind, id);
  if (!node) throw errors.itemNotFound(kind.replace(/s$/, ''), id);
  const [dx, dy] = [to.x - node.x, to.y - node.y];
  const moved = { x: to.x, y: to.y, last_updated: w.now };
  if (kind === 'images') w.maps.images.set(id, { ...(node as ImageItem), ...moved });
  else if (kind === 'shapes') w.maps.shapes.set(id, { ...(node as ShapeItem), ...moved });
  else w.maps.texts.set(id, { ...(node as TextNode), ...moved });
  if (dx !== 0 || dy !== 0) followAnchors(w, id, dx, dy);
  return { id, x: to.x, y: to.y };
}

/** The map each kind of a path or argument erases from. */
const ERASED_FROM = {
  texts: 'texts',
  links: 'texts',
  strokes: 'lines',
  lines: 'lines',
  images: 'images',
  shapes: 'shapes',
  frames: 'frames',
} as const satisfies Record<DrawKind, CountedMap>;

/** Erases an item by kind and id; a frame's members stay where they are (the contract's shapes extension). */
export function eraseItem(w: BoardWrite, kind: DrawKind, id: string): { ok: true; id: string; kind: DrawKind } {
  requireMode(w, 'draw');
  const map = ERASED_FROM[kind];
  const found = map === 'texts' ? findNode(w, kind, id) : w.maps[map].get(id);
  if (!found) throw errors.itemNotFound(kind === 'strokes' || kind === 'lines' ? 'stroke' : kind.replace(/s$/, ''), id);
  dropItem(w, map, id);
  return { ok: true, id, kind };
}
