/**
 * Hocuspocus with its per-update bookkeeping done once per board per
 * event-loop turn instead of once per update (issue 22, bench/FINDINGS.md):
 *
 * - the debounced store: Hocuspocus clears and sets a timer on every update;
 *   here the updates of one turn ask for it once, at the end of the turn, so
 *   the store still runs its debounce after the board's last update;
 * - the broadcast: a document with no Yjs connection sends each update to
 *   nobody at once instead of buffering it for the turn and merging the
 *   buffer (a merge whose result nobody receives). A connected document
 *   keeps Hocuspocus' per-turn batching.
 *
 * Both through the class's public methods and options, so an upgrade that
 * changes them fails `test/write-path.test.ts`.
 */
import { Hocuspocus, type Configuration, type ConnectionConfiguration, type Document, type onStoreDocumentPayload } from '@hocuspocus/server';

export class BoardHocuspocus extends Hocuspocus {
  /** Stores asked for during this turn, by document name: the latest request of each. */
  private readonly storesDue = new Map<string, { document: Document; payload: onStoreDocumentPayload }>();
  private turnScheduled = false;

  constructor(configuration: Partial<Configuration>) {
    // The default onChange does nothing, yet costs a promise per update.
    super({ ...configuration, onChange: undefined });
  }

  override async loadDocument(name: string, request: Request, socketId: string, connection: ConnectionConfiguration, context?: unknown): Promise<Document> {
    const document = await super.loadDocument(name, request, socketId, connection, context);
    const batchWhenConnected = this.configuration.flushDelay;
    // Checked before every transaction, so each update takes the path its document's connections call for.
    document.on('beforeTransaction', () => {
      document.flushDelay = document.connections.size === 0 ? false : batchWhenConnected;
    });
    return document;
  }

  override storeDocumentHooks(document: Document, payload: onStoreDocumentPayload, immediately?: boolean): Promise<unknown> {
    if (immediately) {
      this.storesDue.delete(document.name);
      return super.storeDocumentHooks(document, payload, true);
    }
    this.storesDue.set(document.name, { document, payload });
    if (!this.turnScheduled) {
      this.turnScheduled = true;
      setImmediate(() => this.storeDue());
    }
    return Promise.resolve();
  }

  /** A document with a store still to ask for is not unloaded meanwhile (it would miss its compaction). */
  override shouldUnloadDocument(document: Document): boolean {
    return !this.storesDue.has(document.name) && super.shouldUnloadDocument(document);
  }

  override flushPendingStores(): void {
    this.storeDue();
    super.flushPendingStores();
  }

  private storeDue(): void {
    this.turnScheduled = false;
    const due = [...this.storesDue.values()];
    this.storesDue.clear();
    for (const { document, payload } of due) void super.storeDocumentHooks(document, payload);
  }
}
