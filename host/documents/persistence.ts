/**
 * Persistence of board documents in Hocuspocus: its database extension with
 * our own fetch and store, made durable by the journal. The stock extensions
 * only store a debounced snapshot, so acknowledged edits could be lost; here
 * every update is journalled from the document's `update` event (which runs
 * before any acknowledgement, while `onChange` runs after) and the store
 * becomes the compaction of that journal. The same class serves the embedded
 * SQLite and PostgreSQL: only the DocumentJournal differs.
 */
import { Database } from '@hocuspocus/extension-database';
import type {
  afterLoadDocumentPayload,
  beforeUnloadDocumentPayload,
  Document,
  Hocuspocus,
  onStoreDocumentPayload,
} from '@hocuspocus/server';
import { boardMaps, migrateLayout } from '../../board/model/document-model.js';
import { CLOSE, errors } from '../../board/model/errors.js';
import type { BoardStore } from '../../store/board-store.js';
import { isRelayed } from '../events/board-events.js';

/** The origin of the one rewrite of a board stored in the former layout. */
export const MIGRATION_ORIGIN = { source: 'system', author: 'system:migration' } as const;

/** Told of journal commits and compactions, with their duration in seconds (the operator's metrics). */
export type JournalHooks = {
  committed(seconds: number, ok: boolean): void;
  compacted(seconds: number): void;
};

const seconds = (start: number) => (performance.now() - start) / 1000;

/** A journal append waiting for its commit: when it was made, and the document it came from. */
type JournalAppend = { start: number; document: Document };

export class JournalledDatabase extends Database {
  /** In-memory copies that hold a change the storage refused: never stored, never used again. */
  private readonly discarded = new WeakSet<Document>();
  /** Set at shutdown once every document is stored: later stores (of unloads) would find the store closed. */
  private closed = false;
  /** The latest commit appends wait for, and theirs so far (settleWith). */
  private awaited: { commit: Promise<void>; appends: JournalAppend[] } | undefined;

  constructor(
    private readonly store: BoardStore,
    /** False only to measure the journal's cost in a benchmark: durability is gone then. */
    private readonly journal = true,
    private readonly hooks?: JournalHooks,
  ) {
    super({
      fetch: async ({ documentName }) => this.store.documents.load(documentName),
      // Never called: onStoreDocument below compacts instead of writing a fresh snapshot each time.
      store: async () => {},
    });
  }

  /**
   * From here on every update of the document is journalled before it is
   * acknowledged. If the journal cannot take one (disk full, database down),
   * the change must not be acknowledged and the in-memory copy, which already
   * holds it, must go: see discard.
   */
  async afterLoadDocument({ document, documentName, instance }: afterLoadDocumentPayload): Promise<void> {
    document.on('update', (update: Uint8Array, origin: unknown) => {
      if (this.discarded.has(document)) throw errors.storageUnavailable();
      if (!this.journal || isRelayed(origin)) return; // the instance that made it journalled it
      let pending: Promise<void> | void;
      const start = performance.now();
      try {
        pending = this.store.documents.append(documentName, update);
      } catch (error) {
        this.hooks?.committed(seconds(start), false);
        this.discard(instance, document);
        throw error;
      }
      // Both stores commit the turn's group later and hand back that commit; an append outside a change is durable at once.
      if (!pending) return this.hooks?.committed(seconds(start), true);
      this.settleWith(pending, { start, document }, instance);
    });
    // A board stored in the former layout (one plain object per item) is rewritten once, journalled as any change.
    document.transact(() => migrateLayout(document), MIGRATION_ORIGIN);
  }

  /**
   * Reports each append once the commit that holds it settles, and discards
   * the documents whose appends it refused. The appends of one commit share
   * one reaction to it: a reaction (a promise and two closures) per update
   * cost each write more than the report itself.
   */
  private settleWith(commit: Promise<void>, append: JournalAppend, instance: Hocuspocus): void {
    if (this.awaited?.commit === commit) {
      this.awaited.appends.push(append);
      return;
    }
    const appends = [append];
    const awaited = { commit, appends };
    this.awaited = awaited;
    // Once settled, its documents are not held until the next commit (they may be unloaded by then).
    const settled = () => {
      if (this.awaited === awaited) this.awaited = undefined;
    };
    commit.then(
      () => {
        settled();
        for (const { start } of appends) this.hooks?.committed(seconds(start), true);
      },
      () => {
        settled();
        for (const { start, document } of appends) {
          this.hooks?.committed(seconds(start), false);
          this.discard(instance, document);
        }
      },
    );
  }

  /**
   * Drops an in-memory copy that holds a change the storage refused, so the
   * next use loads what is really stored. Its Yjs clients are disconnected (not
   * just detached) so that their providers reconnect and send their changes
   * again once the storage takes them; nothing they hold is lost.
   */
  private discard(instance: Hocuspocus, document: Document): void {
    if (this.discarded.has(document)) return;
    this.discarded.add(document);
    for (const connection of document.getConnections())
      connection.webSocket.close(CLOSE.storageUnavailable.code, CLOSE.storageUnavailable.reason);
    if (instance.documents.get(document.name) === document) instance.documents.delete(document.name);
    setTimeout(() => document.destroy(), 0); // after the transaction that failed has unwound
  }

  /** Stores nothing more: every document was stored, and any change since is in the journal. */
  close(): void {
    this.closed = true;
  }

  /** A discarded copy is never unloaded by name: a fresh copy may be loaded under the same name by then. */
  async beforeUnloadDocument({ document }: beforeUnloadDocumentPayload): Promise<void> {
    if (this.discarded.has(document)) throw new Error('discarded copy');
  }

  /**
   * Folds the journal into the stored state; forgets the document of an
   * erased board. Without the journal, stores the whole state instead, as
   * Hocuspocus's own database extension does: nothing else would keep it.
   */
  override async onStoreDocument({ document, documentName, clientsCount }: onStoreDocumentPayload): Promise<void> {
    if (this.discarded.has(document) || this.closed) return;
    const { registry, documents, blobs, history } = this.store;
    const board = await registry.get(documentName);
    if (!board || board.deletedAt) {
      await documents.erase(documentName);
      return;
    }
    const start = performance.now();
    if (!this.journal) await this.store.atomically(documentName, (tx) => tx.replaceDocument(documentName, document));
    else if (await documents.compact(documentName, document)) this.hooks?.compacted(seconds(start));
    // Unreferenced image payloads go once nobody is connected (an open browser
    // could still undo an erase and point at its payload again).
    if (clientsCount === 0) {
      // Stored versions keep theirs too: a restore brings their images back.
      const referenced = await history.referencedBlobs(documentName);
      for (const image of boardMaps(document).images.values()) referenced.add(image.blob);
      await blobs.prune(documentName, referenced);
    }
  }
}
