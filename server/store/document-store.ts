/**
 * Durable document storage: a stored state per document plus a journal of the
 * Y updates applied since. Appending happens synchronously from the document's
 * update event, before any acknowledgement; compaction folds the journal into
 * the stored state in one SQLite transaction (the y-leveldb approach).
 */
import * as Y from 'yjs';
import type { Db } from './database.js';

export class DocumentStore {
  private readonly selectState;
  private readonly selectJournal;
  private readonly countJournal;
  private readonly insertUpdate;
  private readonly upsertState;
  private readonly deleteJournal;
  private readonly deleteState;
  private readonly compactTx;
  private readonly replaceTx;

  constructor(private readonly db: Db) {
    this.selectState = db.prepare<[string], { data: Buffer }>('SELECT data FROM documents WHERE name = ?');
    this.selectJournal = db.prepare<[string], { update: Buffer }>('SELECT "update" FROM journal WHERE name = ? ORDER BY seq');
    this.countJournal = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM journal WHERE name = ?');
    this.insertUpdate = db.prepare<[string, Uint8Array]>('INSERT INTO journal (name, "update") VALUES (?, ?)');
    this.upsertState = db.prepare<[string, Uint8Array]>(
      'INSERT INTO documents (name, data) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET data = excluded.data',
    );
    this.deleteJournal = db.prepare<[string]>('DELETE FROM journal WHERE name = ?');
    this.deleteState = db.prepare<[string]>('DELETE FROM documents WHERE name = ?');
    this.compactTx = db.transaction((name: string, doc: Y.Doc) => {
      if (this.countJournal.get(name)!.n === 0) return false;
      // Encoded inside the transaction, from the live document: every journalled
      // update is in it, so deleting the whole journal can lose nothing.
      this.upsertState.run(name, Y.encodeStateAsUpdate(doc));
      this.deleteJournal.run(name);
      return true;
    });
    this.replaceTx = db.transaction((name: string, doc: Y.Doc) => {
      this.upsertState.run(name, Y.encodeStateAsUpdate(doc));
      this.deleteJournal.run(name);
    });
  }

  /** The stored state with the journal replayed onto it, as one update; null when nothing is stored. */
  load(name: string): Uint8Array | null {
    const state = this.selectState.get(name);
    const journal = this.selectJournal.all(name).map((row) => row.update);
    const updates = state ? [state.data, ...journal] : journal;
    if (updates.length === 0) return null;
    if (updates.length === 1) return updates[0];
    // Applied in one transaction and re-encoded rather than Y.mergeUpdates: 20x
    // faster for 10 000 journal entries, and the result drops deleted content.
    const doc = new Y.Doc();
    doc.transact(() => {
      for (const update of updates) Y.applyUpdate(doc, update);
    });
    const merged = Y.encodeStateAsUpdate(doc);
    doc.destroy();
    return merged;
  }

  /** Appends one update to the journal; returns once SQLite has committed it. */
  append(name: string, update: Uint8Array): void {
    this.insertUpdate.run(name, update);
  }

  /** Folds the journal into the stored state; a no-op (false) when nothing was journalled since. */
  compact(name: string, doc: Y.Doc): boolean {
    return this.compactTx(name, doc) as boolean;
  }

  /** Number of journal entries not yet compacted (for tests and benchmarks). */
  journalLength(name: string): number {
    return this.countJournal.get(name)!.n;
  }

  /** Makes a live document's whole state the stored state, with an empty journal. */
  replace(name: string, doc: Y.Doc): void {
    this.replaceTx(name, doc);
  }

  /** Forgets the document entirely (board erase). */
  erase(name: string): void {
    this.deleteJournal.run(name);
    this.deleteState.run(name);
  }
}
