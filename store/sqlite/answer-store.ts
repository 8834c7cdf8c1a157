/** The answers of idempotent writes in the embedded SQLite, written in the change's savepoint like a registry row. */
import { errors } from '../../board/model/errors.js';
import type { AnswerStore, StoredAnswer } from '../board-store.js';
import type { Db } from './database.js';
import type { GroupCommit } from './group-commit.js';

export class SqliteAnswers implements AnswerStore {
  private readonly insert;
  private readonly select;
  private readonly sweepOld;

  constructor(
    db: Db,
    private readonly group: GroupCommit,
    private readonly now: () => number,
  ) {
    this.insert = db.prepare<[string, string, Uint8Array, number]>(
      'INSERT INTO idempotent_answers (id, fingerprint, answer, created_ms) VALUES (?, ?, ?, ?)',
    );
    this.select = db.prepare<[string], { fingerprint: string; answer: Buffer }>(
      'SELECT fingerprint, answer FROM idempotent_answers WHERE id = ?',
    );
    this.sweepOld = db.prepare<[number]>('DELETE FROM idempotent_answers WHERE created_ms < ?');
  }

  async get(id: string): Promise<StoredAnswer | null> {
    const row = this.select.get(id);
    return row ? { id, fingerprint: row.fingerprint, answer: row.answer } : null;
  }

  /** Inside the change's transaction: an answer already stored under this id means another request took the key. */
  remember({ id, fingerprint, answer }: StoredAnswer): void {
    this.group.beforeWrite();
    try {
      this.insert.run(id, fingerprint, answer, this.now());
    } catch (error) {
      if (String((error as { code?: unknown }).code).startsWith('SQLITE_CONSTRAINT'))
        throw errors.idempotencyKeyInUse();
      throw error;
    }
  }

  async sweep(beforeMs: number): Promise<number> {
    this.group.settle();
    return this.sweepOld.run(beforeMs).changes;
  }
}
