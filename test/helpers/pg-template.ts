/**
 * The suite's global setup for PostgreSQL: one database migrated once per run,
 * which every fresh database of the run is copied from (CREATE DATABASE …
 * TEMPLATE), so no instance under test migrates an empty one; and, after the
 * run, every database it made is dropped, so runs do not pile them up.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPool } from '../../store/pg/database.js';
import { asAdmin, databaseUrl, postgresAnswers, TEST_POSTGRES_URL } from './shared-services.js';

let prefix: string | undefined;

export async function setup(): Promise<void> {
  if (!(await postgresAnswers())) return;
  prefix = `boards_run_${randomBytes(4).toString('hex')}`;
  const template = `${prefix}_template`;
  await asAdmin(`CREATE DATABASE ${template}`);
  const pool = await openPool(databaseUrl(template), 1);
  await pool.end();
  // The test processes start after the global setup, with its environment.
  process.env.TEST_PG_TEMPLATE = template;
  process.env.TEST_PG_PREFIX = prefix;
}

export async function teardown(): Promise<void> {
  if (!prefix) return;
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE starts_with(datname, $1)',
      [prefix],
    );
    for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}
