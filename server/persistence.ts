/**
 * Persistence of board documents in Hocuspocus: @hocuspocus/extension-sqlite
 * on our database handle, made durable by the journal. The stock extension only
 * stores a debounced snapshot, so acknowledged edits could be lost; here every
 * update is appended to the journal from the document's `update` event (which
 * runs before any acknowledgement, while `onChange` runs after) and the
 * snapshot store becomes the compaction of that journal.
 */
import { SQLite } from '@hocuspocus/extension-sqlite';
import type { afterLoadDocumentPayload, onStoreDocumentPayload } from '@hocuspocus/server';
import { boardMaps } from './document-model.js';
import type { Registry } from './registry.js';
import type { BlobStore } from './store/blob-store.js';
import type { Db } from './store/database.js';
import type { DocumentStore } from './store/document-store.js';

export class JournalledSQLite extends SQLite {
  constructor(
    db: Db,
    private readonly documents: DocumentStore,
    private readonly registry: Registry,
    private readonly blobs: BlobStore,
  ) {
    super({
      fetch: async ({ documentName }) => this.documents.load(documentName),
      // Never called: onStoreDocument below compacts instead of writing a fresh snapshot each time.
      store: async () => {},
    });
    this.db = db;
  }

  /** The database is opened and migrated by the server, not by the extension. */
  override async onConfigure(): Promise<void> {}

  override async onListen(): Promise<void> {}

  /** From here on every update of the document is journalled before it is acknowledged. */
  async afterLoadDocument({ document, documentName }: afterLoadDocumentPayload): Promise<void> {
    document.on('update', (update: Uint8Array) => this.documents.append(documentName, update));
  }

  /** Folds the journal into the stored state; forgets the document of an erased board. */
  override async onStoreDocument({ document, documentName, clientsCount }: onStoreDocumentPayload): Promise<void> {
    const board = this.registry.get(documentName);
    if (!board || board.deletedAt) {
      this.documents.erase(documentName);
      return;
    }
    this.documents.compact(documentName, document);
    // Unreferenced image payloads go once nobody is connected (an open browser
    // could still undo an erase and point at its payload again).
    if (clientsCount === 0) {
      const referenced = new Set<string>();
      for (const image of boardMaps(document).images.values()) referenced.add(image.blob);
      this.blobs.prune(documentName, referenced);
    }
  }
}
