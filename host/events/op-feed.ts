/**
 * Turns every settled chain of transactions on one board document into the
 * ops of the JSON channel: the net change of each touched item (so a bad
 * update and the server's repair of it, made in the same tick, cancel out and
 * nobody sees the bad state). Driven by the document's own events, whatever
 * surface made the change; a board's room starts it, so only watched boards
 * pay for it (host/events/board-room.ts).
 */
import { isTransactionOrigin } from '@hocuspocus/server';
import type * as Y from 'yjs';
import { boardMaps, CONTENT_MAPS, type ImageItem, type MapName, type Meta } from '../../board/model/document-model.js';
import { isBoardOrigin } from '../../board/mutations/board-write.js';
import { etagOf } from '../../board/reads/snapshot.js';
import type { BlobStore, DocumentJournal } from '../../store/board-store.js';

/** One item's net change, as the JSON channel's `op` frame carries it. */
export type BoardOp =
  | { op: 'upsert'; kind: string; item: Record<string, unknown>; author: string }
  | { op: 'delete'; kind: string; id: string; author: string }
  | { op: 'set'; kind: 'meta'; key: string; value: unknown; author: string };

/** Where the feed reads image payloads and the commit still on its way. */
export type OpFeedStores = { blobs: BlobStore; journal: DocumentJournal };

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
 * Feeds one loaded document's ops to `deliver` until the returned stop is
 * called. Ops wait for the journal commit still on their way, if any (a
 * change the storage refuses is never shown), and for image payloads this
 * instance does not hold yet (added on another instance); the ops after them
 * wait their turn, so order is kept.
 */
export function feedOps(
  doc: Y.Doc,
  boardId: string,
  { blobs, journal }: OpFeedStores,
  deliver: (ops: BoardOp[], etag: string) => void,
  handOut: (doc: Y.Doc) => string = etagOf,
): () => void {
  let touched: Map<string, Touch> | null = null;
  let fetching: Promise<void> | null = null;
  const note = (kind: MapName, key: string, before: unknown, origin: unknown) => {
    touched ??= new Map();
    const id = `${kind}\u0000${key}`;
    if (!touched.has(id)) touched.set(id, { kind, key, before, origin });
  };
  const maps = boardMaps(doc);
  const observers = CONTENT_MAPS.map((kind) =>
    maps[kind].observe((changes, transaction) => {
      for (const { key, before } of changes) note(kind, key, before, transaction.origin);
    }),
  );
  const onMeta = (event: Y.YMapEvent<Meta[keyof Meta]>) => {
    for (const [key, change] of event.changes.keys)
      note('meta', key, change.action === 'add' ? undefined : change.oldValue, event.transaction.origin);
  };
  maps.meta.observe(onMeta);
  observers.push(() => maps.meta.unobserve(onMeta));
  const settled = () => {
    const changes = touched;
    touched = null;
    if (!changes) return;
    const ops: BoardOp[] = [];
    const images: ImageItem[] = [];
    for (const { kind, key, before, origin } of changes.values()) {
      const after = kind === 'meta' ? maps.meta.get(key) : maps[kind].get(key);
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
    const etag = handOut(doc);
    // Ops still waiting when the feed stops (an unload) go out all the same: they were computed while it ran.
    const emit = () =>
      deliver(
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
            .then(emit),
        () => {}, // refused by the storage: nobody is shown it
      )
      .finally(() => {
        if (fetching === turn) fetching = null;
      });
    fetching = turn;
  };
  doc.on('afterAllTransactions', settled);
  return () => {
    for (const unobserve of observers) unobserve();
    doc.off('afterAllTransactions', settled);
  };
}

function withPayload(op: BoardOp, boardId: string, blobs: BlobStore): BoardOp {
  if (op.op !== 'upsert' || op.kind !== 'images') return op;
  const { blob, ...rest } = op.item as ImageItem;
  return { ...op, item: { ...rest, dataUrl: blobs.get(boardId, blob) } };
}
