/**
 * Image payloads in PostgreSQL. Views and the JSON channel read payloads
 * synchronously, so each instance keeps those it has used, per board, in a
 * bounded cache: `load` fetches the missing ones before a view, `put` writes
 * through and `durable` waits for the write.
 */
import { LRUCache } from 'lru-cache';
import { blobHash } from '../blob-hash.js';
import type { BlobStore } from '../board-store.js';
import { autocommit, type Pool, query } from './database.js';

/** Boards whose payloads stay cached (least recently used go first). */
const CACHED_BOARDS = 200;
/**
 * A payload younger than this is never pruned: another instance's copy of the
 * board may reference it before this one has seen that change.
 */
const PRUNE_GRACE = '10 minutes';

export class PgBlobs implements BlobStore {
  private readonly cache = new LRUCache<string, Map<string, string>>({ max: CACHED_BOARDS });
  private readonly writes = new Map<string, Promise<void>>();

  constructor(private readonly pool: Pool) {}

  put(boardId: string, dataUrl: string): string {
    const hash = blobHash(dataUrl);
    this.board(boardId).set(hash, dataUrl);
    const write = autocommit(
      this.pool,
      'INSERT INTO image_blobs (board_id, hash, data_url) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [boardId, hash, dataUrl],
    );
    const all = Promise.all([this.writes.get(boardId), write]).then(() => {});
    const settled = () => {
      if (this.writes.get(boardId) === all) this.writes.delete(boardId);
    };
    all.then(settled, settled); // also marks the failure handled: the change that put it awaits `pending` and sees it
    this.writes.set(boardId, all);
    return hash;
  }

  get(boardId: string, hash: string): string | null {
    return this.cache.peek(boardId)?.get(hash) ?? null;
  }

  async load(boardId: string, hashes: Iterable<string>): Promise<void> {
    const cached = this.cache.peek(boardId);
    const missing = [...new Set(hashes)].filter((hash) => !cached?.has(hash));
    if (missing.length === 0) return;
    const { rows } = await query<{ hash: string; data_url: string }>(
      this.pool,
      'SELECT hash, data_url FROM image_blobs WHERE board_id = $1 AND hash = ANY($2)',
      [boardId, missing],
    );
    const board = this.board(boardId);
    for (const row of rows) board.set(row.hash, row.data_url);
  }

  /** The payload writes still on their way for the board, if any. */
  pending(boardId: string): Promise<void> | undefined {
    return this.writes.get(boardId);
  }

  async prune(boardId: string, referenced: Set<string>): Promise<number> {
    const { rowCount } = await query(
      this.pool,
      `DELETE FROM image_blobs WHERE board_id = $1 AND NOT (hash = ANY($2)) AND created_at < now() - interval '${PRUNE_GRACE}'`,
      [boardId, [...referenced]],
    );
    const cached = this.cache.peek(boardId);
    if (cached) for (const hash of cached.keys()) if (!referenced.has(hash)) cached.delete(hash);
    return rowCount ?? 0;
  }

  /** Forgets a board's cached payloads (its rows go with the board's erase). */
  forget(boardId: string): void {
    this.cache.delete(boardId);
  }

  /** The board's cached payloads, touched as the most recently used. */
  private board(boardId: string): Map<string, string> {
    const board = this.cache.get(boardId) ?? new Map<string, string>();
    this.cache.set(boardId, board);
    return board;
  }
}
