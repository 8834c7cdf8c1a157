/** The answers of idempotent writes in PostgreSQL, where every instance finds them; written in their change's transaction. */
import { errors } from '../../board/model/errors.js';
import type { AnswerStore, StoredAnswer } from '../board-store.js';
import { type Client, type Pool, query } from './database.js';

/** PostgreSQL's unique_violation: another request stored an answer under the same id first. */
const UNIQUE_VIOLATION = '23505';

export class PgAnswers implements AnswerStore {
  constructor(private readonly pool: Pool) {}

  async get(id: string): Promise<StoredAnswer | null> {
    const { rows } = await query<{ fingerprint: string; answer: Buffer }>(
      this.pool,
      'SELECT fingerprint, answer FROM idempotent_answers WHERE id = $1',
      [id],
    );
    return rows[0] ? { id, fingerprint: rows[0].fingerprint, answer: rows[0].answer } : null;
  }

  async sweep(beforeMs: number): Promise<number> {
    const { rowCount } = await query(this.pool, 'DELETE FROM idempotent_answers WHERE created_ms < $1', [beforeMs]);
    return rowCount ?? 0;
  }
}

/** Inserts an answer in the caller's transaction; a second one under the same id refuses the whole change. */
export async function insertAnswer(client: Client, { id, fingerprint, answer }: StoredAnswer, createdMs: number) {
  try {
    await client.query('INSERT INTO idempotent_answers (id, fingerprint, answer, created_ms) VALUES ($1, $2, $3, $4)', [
      id,
      fingerprint,
      answer,
      createdMs,
    ]);
  } catch (error) {
    if ((error as { code?: unknown }).code === UNIQUE_VIOLATION) throw errors.idempotencyKeyInUse();
    throw error;
  }
}
