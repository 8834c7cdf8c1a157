/**
 * Compensation of an update from a Yjs connection that may not write (a view
 * link's, docs/sharing.md). The board's document never takes it (Hocuspocus
 * drops what a read-only connection sends); the client is sent the repair
 * that brings its own copy back to the board's: the same removals and
 * restorations as compensation.ts makes, worked out on a scratch copy of the
 * document that took the update, and told with the same `compensated` message.
 */
import * as Y from 'yjs';
import { applyRepairs, type ClientChange, type Repair, watchChanges } from './compensation.js';

/** Why every change of such a client is undone. */
export const READ_ONLY_REASON = 'read_only_link: a view-only link changes nothing';

/** The repairs of a refused update and the Yjs update that makes them on the client's copy; null when it changes nothing. */
export function undoRefused(doc: Y.Doc, update: Uint8Array): { repairs: Repair[]; undo: Uint8Array } | null {
  if (Y.snapshotContainsUpdate(Y.snapshot(doc), update)) return null;
  const scratch = new Y.Doc();
  try {
    Y.applyUpdate(scratch, Y.encodeStateAsUpdate(doc));
    const changes: ClientChange[] = [];
    watchChanges(scratch, (_transaction, change) => changes.push(change));
    Y.applyUpdate(scratch, update);
    if (changes.length === 0) return null;
    const repairs: Repair[] = changes.map((change) => ({
      kind: change.kind,
      id: change.key,
      action: change.action === 'add' ? 'removed' : 'restored',
      reason: READ_ONLY_REASON,
      offense: true,
    }));
    const before = Y.encodeStateVector(scratch);
    scratch.transact(() => applyRepairs(scratch, repairs, changes));
    return { repairs, undo: Y.encodeStateAsUpdate(scratch, before) };
  } finally {
    scratch.destroy();
  }
}
