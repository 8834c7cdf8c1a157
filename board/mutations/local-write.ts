/**
 * A write on a document held in this process, as the app makes one on its own
 * copy: the domain's mutation on staged maps, committed in one transaction
 * with `origin`. It mints its own ids and stamps its own clock; image payloads
 * go through REST, never through the document.
 */
import type * as Y from 'yjs';
import type { BoardMode } from '../../schema/index.js';
import { commitMaps, stagedMaps } from '../model/document-model.js';
import { errors } from '../model/errors.js';
import type { BoardWrite } from './board-write.js';

/** What a local write knows of its board and its writer. */
export type LocalWriter = Pick<BoardWrite, 'boardId' | 'author' | 'textSize'> & { mode: BoardMode };

const NO_BLOBS: BoardWrite['blobs'] = {
  put(): string {
    throw errors.imagesViaRest();
  },
  get: () => null,
};

/** Runs `mutate` on `doc` as one transaction; a BoardError it throws changes nothing. */
export function localWrite<T>(doc: Y.Doc, writer: LocalWriter, mutate: (w: BoardWrite) => T, origin: unknown): T {
  const write: BoardWrite = {
    ...writer,
    maps: stagedMaps(doc),
    blobs: NO_BLOBS,
    now: new Date().toISOString(),
    newId: () => crypto.randomUUID(),
    counts: {},
  };
  const result = mutate(write);
  doc.transact(() => commitMaps(write.maps), origin);
  return result;
}
