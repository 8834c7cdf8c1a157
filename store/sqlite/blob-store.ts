/**
 * Image payloads, outside the Y.Doc: the document holds a content hash, this
 * table the data URL. Keyed by board so that a board's images go with it.
 */
import { blobHash } from '../blob-hash.js';
import type { BlobStore } from '../board-store.js';
import type { Db } from './database.js';
import type { GroupCommit } from './group-commit.js';

const DONE = Promise.resolve();

export class SqliteBlobs implements BlobStore {
  private readonly insert;
  private readonly select;
  private readonly deleteBoard;
  private readonly listHashes;
  private readonly deleteOne;

  constructor(
    db: Db,
    private readonly group: GroupCommit,
  ) {
    this.insert = db.prepare<[string, string, string]>(
      'INSERT INTO image_blobs (board_id, hash, data_url) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
    );
    this.select = db.prepare<[string, string], { data_url: string }>(
      'SELECT data_url FROM image_blobs WHERE board_id = ? AND hash = ?',
    );
    this.deleteBoard = db.prepare<[string]>('DELETE FROM image_blobs WHERE board_id = ?');
    this.listHashes = db.prepare<[string], { hash: string }>('SELECT hash FROM image_blobs WHERE board_id = ?');
    this.deleteOne = db.prepare<[string, string]>('DELETE FROM image_blobs WHERE board_id = ? AND hash = ?');
  }

  /** Stores a data URL and returns its hash (idempotent). */
  put(boardId: string, dataUrl: string): string {
    const hash = blobHash(dataUrl);
    this.group.beforeWrite();
    this.insert.run(boardId, hash, dataUrl);
    return hash;
  }

  get(boardId: string, hash: string): string | null {
    return this.select.get(boardId, hash)?.data_url ?? null;
  }

  /** Every payload is at hand in the embedded database. */
  load(): Promise<void> {
    return DONE;
  }

  /** Deletes the blobs of a board that no image references any more. */
  async prune(boardId: string, referenced: Set<string>): Promise<number> {
    this.group.settle();
    let removed = 0;
    for (const { hash } of this.listHashes.all(boardId)) {
      if (!referenced.has(hash)) removed += this.deleteOne.run(boardId, hash).changes;
    }
    return removed;
  }

  eraseBoard(boardId: string): void {
    this.group.beforeWrite();
    this.deleteBoard.run(boardId);
  }
}
