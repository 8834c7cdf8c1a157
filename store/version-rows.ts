/**
 * What both SQL engines share about stored versions (board-store.ts
 * `VersionStore`): the table, the row and the meta it stands for, and how
 * dropped versions are folded into the versions kept. Only the SQL that runs
 * them differs per engine.
 */
import * as Y from 'yjs';
import type { VersionMeta } from '../board/model/versions.js';
import type { BoardMode } from '../schema/index.js';
import { replayUpdates } from './board-store.js';

/**
 * The versions table and a per-board counter, so that a number is never
 * reused, even once the newest versions were dropped or the board erased
 * (a version's snapshot is cached as immutable under its number). `bytesType`
 * is BLOB in SQLite and BYTEA in PostgreSQL; the rest is the same SQL.
 */
export function versionsTables(bytesType: 'BLOB' | 'BYTEA'): string {
  return `
-- A board's versions: each holds the update from the previous version's state
-- (the oldest one a whole state), its summary, and the payload hashes it references.
CREATE TABLE IF NOT EXISTS versions (
  board_id TEXT NOT NULL,
  version INTEGER NOT NULL,
  at TEXT NOT NULL,
  etag TEXT NOT NULL,
  mode TEXT NOT NULL,
  summary TEXT NOT NULL,
  "update" ${bytesType} NOT NULL,
  state_vector ${bytesType} NOT NULL,
  blobs TEXT NOT NULL,
  bytes INTEGER NOT NULL,
  PRIMARY KEY (board_id, version)
);
-- The last number given per board; it outlives the versions (and an erase).
CREATE TABLE IF NOT EXISTS history_heads (
  board_id TEXT PRIMARY KEY,
  version_seq INTEGER NOT NULL
);`;
}

/** The columns every meta read selects (not the update, which can be large). */
export const META_COLUMNS = 'version, at, etag, mode, summary, bytes';

/** A versions row as both engines return it (PostgreSQL may give integers as strings). */
export type VersionRow = {
  version: number | string;
  at: string;
  etag: string;
  mode: BoardMode;
  summary: string;
  bytes: number | string;
};

type StoredSummary = Pick<VersionMeta, 'authors' | 'counts' | 'changes' | 'restoredFrom'>;

/** The meta a row stands for. */
export function metaOf(row: VersionRow): VersionMeta {
  const summary = JSON.parse(row.summary) as StoredSummary;
  return {
    version: Number(row.version),
    at: row.at,
    authors: summary.authors,
    counts: summary.counts,
    changes: summary.changes,
    ...(summary.restoredFrom === undefined ? {} : { restoredFrom: summary.restoredFrom }),
    etag: row.etag,
    mode: row.mode,
    bytes: Number(row.bytes),
  };
}

/** The summary column of a meta about to be recorded. */
export function summaryJson(meta: Omit<VersionMeta, 'version' | 'bytes'>): string {
  const summary: StoredSummary = { authors: meta.authors, counts: meta.counts, changes: meta.changes };
  if (meta.restoredFrom !== undefined) summary.restoredFrom = meta.restoredFrom;
  return JSON.stringify(summary);
}

/** What a version costs against the byte cap: its update, state vector and summary. */
export function versionBytes(update: Uint8Array, stateVector: Uint8Array, summary: string): number {
  return update.byteLength + stateVector.byteLength + Buffer.byteLength(summary);
}

/**
 * How a drop rewrites history, given every stored version number (oldest
 * first): each kept version takes the updates of the dropped versions just
 * before it (`from`, oldest first); one that becomes the oldest (`base`) is
 * re-encoded as a whole state. Dropped versions after the last kept one have
 * nothing to fold into: no later state depends on them.
 */
export type DropPlan = { folds: { into: number; from: number[]; base: boolean }[]; dropped: number[] };

export function planDrop(stored: readonly number[], drop: Iterable<number>): DropPlan {
  const dropping = new Set(drop);
  const folds: DropPlan['folds'] = [];
  const dropped: number[] = [];
  let pending: number[] = [];
  let keptBefore = false;
  for (const version of stored) {
    if (dropping.has(version)) {
      pending.push(version);
      dropped.push(version);
      continue;
    }
    if (pending.length > 0) folds.push({ into: version, from: pending, base: !keptBefore });
    pending = [];
    keptBefore = true;
  }
  return { folds, dropped };
}

/** Every version number a plan needs the update of. */
export function updatesNeeded(plan: DropPlan): number[] {
  return plan.folds.flatMap((fold) => [...fold.from, fold.into]);
}

/** What a fold reads of a stored version. */
export type FoldRow = { update: Uint8Array; state_vector: Uint8Array; summary: string };

/** A row the plan names: the caller read every version the plan folds. */
function rowOf(rows: ReadonlyMap<number, FoldRow>, version: number): FoldRow {
  const row = rows.get(version);
  if (!row) throw new Error(`version ${version} is folded but was not read`);
  return row;
}

/**
 * The kept versions' new updates and sizes: the dropped updates before each
 * merged into its own, so its state stays whole. A new oldest version is
 * replayed instead, which drops deleted content (smaller than a merge keeps).
 */
export function foldedUpdates(
  plan: DropPlan,
  rows: ReadonlyMap<number, FoldRow>,
): { version: number; update: Uint8Array; bytes: number }[] {
  return plan.folds.map((fold) => {
    const kept = rowOf(rows, fold.into);
    const updates: [...Uint8Array[], Uint8Array] = [
      ...fold.from.map((version) => rowOf(rows, version).update),
      kept.update,
    ];
    const update = fold.base ? replayUpdates(updates) : Y.mergeUpdates(updates);
    return { version: fold.into, update, bytes: versionBytes(update, kept.state_vector, kept.summary) };
  });
}

/** Every payload hash the rows' `blobs` columns list. */
export function blobsOf(rows: readonly { blobs: string }[]): Set<string> {
  return new Set(rows.flatMap((row) => JSON.parse(row.blobs) as string[]));
}
