/**
 * Board history (docs/history.md): what a version is, how versions
 * are thinned, and what changed between two states. Pure and browser-safe: the
 * host records versions and the store keeps them; the browser shows them.
 */
import type { BoardMode } from '../../schema/index.js';

/** Items per kind at a version: `texts, lines, images, shapes, frames` for draw, `columns, tasks, lanes` for todo. */
export type VersionCounts = Partial<
  Record<'texts' | 'lines' | 'images' | 'shapes' | 'frames' | 'columns' | 'tasks' | 'lanes', number>
>;

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
  /** The version the changes start from, or null from an ETag a read handed out before its burst settled into a version. */
  from: number | null;
  /** The newest version, or null when the current state is not yet a version (its burst has not settled). */
  to: number | null;
  etag: string;
  added: ChangedItem[];
  updated: ChangedItem[];
  removed: { kind: string; id: string }[];
};

/** What thinning needs of a version: its number, time and stored bytes. */
export type ThinnedVersion = Pick<VersionMeta, 'version' | 'at' | 'bytes'>;

/** The retention of history.md, as numbers (schema/limits.ts holds the service's). */
export type RetentionPolicy = {
  keepAllMs: number;
  keepHourlyMs: number;
  keepDailyMs: number;
  maxVersions: number;
  maxBytes: number;
};

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * The versions thinning drops (oldest first), given every stored version oldest
 * first: each version younger than `keepAllMs`; the last of each UTC hour up to
 * `keepHourlyMs`; the last of each UTC day up to `keepDailyMs`; nothing older.
 * Then, past `maxVersions` or `maxBytes`, the oldest versions kept go first.
 * The newest version is never dropped: it is what the next update starts from.
 * A dropped version's update is folded into the next one kept, so the bytes
 * counted free here are an upper bound; the next thinning sees the real sizes.
 */
export function versionsToDrop(versions: readonly ThinnedVersion[], now: number, policy: RetentionPolicy): number[] {
  if (versions.length <= 1) return [];
  const newest = versions[versions.length - 1];
  const times = versions.map((v) => Date.parse(v.at));
  // The last version of each bucket is the one with the highest index among its bucket's.
  const lastOf = (size: number) => {
    const last = new Map<number, number>();
    for (const [index, time] of times.entries()) last.set(Math.floor(time / size), index);
    return new Set(last.values());
  };
  const lastOfHour = lastOf(HOUR_MS);
  const lastOfDay = lastOf(DAY_MS);
  const kept: ThinnedVersion[] = [];
  const dropped: number[] = [];
  versions.forEach((version, index) => {
    const age = now - times[index];
    const keep =
      version === newest ||
      age <= policy.keepAllMs ||
      (age <= policy.keepHourlyMs && lastOfHour.has(index)) ||
      (age <= policy.keepDailyMs && lastOfDay.has(index));
    if (keep) kept.push(version);
    else dropped.push(version.version);
  });
  let bytes = kept.reduce((sum, version) => sum + version.bytes, 0);
  let first = 0;
  while (first < kept.length - 1 && (kept.length - first > policy.maxVersions || bytes > policy.maxBytes)) {
    bytes -= kept[first].bytes;
    dropped.push(kept[first].version);
    first += 1;
  }
  return dropped.sort((a, b) => a - b);
}
