/**
 * Board history in the embedded SQLite: every call is one synchronous
 * transaction, so calls for a board are serialised by construction, and a
 * version is committed (WAL) before `record` resolves.
 */
import type { VersionMeta } from '../../board/model/versions.js';
import { replayUpdates, type VersionStore } from '../board-store.js';
import {
  blobsOf,
  foldedUpdates,
  META_COLUMNS,
  metaOf,
  planDrop,
  summaryJson,
  updatesNeeded,
  type VersionRow,
  versionBytes,
} from '../version-rows.js';
import { type Db, onlyRow } from './database.js';
import type { GroupCommit } from './group-commit.js';

type Meta = Omit<VersionMeta, 'version' | 'bytes'>;

export class SqliteVersions implements VersionStore {
  private readonly statements;
  private readonly recordNow;
  private readonly dropNow;

  constructor(
    private readonly db: Db,
    private readonly group: GroupCommit,
  ) {
    const s = {
      newest: db.prepare<[string], VersionRow & { state_vector: Buffer }>(
        `SELECT ${META_COLUMNS}, state_vector FROM versions WHERE board_id = ? ORDER BY version DESC LIMIT 1`,
      ),
      nextNumber: db.prepare<[string, string], { version_seq: number }>(
        `INSERT INTO history_heads (board_id, version_seq)
         VALUES (?, COALESCE((SELECT MAX(version) FROM versions WHERE board_id = ?), 0) + 1)
         ON CONFLICT (board_id) DO UPDATE SET version_seq = history_heads.version_seq + 1 RETURNING version_seq`,
      ),
      insert: db.prepare<[string, number, string, string, string, string, Uint8Array, Uint8Array, string, number]>(
        'INSERT INTO versions (board_id, version, at, etag, mode, summary, "update", state_vector, blobs, bytes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      list: db.prepare<[string, number, number], VersionRow>(
        `SELECT ${META_COLUMNS} FROM versions WHERE board_id = ? AND version < ? ORDER BY version DESC LIMIT ?`,
      ),
      count: db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM versions WHERE board_id = ?'),
      get: db.prepare<[string, number], VersionRow>(
        `SELECT ${META_COLUMNS} FROM versions WHERE board_id = ? AND version = ?`,
      ),
      findEtag: db.prepare<[string, string], VersionRow>(
        `SELECT ${META_COLUMNS} FROM versions WHERE board_id = ? AND etag = ? ORDER BY version DESC LIMIT 1`,
      ),
      updatesUpTo: db.prepare<[string, number], { update: Buffer }>(
        'SELECT "update" FROM versions WHERE board_id = ? AND version <= ? ORDER BY version',
      ),
      all: db.prepare<[string], VersionRow>(`SELECT ${META_COLUMNS} FROM versions WHERE board_id = ? ORDER BY version`),
      numbers: db.prepare<[string], { version: number }>(
        'SELECT version FROM versions WHERE board_id = ? ORDER BY version',
      ),
      update: db.prepare<[string, number], { update: Buffer; state_vector: Buffer; summary: string }>(
        'SELECT "update", state_vector, summary FROM versions WHERE board_id = ? AND version = ?',
      ),
      rewrite: db.prepare<[Uint8Array, number, string, number]>(
        'UPDATE versions SET "update" = ?, bytes = ? WHERE board_id = ? AND version = ?',
      ),
      deleteOne: db.prepare<[string, number]>('DELETE FROM versions WHERE board_id = ? AND version = ?'),
      blobs: db.prepare<[string], { blobs: string }>('SELECT blobs FROM versions WHERE board_id = ?'),
      erase: db.prepare<[string]>('DELETE FROM versions WHERE board_id = ?'),
    };
    this.statements = s;
    this.recordNow = db.transaction(
      (
        boardId: string,
        meta: Meta,
        update: Uint8Array,
        stateVector: Uint8Array,
        blobs: string[],
      ): VersionMeta | null => {
        if (s.newest.get(boardId)?.etag === meta.etag) return null;
        const version = onlyRow(s.nextNumber.get(boardId, boardId), 'the next version number').version_seq;
        const summary = summaryJson(meta);
        const bytes = versionBytes(update, stateVector, summary);
        s.insert.run(
          boardId,
          version,
          meta.at,
          meta.etag,
          meta.mode,
          summary,
          update,
          stateVector,
          JSON.stringify(blobs),
          bytes,
        );
        return metaOf({ version, at: meta.at, etag: meta.etag, mode: meta.mode, summary, bytes });
      },
    );
    this.dropNow = db.transaction((boardId: string, versions: number[]) => {
      const plan = planDrop(
        s.numbers.all(boardId).map((row) => row.version),
        versions,
      );
      const rows = new Map(
        updatesNeeded(plan).map((version) => [version, onlyRow(s.update.get(boardId, version), `version ${version}`)]),
      );
      for (const { version, update, bytes } of foldedUpdates(plan, rows))
        s.rewrite.run(update, bytes, boardId, version);
      for (const version of plan.dropped) s.deleteOne.run(boardId, version);
    });
  }

  async record(
    boardId: string,
    meta: Meta,
    update: Uint8Array,
    stateVector: Uint8Array,
    blobs: string[],
  ): Promise<VersionMeta | null> {
    // IMMEDIATE: the etag check and the insert hold the write lock together.
    this.group.settle();
    return this.recordNow.immediate(boardId, meta, update, stateVector, blobs);
  }

  async newest(boardId: string): Promise<{ meta: VersionMeta; stateVector: Uint8Array } | null> {
    const row = this.statements.newest.get(boardId);
    return row ? { meta: metaOf(row), stateVector: row.state_vector } : null;
  }

  async list(boardId: string, limit: number, before?: number): Promise<VersionMeta[]> {
    return this.statements.list.all(boardId, before ?? Number.MAX_SAFE_INTEGER, limit).map(metaOf);
  }

  async count(boardId: string): Promise<number> {
    return this.statements.count.get(boardId)?.n ?? 0;
  }

  async get(boardId: string, version: number): Promise<VersionMeta | null> {
    const row = this.statements.get.get(boardId, version);
    return row ? metaOf(row) : null;
  }

  async findEtag(boardId: string, etag: string): Promise<VersionMeta | null> {
    const row = this.statements.findEtag.get(boardId, etag);
    return row ? metaOf(row) : null;
  }

  async stateAt(boardId: string, version: number): Promise<Uint8Array | null> {
    // One read transaction: a drop between the two reads would fold what the replay needs.
    return this.db.transaction(() => {
      if (!this.statements.get.get(boardId, version)) return null;
      return replayUpdates(this.statements.updatesUpTo.all(boardId, version).map((row) => row.update));
    })();
  }

  async all(boardId: string): Promise<VersionMeta[]> {
    return this.statements.all.all(boardId).map(metaOf);
  }

  async drop(boardId: string, versions: number[]): Promise<void> {
    this.group.settle();
    if (versions.length > 0) this.dropNow.immediate(boardId, versions);
  }

  async referencedBlobs(boardId: string): Promise<Set<string>> {
    return blobsOf(this.statements.blobs.all(boardId));
  }

  async erase(boardId: string): Promise<void> {
    this.group.settle();
    this.eraseNow(boardId);
  }

  /** Inside the caller's transaction (`eraseDocument`). The counter stays: numbers are never reused. */
  eraseNow(boardId: string): void {
    this.group.beforeWrite();
    this.statements.erase.run(boardId);
  }
}
