/**
 * Records a board's versions (docs/history.md). It listens to every change to
 * learn who made a burst, and BoardEvents awaits it when a burst settles,
 * before `settled` tells long polls and MCP subscribers: the ETag they get is
 * then always a version. Only a burst holding a change made on this instance
 * is recorded here; relayed changes are recorded by the instance that took
 * them (and the store refuses a second version of one state).
 */
import { LRUCache } from 'lru-cache';
import * as Y from 'yjs';
import { boardMaps, DRAW_MAPS, TODO_MAPS } from '../../board/model/document-model.js';
import {
  type RetentionPolicy,
  type VersionCounts,
  type VersionMeta,
  versionsToDrop,
} from '../../board/model/versions.js';
import { isBoardOrigin } from '../../board/mutations/board-write.js';
import { countChanges, emptyItemMaps, type ItemMaps, itemMapsOf, itemMapsOfUpdate } from '../../board/reads/changes.js';
import { etagOf } from '../../board/reads/snapshot.js';
import {
  HISTORY_KEEP_ALL_MS,
  HISTORY_KEEP_DAILY_MS,
  HISTORY_KEEP_HOURLY_MS,
  HISTORY_MAX_AUTHORS,
  HISTORY_MAX_BYTES,
  HISTORY_MAX_VERSIONS,
} from '../../schema/index.js';
import type { BoardStore } from '../../store/board-store.js';
import type { DocumentHost } from '../documents/document-host.js';
import { type BoardEvents, isRelayed } from '../events/board-events.js';
import { authorOf } from '../events/op-feed.js';

export const RETENTION: RetentionPolicy = {
  keepAllMs: HISTORY_KEEP_ALL_MS,
  keepHourlyMs: HISTORY_KEEP_HOURLY_MS,
  keepDailyMs: HISTORY_KEEP_DAILY_MS,
  maxVersions: HISTORY_MAX_VERSIONS,
  maxBytes: HISTORY_MAX_BYTES,
};

/**
 * Items kept in memory, over all boards, as each board's newest version holds
 * them: a version's change counts (and `GET /changes` from the newest
 * version) then need no replay of the stored history, which grows with it.
 * Bounded by items, not
 * boards: a little more than 64 draw boards at their quotas hold (2 550
 * items each), shared by as many smaller boards as fit, so that a server
 * with more than 64 busy boards does not replay a history at every version.
 */
const ITEM_CACHE_ITEMS = 200_000;

/**
 * Items kept in memory, over all boards, as each state whose ETag a read
 * handed out held them: such an ETag is a starting point for changes though
 * its burst has not settled into a version (docs/history.md).
 */
const HANDED_OUT_ITEMS = 200_000;

/** Where reads take the ETags they hand out, so that each is a starting point for changes later. */
export interface HandedOutStates {
  /** The ETag of the document's state, noted with the state's items. */
  handedOut(boardId: string, doc: Y.Doc): string;
}

const itemCount = (items: ItemMaps) => Object.values(items).reduce((count, map) => count + map.size, 0);

type Deps = {
  store: BoardStore;
  host: DocumentHost;
  events: BoardEvents;
  now: () => number;
  /** Where a failed recording is reported (it is retried at the board's next settle). */
  logError: (error: unknown, boardId: string) => void;
};

export class HistoryRecorder implements HandedOutStates {
  /** Per board, the author tags of this burst's local changes; a board is here only when it has some. */
  private readonly bursts = new Map<string, Set<string>>();
  /** Per board, the recording under way: recordings of one board run one after another. */
  private readonly chains = new Map<string, Promise<unknown>>();
  private readonly items = new LRUCache<string, { version: number; etag: string; items: ItemMaps }>({
    maxSize: ITEM_CACHE_ITEMS,
    sizeCalculation: ({ items }) => 1 + itemCount(items),
  });
  /** Off with HISTORY=off (benchmarks of the write path): reads then note nothing. */
  notesHandedOut = true;
  /** By `${boardId} ${etag}`, the items of states whose ETag a read handed out. */
  private readonly handedOutStates = new LRUCache<string, ItemMaps>({
    maxSize: HANDED_OUT_ITEMS,
    sizeCalculation: (items) => 1 + itemCount(items),
  });

  constructor(private readonly deps: Deps) {
    deps.events.on('change', this.onChange);
    deps.events.on('erased', (boardId) => {
      this.bursts.delete(boardId);
      this.items.delete(boardId);
      for (const key of this.handedOutStates.keys())
        if (key.startsWith(`${boardId} `)) this.handedOutStates.delete(key);
    });
    deps.events.settling = (boardId) => this.settle(boardId);
  }

  /**
   * The ETag of the board's state as a read hands it out, noting the state's
   * items unless the newest version in memory already holds it: `changes`
   * then starts from it exactly, whether or not its burst settles as it was.
   * Once per state: the ETag is cached per document state, and so is this.
   */
  handedOut(boardId: string, doc: Y.Doc): string {
    const etag = etagOf(doc);
    const key = `${boardId} ${etag}`;
    if (this.notesHandedOut && this.items.peek(boardId)?.etag !== etag && !this.handedOutStates.has(key))
      this.handedOutStates.set(key, itemMapsOf(doc));
    return etag;
  }

  /** The items of a state whose ETag this instance handed out, while it remembers them. */
  itemsHandedOut(boardId: string, etag: string): ItemMaps | undefined {
    return this.handedOutStates.get(`${boardId} ${etag}`);
  }

  private readonly onChange = (boardId: string, origin: unknown) => {
    if (isRelayed(origin)) return;
    let authors = this.bursts.get(boardId);
    if (!authors) this.bursts.set(boardId, (authors = new Set()));
    // The authors a write's edits declared, else whoever made the change.
    if (isBoardOrigin(origin) && origin.authors) for (const author of origin.authors) authors.add(author);
    else {
      const author = authorOf(origin, undefined);
      if (author !== 'unknown') authors.add(author);
    }
  };

  /**
   * A burst of the board settled: records its state if the burst held a local
   * change, or waits for the recording another settle started. Never throws:
   * a failure is logged and the burst's authors wait for the next settle,
   * whose recording then covers this state too.
   */
  async settle(boardId: string): Promise<void> {
    const authors = this.takeBurst(boardId);
    // No burst of its own: another settle took it, and its recording is what this one waits for.
    if (!authors) return void (await this.chains.get(boardId)?.catch(() => {}));
    try {
      await this.record(boardId, authors);
    } catch (error) {
      this.deps.logError(error, boardId);
      this.giveBack(boardId, authors);
    }
  }

  /**
   * Records the board's current state now, with the authors of the burst under
   * way (restore calls it before and after its write). Resolves with the new
   * version, or null when the newest version already holds this state.
   */
  async recordNow(boardId: string, restoredFrom?: number): Promise<VersionMeta | null> {
    const authors = this.takeBurst(boardId) ?? new Set<string>();
    try {
      return await this.record(boardId, authors, restoredFrom);
    } catch (error) {
      this.giveBack(boardId, authors);
      throw error;
    }
  }

  private takeBurst(boardId: string): Set<string> | undefined {
    const authors = this.bursts.get(boardId);
    this.bursts.delete(boardId);
    return authors;
  }

  private giveBack(boardId: string, authors: Set<string>): void {
    const current = this.bursts.get(boardId);
    this.bursts.set(boardId, new Set([...authors, ...(current ?? [])]));
  }

  private record(boardId: string, authors: Set<string>, restoredFrom?: number): Promise<VersionMeta | null> {
    const previous = this.chains.get(boardId) ?? Promise.resolve();
    const next = previous.catch(() => {}).then(() => this.recordState(boardId, authors, restoredFrom));
    this.chains.set(boardId, next);
    const forget = () => {
      if (this.chains.get(boardId) === next) this.chains.delete(boardId);
    };
    next.then(forget, forget);
    return next;
  }

  private async recordState(
    boardId: string,
    authors: Set<string>,
    restoredFrom: number | undefined,
  ): Promise<VersionMeta | null> {
    const { store, host, now } = this.deps;
    const record = await store.registry.get(boardId);
    if (!record || record.deletedAt) return null;
    const newest = await store.history.newest(boardId);
    const state = await host.use(boardId, (doc) => {
      const etag = etagOf(doc);
      if (newest?.meta.etag === etag) return null;
      const maps = boardMaps(doc);
      const kinds = record.mode === 'todo' ? TODO_MAPS : DRAW_MAPS;
      return {
        etag,
        update: Y.encodeStateAsUpdate(doc, newest?.stateVector),
        stateVector: Y.encodeStateVector(doc),
        items: itemMapsOf(doc),
        counts: Object.fromEntries(kinds.map((kind) => [kind, maps[kind].size])) as VersionCounts,
        blobs: [...new Set([...maps.images.values()].map((image) => image.blob))],
      };
    });
    if (!state) return null;
    const before = (newest && (await this.itemsAt(boardId, newest.meta.version))) ?? emptyItemMaps();
    const meta = {
      at: new Date(now()).toISOString(),
      authors: [...authors].sort().slice(0, HISTORY_MAX_AUTHORS),
      counts: state.counts,
      changes: countChanges(before, state.items),
      etag: state.etag,
      mode: record.mode,
      ...(restoredFrom !== undefined && { restoredFrom }),
    };
    const recorded = await store.history.record(boardId, meta, state.update, state.stateVector, state.blobs);
    if (!recorded) return null;
    this.remember(boardId, recorded.version, state.etag, state.items);
    await this.thin(boardId);
    return recorded;
  }

  /** Drops what the retention policy no longer keeps (never the newest version). */
  private async thin(boardId: string): Promise<void> {
    const drop = versionsToDrop(await this.deps.store.history.all(boardId), this.deps.now(), RETENTION);
    if (drop.length > 0) await this.deps.store.history.drop(boardId, drop);
  }

  /**
   * The items of the board at a stored version, or null when it is not stored.
   * The newest version's items of recently recorded boards are in memory, so
   * the usual case (changes since the version an agent last waited for) needs
   * no replay of the stored history.
   */
  async itemsAt(boardId: string, version: number): Promise<ItemMaps | null> {
    const cached = this.items.get(boardId);
    if (cached?.version === version) return cached.items;
    const state = await this.deps.store.history.stateAt(boardId, version);
    return state && itemMapsOfUpdate(state);
  }

  private remember(boardId: string, version: number, etag: string, items: ItemMaps): void {
    this.items.set(boardId, { version, etag, items });
  }
}
