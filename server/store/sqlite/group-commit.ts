/**
 * Group commit for the embedded SQLite (issue 22): the changes of one
 * event-loop turn share one SQLite transaction, committed once at the end of
 * the turn, and each is acknowledged only after that commit, so a 2xx is as
 * durable as with a commit per change while a burst of writes pays one commit
 * (PostgreSQL's journal already commits in groups).
 *
 * Each change runs in a savepoint of the turn's transaction: one that throws
 * undoes its own writes and nothing else. Writes that do not go through a
 * change (a lock swap, a compaction, a recorded version) commit the turn's
 * group first (`settle`) and then run on their own, so nothing resolves before
 * it is stored.
 */
import { errors } from '../../board/errors.js';
import type { Db } from './database.js';

type Group = {
  durable: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
  names: Set<string>;
  ended: (() => void)[];
  /** What to put back in memory should the writes made so far be rolled back, oldest first. */
  undo: (() => void)[];
};

export class GroupCommit {
  private group: Group | null = null;
  private readonly begin;
  private readonly commit;
  private readonly rollback;
  /** Runs a function in a savepoint of the open transaction (better-sqlite3 nests transactions as savepoints). */
  private readonly savepoint;

  constructor(private readonly db: Db) {
    this.begin = db.prepare('BEGIN');
    this.commit = db.prepare('COMMIT');
    this.rollback = db.prepare('ROLLBACK');
    this.savepoint = db.transaction((change: () => void) => change());
  }

  /** Runs `change` in this turn's transaction; resolves with its result once the transaction is committed. */
  async run<T>(change: () => T): Promise<T> {
    const group = this.open();
    const undoFrom = group.undo.length;
    let result!: T;
    try {
      this.savepoint(() => {
        result = change(); // kept out of better-sqlite3's hands: it refuses a change that returns a promise
      });
    } catch (error) {
      undo(group.undo.splice(undoFrom)); // the savepoint rolled back this change's writes, and only them
      throw error;
    } finally {
      this.checkAlive(group);
    }
    await group.durable;
    return result;
  }

  /**
   * Joins an update's journal insert to the turn's transaction when one is
   * open: returns the commit to wait for (undefined when it committed at once).
   */
  joined(name: string): Promise<void> | undefined {
    if (!this.group) return undefined;
    this.group.names.add(name);
    return this.group.durable;
  }

  /**
   * Registers what puts memory back should the open transaction's writes so
   * far be rolled back (the change's savepoint, or the whole group); nothing
   * when no transaction is open.
   */
  onRollback(fn: () => void): void {
    this.group?.undo.push(fn);
  }

  /** Calls `fn` once the open group (if any, else at once) has committed or failed. */
  whenEnded(fn: () => void): void {
    if (this.group) this.group.ended.push(fn);
    else fn();
  }

  /** The commit on its way that holds an update of `name`, if any. */
  pending(name: string): Promise<void> | undefined {
    return this.group?.names.has(name) ? this.group.durable : undefined;
  }

  /** Commits the open group now (before a write outside it, and at the end of the turn). */
  settle(): void {
    const group = this.group;
    if (!group || !this.checkAlive(group)) return;
    this.group = null;
    try {
      this.commit.run();
    } catch {
      if (this.db.inTransaction) this.rollback.run();
      this.end(group, false);
      return;
    }
    this.end(group, true);
  }

  private end(group: Group, committed: boolean): void {
    if (!committed) undo(group.undo);
    for (const fn of group.ended) fn();
    if (committed) group.resolve();
    else group.reject(errors.storageUnavailable());
  }

  /**
   * SQLite rolls a whole transaction back on some errors (a full disk among
   * them): then none of the group's changes is stored, and none is acknowledged.
   */
  private checkAlive(group: Group): boolean {
    if (this.db.inTransaction || this.group !== group) return true;
    this.group = null;
    this.end(group, false);
    return false;
  }

  private open(): Group {
    if (this.group && this.checkAlive(this.group)) return this.group;
    this.begin.run();
    let resolve!: () => void;
    let reject!: (error: unknown) => void;
    const durable = new Promise<void>((yes, no) => {
      resolve = yes;
      reject = no;
    });
    durable.catch(() => {}); // each waiter sees the rejection; an unwaited one must not crash the process
    this.group = { durable, resolve, reject, names: new Set(), ended: [], undo: [] };
    setImmediate(() => this.settle());
    return this.group;
  }
}

/** Runs undo steps newest first, as the writes they answer were rolled back. */
function undo(steps: (() => void)[]): void {
  for (let i = steps.length - 1; i >= 0; i--) steps[i]();
}
