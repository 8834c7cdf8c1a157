/**
 * Hocuspocus with a board's lifecycle added through its public hooks only
 * (`lifecycle`, an extension the server installs); stores keep Hocuspocus's
 * own debounce (`debounce`, `maxDebounce`):
 *
 * - the broadcast: a document with no Yjs connection sends each update to
 *   nobody at once (`Document.flushDelay` false) instead of buffering it for
 *   the turn and merging the buffer (a merge whose result nobody receives). A
 *   connected document keeps Hocuspocus' per-turn batching. The switch
 *   follows the document's connections as they come and go, not each
 *   transaction;
 * - the unload: a board nobody is connected to stays loaded for `keep.ms`
 *   after its last use (a write, a read, its last client leaving), not just
 *   until its store, so an agent calling every few seconds or a person
 *   reloading the page finds it in memory. Stores are not moved: a kept board
 *   has been stored (and its journal compacted) as before. At most
 *   `keep.maxBoards` boards are kept: beyond that an unused board unloads
 *   right after its store, so reads of many boards cannot pile up memory.
 *
 * An upgrade that changes the hooks relied on fails `test/write-path.test.ts`
 * or `test/keep-loaded.test.ts`.
 */
import { type Configuration, type Document, type Extension, Hocuspocus } from '@hocuspocus/server';

/** A loaded board, with when it was last read or left by its last client (a write's time is Hocuspocus' `lastChangeTime`). */
type BoardDocument = Document & { lastUsedAt: number };

/**
 * Thrown by `beforeUnloadDocument` to keep a board loaded: a rejected hook
 * stops the unload, and one with no message is not logged by Hocuspocus.
 */
const STAY_LOADED = new Error();

/**
 * Above every other extension (the Redis extension's 1000 among them), so a
 * board kept loaded is kept before any other hook waits on its unload.
 */
const FIRST = 10_000;

export class BoardHocuspocus extends Hocuspocus {
  /** Unloads put off until their board's keep-loaded time is over, by document. */
  private readonly laterUnloads = new Map<Document, NodeJS.Timeout>();
  /**
   * Documents whose unload has begun (their `beforeUnloadDocument` ran and did
   * not keep them) and not yet ended: another hook may still be waiting (the
   * Redis extension's delay). One whose unload was given up leaves on its next
   * unload or connection.
   */
  private readonly leaving = new Set<Document>();

  /** The hooks that keep boards loaded and switch their broadcast: the server installs it with its extensions. */
  readonly lifecycle: Extension = {
    priority: FIRST,
    extensionName: 'board-lifecycle',
    afterLoadDocument: async ({ document }) => {
      this.used(document);
      this.followConnections(document);
    },
    connected: async ({ connection }) => {
      this.leaving.delete(connection.document); // a connection stops an unload under way
      this.followConnections(connection.document);
    },
    onDisconnect: async ({ document }) => {
      this.used(document); // a board kept loaded after its last client left is kept from then
      this.followConnections(document);
    },
    beforeUnloadDocument: async ({ document }) => {
      if (this.keeps(document)) {
        this.leaving.delete(document);
        throw STAY_LOADED;
      }
      this.leaving.add(document);
    },
    afterUnloadDocument: async () => this.forgetGone(),
  };

  /**
   * `keep.ms`: how long a board nobody is connected to stays loaded after its
   * last use; `keep.maxBoards`: how many loaded boards that may be kept at most.
   */
  constructor(
    configuration: Partial<Configuration>,
    private keep: { ms: number; maxBoards: number } = { ms: 0, maxBoards: 0 },
  ) {
    // The default onChange does nothing, yet costs a promise per update.
    super({ ...configuration, onChange: undefined });
  }

  /** Notes a use of a loaded board that changes nothing (a read), which keeps it loaded as a write does. */
  used(document: Document): void {
    (document as BoardDocument).lastUsedAt = Date.now();
  }

  /** Whether the document's unload is under way: it may be gone once the unload's other hooks are done. */
  isLeaving(document: Document): boolean {
    return this.leaving.has(document);
  }

  /**
   * At shutdown, once every board is stored: nothing is kept loaded any more,
   * and no unload put off earlier runs later (up to `keep.ms` after the
   * server closed, in a process that goes on, against a closed store).
   */
  stopKeeping(): void {
    this.keep = { ms: 0, maxBoards: 0 };
    for (const timer of this.laterUnloads.values()) clearTimeout(timer);
    this.laterUnloads.clear();
  }

  /**
   * Whether to keep the board loaded for now, and if so, to look again once
   * its keep time is over. A board still loading (a load that failed) is not
   * kept, and none is while more than `keep.maxBoards` boards are loaded.
   */
  private keeps(document: Document): boolean {
    this.forgetGone();
    // Boards on their way out do not count (their unload may wait on a hook, Redis's delay).
    let leaving = 0;
    for (const other of this.leaving) if (other !== document) leaving++;
    const loaded = this.getDocumentsCount() - leaving;
    if (document.isLoading || loaded > this.keep.maxBoards) return false;
    const lastUse = Math.max(document.lastChangeTime, (document as BoardDocument).lastUsedAt);
    const wait = lastUse + this.keep.ms - Date.now();
    if (wait <= 0) return false;
    if (!this.laterUnloads.has(document)) {
      const timer = setTimeout(() => {
        this.laterUnloads.delete(document);
        if (this.documents.get(document.name) === document) void this.unloadDocument(document);
      }, wait);
      timer.unref();
      this.laterUnloads.set(document, timer);
    }
    return true;
  }

  /** Drops the documents that have left: destroyed, or no longer the one loaded under their name. */
  private forgetGone(): void {
    for (const document of this.leaving)
      if (document.isDestroyed || this.documents.get(document.name) !== document) this.leaving.delete(document);
  }

  /**
   * Broadcasts each update at once while nobody is connected, and batches the
   * turn's updates once a Yjs client is: either is correct at any moment, so
   * the switch may follow the connections a little late or early.
   */
  private followConnections(document: Document): void {
    document.flushDelay = document.connections.size === 0 ? false : this.configuration.flushDelay;
  }
}
