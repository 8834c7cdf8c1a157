/**
 * Board history in PostgreSQL. Several instances may record the same settled
 * burst: `record` and `drop` take a per-board advisory lock for their
 * transaction, so the newest version's etag is checked and the next number
 * taken with no other writer in between, and one burst makes one version.
 */
import type { VersionMeta } from '../../board/model/versions.js';
import { replayUpdates, type VersionStore } from '../board-store.js';
import {
  blobsOf,
  type FoldRow,
  foldedUpdates,
  META_COLUMNS,
  metaOf,
  planDrop,
  summaryJson,
  updatesNeeded,
  type VersionRow,
  versionBytes,
} from '../version-rows.js';
import { type Client, type Pool, query, transaction } from './database.js';

type Meta = Omit<VersionMeta, 'version' | 'bytes'>;

/**
 * The first key of the two-key advisory lock (the board's hash is the second):
 * a key space apart from compaction's one-key `hashtext(name)` lock, which
 * history must not wait for.
 */
const HISTORY_LOCK = 7_204_018;
const LOCK_BOARD = 'SELECT pg_advisory_xact_lock($1, hashtext($2))';

const NEWEST = `SELECT ${META_COLUMNS}, state_vector FROM versions WHERE board_id = $1 ORDER BY version DESC LIMIT 1`;
const NEXT_NUMBER = `
  INSERT INTO history_heads (board_id, version_seq)
  VALUES ($1, COALESCE((SELECT MAX(version) FROM versions WHERE board_id = $1), 0) + 1)
  ON CONFLICT (board_id) DO UPDATE SET version_seq = history_heads.version_seq + 1
  RETURNING version_seq`;
const INSERT =
  'INSERT INTO versions (board_id, version, at, etag, mode, summary, "update", state_vector, blobs, bytes) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)';

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Forgets a board's versions inside the caller's transaction (erase); the counter stays, numbers are never reused. */
export async function deleteVersionRows(client: Client, boardId: string): Promise<void> {
  await client.query('DELETE FROM versions WHERE board_id = $1', [boardId]);
}

export class PgVersions implements VersionStore {
  constructor(private readonly pool: Pool) {}

  async record(
    boardId: string,
    meta: Meta,
    update: Uint8Array,
    stateVector: Uint8Array,
    blobs: string[],
  ): Promise<VersionMeta | null> {
    return transaction(this.pool, async (client) => {
      await client.query(LOCK_BOARD, [HISTORY_LOCK, boardId]);
      const newest = await client.query<VersionRow>(NEWEST, [boardId]);
      if (newest.rows[0]?.etag === meta.etag) return null;
      const { rows } = await client.query<{ version_seq: number }>(NEXT_NUMBER, [boardId]);
      const version = Number(rows[0].version_seq);
      const summary = summaryJson(meta);
      const bytes = versionBytes(update, stateVector, summary);
      await client.query(INSERT, [
        boardId,
        version,
        meta.at,
        meta.etag,
        meta.mode,
        summary,
        asBuffer(update),
        asBuffer(stateVector),
        JSON.stringify(blobs),
        bytes,
      ]);
      return metaOf({ version, at: meta.at, etag: meta.etag, mode: meta.mode, summary, bytes });
    });
  }

  async newest(boardId: string): Promise<{ meta: VersionMeta; stateVector: Uint8Array } | null> {
    const { rows } = await query<VersionRow & { state_vector: Buffer }>(this.pool, NEWEST, [boardId]);
    return rows[0] ? { meta: metaOf(rows[0]), stateVector: rows[0].state_vector } : null;
  }

  async list(boardId: string, limit: number, before?: number): Promise<VersionMeta[]> {
    const { rows } = await query<VersionRow>(
      this.pool,
      `SELECT ${META_COLUMNS} FROM versions WHERE board_id = $1 AND ($2::integer IS NULL OR version < $2) ORDER BY version DESC LIMIT $3`,
      [boardId, before ?? null, limit],
    );
    return rows.map(metaOf);
  }

  async count(boardId: string): Promise<number> {
    const { rows } = await query<{ n: number }>(
      this.pool,
      'SELECT count(*)::integer AS n FROM versions WHERE board_id = $1',
      [boardId],
    );
    return rows[0]?.n ?? 0;
  }

  async get(boardId: string, version: number): Promise<VersionMeta | null> {
    const { rows } = await query<VersionRow>(
      this.pool,
      `SELECT ${META_COLUMNS} FROM versions WHERE board_id = $1 AND version = $2`,
      [boardId, version],
    );
    return rows[0] ? metaOf(rows[0]) : null;
  }

  async findEtag(boardId: string, etag: string): Promise<VersionMeta | null> {
    const { rows } = await query<VersionRow>(
      this.pool,
      `SELECT ${META_COLUMNS} FROM versions WHERE board_id = $1 AND etag = $2 ORDER BY version DESC LIMIT 1`,
      [boardId, etag],
    );
    return rows[0] ? metaOf(rows[0]) : null;
  }

  async stateAt(boardId: string, version: number): Promise<Uint8Array | null> {
    // One statement sees one snapshot: a drop committing meanwhile cannot tear the replay.
    const { rows } = await query<{ update: Buffer; version: number }>(
      this.pool,
      `SELECT "update", version FROM versions
       WHERE board_id = $1 AND version <= $2 AND EXISTS (SELECT 1 FROM versions WHERE board_id = $1 AND version = $2)
       ORDER BY version`,
      [boardId, version],
    );
    return replayUpdates(rows.map((row) => row.update));
  }

  async all(boardId: string): Promise<VersionMeta[]> {
    const { rows } = await query<VersionRow>(
      this.pool,
      `SELECT ${META_COLUMNS} FROM versions WHERE board_id = $1 ORDER BY version`,
      [boardId],
    );
    return rows.map(metaOf);
  }

  async drop(boardId: string, versions: number[]): Promise<void> {
    if (versions.length === 0) return;
    await transaction(this.pool, async (client) => {
      await client.query(LOCK_BOARD, [HISTORY_LOCK, boardId]);
      const stored = await client.query<{ version: number }>(
        'SELECT version FROM versions WHERE board_id = $1 ORDER BY version',
        [boardId],
      );
      const plan = planDrop(
        stored.rows.map((row) => Number(row.version)),
        versions,
      );
      const { rows } = await client.query<FoldRow & { version: number }>(
        'SELECT version, "update", state_vector, summary FROM versions WHERE board_id = $1 AND version = ANY($2::integer[])',
        [boardId, updatesNeeded(plan)],
      );
      const byVersion = new Map(rows.map((row) => [Number(row.version), row]));
      for (const { version, update, bytes } of foldedUpdates(plan, byVersion)) {
        await client.query('UPDATE versions SET "update" = $1, bytes = $2 WHERE board_id = $3 AND version = $4', [
          asBuffer(update),
          bytes,
          boardId,
          version,
        ]);
      }
      await client.query('DELETE FROM versions WHERE board_id = $1 AND version = ANY($2::integer[])', [
        boardId,
        plan.dropped,
      ]);
    });
  }

  async referencedBlobs(boardId: string): Promise<Set<string>> {
    const { rows } = await query<{ blobs: string }>(this.pool, 'SELECT blobs FROM versions WHERE board_id = $1', [
      boardId,
    ]);
    return blobsOf(rows);
  }

  async erase(boardId: string): Promise<void> {
    await transaction(this.pool, (client) => deleteVersionRows(client, boardId));
  }
}
