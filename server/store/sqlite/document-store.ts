/**
 * Durable document storage: a stored state per document plus a journal of the
 * Y updates applied since. Appending happens synchronously from the document's
 * update event, before any acknowledgement; compaction folds the journal into
 * the stored state in one SQLite transaction (the y-leveldb approach).
 */
import * as Y from 'yjs';
import { type DocumentJournal, replayUpdates } from '../board-store.js';
import type { Db } from './database.js';
import type { GroupCommit } from './group-commit.js';

export class SqliteDocuments implements DocumentJournal {
  private readonly selectState;
  private readonly selectJournal;
  private readonly countJournal;
  private readonly insertUpdate;
  private readonly upsertState;
  private readonly deleteJournal;
  private readonly deleteState;
  private readonly compactTx;
  private readonly replaceTx;

  constructor(
    private readonly db: Db,
    private readonly group: GroupCommit,
  ) {
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

  async load(name: string): Promise<Uint8Array | null> {
    const state = this.selectState.get(name);
    const journal = this.selectJournal.all(name).map((row) => row.update);
    return replayUpdates(state ? [state.data, ...journal] : journal);
  }

  /**
   * Appends one update to the journal: in the turn's group when a change is
   * under way (then returns its commit), else committed at once.
   */
  append(name: string, update: Uint8Array): Promise<void> | void {
    this.insertUpdate.run(name, update);
    return this.group.joined(name);
  }

  pending(name: string): Promise<void> | undefined {
    return this.group.pending(name);
  }

  async compact(name: string, doc: Y.Doc): Promise<boolean> {
    this.group.settle();
    return this.compactTx(name, doc) as boolean;
  }

  async journalLength(name: string): Promise<number> {
    return this.countJournal.get(name)!.n;
  }

  /** Makes a live document's whole state the stored state, with an empty journal. */
  replace(name: string, doc: Y.Doc): void {
    this.replaceTx(name, doc);
  }

  async erase(name: string): Promise<void> {
    this.group.settle();
    this.eraseNow(name);
  }

  /** Forgets the document entirely (board erase), inside the caller's SQLite transaction. */
  eraseNow(name: string): void {
    this.deleteJournal.run(name);
    this.deleteState.run(name);
  }
}
