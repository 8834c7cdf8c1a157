/**
 * The table both SQL engines keep the answers of idempotent writes in
 * (board-store.ts `AnswerStore`): one row per scope and key, written in the
 * same store unit as its write.
 */

/** `bytesType` is BLOB in SQLite and BYTEA in PostgreSQL; the rest is the same SQL. */
export function answersTable(bytesType: 'BLOB' | 'BYTEA'): string {
  return `
-- The first answer of each write sent with an idempotency key, sealed with that key; swept after their retention.
CREATE TABLE IF NOT EXISTS idempotent_answers (
  id TEXT PRIMARY KEY,
  fingerprint TEXT NOT NULL,
  answer ${bytesType} NOT NULL,
  created_ms BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS idempotent_answers_by_age ON idempotent_answers (created_ms);
`;
}
