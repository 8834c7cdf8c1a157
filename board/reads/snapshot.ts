/**
 * Reads of a board document: the ETag of its state and the snapshots every
 * surface serves. Both are cached per document until its next update, so
 * repeated reads of an unchanged board cost a lookup.
 */
import { toBase64UrlEncoded } from 'lib0/buffer';
import { digest } from 'lib0/hash/sha256';
import * as Y from 'yjs';
import type { BoardMode } from '../../schema/index.js';
import { DEFAULT_COLUMN_WIDTH_PX } from '../../schema/index.js';
import { boardMaps } from '../model/document-model.js';
import { titleEntry } from '../model/title.js';
import { todoView } from './todo-view.js';

export { type TodoView, todoView } from './todo-view.js';

import type { FrameItem, ImageItem, ShapeItem, StrokeItem, TextNode } from '../model/document-model.js';

type Cached = { etag?: string; views?: Map<string, unknown> };
const cache = new WeakMap<Y.Doc, Cached>();

function cached(doc: Y.Doc): Cached {
  let entry = cache.get(doc);
  if (!entry) {
    entry = {};
    cache.set(doc, entry);
    doc.on('update', () => cache.set(doc, {}));
  }
  return entry;
}

/**
 * The ETag of a document state: a digest of its state vector and delete set,
 * so every accepted change (deletions included) gives a new value and equal
 * states give equal values, across restarts too.
 */
export function etagOf(doc: Y.Doc): string {
  const entry = cached(doc);
  // lib0's SHA-256 (Yjs's own toolkit) runs in the browser too, and gives the same digest as node:crypto.
  entry.etag ??= `"${toBase64UrlEncoded(digest(Y.encodeSnapshot(Y.snapshot(doc)))).slice(0, 27)}"`;
  return entry.etag;
}

/** The ETag of one view of the document's state (a frame's preview): the state's ETag and a digest of the view's name. */
export function etagOfView(doc: Y.Doc, view: string): string {
  const name = toBase64UrlEncoded(digest(new TextEncoder().encode(view))).slice(0, 11);
  return `"${etagOf(doc).slice(1, -1)}.${name}"`;
}

/** The ETag of the document's state if a read already took it, without computing it. */
export const knownEtag = (doc: Y.Doc): string | undefined => cache.get(doc)?.etag;

/**
 * An image as snapshots show it: the payload reference is internal. Writes
 * take these keys back (schema/stored.ts SNAPSHOT_KEYS.image lists them).
 */
export type PublicImage = Omit<ImageItem, 'blob'> & { dataUrl: string | null };

function publicImage(image: ImageItem, dataUrl: string | null): PublicImage {
  const { blob: _blob, ...rest } = image;
  return { ...rest, dataUrl };
}

/** The draw content of a board, with each image's payload resolved by `dataUrlOf`. */
export function drawView(doc: Y.Doc, dataUrlOf: (image: ImageItem) => string | null) {
  const maps = boardMaps(doc);
  return {
    texts: [...maps.texts.values()] as TextNode[],
    lines: [...maps.lines.values()] as StrokeItem[],
    images: [...maps.images.values()].map((image) => publicImage(image, dataUrlOf(image))),
    shapes: [...maps.shapes.values()] as ShapeItem[],
    frames: [...maps.frames.values()] as FrameItem[],
  };
}

/** A view of the document computed once per state: cached under `key` until the next change. */
export function memoized<T>(doc: Y.Doc, key: string, build: () => T): T {
  const entry = cached(doc);
  entry.views ??= new Map();
  if (!entry.views.has(key)) entry.views.set(key, build());
  return entry.views.get(key) as T;
}

/** Drops a view cached under `key` (one that failed), unless the document has changed since. */
export function forgetView(doc: Y.Doc, key: string, view: unknown): void {
  const views = cache.get(doc)?.views;
  if (views && views.get(key) === view) views.delete(key);
}

/**
 * The `/json` snapshot (and MCP get_board): `{boardId, mode, title?, etag, texts, lines, images}`
 * plus `colWidth, columns, tasks, lanes` on todo boards; image payloads elided.
 * `title` only when the board has one (docs/titles.md).
 * Returned already serialised, cached until the next change.
 */
export function jsonSnapshot(doc: Y.Doc, boardId: string, mode: BoardMode): string {
  return memoized(doc, `json:${mode}`, () =>
    JSON.stringify({
      boardId,
      mode,
      ...titleEntry(doc),
      etag: etagOf(doc),
      ...drawView(doc, () => null),
      ...(mode === 'todo' ? todoView(boardMaps(doc)) : {}),
    }),
  );
}

/** `list_tasks` and the `tasks.json` resource: `{mode, columns, tasks, lanes, colWidth}`. */
export function tasksView(doc: Y.Doc, mode: BoardMode) {
  return mode === 'todo'
    ? { mode, ...todoView(boardMaps(doc)) }
    : { mode, columns: [], tasks: [], lanes: [], colWidth: DEFAULT_COLUMN_WIDTH_PX };
}
