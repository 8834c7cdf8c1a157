/**
 * Hocuspocus with a board's bookkeeping done once per board, not once per
 * update, through its public hooks where they reach (`lifecycle`, an
 * extension the server installs) and overrides where none does:
 *
 * - the debounced store: Hocuspocus clears and sets a timer, and builds its
 *   debounce key, on every update. Here an update only notes its time on the
 *   board's pending store; one timer per board checks, when it fires, whether
 *   the board has been quiet for the debounce or has waited the longest
 *   debounce, and only then asks Hocuspocus to store it (at once), so a busy
 *   board costs a timer per debounce period with the same stores at the same
 *   times;
 * - the broadcast: a document with no Yjs connection sends each update to
 *   nobody at once instead of buffering it for the turn and merging the
 *   buffer (a merge whose result nobody receives). A connected document
 *   keeps Hocuspocus' per-turn batching. The switch follows the document's
 *   connections as they come and go, not each transaction;
 * - the unload: a board nobody is connected to stays loaded for `keep.ms`
 *   after its last use (a write, a read, its last client leaving), not just
 *   until its store, so an agent calling every few seconds or a person
 *   reloading the page finds it in memory. Stores are not moved: a kept board
 *   has been stored (and its journal compacted) as before. At most
 *   `keep.maxBoards` boards are kept: beyond that an unused board unloads
 *   right after its store, so reads of many boards cannot pile up memory.
 *
 * An upgrade that changes the hooks or methods relied on fails
 * `test/write-path.test.ts` or `test/keep-loaded.test.ts`.
 */
import {
  type Configuration,
  type Document,
  type Extension,
  Hocuspocus,
  type onStoreDocumentPayload,
} from '@hocuspocus/server';

/** A board's store still to ask for: the latest update's payload, and when its wait began and last moved. */
type PendingStore = {
  document: Document;
  payload: onStoreDocumentPayload;
  since: number;
  last: number;
  timer: NodeJS.Timeout;
};

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
  private readonly pendingStores = new Map<string, PendingStore>();
  /** Unloads put off until their board's keep-loaded time is over, by document. */
  private readonly laterUnloads = new Map<Document, NodeJS.Timeout>();

  /** The hooks that keep boards loaded and switch their broadcast: the server installs it with its extensions. */
  readonly lifecycle: Extension = {
    priority: FIRST,
    extensionName: 'board-lifecycle',
    afterLoadDocument: async ({ document }) => {
      this.used(document);
      this.followConnections(document);
    },
    connected: async ({ connection }) => this.followConnections(connection.document),
    onDisconnect: async ({ document }) => {
      this.used(document); // a board kept loaded after its last client left is kept from then
      this.followConnections(document);
    },
    beforeUnloadDocument: async ({ document }) => {
      if (this.keeps(document)) throw STAY_LOADED;
    },
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

  /** Hocuspocus's debouncer sets a timer per update and no option changes that: this asks once per board. */
  override storeDocumentHooks(
    document: Document,
    payload: onStoreDocumentPayload,
    immediately?: boolean,
  ): Promise<unknown> {
    const { debounce } = this.configuration;
    if (immediately || debounce === 0) {
      this.takePendingStore(document.name);
      return super.storeDocumentHooks(document, payload, immediately);
    }
    const now = Date.now();
    const pending = this.pendingStores.get(document.name);
    if (pending && pending.document === document) {
      pending.payload = payload;
      pending.last = now;
    } else {
      if (pending) clearTimeout(pending.timer);
      const timer = setTimeout(() => this.checkPendingStore(document.name), debounce);
      this.pendingStores.set(document.name, { document, payload, since: now, last: now, timer });
    }
    return Promise.resolve();
  }

  /**
   * A document with a store still to ask for is not unloaded meanwhile (it would miss its compaction). An
   * override, not a hook: Hocuspocus asks this again after the unload hooks, when one may have come in.
   */
  override shouldUnloadDocument(document: Document): boolean {
    return !this.pendingStores.has(document.name) && super.shouldUnloadDocument(document);
  }

  /** The pending stores are this class's own: Hocuspocus's flush only knows its debouncer. */
  override flushPendingStores(): void {
    for (const name of [...this.pendingStores.keys()]) this.storePending(name);
    super.flushPendingStores();
  }

  /**
   * Whether to keep the board loaded for now, and if so, to look again once
   * its keep time is over. A board still loading (a load that failed) is not
   * kept, and none is while more than `keep.maxBoards` boards are loaded.
   */
  private keeps(document: Document): boolean {
    // Boards on their way out do not count (their unload may wait on a hook, Redis's delay); this one is among them now.
    const loaded = this.documents.size - this.unloadingDocuments.size + 1;
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

  /**
   * Broadcasts each update at once while nobody is connected, and batches the
   * turn's updates once a Yjs client is: either is correct at any moment, so
   * the switch may follow the connections a little late or early.
   */
  private followConnections(document: Document): void {
    document.flushDelay = document.connections.size === 0 ? false : this.configuration.flushDelay;
  }

  /** Stores the board once it has been quiet for the debounce or has waited the longest one; else looks again when the earlier of the two is due. */
  private checkPendingStore(name: string): void {
    const pending = this.pendingStores.get(name);
    if (!pending) return;
    const { debounce, maxDebounce } = this.configuration;
    const now = Date.now();
    const wait = Math.min(pending.last + debounce, pending.since + maxDebounce) - now;
    if (wait > 0) pending.timer = setTimeout(() => this.checkPendingStore(name), wait);
    else this.storePending(name);
  }

  private storePending(name: string): void {
    const pending = this.takePendingStore(name);
    if (pending) void super.storeDocumentHooks(pending.document, pending.payload, true);
  }

  /** Removes the board's pending store, its timer with it, and hands it back. */
  private takePendingStore(name: string): PendingStore | undefined {
    const pending = this.pendingStores.get(name);
    if (!pending) return undefined;
    clearTimeout(pending.timer);
    this.pendingStores.delete(name);
    return pending;
  }
}
