/**
 * Board history (../shared/spec/history.md): what a version is, how versions
 * are thinned, and what changed between two states. Pure and browser-safe: the
 * host records versions and the store keeps them; the browser shows them.
 */
import type { BoardMode } from '../../schema/index.js';

/** Items per kind at a version: `texts, lines, images` for draw, `columns, tasks, lanes` for todo. */
export type VersionCounts = Partial<Record<'texts' | 'lines' | 'images' | 'columns' | 'tasks' | 'lanes', number>>;

/** A version as `GET /versions` lists it. */
export type VersionSummary = {
  version: number;
  /** UTC ISO-8601 time the burst settled (or the restore was made). */
  at: string;
  /** Distinct author tags whose changes it holds, sorted, at most HISTORY_MAX_AUTHORS. */
  authors: string[];
  counts: VersionCounts;
  /** Item counts against the previous version. */
  changes: { added: number; updated: number; removed: number };
  /** Only on a version made by a restore. */
  restoredFrom?: number;
};

/** What the store keeps beside a version's summary. */
export type VersionMeta = VersionSummary & {
  /** The ETag of the board state this version holds. */
  etag: string;
  mode: BoardMode;
  /** Stored bytes of this version (its update and summary), for the byte cap. */
  bytes: number;
};

/** An item in a change list, in the shape of the `/json` snapshot's items. */
export type ChangedItem = Record<string, unknown> & { id: string; kind: string };

/** `GET /changes`: from a version (or ETag) to the current state. */
export type BoardChanges = {
  boardId: string;
  /** The version the changes start from. */
  from: number;
  /** The newest version, or null when the current state is not yet a version (its burst has not settled). */
  to: number | null;
  etag: string;
  added: ChangedItem[];
  updated: ChangedItem[];
  removed: { kind: string; id: string }[];
};
