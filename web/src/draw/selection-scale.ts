/**
 * Scaling a multi-selection by a corner of its box, as tldraw and Excalidraw
 * do: every item's place scales about the opposite corner, strokes scale their
 * points, images their width and height, texts their width (the one size a
 * text stores; its height follows its content), shapes and frames their sides, links only move.
 */
import { isLink } from '../../../board/model/document-model.js';
import type { BoardWrite } from '../../../board/mutations/board-write.js';
import { moveItem, resizeImage, upsertStroke, upsertText } from '../../../board/mutations/draw.js';
import type { Point } from '../../../schema/index.js';
import { ImageResizeInput, MAX_IMAGE_SIDE_PX, MAX_TEXT_WIDTH_PX, MIN_TEXT_WIDTH_PX } from '../../../schema/index.js';
import type { ItemLayer, Kind } from './items.js';
import type { Corner } from './selection-box.js';
import { placeOutline } from './shape-style.js';
import { MIN_IMAGE_SIDE_PX } from './transform.js';
import { type Box, round, type World } from './view.js';

/** The smallest and largest factor one drag scales by: no flip through the opposite corner, no runaway. */
const MIN_FACTOR = 0.05;
const MAX_FACTOR = 50;

/** A selected item as the press found it: its kind, box, and what its scaled write starts from. */
type Held =
  | { kind: Exclude<Kind, 'strokes'>; id: string; box: Box; width?: number }
  | { kind: 'strokes'; id: string; points: Point[] };

/** A scale under way: the corner pressed, the selection's box and items at the press, and where it was pressed. */
export type Scale = { corner: Corner; box: Box; start: World; items: Held[] };

/** What a press on `corner` scales: every selected item the document and the canvas both have. */
export function scaleOf(layer: ItemLayer, corner: Corner, box: Box, start: World): Scale {
  const { texts, lines } = layer.maps();
  const items: Held[] = [];
  for (const id of layer.selection) {
    const kind = layer.kindOf(id);
    const element = layer.elements.get(id);
    if (!kind || !element) continue;
    if (kind === 'strokes') {
      const stroke = lines.get(id);
      if (stroke) items.push({ kind, id, points: stroke.points });
      continue;
    }
    const itemBox = layer.boxOf(element);
    const text = kind === 'texts' ? texts.get(id) : undefined;
    const width = text && !isLink(text) ? text.width : undefined;
    if (itemBox) items.push({ kind, id, box: itemBox, width });
  }
  return { corner, box, start, items };
}

/** The corner that stays put and the factors along each axis for the pointer at `world` (Shift: `free`, else one factor). */
export function factors(scale: Scale, world: World, free: boolean): { anchor: World; sx: number; sy: number } {
  const { box, corner, start } = scale;
  const west = corner.endsWith('w');
  const north = corner.startsWith('n');
  const anchor = { x: west ? box.x + box.width : box.x, y: north ? box.y + box.height : box.y };
  const axis = (side: number, moved: number, sign: number) =>
    side > 0 ? Math.min(MAX_FACTOR, Math.max(MIN_FACTOR, (side + sign * moved) / side)) : null;
  const fx = axis(box.width, world.x - start.x, west ? -1 : 1);
  const fy = axis(box.height, world.y - start.y, north ? -1 : 1);
  if (free) return { anchor, sx: fx ?? 1, sy: fy ?? 1 };
  // One factor keeps the selection's shape: the side dragged further decides, as an image's corner does.
  const s = Math.max(fx ?? 0, fy ?? 0) || 1;
  return { anchor, sx: s, sy: s };
}

/** The selection's box scaled by the factors. */
export function scaledBox(box: Box, { anchor, sx, sy }: ReturnType<typeof factors>): Box {
  return {
    x: anchor.x + (box.x - anchor.x) * sx,
    y: anchor.y + (box.y - anchor.y) * sy,
    width: box.width * sx,
    height: box.height * sy,
  };
}

/**
 * The one write that puts every held item where the factors take it. Strokes
 * come last, as in a move: one anchored to a scaled text is first pulled along
 * by the text, then set where the scale puts it.
 */
export function scaleWrite(scale: Scale, { anchor, sx, sy }: ReturnType<typeof factors>): (w: BoardWrite) => void {
  const at = (x: number, y: number) => ({
    x: round(anchor.x + (x - anchor.x) * sx),
    y: round(anchor.y + (y - anchor.y) * sy),
  });
  const side = (value: number) => round(Math.min(MAX_IMAGE_SIDE_PX, Math.max(MIN_IMAGE_SIDE_PX, value)));
  const last = [...scale.items].sort((a, b) => Number(a.kind === 'strokes') - Number(b.kind === 'strokes'));
  return (w) => {
    for (const item of last) {
      if (item.kind === 'strokes') {
        if (!w.maps.lines.get(item.id)) continue;
        const points = item.points.map(([x, y]): Point => {
          const p = at(x, y);
          return [p.x, p.y];
        });
        upsertStroke(w, { id: item.id, points });
        continue;
      }
      const to = at(item.box.x, item.box.y);
      if (item.kind === 'texts') {
        const text = w.maps.texts.get(item.id);
        if (!text || isLink(text)) continue;
        upsertText(w, { id: item.id, ...to, content: text.content, width: textWidth(item.box.width, item.width, sx) });
      } else if (item.kind === 'images') {
        if (!w.maps.images.get(item.id)) continue;
        moveItem(w, 'images', item.id, to);
        const size = ImageResizeInput.safeParse({
          width: side(item.box.width * sx),
          height: side(item.box.height * sy),
        });
        if (size.success) resizeImage(w, item.id, size.data);
      } else if (item.kind === 'shapes' || item.kind === 'frames')
        placeOutline(w, item.kind, item.id, { width: item.box.width * sx, height: item.box.height * sy }, to);
      else if (w.maps.texts.get(item.id)) moveItem(w, 'links', item.id, to);
    }
  };
}

/**
 * A text's width after scaling by `sx`, within the bounds a resize keeps. A
 * text that fits its content (no stored width) keeps fitting it while the
 * scaled width is under the smallest stored one: writing that would widen it.
 */
function textWidth(laidOut: number, stored: number | undefined, sx: number): number | undefined {
  const width = laidOut * sx; // as a resize by the handle measures it
  if (stored === undefined && width < MIN_TEXT_WIDTH_PX) return undefined;
  return Math.round(Math.min(MAX_TEXT_WIDTH_PX, Math.max(MIN_TEXT_WIDTH_PX, width)));
}
