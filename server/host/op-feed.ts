/**
 * Turns every settled chain of transactions on a board document into `op`
 * frames for the JSON channel: the net change of each touched item (so a bad
 * update and the server's repair of it, made in the same tick, cancel out and
 * nobody sees the bad state). Driven by the document's own events, whatever
 * surface made the change.
 */
import { isTransactionOrigin, type Extension, type afterLoadDocumentPayload } from '@hocuspocus/server';
import type * as Y from 'yjs';
import type { BoardEvents, BoardOp } from './board-events.js';
import { isBoardOrigin } from '../board/board-write.js';
import { type ImageItem, MAP_NAMES, type MapName } from '../board/document-model.js';
import { etagOf } from '../board/snapshot.js';
import type { BlobStore, DocumentJournal } from '../store/board-store.js';

type Touch = { kind: MapName; key: string; before: unknown; origin: unknown };

/** The author tag of a change: the writing surface's, a Yjs connection's, else the item's own. */
export function authorOf(origin: unknown, item: unknown): string {
  if (isBoardOrigin(origin)) return origin.author;
  if (isTransactionOrigin(origin) && origin.source === 'connection') {
    const author = (origin.connection.context as { author?: string } | undefined)?.author;
    if (author) return author;
  }
  return (item as { author?: string } | undefined)?.author ?? 'unknown';
}

/**
 * Starts the feed for one loaded document. Ops wait for the journal commit
 * still on its way, if any (a change the storage refuses is never shown), and
 * for image payloads this instance does not hold yet (added on another
 * instance); the ops after them wait their turn, so order is kept.
 */
export function attachOpFeed(
  doc: Y.Doc,
  boardId: string,
  events: BoardEvents,
  blobs: BlobStore,
  journal: DocumentJournal,
): void {
  let touched: Map<string, Touch> | null = null;
  let fetching: Promise<void> | null = null;
  for (const kind of MAP_NAMES) {
    doc.getMap(kind).observe((event) => {
      if (events.listenerCount('ops') === 0) return; // nobody on the JSON channel: nothing to net (no listener joins mid-transaction)
      touched ??= new Map();
      for (const [key, change] of event.changes.keys) {
        const id = `${kind}\u0000${key}`;
        if (!touched.has(id))
          touched.set(id, {
            kind,
            key,
            before: change.action === 'add' ? undefined : change.oldValue,
            origin: event.transaction.origin,
          });
      }
    });
  }
  doc.on('afterAllTransactions', () => {
    const changes = touched;
    touched = null;
    if (!changes || events.listenerCount('ops') === 0) return;
    const ops: BoardOp[] = [];
    const images: ImageItem[] = [];
    for (const { kind, key, before, origin } of changes.values()) {
      const after = doc.getMap(kind).get(key);
      if (JSON.stringify(after) === JSON.stringify(before)) continue;
      const author = authorOf(origin, after ?? before);
      if (kind === 'meta') ops.push({ op: 'set', kind, key, value: after ?? null, author });
      else if (after === undefined) ops.push({ op: 'delete', kind, id: key, author });
      else {
        if (kind === 'images') images.push(after as ImageItem);
        ops.push({ op: 'upsert', kind, item: after as Record<string, unknown>, author });
      }
    }
    if (ops.length === 0) return;
    const etag = etagOf(doc);
    const emit = () =>
      events.emit(
        'ops',
        boardId,
        ops.map((op) => withPayload(op, boardId, blobs)),
        etag,
      );
    const missing = images.map((image) => image.blob).filter((hash) => blobs.get(boardId, hash) === null);
    const commit = journal.pending(boardId);
    if (missing.length === 0 && !commit && !fetching) return emit();
    const turn: Promise<void> = (fetching ?? Promise.resolve())
      .then(() => commit)
      .then(
        // A payload that cannot be fetched goes out as null, as a missing one does.
        () =>
          blobs
            .load(boardId, missing)
            .catch(() => {})
            .then(() => void emit()),
        () => {}, // refused by the storage: nobody is shown it
      )
      .finally(() => {
        if (fetching === turn) fetching = null;
      });
    fetching = turn;
  });
}

function withPayload(op: BoardOp, boardId: string, blobs: BlobStore): BoardOp {
  if (op.op !== 'upsert' || op.kind !== 'images') return op;
  const { blob, ...rest } = op.item as ImageItem;
  return { ...op, item: { ...rest, dataUrl: blobs.get(boardId, blob) } };
}

/** The Hocuspocus extension that starts the feed for every document it loads. */
export function opFeedExtension(events: BoardEvents, blobs: BlobStore, journal: DocumentJournal): Extension {
  return {
    extensionName: 'op-feed',
    afterLoadDocument: async ({ document, documentName }: afterLoadDocumentPayload) =>
      attachOpFeed(document, documentName, events, blobs, journal),
  };
}
