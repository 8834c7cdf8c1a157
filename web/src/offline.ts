/**
 * Opening a board without the network. The service worker (web/vite.config.ts) serves the
 * app shell; the board itself comes from the copy y-indexeddb keeps of every board opened in
 * this browser, and BoardSession syncs it when the network is back.
 */
import { type BoardMeta, recent } from './api.js';

/** The IndexedDB database that holds a board's local copy. */
export const localDbName = (boardId: string) => `board-${boardId}`;

/**
 * What this browser knows of a board it cannot ask the server about, or undefined when it holds
 * no copy of it. The lock is unknown offline: it is read again once the board connects.
 */
export async function localMeta(boardId: string): Promise<BoardMeta | undefined> {
  const seen = recent.list().find((entry) => entry.id === boardId);
  if (seen) return { boardId, mode: seen.mode === 'todo' ? 'todo' : 'draw', lockMode: null };
  // Dropped from the short recent list, but maybe still stored: the document's own meta gives its mode once loaded.
  const databases = (await indexedDB.databases?.()) ?? [];
  return databases.some((db) => db.name === localDbName(boardId))
    ? { boardId, mode: 'draw', lockMode: null }
    : undefined;
}
