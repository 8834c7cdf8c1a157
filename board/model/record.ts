/**
 * A board's record in the registry: its mode, lock and tombstone, kept apart
 * from the Y.Doc so that no document client can change them. Every store
 * engine keeps it; the domain reads it.
 */
import type { BoardMode, LockMode } from '../../schema/index.js';
import { TOMBSTONE_RETENTION_DAYS } from '../../schema/index.js';

export type BoardRecord = {
  id: string;
  mode: BoardMode;
  createdAt: string;
  deletedAt: string | null;
  lockMode: LockMode | null;
  keyHash: string | null;
  lockVersion: number;
};

const DAY_MS = 86_400_000;

/** A UTC timestamp in the SQL-style format of the spec: `YYYY-MM-DD HH:MM:SS`. */
export function sqlTimestamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

function parseSqlTimestamp(value: string): number {
  return Date.parse(`${value.replace(' ', 'T')}Z`);
}

/** True while a tombstone is younger than the retention period (the deleted marker is still shown). */
export function tombstoneIsFresh(record: BoardRecord, now: number): boolean {
  if (!record.deletedAt) return false;
  return now - parseSqlTimestamp(record.deletedAt) < TOMBSTONE_RETENTION_DAYS * DAY_MS;
}
