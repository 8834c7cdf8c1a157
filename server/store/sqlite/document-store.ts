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

/**
 * Compactions asked within this window share one SQLite transaction. A
 * board's journal rows lie between every other busy board's (the table is in
 * append order), so compacting one board alone deletes rows from about as
 * many pages as it has rows, and its commit writes each of those pages to
 * the WAL again: with 100 boards written at once, about 5 ms per board and
 * 10% of the write path's CPU (bench/FINDINGS.md, issue 22). Compacted
 * together, boards that share pages write each page once.
 */
export const COMPACTION_BATCH_MS = 100;

/** At most this many boards per compaction transaction, so that one does not stall the event loop for long. */
const COMPACTION_BATCH_BOARDS = 64;

type DueCompaction = { doc: Y.Doc; settled: { resolve: (compacted: boolean) => void; reject: (error: unknown) => void }[] };

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
  /** Boards waiting for the next compaction transaction, in the order they asked. */
  private readonly due = new Map<string, DueCompaction>();
  private dueTimer: NodeJS.Timeout | undefined;

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
    this.compactTx = db.transaction((due: [string, DueCompaction][]) =>
      due.map(([name, { doc }]) => {
        if (this.countJournal.get(name)!.n === 0) return false;
        // Encoded inside the transaction, from the live document: every journalled
        // update is in it, so deleting the whole journal can lose nothing.
        this.upsertState.run(name, Y.encodeStateAsUpdate(doc));
        this.deleteJournal.run(name);
        return true;
      }),
    );
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
      compacted = this.compactTx(due) as boolean[];
    } catch (error) {
      for (const [, { settled }] of due) for (const { reject } of settled) reject(error);
      return;
    }
    due.forEach(([, { settled }], i) => settled.forEach(({ resolve }) => resolve(compacted[i])));
  }

  /** Runs every compaction still waiting (before the database closes). */
  flushCompactions(): void {
    while (this.due.size > 0) this.compactDue();
  }

  async journalLength(name: string): Promise<number> {
    return this.countJournal.get(name)!.n;
  }

  /** Makes a live document's whole state the stored state, with an empty journal. */
  replace(name: string, doc: Y.Doc): void {
    this.replaceTx(name, doc);
  }

  async erase(name: string): Promise<void> {
    this.forget(name);
    this.group.settle();
    this.eraseNow(name);
  }

  /** Forgets the document entirely (board erase), inside the caller's SQLite transaction. */
  eraseNow(name: string): void {
    this.forget(name);
    this.deleteJournal.run(name);
    this.deleteState.run(name);
  }

  /** A compaction waiting for an erased board would store its state again: it is dropped, as done with nothing to do. */
  private forget(name: string): void {
    const due = this.due.get(name);
    if (!due) return;
    this.due.delete(name);
    for (const { resolve } of due.settled) resolve(false);
  }
}
