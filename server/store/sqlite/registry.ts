/**
 * The board registry in the embedded SQLite: which boards exist, their mode,
 * lock and tombstone (the record is in board/record.ts; PostgreSQL's registry
 * is in store/pg).
 */
import type { BoardMode, LockMode } from '../../../schema/index.js';
import { type BoardRecord, sqlTimestamp } from '../../board/record.js';
import type { Lock, Registry } from '../board-store.js';
import { recordOf, type RegistryRow } from '../registry-row.js';
import type { Db } from './database.js';
import type { GroupCommit } from './group-commit.js';

/** The registry in the embedded SQLite: synchronous, so that it can join the journal's transactions. */
export class SqliteRegistry implements Registry {
  private readonly selectBoard;
  private readonly insertBoard;
  private readonly updateMode;
  private readonly markDeleted;
  private readonly swapLock;
  private readonly reviveBoard;

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
    private readonly group: GroupCommit,
  ) {
    this.selectBoard = db.prepare<[string], RegistryRow>('SELECT * FROM boards WHERE id = ?');
    this.insertBoard = db.prepare<[string, BoardMode, string, LockMode | null, string | null]>(
      'INSERT INTO boards (id, mode, created_at, lock_mode, key_hash) VALUES (?, ?, ?, ?, ?)',
    );
    this.reviveBoard = db.prepare<[BoardMode, string, string]>(
      'UPDATE boards SET mode = ?, created_at = ?, deleted_at = NULL, lock_mode = NULL, key_hash = NULL, lock_version = lock_version + 1 WHERE id = ? AND deleted_at IS NOT NULL',
    );
    this.swapLock = db.prepare<[LockMode | null, string | null, string, number]>(
      'UPDATE boards SET lock_mode = ?, key_hash = ?, lock_version = lock_version + 1 WHERE id = ? AND lock_version = ? AND deleted_at IS NULL',
    );
    this.updateMode = db.prepare<[BoardMode, string]>('UPDATE boards SET mode = ? WHERE id = ?');
    this.markDeleted = db.prepare<[string, string]>(
      'UPDATE boards SET deleted_at = ?, lock_mode = NULL, key_hash = NULL, lock_version = lock_version + 1 WHERE id = ?',
    );
  }

  async get(id: string): Promise<BoardRecord | null> {
    return this.peek(id);
  }

  peek(id: string): BoardRecord | null {
    const row = this.selectBoard.get(id);
    return row ? recordOf(row) : null;
  }

  /** Registers a new board, locked at creation when a lock mode and key hash are given. */
  create(id: string, mode: BoardMode, lock?: Lock): BoardRecord {
    this.insertBoard.run(id, mode, sqlTimestamp(this.now()), lock?.mode ?? null, lock?.keyHash ?? null);
    return this.peek(id)!;
  }

  /** Gives an erased board's id to a new, empty board (only once its tombstone has expired). */
  revive(id: string, mode: BoardMode): BoardRecord {
    this.reviveBoard.run(mode, sqlTimestamp(this.now()), id);
    return this.peek(id)!;
  }

  /**
   * Compare-and-swap of the lock state: applies only if the row is still at
   * `expectedVersion` (nobody changed the lock since it was read). Returns
   * whether it applied.
   */
  async setLock(id: string, lock: Lock | null, expectedVersion: number): Promise<boolean> {
    this.group.settle();
    return this.swapLock.run(lock?.mode ?? null, lock?.keyHash ?? null, id, expectedVersion).changes === 1;
  }

  setMode(id: string, mode: BoardMode): void {
    this.updateMode.run(mode, id);
  }

  /** Tombstones a board: its lock goes with its content. */
  tombstone(id: string): string {
    const deletedAt = sqlTimestamp(this.now());
    this.markDeleted.run(deletedAt, id);
    return deletedAt;
  }
}
