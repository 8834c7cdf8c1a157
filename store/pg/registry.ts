/**
 * The board registry in PostgreSQL. Every `get` is a round trip, so that a
 * lock set on one instance holds on every other at once; `peek` answers from
 * the last record this instance read, for checks made in the synchronous step of a change.
 */
import { LRUCache } from 'lru-cache';
import type { BoardRecord } from '../../board/model/record.js';
import type { Lock, Registry } from '../board-store.js';
import { type RegistryRow, recordOf } from '../registry-row.js';
import { autocommit, type Pool, query } from './database.js';

/** Records kept for `peek`: the boards this instance serves, roughly. */
const PEEK_CACHE_SIZE = 10_000;

/** The lock's compare-and-swap: applies only while the row is still at the version read. */
export const SWAP_LOCK =
  'UPDATE boards SET lock_mode = $1, key_hash = $2, lock_version = lock_version + 1 WHERE id = $3 AND lock_version = $4 AND deleted_at IS NULL';

export class PgRegistry implements Registry {
  private readonly seen = new LRUCache<string, BoardRecord>({ max: PEEK_CACHE_SIZE });

  constructor(private readonly pool: Pool) {}

  async get(id: string): Promise<BoardRecord | null> {
    const { rows } = await query<RegistryRow>(this.pool, 'SELECT * FROM boards WHERE id = $1', [id]);
    const record = rows[0] ? recordOf(rows[0]) : null;
    this.remember(id, record);
    return record;
  }

  peek(id: string): BoardRecord | null {
    return this.seen.get(id) ?? null;
  }

  /** Reads a record again if this instance holds it (another instance changed it). */
  async refresh(id: string): Promise<void> {
    if (this.seen.has(id)) await this.get(id);
  }

  async setLock(id: string, lock: Lock | null, expectedVersion: number): Promise<boolean> {
    const { rowCount } = await autocommit(this.pool, SWAP_LOCK, [
      lock?.mode ?? null,
      lock?.keyHash ?? null,
      id,
      expectedVersion,
    ]);
    if (rowCount === 1) await this.get(id);
    return rowCount === 1;
  }

  private remember(id: string, record: BoardRecord | null): void {
    this.seen.delete(id);
    if (!record) return;
    this.seen.set(id, record);
  }
}
