/**
 * PostgreSQL for the shared setup: the same tables as the embedded SQLite
 * (registry, stored states, journal, image payloads, history), created at start
 * under an advisory lock so that instances starting together do not race.
 */
import pg from 'pg';
import { BoardError, errors } from '../../board/model/errors.js';
import { answersTable } from '../answer-rows.js';
import { BOARDS_TABLE } from '../registry-row.js';
import { versionsTables } from '../version-rows.js';
import { viewLinksTable } from '../view-link-rows.js';

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
${answersTable('BYTEA')}
${viewLinksTable('BIGSERIAL')}
`;

/** Any key will do, as long as every instance takes the same one around the schema. */
const SCHEMA_LOCK = 7_204_011;

/** How long a request waits for a pooled connection (the database unreachable, or every connection busy). */
export const PG_CONNECT_TIMEOUT_MS = 3_000;
/** The server cancels a statement that runs longer: it answers with an error, so nothing it did is stored. */
export const PG_STATEMENT_TIMEOUT_MS = 5_000;
/** The client stops waiting for an answer after this (a frozen or cut-off server): a request never hangs longer. */
export const PG_QUERY_TIMEOUT_MS = 6_000;

export async function openPool(url: string, size: number): Promise<Pool> {
  const pool = new pg.Pool({
    connectionString: url,
    max: size,
    connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
    statement_timeout: PG_STATEMENT_TIMEOUT_MS,
    query_timeout: PG_QUERY_TIMEOUT_MS,
    keepAlive: true,
  });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  await transaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
    await client.query(SCHEMA);
  });
  return pool;
}

/**
 * Runs fn in one transaction on one client. A failure before COMMIT rolls it
 * back and reads as storage_unavailable; a COMMIT whose answer never came
 * (the connection lost, the answer timed out) may have been stored: outcome_unknown.
 */
export async function transaction<T>(pool: Pool, fn: (client: Client) => Promise<T>): Promise<T> {
  const { client, broken, release } = await checkOut(pool);
  let lost = false;
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    // A connection lost before COMMIT went out rolled the transaction back: nothing was stored.
    if (broken()) throw broken();
    await client.query('COMMIT').catch(afterSending);
    return result;
  } catch (error) {
    lost = answerLost(error);
    // The server rolls back a transaction whose connection closes; a ROLLBACK sent now would wait for a dead peer.
    if (!lost && !broken()) await client.query('ROLLBACK').catch(() => {});
    return unavailable(error);
  } finally {
    release(lost); // a connection that lost an answer is closed, not lent again
  }
}

/**
 * A pooled client, heard while it is checked out: the pool stops listening
 * to a client it lends, and a connection lost between two statements would
 * otherwise be an unhandled 'error' event, which ends the process.
 */
async function checkOut(pool: Pool) {
  const client = await pool.connect().catch(unavailable);
  let error: Error | undefined;
  const heard = (lostWith: Error) => {
    error ??= lostWith;
  };
  client.on('error', heard);
  return {
    client,
    /** The connection's loss, if it was lost while checked out. */
    broken: () => error,
    release: (destroy: boolean) => {
      client.off('error', heard);
      client.release(destroy || error !== undefined);
    },
  };
}

/** One read; a database that cannot answer reads as storage_unavailable (503). */
export async function query<R extends pg.QueryResultRow>(
  pool: Pool,
  text: string,
  values: unknown[] = [],
): Promise<pg.QueryResult<R>> {
  return pool.query<R>(text, values).catch(unavailable);
}

/**
 * One statement that commits on its own (a group commit's INSERT): refused
 * before it was sent is storage_unavailable, its answer lost after is outcome_unknown.
 */
export async function autocommit<R extends pg.QueryResultRow>(
  pool: Pool,
  text: string,
  values: unknown[] = [],
): Promise<pg.QueryResult<R>> {
  const { client, release } = await checkOut(pool);
  let lost = false;
  try {
    return await client.query<R>(text, values).catch(afterSending);
  } catch (error) {
    lost = answerLost(error);
    return unavailable(error);
  } finally {
    release(lost);
  }
}

/**
 * Whether the database's answer says what became of the statement: an error
 * it raised for the statement does (its transaction rolled back); no answer,
 * or the server going away (SQLSTATE class 08, or 57 but for a cancel), does not.
 */
function answered(error: unknown): boolean {
  if (!(error instanceof pg.DatabaseError)) return false;
  const code = error.code ?? '';
  return !(code.startsWith('08') || (code.startsWith('57') && code !== '57014'));
}

/** A statement that would have committed failed: with an answer the change is not stored; without one nobody knows. */
function afterSending(error: unknown): never {
  if (error instanceof BoardError || answered(error)) throw error;
  throw Object.assign(errors.outcomeUnknown(), { cause: error });
}

function answerLost(error: unknown): boolean {
  return error instanceof BoardError ? error.code === 'outcome_unknown' : !answered(error);
}

function unavailable(error: unknown): never {
  if (error instanceof BoardError) throw error;
  throw Object.assign(errors.storageUnavailable(), { cause: error });
}
