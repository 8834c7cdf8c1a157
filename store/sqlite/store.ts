/**
 * The embedded default: registry, journal, stored states and image payloads in
 * one SQLite file, so that one synchronous SQLite transaction spans a change's
 * registry writes and the journal entries its Y transaction appends.
 */
import type { BoardMode } from '../../schema/index.js';
import type { BoardStore, Lock, StoreTx } from '../board-store.js';
import { SqliteAnswers } from './answer-store.js';
import { SqliteBlobs } from './blob-store.js';
import { Checkpointer } from './checkpointer.js';
import { CHECKPOINT_INTERVAL_MS, type Db, openDatabase } from './database.js';
import { SqliteDocuments } from './document-store.js';
import { GroupCommit } from './group-commit.js';
import { SqliteRegistry } from './registry.js';
import { SqliteVersions } from './version-store.js';
import { SqliteViewLinks } from './view-link-store.js';

export class SqliteStore implements BoardStore {
  readonly db: Db;
  readonly registry: SqliteRegistry;
  readonly documents: SqliteDocuments;
  readonly blobs: SqliteBlobs;
  readonly history: SqliteVersions;
  readonly answers: SqliteAnswers;
  readonly viewLinks: SqliteViewLinks;
  private readonly tx: StoreTx;
  private readonly group: GroupCommit;
  private readonly checkpoints: Checkpointer;

  constructor(dataDir: string, now: () => number) {
    this.db = openDatabase(dataDir);
    this.group = new GroupCommit(this.db);
    this.registry = new SqliteRegistry(this.db, now, this.group);
    this.documents = new SqliteDocuments(this.db, this.group);
    this.blobs = new SqliteBlobs(this.db, this.group);
    this.history = new SqliteVersions(this.db, this.group);
    this.answers = new SqliteAnswers(this.db, this.group, now);
    this.viewLinks = new SqliteViewLinks(this.db, this.group);
    this.checkpoints = new Checkpointer(this.db.name, CHECKPOINT_INTERVAL_MS);
    const { registry, documents, blobs, history, answers, viewLinks } = this;
    this.tx = {
      rememberAnswer: (answer) => answers.remember(answer),
      createBoard: (id: string, mode: BoardMode, lock?: Lock) => registry.create(id, mode, lock),
      reviveBoard: (id, mode) => registry.revive(id, mode),
      setMode: (id, mode) => registry.setMode(id, mode),
      swapLock: (id, lock, expectedVersion) => registry.swapLockNow(id, lock, expectedVersion),
      tombstone: (id) => void registry.tombstone(id),
      eraseDocument: (id) => {
        documents.eraseNow(id);
        blobs.eraseBoard(id);
        history.eraseNow(id);
        viewLinks.eraseNow(id);
      },
      replaceDocument: (id, doc) => documents.replace(id, doc),
    };
  }

  /** The changes of a burst of event-loop turns share one commit (group-commit.ts); each resolves once it is committed. */
  atomically<T>(_boardId: string, change: (tx: StoreTx) => T): Promise<T> {
    return this.group.run(() => change(this.tx));
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    await this.checkpoints.close();
    this.documents.flushCompactions();
    this.group.settle();
    this.db.close();
  }
}
