/**
 * The board registry in the embedded SQLite: which boards exist, their mode,
 * lock and tombstone (the record is in board/record.ts; PostgreSQL's registry
 * is in store/pg).
 */
import { LRUCache } from 'lru-cache';
import { errors } from '../../board/model/errors.js';
import { type BoardRecord, sqlTimestamp } from '../../board/model/record.js';
import type { BoardMode, LockMode } from '../../schema/index.js';
import type { Lock, Registry } from '../board-store.js';
import { type RegistryRow, recordOf } from '../registry-row.js';
import { type Db, onlyRow } from './database.js';
import type { GroupCommit } from './group-commit.js';

/** Records kept in memory: every write to a board's row goes through this class, in this process. */
const CACHE_SIZE = 10_000;

/** How often another connection's commits are looked for: data_version is a query, too dear for every read. */
const OTHER_WRITERS_CHECK_MS = 100;

/**
 * The registry in the embedded SQLite: synchronous, so that it can join the
 * journal's transactions. Rows are cached, as every write reads its board's row
 * twice. A row written in a transaction still open is read from
 * the database until that transaction ends, as a savepoint or the group may
 * still roll it back; and the whole cache goes when another connection (an
 * operator's sqlite3 shell, a migration) has committed to the file, which
 * SQLite's data_version tells, checked at most every OTHER_WRITERS_CHECK_MS.
 */
export class SqliteRegistry implements Registry {
  /** A row read, or its absence (`record: null`), until a write or another connection's commit drops it. */
  private readonly cache = new LRUCache<string, { record: BoardRecord | null }>({ max: CACHE_SIZE });
  private readonly uncommitted = new Set<string>();
  private readonly dataVersion;
  private seenVersion = -1;
  private checkedAt = -Infinity;
  private readonly selectBoard;
  private readonly insertBoard;
  private readonly updateMode;
  private readonly markDeleted;
  private readonly swapLock;
  private readonly reviveBoard;

  constructor(
    db: Db,
    private readonly now: () => number,
    private readonly group: GroupCommit,
  ) {
    this.selectBoard = db.prepare<[string], RegistryRow>('SELECT * FROM boards WHERE id = ?');
    this.dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
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
    this.checkOtherWriters();
    const cached = this.cache.get(id);
    if (cached) return cached.record;
    const row = this.selectBoard.get(id);
    const record = row ? recordOf(row) : null;
    if (!this.uncommitted.has(id)) this.cache.set(id, { record });
    return record;
  }

  private checkOtherWriters(): void {
    const now = performance.now();
    if (now - this.checkedAt < OTHER_WRITERS_CHECK_MS) return;
    this.checkedAt = now;
    const version = onlyRow(this.dataVersion.get(), 'PRAGMA data_version');
    if (version !== this.seenVersion) this.cache.clear();
    this.seenVersion = version;
  }

  /** Before any write to a row: it is read from the database again, once its transaction has ended. */
  private writing(id: string): void {
    this.group.beforeWrite();
    this.cache.delete(id);
    if (this.uncommitted.has(id)) return;
    this.uncommitted.add(id);
    this.group.whenEnded(() => {
      this.uncommitted.delete(id);
      this.cache.delete(id);
    });
  }

  /** Registers a new board, locked at creation when a lock mode and key hash are given. */
  create(id: string, mode: BoardMode, lock?: Lock): BoardRecord {
    this.writing(id);
    this.insertBoard.run(id, mode, sqlTimestamp(this.now()), lock?.mode ?? null, lock?.keyHash ?? null);
    return onlyRow(this.peek(id), `the board ${id} just inserted`);
  }

  /** Gives an erased board's id to a new, empty board (only once its tombstone has expired). */
  revive(id: string, mode: BoardMode): BoardRecord {
    this.writing(id);
    this.reviveBoard.run(mode, sqlTimestamp(this.now()), id);
    return onlyRow(this.peek(id), `the board ${id} just revived`);
  }

  /**
   * Compare-and-swap of the lock state: applies only if the row is still at
   * `expectedVersion` (nobody changed the lock since it was read). Returns
   * whether it applied.
   */
  async setLock(id: string, lock: Lock | null, expectedVersion: number): Promise<boolean> {
    this.group.settle();
    this.writing(id);
    return this.swapLock.run(lock?.mode ?? null, lock?.keyHash ?? null, id, expectedVersion).changes === 1;
  }

  /** setLock inside a change's transaction: a stale version throws, and the change's savepoint takes it back. */
  swapLockNow(id: string, lock: Lock | null, expectedVersion: number): void {
    this.writing(id);
    if (this.swapLock.run(lock?.mode ?? null, lock?.keyHash ?? null, id, expectedVersion).changes !== 1)
      throw errors.lockConflict();
  }

  setMode(id: string, mode: BoardMode): void {
    this.writing(id);
    this.updateMode.run(mode, id);
  }

  /** Tombstones a board: its lock goes with its content. */
  tombstone(id: string): string {
    this.writing(id);
    const deletedAt = sqlTimestamp(this.now());
    this.markDeleted.run(deletedAt, id);
    return deletedAt;
  }
}
