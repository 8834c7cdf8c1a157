/**
 * Group commit for the embedded SQLite (issue 22): the changes of a burst of
 * event-loop turns share one SQLite transaction, committed once the burst
 * ends, and each is acknowledged only after that commit, so a 2xx is as
 * durable as with a commit per change while a burst of writes pays one commit
 * (PostgreSQL's journal already commits in groups).
 *
 * A group stays open for the next turn while turns keep bringing it changes,
 * for at most MAX_TURNS_PER_GROUP turns: the requests whose answers went out
 * with the last commit come back a turn or two later, and a group that waits
 * for them commits, answers and wakes their senders once for all of them
 * (bench/FINDINGS.md: 6 writes a commit became 10 with 10 connections, and
 * the event loop's CPU per write fell by about 3 µs). A turn that brings
 * nothing commits at its end, so a lone write waits one empty turn longer.
 *
 * Each change runs in a savepoint of the group's transaction: one that throws
 * undoes its own writes and nothing else. Writes that do not go through a
 * change (a lock swap, a compaction, a recorded version) commit the open
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
  /** Changes and journal appends made in the group so far: a turn that adds none ends it. */
  made: number;
};

/** At most this many event-loop turns share a group, however busy: the first change's answer waits for no more. */
export const MAX_TURNS_PER_GROUP = 4;

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
    group.made++;
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
    this.group.made++;
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

  /** Commits the open group now (before a write outside it, and once its burst of turns ends). */
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

  /** At the end of this turn: commits a group this turn added nothing to (or that is old enough), else looks again next turn. */
  private settleWhenQuiet(group: Group, madeBefore: number, turns: number): void {
    setImmediate(() => {
      if (this.group !== group) return; // settled already, by a write outside it
      if (group.made === madeBefore || turns >= MAX_TURNS_PER_GROUP) this.settle();
      else this.settleWhenQuiet(group, group.made, turns + 1);
    });
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
    this.group = { durable, resolve, reject, names: new Set(), ended: [], undo: [], made: 0 };
    this.settleWhenQuiet(this.group, 0, 1);
    return this.group;
  }
}

/** Runs undo steps newest first, as the writes they answer were rolled back. */
function undo(steps: (() => void)[]): void {
  for (let i = steps.length - 1; i >= 0; i--) steps[i]();
}
