/**
 * A board's history as every surface reads it (docs/history.md):
 * the version list, the board at a version, the changes since a version or
 * ETag, and restore. Reads follow the lock rules of any read (public under a
 * `write` lock, the key under an `all` lock); restore is a write.
 */
import { LRUCache } from 'lru-cache';
import * as Y from 'yjs';
import type { ReadMap, StrokeItem } from '../../board/model/document-model.js';
import { boardMaps, MAP_NAMES } from '../../board/model/document-model.js';
import { errors } from '../../board/model/errors.js';
import type { BoardRecord } from '../../board/model/record.js';
import { titleEntry } from '../../board/model/title.js';
import type { BoardChanges, ChangedItem, VersionMeta, VersionSummary } from '../../board/model/versions.js';
import type { BoardWrite } from '../../board/mutations/board-write.js';
import type { StagedMap } from '../../board/mutations/staged-map.js';
import { strokeSummary } from '../../board/reads/board-pages.js';
import { diffItems, type ItemMaps, itemMapsOf } from '../../board/reads/changes.js';
import { decodeCursor, encodeCursor, listOf, pageAnswer } from '../../board/reads/paging.js';
import { drawView, todoView } from '../../board/reads/snapshot.js';
import type { LockMode } from '../../schema/index.js';
import type { BoardStore } from '../../store/board-store.js';
import type { Caller } from '../access/access.js';
import type { IdempotentRequest } from '../boards/idempotency.js';
import type { DocumentHost } from '../documents/document-host.js';
import type { PreviewPool } from '../previews/preview-pool.js';
import type { HistoryRecorder } from './history-recorder.js';

/**
 * What history needs of the Boards service that owns it: admission and one
 * write. Named here rather than imported, so boards.ts and this file do not
 * import each other.
 */
type BoardAccess = {
  admit(boardId: string, caller: Caller, access: 'read' | 'write'): Promise<BoardRecord>;
  write<T>(boardId: string, caller: Caller, mutate: (w: BoardWrite) => T): Promise<T>;
  once<T>(
    boardId: string,
    caller: Caller,
    retry: IdempotentRequest | undefined,
    run: (caller: Caller) => Promise<T>,
  ): Promise<T>;
};

type Deps = {
  boards: BoardAccess;
  store: BoardStore;
  host: DocumentHost;
  recorder: HistoryRecorder;
  previews: PreviewPool;
};

export type VersionPage = { boardId: string; versions: VersionSummary[]; next: number | null; next_cursor?: string };

/** How get_changes pages: MCP by bytes with strokes as their box, REST whole or by `limit`. */
export type ChangesPage = { budget: number; limit?: number; points: boolean };

/** A list_versions cursor is the `before` of its page, as a key (versions list newest first). */
const cursorBefore = (boardId: string, before: number) =>
  encodeCursor('list_versions', boardId, { list: 0, key: [-before] });

function versionBefore(cursor: string, boardId: string): number {
  const before = -Number(decodeCursor(cursor, 'list_versions', boardId).key[0]);
  if (!Number.isSafeInteger(before) || before < 1) throw errors.invalidCursor('it is not a cursor this service gave');
  return before;
}

/** The starting point of a first page: the query's schema lets exactly one of the two through. */
function startOf(asked: { since?: number; since_etag?: string }): { since: number } | { since_etag: string } {
  if (asked.since !== undefined) return { since: asked.since };
  if (asked.since_etag !== undefined) return { since_etag: asked.since_etag };
  throw new Error('changes: neither since nor since_etag, which the query schema requires');
}

/** Stages the changes that make a write's map hold what `wanted` holds, leaving equal items untouched. */
function mirror<T>(
  staged: StagedMap<T>,
  wanted: ReadMap<T> & { has(key: string): boolean; entries(): IterableIterator<[string, T]> },
): void {
  for (const [key] of staged.entries()) if (!wanted.has(key)) staged.delete(key);
  for (const [key, value] of wanted.entries()) {
    if (JSON.stringify(staged.get(key)) !== JSON.stringify(value)) staged.set(key, value);
  }
}

function changesFrom(cursor: string, boardId: string): { since: number } | { since_etag: string } {
  const { from } = decodeCursor(cursor, 'get_changes', boardId);
  if (typeof from === 'string') return { since_etag: from };
  if (from === undefined || from < 1) throw errors.invalidCursor('it is not a cursor this service gave');
  return { since: from };
}

/** The board at a version: the `/json` snapshot of that state, plus its number and time. */
export type VersionSnapshot = {
  board: Record<string, unknown>;
  etag: string;
  version: number;
  at: string;
  lockMode: LockMode | null;
};

export type RestoreResult = { ok: true; version: number; restoredFrom: number; etag: string };

/** What a listing shows of a stored version: its summary without the store's own fields. */
export function summaryOf(meta: VersionMeta): VersionSummary {
  const { etag: _etag, mode: _mode, bytes: _bytes, ...summary } = meta;
  return summary;
}

/** Views of versions one instance keeps, by an estimate of their memory (a view is a few times its state's bytes). */
const VIEW_CACHE_BYTES = 64 * 1024 * 1024;
const VIEW_BYTES_PER_STATE_BYTE = 4;

export class BoardHistory {
  private readonly views = new LRUCache<string, object>({ max: 64, maxSize: VIEW_CACHE_BYTES });

  constructor(private readonly deps: Deps) {}

  /**
   * `GET /versions`: newest first, below `before`; `next` is the `before` of
   * the following page. With a `budget` (MCP) a page also stops at that many
   * bytes, and says `next_cursor` beside `next`.
   */
  async versions(
    boardId: string,
    caller: Caller,
    page: { before?: number; limit: number; cursor?: string; budget?: number },
  ): Promise<VersionPage> {
    const stored = (await this.deps.boards.admit(boardId, caller, 'read')).id;
    const before = page.cursor === undefined ? page.before : versionBefore(page.cursor, boardId);
    const metas = await this.deps.store.history.list(stored, page.limit + 1, before);
    const listed = metas.slice(0, page.limit).map(summaryOf);
    const budget = page.budget ?? Infinity;
    const answer = pageAnswer(
      { boardId, versions: [] as VersionSummary[], next: null as number | null },
      [listOf({ name: 'versions', items: listed, key: (version) => [-version.version] })],
      { tool: 'list_versions', boardId, budget },
    );
    const shown = answer.versions;
    const next = answer.next_cursor !== undefined || metas.length > page.limit ? shown[shown.length - 1].version : null;
    const { next_cursor: _cut, ...versions } = answer;
    return {
      ...versions,
      next,
      ...(next !== null && budget !== Infinity && { next_cursor: cursorBefore(boardId, next) }),
    };
  }

  /** `GET /versions/{v}`: the `/json` snapshot at that version (404 version_not_found when not stored). */
  async version(boardId: string, caller: Caller, version: number): Promise<VersionSnapshot> {
    const record = await this.deps.boards.admit(boardId, caller, 'read');
    const { meta, value: board } = await this.viewAt(record, version, 'json', (meta, doc) => ({
      boardId,
      mode: meta.mode,
      ...titleEntry(doc),
      etag: meta.etag,
      version: meta.version,
      at: meta.at,
      ...drawView(doc, () => null),
      ...(meta.mode === 'todo' ? todoView(boardMaps(doc)) : {}),
    }));
    return { board, etag: meta.etag, version: meta.version, at: meta.at, lockMode: record.lockMode };
  }

  /** `GET /versions/{v}/svg-preview`: the schematic preview of the board at that version. */
  async versionPreview(
    boardId: string,
    caller: Caller,
    version: number,
  ): Promise<{ svg: string; etag: string; lockMode: LockMode | null }> {
    const record = await this.deps.boards.admit(boardId, caller, 'read');
    const { meta, value: svg } = await this.viewAt(record, version, 'svg', (meta, doc) =>
      this.deps.previews.svg(doc, meta.mode),
    );
    return { svg, etag: meta.etag, lockMode: record.lockMode };
  }

  /**
   * A view of the board at a version, built once: a version never changes, so
   * later reads of it (the History panel, an agent reading it again) are served
   * from a bounded per-instance cache instead of replaying the store. The key
   * holds the board's creation time, so a revived board never sees the views of
   * the erased one.
   */
  private async viewAt<T extends object | string>(
    record: BoardRecord,
    version: number,
    kind: 'json' | 'svg',
    build: (meta: VersionMeta, doc: Y.Doc) => T | Promise<T>,
  ): Promise<{ meta: VersionMeta; value: T }> {
    const key = `${record.id} ${record.createdAt} ${version} ${kind}`;
    const cached = this.views.get(key) as { meta: VersionMeta; value: T } | undefined;
    if (cached) return cached;
    const { meta, doc, bytes } = await this.stateAt(record.id, version);
    try {
      const entry = { meta, value: await build(meta, doc) };
      this.views.set(key, entry, { size: Math.max(1, bytes * VIEW_BYTES_PER_STATE_BYTE) });
      return entry;
    } finally {
      doc.destroy();
    }
  }

  /**
   * `GET /changes`: what changed from a version (or the newest version holding
   * an ETag, or the state whose ETag a read handed out) to the current state.
   * A starting point no longer stored is 410 history_gone: the caller reads
   * the whole board again.
   */
  async changes(
    boardId: string,
    caller: Caller,
    asked: { since?: number; since_etag?: string; cursor?: string },
    page: ChangesPage = { budget: Infinity, points: true },
  ): Promise<BoardChanges & { next_cursor?: string }> {
    // A later page starts where the first did: its cursor carries that version (or ETag).
    const since = asked.cursor === undefined ? startOf(asked) : changesFrom(asked.cursor, boardId);
    const stored = (await this.deps.boards.admit(boardId, caller, 'read')).id;
    const { history } = this.deps.store;
    const { recorder } = this.deps;
    const from =
      'since' in since ? await history.get(stored, since.since) : await history.findEtag(stored, since.since_etag);
    let before: ItemMaps | null | undefined;
    let start: number | string;
    if (from) {
      before = await recorder.itemsAt(stored, from.version);
      if (!before) throw errors.historyGone(`version ${from.version} was thinned`);
      start = from.version;
    } else if ('since_etag' in since) {
      // An ETag a read handed out before its burst settled: no version holds it, the memory of its state does.
      before = recorder.itemsHandedOut(stored, since.since_etag);
      if (!before) throw errors.historyGone('no stored version holds that ETag, and this server does not remember it');
      start = since.since_etag;
    } else {
      const newest = await history.newest(stored);
      if (!newest || since.since > newest.meta.version) throw errors.versionNotFound(since.since);
      throw errors.historyGone(`version ${since.since} was thinned`);
    }
    const newest = await history.newest(stored);
    const { after, etag } = await this.deps.host.use(stored, (doc) => ({
      after: itemMapsOf(doc),
      etag: recorder.handedOut(stored, doc),
    }));
    const to = newest && newest.meta.etag === etag ? newest.meta.version : null;
    const changes = diffItems(before, after);
    const show = (item: ChangedItem) =>
      item.kind === 'lines' && !page.points ? strokeSummary(item as unknown as StrokeItem) : item;
    const byKind = (item: { kind: string; id: string }) => [item.kind, item.id];
    return pageAnswer(
      {
        boardId,
        from: from?.version ?? null,
        to,
        etag,
        added: [] as ChangedItem[],
        updated: [] as ChangedItem[],
        removed: [] as { kind: string; id: string }[],
      },
      [
        listOf({ name: 'added', items: changes.added, key: byKind, show }),
        listOf({ name: 'updated', items: changes.updated, key: byKind, show }),
        listOf({ name: 'removed', items: changes.removed, key: byKind }),
      ],
      { tool: 'get_changes', boardId, cursor: asked.cursor, budget: page.budget, limit: page.limit },
      { from: start },
    );
  }

  /**
   * `POST /versions/{v}/restore`: records the current state first (so nothing
   * is lost), then makes the board equal to version `v` as one write by the
   * caller (one Y transaction: live clients see one change), and records that
   * as a version with `restoredFrom`. A version of the other mode switches the
   * board's mode in the same store unit, as a mode switch does. Answers once
   * the new version is durable. One request against the rate limit.
   */
  restore(boardId: string, caller: Caller, version: number, retry?: IdempotentRequest): Promise<RestoreResult> {
    return this.deps.boards.once(boardId, caller, retry, (admitted) => this.restoreOnce(boardId, admitted, version));
  }

  private async restoreOnce(boardId: string, caller: Caller, version: number): Promise<RestoreResult> {
    const { boards, store, recorder } = this.deps;
    await boards.admit(boardId, caller, 'write');
    const { meta, doc } = await this.stateAt(boardId, version);
    try {
      const target = boardMaps(doc);
      // Image payloads the version references are kept from pruning while it is stored (referencedBlobs).
      await store.blobs.load(
        boardId,
        [...target.images.values()].map((image) => image.blob),
      );
      await recorder.recordNow(boardId);
      await boards.write(boardId, { ...caller, admitted: true }, (w) => {
        for (const name of MAP_NAMES)
          mirror(
            w.maps[name] as StagedMap<unknown>,
            target[name] as ReadMap<unknown> & {
              has(key: string): boolean;
              entries(): IterableIterator<[string, unknown]>;
            },
          );
        w.mode = meta.mode;
        w.counts = {}; // every map changed under the write's feet: counts are taken afresh
      });
    } finally {
      doc.destroy();
    }
    const recorded = (await recorder.recordNow(boardId, version)) ?? (await store.history.newest(boardId))?.meta;
    if (!recorded) throw errors.internal();
    return { ok: true, version: recorded.version, restoredFrom: version, etag: recorded.etag };
  }

  /** The board's state at a stored version, as a detached document (the caller destroys it). */
  private async stateAt(boardId: string, version: number): Promise<{ meta: VersionMeta; doc: Y.Doc; bytes: number }> {
    const { history } = this.deps.store;
    const meta = await history.get(boardId, version);
    const state = meta && (await history.stateAt(boardId, version));
    if (!meta || !state) throw errors.versionNotFound(version);
    const doc = new Y.Doc();
    Y.applyUpdate(doc, state);
    return { meta, doc, bytes: state.byteLength };
  }
}
