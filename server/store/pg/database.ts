/**
 * PostgreSQL for the shared setup: the same tables as the embedded SQLite
 * (registry, stored states, journal, image payloads, history), created at start
 * under an advisory lock so that instances starting together do not race.
 */
import pg from 'pg';
import { BoardError, errors } from '../../board/errors.js';
import { BOARDS_TABLE } from '../registry-row.js';
import { versionsTables } from '../version-rows.js';

export type Pool = pg.Pool;
export type Client = pg.PoolClient;

const SCHEMA = `
${BOARDS_TABLE}
CREATE TABLE IF NOT EXISTS documents (
  name TEXT PRIMARY KEY,
  data BYTEA NOT NULL
);
-- Y updates, committed before a change is acknowledged; folded into "documents" by compaction.
CREATE TABLE IF NOT EXISTS journal (
  seq BIGSERIAL PRIMARY KEY,
  name TEXT NOT NULL,
  data BYTEA NOT NULL
);
CREATE INDEX IF NOT EXISTS journal_by_name ON journal (name, seq);
CREATE TABLE IF NOT EXISTS image_blobs (
  board_id TEXT NOT NULL,
  hash TEXT NOT NULL,
  data_url TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (board_id, hash)
);
${versionsTables('BYTEA')}
`;

/** Any key will do, as long as every instance takes the same one around the schema. */
const SCHEMA_LOCK = 7_204_011;

export async function openPool(url: string, size: number): Promise<Pool> {
  const pool = new pg.Pool({ connectionString: url, max: size, connectionTimeoutMillis: 5_000 });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  await transaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
    await client.query(SCHEMA);
  });
  return pool;
}

/** Runs fn in one transaction on one client; any failure rolls it back and reads as storage_unavailable. */
export async function transaction<T>(pool: Pool, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = await pool.connect().catch(unavailable);
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    return unavailable(error);
  } finally {
    client.release();
  }
}

/** One statement; a database that cannot answer reads as storage_unavailable (503). */
export async function query<R extends pg.QueryResultRow>(
  pool: Pool,
  text: string,
  values: unknown[] = [],
): Promise<pg.QueryResult<R>> {
  return pool.query<R>(text, values).catch(unavailable);
}

function unavailable(error: unknown): never {
  if (error instanceof BoardError) throw error;
  throw Object.assign(errors.storageUnavailable(), { cause: error });
}
