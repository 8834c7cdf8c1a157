/**
 * Copy, cut, paste and duplicate of the canvas's selection. The system
 * clipboard carries the selected items as JSON (a custom type, and again in a
 * data attribute of `text/html`, which every browser passes between tabs) plus
 * the texts as plain text, so a copy can be pasted on another board, in
 * another tab, or into any other program. A paste makes new items with new ids
 * in one transaction (one undo step), the selection's top-left at the pointer.
 */
import { z } from 'zod';
import type {
  FrameItem,
  ImageItem,
  LinkItem,
  ShapeItem,
  StrokeItem,
  TextItem,
} from '../../../board/model/document-model.js';
import { ITEM_QUOTAS, requireImageBytes, requireRoom } from '../../../board/model/item-quotas.js';
import { arrowheadOf, itemCount, putItem, stamp } from '../../../board/model/items.js';
import type { BoardWrite } from '../../../board/mutations/board-write.js';
import { upsertLink, upsertStroke, upsertText } from '../../../board/mutations/draw.js';
import { upsertFrame, upsertShape } from '../../../board/mutations/shapes.js';
import {
  type Anchors,
  type Point,
  StoredFrame,
  StoredImage,
  StoredLink,
  StoredShape,
  StoredStroke,
  StoredText,
} from '../../../schema/index.js';
import { keys } from '../api.js';
import { isTyping, toast } from '../ui.js';
import type { DrawContext } from './context.js';
import { withMembers } from './frames.js';
import { uploadImage, uploadImages } from './images.js';
import { asUrl } from './markup.js';
import { type Box, round, type World } from './view.js';

/** The clipboard type of copied items; Chromium carries custom types between its own tabs. */
export const ITEMS_MIME = 'application/x-board-items+json';
/** The `text/html` attribute that carries the same JSON for browsers (and programs) that drop custom types. */
const HTML_ATTRIBUTE = 'data-board-items';
/** How far `Ctrl+D` puts a copy from its original, in world pixels. */
export const DUPLICATE_OFFSET_PX = 16;

/** What the clipboard holds: the items as stored, their bounding box, the board they came from. */
const ClipPayload = z.object({
  type: z.literal('board-items'),
  version: z.literal(1),
  board: z.string().max(64),
  box: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }),
  texts: z.array(z.unknown()).default([]),
  links: z.array(z.unknown()).default([]),
  strokes: z.array(z.unknown()).default([]),
  images: z.array(z.unknown()).default([]),
  shapes: z.array(z.unknown()).default([]),
  frames: z.array(z.unknown()).default([]),
});
type ClipPayload = z.infer<typeof ClipPayload>;

/** Images copied in this tab, by blob hash: what a cut image pasted on another board is uploaded from. */
const imagePayloads = new Map<string, Promise<Blob | null>>();
/** The last items copied in this tab: what a menu's Paste takes when the browser will not let it read the clipboard. */
let lastCopied: ClipPayload | null = null;

/** Binds copy, cut and paste on the document and follows the pointer over the canvas; returns what unbinds them. */
export function bindClipboard(ctx: DrawContext): () => void {
  let pointer: { x: number; y: number } | null = null;
  const onMove = (event: PointerEvent) => (pointer = { x: event.clientX, y: event.clientY });
  const onLeave = () => (pointer = null);
  const onCopy = (event: ClipboardEvent) => copy(ctx, event, false);
  const onCut = (event: ClipboardEvent) => copy(ctx, event, true);
  const onPaste = (event: ClipboardEvent) =>
    paste(ctx, event, pointer ? ctx.view.toWorld(pointer.x, pointer.y) : ctx.view.centre());
  ctx.viewport.addEventListener('pointermove', onMove);
  ctx.viewport.addEventListener('pointerleave', onLeave);
  document.addEventListener('copy', onCopy);
  document.addEventListener('cut', onCut);
  document.addEventListener('paste', onPaste);
  return () => {
    ctx.viewport.removeEventListener('pointermove', onMove);
    ctx.viewport.removeEventListener('pointerleave', onLeave);
    document.removeEventListener('copy', onCopy);
    document.removeEventListener('cut', onCut);
    document.removeEventListener('paste', onPaste);
  };
}

/** Keys and clipboard events meant for a text field, the open editor or a dialog are left to them. */
function ours(ctx: DrawContext, event: Event): boolean {
  return (
    !ctx.editing.editor &&
    !isTyping(event.target) &&
    !document.querySelector('dialog[open]') &&
    !window.getSelection()?.toString()
  );
}

/** The selected items as stored (a frame with its members, as tldraw copies one), with their box; null when none. */
export function selectionPayload(ctx: DrawContext): ClipPayload | null {
  const { layer } = ctx;
  const { texts, lines, images, shapes, frames } = layer.maps();
  const payload: ClipPayload = {
    type: 'board-items',
    version: 1,
    board: ctx.session.boardId,
    box: { x: 0, y: 0, width: 0, height: 0 },
    texts: [],
    links: [],
    strokes: [],
    images: [],
    shapes: [],
    frames: [],
  };
  const boxes: Box[] = [];
  for (const id of withMembers(layer, layer.selection)) {
    const element = layer.elements.get(id);
    const box = element && layer.boxOf(element);
    const kind = layer.kindOf(id);
    if (!box || !kind) continue;
    boxes.push(box);
    if (kind === 'strokes') payload.strokes.push(lines.get(id));
    else if (kind === 'images') payload.images.push(images.get(id));
    else if (kind === 'shapes') payload.shapes.push(shapes.get(id));
    else if (kind === 'frames') payload.frames.push(frames.get(id));
    else payload[kind].push(texts.get(id));
  }
  const box = unionBox(boxes);
  if (!box) return null;
  payload.box = box;
  return payload;
}

/** The plain-text fallback: every text's content and every link's address, in reading order. */
function plainText(payload: ClipPayload): string {
  const nodes = [...(payload.texts as TextItem[]), ...(payload.links as LinkItem[])].sort(
    (a, b) => a.y - b.y || a.x - b.x,
  );
  return nodes.map((node) => ('url' in node ? node.url : node.content)).join('\n\n');
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** `Ctrl+C` / `Ctrl+X` (or the browser's Copy and Cut): the selection onto the system clipboard. */
function copy(ctx: DrawContext, event: ClipboardEvent, cut: boolean): void {
  if (!ours(ctx, event) || !event.clipboardData) return;
  const payload = selectionPayload(ctx);
  if (!payload) return;
  event.preventDefault();
  const json = JSON.stringify(payload);
  const text = plainText(payload);
  event.clipboardData.setData(ITEMS_MIME, json);
  event.clipboardData.setData(
    'text/html',
    `<div ${HTML_ATTRIBUTE}="${escapeHtml(json)}">${text.split('\n').map(escapeHtml).join('<br>')}</div>`,
  );
  event.clipboardData.setData('text/plain', text);
  lastCopied = payload;
  for (const image of payload.images as ImageItem[]) rememberImage(payload.board, image);
  if (cut && ctx.editable()) ctx.editing.deleteSelection();
}

/** Starts fetching a copied image's payload, so it can still be pasted on another board once cut from this one. */
function rememberImage(boardId: string, image: ImageItem): void {
  if (imagePayloads.has(image.blob)) return;
  const key = keys.get(boardId);
  const fetched = fetch(`/api/boards/${boardId}/images/${image.id}`, { headers: key ? { 'x-board-key': key } : {} })
    .then((response) => (response.ok ? response.blob() : null))
    .catch(() => null);
  imagePayloads.set(image.blob, fetched);
}

/** The board items a paste carries, if it carries ours (a custom type, else the `text/html` attribute). */
export function readPayload(data: DataTransfer): ClipPayload | null {
  let json = data.getData(ITEMS_MIME);
  if (!json) {
    const html = data.getData('text/html');
    if (!html.includes(HTML_ATTRIBUTE)) return null;
    json =
      new DOMParser()
        .parseFromString(html, 'text/html')
        .querySelector(`[${HTML_ATTRIBUTE}]`)
        ?.getAttribute(HTML_ATTRIBUTE) ?? '';
  }
  try {
    const parsed = ClipPayload.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null; // not JSON: some other program's HTML
  }
}

/** `Ctrl+V` (or the browser's Paste), at the pointer. */
function paste(ctx: DrawContext, event: ClipboardEvent, at: World): void {
  if (!ctx.editable() || !ours(ctx, event) || !event.clipboardData) return;
  if (pasteData(ctx, event.clipboardData, at)) event.preventDefault();
}

/** Board items at `at`; otherwise images are uploaded, a URL becomes a link and other text a text. False: nothing to paste. */
function pasteData(ctx: DrawContext, data: DataTransfer, at: World): boolean {
  const payload = readPayload(data);
  if (payload) {
    pasteItems(ctx, payload, at);
    return true;
  }
  const files = [...data.files].filter((file) => file.type.startsWith('image/'));
  if (files.length) {
    uploadImages(ctx.session.boardId, files, at);
    return true;
  }
  const text = data.getData('text/plain');
  const url = asUrl(text);
  if (url) {
    const link = ctx.session.write((w) => upsertLink(w, { x: round(at.x), y: round(at.y), url }));
    if (link) ctx.layer.selection.select([link.id]);
    return true;
  }
  if (!text.trim()) return false;
  const node = ctx.session.write((w) => upsertText(w, { x: round(at.x), y: round(at.y), content: text }));
  if (node) ctx.layer.selection.select([node.id]);
  return true;
}

/**
 * A menu's Paste: a page cannot start the browser's paste, so it reads the
 * clipboard through the async API (the browser may ask first; our items
 * travel in its `text/html`), and takes this tab's last copy when refused.
 */
export async function pasteFromClipboard(ctx: DrawContext, at: World): Promise<void> {
  const data = new DataTransfer();
  try {
    for (const item of await navigator.clipboard.read())
      for (const type of item.types) {
        const blob = await item.getType(type);
        if (type.startsWith('image/')) data.items.add(new File([blob], 'pasted', { type }));
        else if (type === 'text/html' || type === 'text/plain') data.setData(type, await blob.text());
      }
  } catch {
    // refused or empty: this tab's own copy, below
  }
  if (!ctx.editable() || pasteData(ctx, data, at)) return;
  if (lastCopied) pasteItems(ctx, lastCopied, at);
  else toast('The browser did not let the menu read the clipboard: press Ctrl+V to paste.', 'warn');
}

/** `Ctrl+D`: a copy of the selection a little below and right of it (`offset`; Alt+drag: 0), selected in its place; its ids. */
export function duplicateSelection(ctx: DrawContext, offset = DUPLICATE_OFFSET_PX): string[] {
  const payload = selectionPayload(ctx);
  return payload ? pasteItems(ctx, payload, { x: payload.box.x + offset, y: payload.box.y + offset }) : [];
}

/**
 * Writes the items of `payload` with new ids, moved so that their box's
 * top-left lands on `at`, in one transaction, and selects them. Anchors between
 * copied items are kept (renamed to the new ids); anchors to items not copied
 * are dropped. An image from another board cannot reuse that board's payload
 * through the document, so it is uploaded through REST after the transaction.
 * Returns the new ids.
 */
export function pasteItems(ctx: DrawContext, payload: ClipPayload, at: World): string[] {
  const [dx, dy] = [round(at.x - payload.box.x), round(at.y - payload.box.y)];
  const valid = <T>(schema: z.ZodType<T>, items: unknown[]) =>
    items.flatMap((item) => {
      const parsed = schema.safeParse(item);
      return parsed.success ? [parsed.data] : [];
    });
  const texts = valid(StoredText, payload.texts) as TextItem[];
  const links = valid(StoredLink, payload.links) as LinkItem[];
  const strokes = valid(StoredStroke, payload.strokes) as StrokeItem[];
  const images = valid(StoredImage, payload.images) as ImageItem[];
  const shapes = valid(StoredShape, payload.shapes) as ShapeItem[];
  const frames = valid(StoredFrame, payload.frames) as FrameItem[];
  const sameBoard = payload.board === ctx.session.boardId;
  const created = ctx.session.write((w) => {
    const renamed = new Map<string, string>();
    for (const text of texts) {
      const { x, y, content, color, width, postit, diagram } = text;
      renamed.set(
        text.id,
        upsertText(w, { x: round(x + dx), y: round(y + dy), content, color, width, postit, diagram }).id,
      );
    }
    for (const link of links)
      renamed.set(link.id, upsertLink(w, { x: round(link.x + dx), y: round(link.y + dy), url: link.url }).id);
    for (const { id, author: _a, last_updated: _l, ...shape } of shapes)
      renamed.set(id, upsertShape(w, { ...shape, x: round(shape.x + dx), y: round(shape.y + dy) }).id);
    for (const { id, author: _a, last_updated: _l, ...frame } of frames)
      renamed.set(id, upsertFrame(w, { ...frame, x: round(frame.x + dx), y: round(frame.y + dy) }).id);
    if (sameBoard) for (const image of images) renamed.set(image.id, copyImage(w, image, dx, dy).id);
    const ids = [...renamed.values()];
    for (const stroke of strokes) {
      // A head stays though the anchor that gave it is dropped with an item not copied.
      const arrowhead = arrowheadOf(stroke);
      const points = stroke.points.map(([x, y]): Point => [round(x + dx), round(y + dy)]);
      ids.push(
        upsertStroke(w, {
          points,
          color: stroke.color,
          anchors: keptAnchors(stroke.anchors, renamed),
          arrowhead: arrowhead === 'none' ? undefined : arrowhead,
          label: stroke.label,
        }).id,
      );
    }
    return ids;
  });
  if (!created) return [];
  ctx.layer.selection.select(created);
  if (!sameBoard) for (const image of images) void carryImage(ctx, payload.board, image, dx, dy);
  return created;
}

/** A copy of an image of this board: a new item over the same stored payload (the server knows that payload). */
function copyImage(w: BoardWrite, image: ImageItem, dx: number, dy: number): ImageItem {
  requireRoom(ITEM_QUOTAS.images, itemCount(w, 'images'));
  let total = image.bytes;
  for (const other of w.maps.images.values()) total += other.bytes;
  requireImageBytes(total);
  const { id: _id, author: _author, last_updated: _at, ...rest } = image;
  const item: ImageItem = {
    ...rest,
    ...stamp(w, undefined, undefined),
    x: round(image.x + dx),
    y: round(image.y + dy),
  };
  putItem(w, 'images', item);
  return item;
}

/** Uploads an image copied on another board: from this tab's copy of it, else fetched from that board. */
async function carryImage(ctx: DrawContext, from: string, image: ImageItem, dx: number, dy: number): Promise<void> {
  const remembered = await imagePayloads.get(image.blob);
  const key = keys.get(from);
  const blob =
    remembered ??
    (await fetch(`/api/boards/${from}/images/${image.id}`, { headers: key ? { 'x-board-key': key } : {} })
      .then((response) => (response.ok ? response.blob() : null))
      .catch(() => null));
  if (!blob)
    return toast('An image could not be carried over: it is no longer on the board it was copied from.', 'warn', 7000);
  await uploadImage(ctx.session.boardId, blob, image.x + dx, image.y + dy, {
    width: image.width,
    height: image.height,
  });
}

/** A stroke's anchors to items pasted with it, renamed; anchors to anything else are dropped. */
function keptAnchors(anchors: Anchors | undefined, renamed: Map<string, string>): Anchors | undefined {
  if (!anchors) return undefined;
  const kept: Anchors = {};
  for (const end of ['start', 'end'] as const) {
    const anchor = anchors[end];
    const id = anchor && renamed.get(anchor.id);
    if (anchor && id) kept[end] = { ...anchor, id };
  }
  return kept.start || kept.end ? kept : undefined;
}

/** The union of boxes, for export and paste framing. */
export function unionBox(boxes: Iterable<Box>): Box | null {
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const box of boxes)
    [minX, minY, maxX, maxY] = [
      Math.min(minX, box.x),
      Math.min(minY, box.y),
      Math.max(maxX, box.x + box.width),
      Math.max(maxY, box.y + box.height),
    ];
  return minX === Infinity ? null : { x: minX, y: minY, width: maxX - minX, height: maxY - minY };
}
