/**
 * The embedded default: registry, journal, stored states and image payloads in
 * one SQLite file, so that one synchronous SQLite transaction spans a change's
 * registry writes and the journal entries its Y transaction appends.
 */
import type { BoardMode } from '../../../schema/index.js';
import { SqliteRegistry } from './registry.js';
import type { Lock, BoardStore, StoreTx } from '../board-store.js';
import { SqliteBlobs } from './blob-store.js';
import { type Db, openDatabase } from './database.js';
import { SqliteDocuments } from './document-store.js';
import { SqliteHistory } from './history.js';

export class SqliteStore implements BoardStore {
  readonly db: Db;
  readonly registry: SqliteRegistry;
  readonly documents: SqliteDocuments;
  readonly blobs: SqliteBlobs;
  readonly history: SqliteHistory;
  private readonly tx: StoreTx;

  constructor(dataDir: string, now: () => number) {
    this.db = openDatabase(dataDir);
    this.registry = new SqliteRegistry(this.db, now);
    this.documents = new SqliteDocuments(this.db);
    this.blobs = new SqliteBlobs(this.db);
    this.history = new SqliteHistory(this.db);
    const { registry, documents, blobs, history } = this;
    this.tx = {
      createBoard: (id: string, mode: BoardMode, lock?: Lock) => registry.create(id, mode, lock),
      reviveBoard: (id, mode) => registry.revive(id, mode),
      setMode: (id, mode) => registry.setMode(id, mode),
      tombstone: (id) => void registry.tombstone(id),
      eraseDocument: (id) => {
        documents.eraseNow(id);
        blobs.eraseBoard(id);
        history.eraseNow(id);
      },
      replaceDocument: (id, doc) => documents.replace(id, doc),
    };
  }

  async atomically<T>(_boardId: string, change: (tx: StoreTx) => T): Promise<T> {
    return this.db.transaction(() => change(this.tx))();
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
