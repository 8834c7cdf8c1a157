/**
 * Group commit for the embedded SQLite: the changes of a burst of
 * event-loop turns share one SQLite transaction, committed once the burst
 * ends, and each is acknowledged only after that commit, so a 2xx is as
 * durable as with a commit per change while a burst of writes pays one commit
 * (PostgreSQL's journal already commits in groups).
 *
 * A group stays open for the next turn while turns keep bringing it changes,
 * for at most MAX_TURNS_PER_GROUP turns: the requests whose answers went out
 * with the last commit come back a turn or two later, and a group that waits
 * for them commits, answers and wakes their senders once for all of them.
 * A turn that brings
 * nothing commits at its end, so a lone write waits one empty turn longer.
 * Nor does a group wait for another turn once its first change has waited
 * MAX_GROUP_WAIT_MS: turns that long are heavy requests (an MCP call does
 * most of its work around the write, before and after it), whose senders
 * waiting on a shared commit leave the machine idle, and whose objects stay
 * alive through young collections while they wait.
 *
 * A change that throws undoes its own writes and nothing else. Its writes
 * run in a savepoint of the group's transaction, opened by the first write
 * that needs it (`beforeWrite`: registry rows, payloads, erased or replaced
 * documents). Nearly every change makes no such write, only its journal
 * appends, and a savepoint would cost each of them its own statements: an
 * append made outside a savepoint leaves instead
 * how to delete its row (`unwriteOnThrow`). Writes that do not go through a
 * change (a lock swap, a compaction, a recorded version) commit the open
 * group first (`settle`) and then run on their own, so nothing resolves before
 * it is stored.
 */
import { errors } from '../../board/model/errors.js';
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
  /** When its first change ran (performance.now()). */
  opened: number;
};

/** The change running now: whether its savepoint is open, and how to take back what it wrote before that. */
type Change = { savepoint: boolean; unwrite: (() => void)[]; undoFrom: number };

/** At most this many event-loop turns share a group, however busy: the first change's answer waits for no more. */
export const MAX_TURNS_PER_GROUP = 4;
/** Nor does a group wait for another turn once its first change has waited this long: wall time scales with the machine. */
export const MAX_GROUP_WAIT_MS = 0.4;

export class GroupCommit {
  private group: Group | null = null;
  private readonly begin;
  private readonly commit;
  private readonly rollback;
  private readonly savepoint;
  private readonly release;
  private readonly rollbackToSavepoint;
  private change: Change | null = null;

  constructor(
    private readonly db: Db,
    private readonly maxWaitMs = MAX_GROUP_WAIT_MS,
  ) {
    // IMMEDIATE: a deferred group whose first statement reads keeps that snapshot, and another connection's
    // commit before the group's first write fails that write with SQLITE_BUSY_SNAPSHOT, which no wait can cure.
    this.begin = db.prepare('BEGIN IMMEDIATE');
    this.commit = db.prepare('COMMIT');
    this.rollback = db.prepare('ROLLBACK');
    this.savepoint = db.prepare('SAVEPOINT change');
    this.release = db.prepare('RELEASE change');
    this.rollbackToSavepoint = db.prepare('ROLLBACK TO change');
  }

  /** Runs `change` in this turn's transaction; resolves with its result once the transaction is committed. */
  async run<T>(change: () => T): Promise<T> {
    const group = this.open();
    group.made++;
    const running: Change = { savepoint: false, unwrite: [], undoFrom: group.undo.length };
    const outer = this.change;
    this.change = running;
    let result!: T;
    try {
      result = change();
      if (running.savepoint) this.release.run();
    } catch (error) {
      this.takeBack(group, running);
      throw error;
    } finally {
      this.change = outer;
      this.checkAlive(group);
    }
    await group.durable;
    return result;
  }

  /** Called before a write that a throwing change must take back: opens the change's savepoint (nothing outside a change). */
  beforeWrite(): void {
    const running = this.change;
    if (!running || running.savepoint) return;
    this.savepoint.run();
    running.savepoint = true;
  }

  /** How to take back a write made without the savepoint (a journal append), should its change throw. */
  unwriteOnThrow(unwrite: () => void): void {
    const running = this.change;
    if (running && !running.savepoint) running.unwrite.push(unwrite);
  }

  /**
   * Takes back what a change that threw wrote: its savepoint, then what it
   * wrote before that, newest first. Should that fail, the whole group fails
   * instead, so that nothing of it is acknowledged.
   */
  private takeBack(group: Group, running: Change): void {
    if (this.db.inTransaction && this.group === group) {
      try {
        if (running.savepoint) {
          this.rollbackToSavepoint.run();
          this.release.run();
        }
        undo(running.unwrite);
      } catch {
        if (this.db.inTransaction) this.rollback.run();
        this.group = null;
        this.end(group, false);
        return;
      }
    }
    undo(group.undo.splice(running.undoFrom)); // memory follows: this change's writes, and only them, are gone
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
      if (
        group.made === madeBefore ||
        turns >= MAX_TURNS_PER_GROUP ||
        performance.now() - group.opened >= this.maxWaitMs
      )
        this.settle();
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
    this.group = {
      durable,
      resolve,
      reject,
      names: new Set(),
      ended: [],
      undo: [],
      made: 0,
      opened: performance.now(),
    };
    this.settleWhenQuiet(this.group, 0, 1);
    return this.group;
  }
}

/** Runs undo steps newest first, as the writes they answer were rolled back. */
function undo(steps: (() => void)[]): void {
  for (let i = steps.length - 1; i >= 0; i--) steps[i]();
}
