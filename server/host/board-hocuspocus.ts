/**
 * Hocuspocus with its per-update bookkeeping done once per board, not once per
 * update, since a busy board gets many updates a second:
 *
 * - the debounced store: Hocuspocus clears and sets a timer, and builds its
 *   debounce key, on every update. Here an update only notes its time on the
 *   board's pending store; one timer per board checks, when it fires, whether
 *   the board has been quiet for the debounce or has waited the longest
 *   debounce, and only then asks Hocuspocus to store it (at once). A busy
 *   board so costs a timer per debounce period instead of one per update,
 *   with the same stores at the same times;
 * - the broadcast: a document with no Yjs connection sends each update to
 *   nobody at once instead of buffering it for the turn and merging the
 *   buffer (a merge whose result nobody receives). A connected document
 *   keeps Hocuspocus' per-turn batching. The switch follows the document's
 *   connections as they come and go, not each transaction.
 *
 * - the unload: a board nobody is connected to stays loaded for `keep.ms`
 *   after its last use (a write, a read, its last client leaving), not just
 *   until its store. An agent or a script calling every few seconds, or a
 *   person reloading the page, so finds the board in memory instead of
 *   loading it again each time. Stores are not moved: a board kept loaded has
 *   been stored (and its journal compacted). At most `maxBoards` boards are
 *   loaded for it: beyond that, an unused board unloads right after its store,
 *   so reads of many boards cannot pile up memory.
 *
 * All through the class's public methods and options, so an upgrade that
 * changes them fails `test/write-path.test.ts` or `test/keep-loaded.test.ts`.
 */
import {
  Hocuspocus,
  type Configuration,
  type ConnectionConfiguration,
  type Document,
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

export class BoardHocuspocus extends Hocuspocus {
  private readonly pendingStores = new Map<string, PendingStore>();
  /** Unloads put off until their board's keep-loaded time is over, by document. */
  private readonly laterUnloads = new Map<Document, NodeJS.Timeout>();

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

  override async loadDocument(
    name: string,
    request: Request,
    socketId: string,
    connection: ConnectionConfiguration,
    context?: unknown,
  ): Promise<Document> {
    const document = await super.loadDocument(name, request, socketId, connection, context);
    this.used(document);
    followConnections(document as BoardDocument, this.configuration.flushDelay);
    return document;
  }

  /** Notes a use of a loaded board that changes nothing (a read), which keeps it loaded as a write does. */
  used(document: Document): void {
    (document as BoardDocument).lastUsedAt = Date.now();
  }

  /**
   * Unloads the board once it has not been used for `keep.ms`; until then,
   * looks again when that time is over. A board still loading (a load that
   * failed) is unloaded at once, and so is any while more than
   * `keep.maxBoards` boards are loaded.
   */
  override unloadDocument(document: Document): Promise<void> {
    // Boards on their way out no longer count: their unload may wait on a hook (Redis's delay) meanwhile.
    if (document.isLoading || this.documents.size - this.unloadingDocuments.size > this.keep.maxBoards)
      return super.unloadDocument(document);
    const lastUse = Math.max(document.lastChangeTime, (document as BoardDocument).lastUsedAt);
    const wait = lastUse + this.keep.ms - Date.now();
    if (wait <= 0) return super.unloadDocument(document);
    if (!this.laterUnloads.has(document)) {
      const timer = setTimeout(() => {
        this.laterUnloads.delete(document);
        if (this.documents.get(document.name) === document) void this.unloadDocument(document);
      }, wait);
      timer.unref();
      this.laterUnloads.set(document, timer);
    }
    return Promise.resolve();
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

  /** A document with a store still to ask for is not unloaded meanwhile (it would miss its compaction). */
  override shouldUnloadDocument(document: Document): boolean {
    return !this.pendingStores.has(document.name) && super.shouldUnloadDocument(document);
  }

  override flushPendingStores(): void {
    for (const name of [...this.pendingStores.keys()]) this.storePending(name);
    super.flushPendingStores();
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

/**
 * Broadcasts each update at once while nobody is connected, and batches the
 * turn's updates once a Yjs client is: either is correct at any moment, so
 * the switch may follow the connections a little late or early.
 */
function followConnections(document: BoardDocument, batchWhenConnected: number | false): void {
  const follow = () => {
    document.flushDelay = document.connections.size === 0 ? false : batchWhenConnected;
  };
  const addConnection = document.addConnection;
  const removeConnection = document.removeConnection;
  document.addConnection = (connection) => {
    addConnection.call(document, connection);
    follow();
    return document;
  };
  document.removeConnection = (connection) => {
    removeConnection.call(document, connection);
    document.lastUsedAt = Date.now(); // a board kept loaded after its last client left is kept from then
    follow();
    return document;
  };
  follow();
}
