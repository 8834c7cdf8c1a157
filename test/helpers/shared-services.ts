/**
 * Redis and PostgreSQL for the scale-out tests, as scripts/start-shared-services.sh
 * starts them on loopback (CI always does). Each cluster of instances under test
 * gets a database and a Redis prefix of its own, so test files do not meet.
 * Free of vitest, so bench/ can use it too.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5439/postgres';

async function redisAnswers(): Promise<boolean> {
  const redis = new Redis(TEST_REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 1_000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

export async function postgresAnswers(): Promise<boolean> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL, connectionTimeoutMillis: 1_000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Whether both servers answer; when not, says so loudly (the scale-out tests are then skipped). */
export async function sharedServicesAvailable(): Promise<boolean> {
  const [redis, postgres] = await Promise.all([redisAnswers(), postgresAnswers()]);
  if (redis && postgres) return true;
  const missing = [!redis && `Redis at ${TEST_REDIS_URL}`, !postgres && `PostgreSQL at ${TEST_POSTGRES_URL}`]
    .filter(Boolean)
    .join(' and ');
  console.warn(
    `\n${'!'.repeat(78)}\n!! SKIPPING the scale-out tests: no ${missing}.\n!! Run ./scripts/start-shared-services.sh (CI always does) to run them.\n${'!'.repeat(78)}\n`,
  );
  return false;
}

/** Runs SQL as the PostgreSQL superuser, in the maintenance database or the given one. */
export async function asAdmin(sql: string, databaseUrl = TEST_POSTGRES_URL): Promise<void> {
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/** The URL of a database on the test server. */
export function databaseUrl(name: string): string {
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A fresh database and Redis prefix: the environment of one cluster of
 * instances. Under the suite it is a copy of the run's migrated template
 * (test/helpers/pg-template.ts), named with the run's prefix so the run drops
 * it; a bench makes an empty one, which its first instance migrates.
 */
export async function freshClusterEnv(): Promise<Record<string, string>> {
  const name = `${process.env.TEST_PG_PREFIX ?? 'boards_test'}_${randomBytes(6).toString('hex')}`;
  const template = process.env.TEST_PG_TEMPLATE;
  await asAdmin(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  return { REDIS_URL: TEST_REDIS_URL, DATABASE_URL: databaseUrl(name), REDIS_PREFIX: name, DATABASE_POOL_SIZE: '8' };
}
