/** The registry's table and row as both SQL engines store them (the same SQL in SQLite and PostgreSQL). */

import type { BoardRecord } from '../board/model/record.js';
import type { BoardMode, LockMode } from '../schema/index.js';

export type RegistryRow = {
  id: string;
  mode: BoardMode;
  created_at: string;
  deleted_at: string | null;
  lock_mode: LockMode | null;
  key_hash: string | null;
  lock_version: number;
};

/** The record a row stands for. */
export function recordOf(row: RegistryRow): BoardRecord {
  return {
    id: row.id,
    mode: row.mode,
    createdAt: row.created_at,
    deletedAt: row.deleted_at,
    lockMode: row.lock_mode,
    keyHash: row.key_hash,
    lockVersion: Number(row.lock_version),
  };
}

/** The board registry, apart from the document so that no document client can change lock or tombstone state; the same SQL in PostgreSQL. */
export const BOARDS_TABLE = `
CREATE TABLE IF NOT EXISTS boards (
  id TEXT PRIMARY KEY,
  mode TEXT NOT NULL CHECK (mode IN ('draw', 'todo')),
  created_at TEXT NOT NULL,
  deleted_at TEXT,
  lock_mode TEXT CHECK (lock_mode IN ('write', 'all')),
  key_hash TEXT,
  lock_version INTEGER NOT NULL DEFAULT 0
);`;
