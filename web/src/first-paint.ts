/**
 * A board opened for the first time in this browser is drawn from its JSON
 * snapshot (`GET /json/{id}`, fetched beside `/meta`) while its document is
 * still syncing: the snapshot needs no WebSocket handshake and parses far
 * faster than the same board as a Yjs update. The document stays the only truth: its first sync redraws what
 * differs and drops what it does not hold (draw/items.ts `seed`). A board this
 * browser has opened before is in IndexedDB and skips this (no second
 * download of the same content); so does a board offline or behind a key the
 * app does not hold (the snapshot simply fails).
 *
 * Both requests a board's first paint waits for, its meta and its snapshot,
 * are started by the app's entry (main.ts) before the app's own script has
 * loaded, and the router takes them once it runs.
 */
import type { FrameItem, ImageItem, ShapeItem, StrokeItem, TextNode } from '../../board/model/document-model.js';
import { isUuid } from '../../schema/uuid.js';
import { isViewToken } from '../../schema/view-token.js';
import { api, loadMeta, recent } from './api.js';

/**
 * The board the URL's hash names: a board id (any case, as typed) or a view
 * token (`v_…`, whose case matters), as given; '' for none. An id or token
 * is valid only when `isUuid` or `isViewToken` says so.
 */
export function boardInHash(hash: string = location.hash): string {
  const name = hash.slice(1);
  return isViewToken(name) ? name : name.toLowerCase();
}

/** A name a board opens by: its id, or a view-only link's token. */
export const opensBoard = (name: string) => isUuid(name) || isViewToken(name);

/** The draw content of `/json/{id}`; images come without their blob hash, which only the document has. */
export type DrawSnapshot = {
  mode: 'draw' | 'todo';
  texts: TextNode[];
  lines: StrokeItem[];
  images: Omit<ImageItem, 'blob'>[];
  shapes?: ShapeItem[];
  frames?: FrameItem[];
};

type Meta = Awaited<ReturnType<typeof loadMeta>>;

const prefetched = new Map<string, Promise<DrawSnapshot | null>>();
const metas = new Map<string, Promise<Meta>>();

/** Starts fetching a board's meta, and its snapshot when this browser has not opened the board before; a second call finds them started. */
export function prefetchBoard(boardId: string): void {
  if (!metas.has(boardId)) metas.set(boardId, loadMeta(boardId));
  if (!navigator.onLine || prefetched.has(boardId) || recent.list().some((entry) => entry.id === boardId)) return;
  // Our own server's answer: drawn with the same escaping renderers as the document's items.
  prefetched.set(
    boardId,
    api<DrawSnapshot>('GET', `/json/${boardId}`, undefined, boardId).catch(() => null),
  );
}

/** The board's meta: the prefetched answer, once (a later call asks again, with the key the app may hold by then). */
export function takeMeta(boardId: string): Promise<Meta> {
  const pending = metas.get(boardId);
  metas.delete(boardId);
  return pending ?? loadMeta(boardId);
}

/** The prefetched snapshot of a draw board, once; null when none was fetched, it failed, or the board is a todo board. */
export async function takeSnapshot(boardId: string): Promise<DrawSnapshot | null> {
  const pending = prefetched.get(boardId);
  prefetched.delete(boardId);
  const snapshot = await pending;
  return snapshot?.mode === 'draw' ? snapshot : null;
}
