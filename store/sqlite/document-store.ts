/**
 * Durable document storage: a stored state per document plus a journal of the
 * Y updates applied since. Appending happens synchronously from the document's
 * update event, before any acknowledgement; compaction folds the journal into
 * the stored state in one SQLite transaction (the y-leveldb approach).
 */
import * as Y from 'yjs';
import { type DocumentJournal, replayUpdates } from '../board-store.js';
import { type Db, onlyRow } from './database.js';
import type { GroupCommit } from './group-commit.js';

/**
 * Compactions asked within this window share one SQLite transaction: a board's
 * journal rows lie between every other busy board's (the table is in append
 * order), so boards compacted together write each shared page to the WAL once.
 */
export const COMPACTION_BATCH_MS = 100;

/** At most this many boards per compaction transaction, so that one does not stall the event loop for long. */
const COMPACTION_BATCH_BOARDS = 64;

/**
 * A batch whose rows make up at least this share of the seqs between its
 * first row and its last deletes them with one walk of that range (their
 * names checked) instead of looking each row up, which costs about ten steps.
 */
const RANGE_DELETE_SHARE = 0.15;

type DueCompaction = {
  doc: Y.Doc;
  settled: { resolve: (compacted: boolean) => void; reject: (error: unknown) => void }[];
};

export class SqliteDocuments implements DocumentJournal {
  private readonly selectState;
  private readonly scanJournal;
  private readonly selectUpdates;
  private readonly insertUpdate;
  private readonly deleteUpdate;
  private readonly upsertState;
  private readonly deleteUpdates;
  private readonly deleteRange;
  private readonly deleteState;
  private readonly dataVersion;
  private seenVersion: number;
  /**
   * Each board's journal rows (their seq), in order: the journal has no index
   * by board, so this is how its rows are found. Built by one scan when the
   * file opens, kept by every append, compaction and rollback after that.
   */
  private readonly rows = new Map<string, number[]>();
  private readonly compactTx;
  private readonly replaceTx;
  /** Boards waiting for the next compaction transaction, in the order they asked. */
  private readonly due = new Map<string, DueCompaction>();
  private dueTimer: NodeJS.Timeout | undefined;

  constructor(
    db: Db,
    private readonly group: GroupCommit,
  ) {
    this.selectState = db.prepare<[string], { data: Buffer }>('SELECT data FROM documents WHERE name = ?');
    this.scanJournal = db.prepare<[], { seq: number; name: string }>('SELECT seq, name FROM journal ORDER BY seq');
    // The name is checked on every read and delete by seq: a slip in the bookkeeping must not reach another board's rows.
    // The seqs go in as one JSON array: a statement per row took three times as long to load 10 000 rows,
    // and 1.7 times as long to delete 150 000.
    this.selectUpdates = db
      .prepare<[string, string], Buffer>(
        'SELECT "update" FROM journal WHERE seq IN (SELECT value FROM json_each(?)) AND name = ? ORDER BY seq',
      )
      .pluck();
    this.insertUpdate = db.prepare<[string, Uint8Array]>('INSERT INTO journal (name, "update") VALUES (?, ?)');
    this.deleteUpdate = db.prepare<[number, string]>('DELETE FROM journal WHERE seq = ? AND name = ?');
    this.upsertState = db.prepare<[string, Uint8Array]>(
      'INSERT INTO documents (name, data) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET data = excluded.data',
    );
    this.deleteUpdates = db.prepare<[string, string]>(
      'DELETE FROM journal WHERE seq IN (SELECT value FROM json_each(?)) AND name = ?',
    );
    this.deleteRange = db.prepare<[number, number, string]>(
      'DELETE FROM journal WHERE seq BETWEEN ? AND ? AND name IN (SELECT value FROM json_each(?))',
    );
    this.deleteState = db.prepare<[string]>('DELETE FROM documents WHERE name = ?');
    this.dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
    this.seenVersion = onlyRow(this.dataVersion.get(), 'PRAGMA data_version');
    this.scan();
    this.compactTx = db.transaction((due: [string, DueCompaction][]) => {
      const compacted = due.map(([name, { doc }]) => {
        if (!this.rows.has(name)) return false;
        // Encoded inside the transaction, from the live document: every journalled
        // update is in it, so deleting the whole journal can lose nothing.
        this.upsertState.run(name, Y.encodeStateAsUpdate(doc));
        return true;
      });
      this.deleteBatchRows(due.filter((_, i) => compacted[i]).map(([name]) => name));
      return compacted;
    });
    this.replaceTx = db.transaction((name: string, doc: Y.Doc) => {
      this.upsertState.run(name, Y.encodeStateAsUpdate(doc));
      this.dropJournal(name);
    });
  }

  /** Finds every board's journal rows: when the file opens, and after another connection has written to it. */
  private scan(): void {
    this.rows.clear();
    for (const { seq, name } of this.scanJournal.iterate()) this.remember(name, seq);
  }

  /** Scans again when another connection has committed to the file since (an operator's shell, a second store in tests). */
  private followOtherWriters(): void {
    const version = onlyRow(this.dataVersion.get(), 'PRAGMA data_version');
    if (version !== this.seenVersion) this.scan();
    this.seenVersion = version;
  }

  /**
   * Deletes the journal rows of a batch of boards, as deleteRows does for
   * each: by one walk of the seqs from the batch's first row to its last when
   * its rows are dense enough there, else by looking each row up. The walk
   * deletes no other row: it checks each row's name, and the batch's rows are
   * every row its boards have in that range (each board's seqs ascend, and
   * the list holds every row of the board).
   */
  private deleteBatchRows(names: string[]): void {
    let count = 0;
    let first = Infinity;
    let last = -Infinity;
    for (const name of names) {
      const seqs = this.rows.get(name);
      if (!seqs) throw new Error(`journal: ${name} is due for compaction but has no rows`);
      count += seqs.length;
      first = Math.min(first, seqs[0]);
      last = Math.max(last, seqs[seqs.length - 1]);
    }
    if (count === 0) return;
    if (count >= RANGE_DELETE_SHARE * (last - first + 1)) this.deleteRange.run(first, last, JSON.stringify(names));
    else for (const name of names) this.deleteRows(name);
  }

  /** Deletes a board's journal rows from the file; updating memory is its callers' part (they differ in when). */
  private deleteRows(name: string): void {
    const seqs = this.rows.get(name);
    if (seqs) this.deleteUpdates.run(JSON.stringify(seqs), name);
  }

  /**
   * Deletes a board's journal rows within a change's transaction: forgotten
   * now, remembered again should it roll back. Called last by its callers, so
   * that nothing after it in their statements can fail with memory changed.
   */
  private dropJournal(name: string): void {
    this.followOtherWriters();
    const seqs = this.rows.get(name);
    if (!seqs) return;
    this.deleteRows(name);
    this.rows.delete(name);
    this.group.onRollback(() => this.rows.set(name, seqs));
  }

  async load(name: string): Promise<Uint8Array | null> {
    this.followOtherWriters();
    const state = this.selectState.get(name);
    const seqs = this.rows.get(name);
    const journal = seqs ? this.selectUpdates.all(JSON.stringify(seqs), name) : [];
    return replayUpdates(state ? [state.data, ...journal] : journal);
  }

  /**
   * Appends one update to the journal: in the turn's group when a change is
   * under way (then returns its commit), else committed at once.
   */
  append(name: string, update: Uint8Array): Promise<void> | void {
    const seq = Number(this.insertUpdate.run(name, update).lastInsertRowid);
    this.remember(name, seq);
    this.group.onRollback(() => this.forgetRow(name, seq));
    // No savepoint for an append (group-commit.ts): a change that throws deletes its row instead.
    this.group.unwriteOnThrow(() => this.deleteUpdate.run(seq, name));
    return this.group.joined(name);
  }

  private remember(name: string, seq: number): void {
    const seqs = this.rows.get(name);
    if (seqs) seqs.push(seq);
    else this.rows.set(name, [seq]);
  }

  /** A row the rollback of its transaction took away. */
  private forgetRow(name: string, seq: number): void {
    const seqs = this.rows.get(name);
    const at = seqs?.lastIndexOf(seq) ?? -1;
    if (!seqs || at < 0) return;
    seqs.splice(at, 1);
    if (seqs.length === 0) this.rows.delete(name);
  }

  pending(name: string): Promise<void> | undefined {
    return this.group.pending(name);
  }

  /** Folds the journal into the stored state, with the other boards that ask within COMPACTION_BATCH_MS. */
  compact(name: string, doc: Y.Doc): Promise<boolean> {
    return new Promise((resolve, reject) => {
      const due = this.due.get(name);
      if (due) {
        due.doc = doc;
        due.settled.push({ resolve, reject });
      } else {
        this.due.set(name, { doc, settled: [{ resolve, reject }] });
      }
      this.dueTimer ??= setTimeout(() => this.compactDue(), COMPACTION_BATCH_MS);
    });
  }

  /** Runs the compactions asked so far, COMPACTION_BATCH_BOARDS per transaction. */
  private compactDue(): void {
    clearTimeout(this.dueTimer); // flushCompactions calls it ahead of its timer
    this.dueTimer = undefined;
    const due = [...this.due].slice(0, COMPACTION_BATCH_BOARDS);
    for (const [name] of due) this.due.delete(name);
    if (this.due.size > 0) this.dueTimer = setTimeout(() => this.compactDue(), 0);
    let compacted: boolean[];
    try {
      this.group.settle();
      this.followOtherWriters();
      compacted = this.compactTx(due) as boolean[];
      for (const [i, [name]] of due.entries()) if (compacted[i]) this.rows.delete(name);
    } catch (error) {
      for (const [, { settled }] of due) for (const { reject } of settled) reject(error);
      return;
    }
    for (const [i, [, { settled }]] of due.entries()) for (const { resolve } of settled) resolve(compacted[i]);
  }

  /** Runs every compaction still waiting (before the database closes). */
  flushCompactions(): void {
    while (this.due.size > 0) this.compactDue();
  }

  async journalLength(name: string): Promise<number> {
    this.followOtherWriters();
    return this.rows.get(name)?.length ?? 0;
  }

  /** Makes a live document's whole state the stored state, with an empty journal. */
  replace(name: string, doc: Y.Doc): void {
    this.group.beforeWrite();
    this.replaceTx(name, doc);
  }

  /** Erases in the turn's group, whose undo puts the journal's rows back in memory should its commit fail. */
  async erase(name: string): Promise<void> {
    this.forget(name);
    await this.group.run(() => this.eraseNow(name));
  }

  /** Forgets the document entirely (board erase), inside the caller's SQLite transaction. */
  eraseNow(name: string): void {
    this.group.beforeWrite();
    this.forget(name);
    this.deleteState.run(name);
    this.dropJournal(name);
  }

  /** A compaction waiting for an erased board would store its state again: it is dropped, as done with nothing to do. */
  private forget(name: string): void {
    const due = this.due.get(name);
    if (!due) return;
    this.due.delete(name);
    for (const { resolve } of due.settled) resolve(false);
  }
}
