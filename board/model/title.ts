/**
 * A board's title (docs/titles.md): `meta.title` in the document, so it syncs
 * to every browser, works offline and is part of each history version like
 * the content. No title is no key; the schema (BoardTitle) has trimmed it.
 */
import type * as Y from 'yjs';
import type { BoardWrite } from '../mutations/board-write.js';
import type { ReadMaps } from './document-model.js';

/** Sets the title; "" clears it. */
export function setBoardTitle(w: BoardWrite, title: string): { ok: true; title: string } {
  if (title === '') {
    if (w.maps.meta.has('title')) w.maps.meta.delete('title');
  } else if (w.maps.meta.get('title') !== title) w.maps.meta.set('title', title);
  return { ok: true, title };
}

/** The title a document holds, or undefined; a value that is not a string (never written by the server) is none. */
export function boardTitle(source: Y.Doc | Pick<ReadMaps, 'meta'>): string | undefined {
  const title = 'getMap' in source ? source.getMap('meta').get('title') : source.meta.get('title');
  return typeof title === 'string' && title !== '' ? title : undefined;
}

/** `{title}` when the board has one, else nothing: spread into a snapshot. */
export const titleEntry = (doc: Y.Doc): { title?: string } => {
  const title = boardTitle(doc);
  return title === undefined ? {} : { title };
};
