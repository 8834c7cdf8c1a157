/**
 * The board registry: which boards exist, their mode, lock and tombstone. Kept
 * in SQLite apart from the Y.Doc so that no document client can change it.
 */
import type { BoardMode, LockMode } from '../schema/index.js';
import { TOMBSTONE_RETENTION_DAYS } from '../schema/index.js';
import type { Db } from './store/database.js';

export type BoardRecord = {
  id: string;
  mode: BoardMode;
  createdAt: string;
  deletedAt: string | null;
  lockMode: LockMode | null;
  keyHash: string | null;
  lockVersion: number;
};

type Row = {
  id: string;
  mode: BoardMode;
  created_at: string;
  deleted_at: string | null;
  lock_mode: LockMode | null;
  key_hash: string | null;
  lock_version: number;
};

const DAY_MS = 86_400_000;

/** A UTC timestamp in the SQL-style format of the spec: `YYYY-MM-DD HH:MM:SS`. */
export function sqlTimestamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

function parseSqlTimestamp(value: string): number {
  return Date.parse(value.replace(' ', 'T') + 'Z');
}

export class Registry {
  private readonly selectBoard;
  private readonly insertBoard;
  private readonly updateMode;
  private readonly markDeleted;

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {
    this.selectBoard = db.prepare<[string], Row>('SELECT * FROM boards WHERE id = ?');
    this.insertBoard = db.prepare<[string, BoardMode, string]>('INSERT INTO boards (id, mode, created_at) VALUES (?, ?, ?)');
    this.updateMode = db.prepare<[BoardMode, string]>('UPDATE boards SET mode = ? WHERE id = ?');
    this.markDeleted = db.prepare<[string, string]>(
      'UPDATE boards SET deleted_at = ?, lock_mode = NULL, key_hash = NULL, lock_version = lock_version + 1 WHERE id = ?',
    );
  }

  get(id: string): BoardRecord | null {
    const row = this.selectBoard.get(id);
    if (!row) return null;
    return {
      id: row.id,
      mode: row.mode,
      createdAt: row.created_at,
      deletedAt: row.deleted_at,
      lockMode: row.lock_mode,
      keyHash: row.key_hash,
      lockVersion: row.lock_version,
    };
  }

  create(id: string, mode: BoardMode): BoardRecord {
    this.insertBoard.run(id, mode, sqlTimestamp(this.now()));
    return this.get(id)!;
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

  /** True while a tombstone is younger than the retention period (the deleted marker is still shown). */
  tombstoneIsFresh(record: BoardRecord): boolean {
    if (!record.deletedAt) return false;
    return this.now() - parseSqlTimestamp(record.deletedAt) < TOMBSTONE_RETENTION_DAYS * DAY_MS;
  }
}
