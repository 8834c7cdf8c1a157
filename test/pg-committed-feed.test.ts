/**
 * Reading back what instances committed to PostgreSQL (the catch-up while the
 * relay is down), against a real database: a journal insert that commits a
 * lower seq than one already read, and a compaction that folds rows away
 * before they were read, cases no test through the instances can time.
 * Skipped, loudly, without PostgreSQL.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { PgCommittedFeed } from '../store/pg/committed-feed.js';
import { openPool, type Pool } from '../store/pg/database.js';
import { PgJournal } from '../store/pg/journal.js';
import { freshClusterEnv, sharedServicesAvailable } from './helpers/shared-services.js';

const available = await sharedServicesAvailable();

function textUpdate(content: string): Uint8Array {
  const doc = new Y.Doc();
  doc.getMap('texts').set(content, { id: content, content });
  return Y.encodeStateAsUpdate(doc);
}

/** The text ids a board's returned updates hold, applied to a fresh document. */
function textsOf(updates: Uint8Array[] | undefined): string[] {
  const doc = new Y.Doc();
  for (const update of updates ?? []) Y.applyUpdate(doc, update);
  return [...doc.getMap('texts').keys()].sort();
}

describe.skipIf(!available)('PostgreSQL committed feed', () => {
  let pool: Pool;
  let url: string;
  beforeAll(async () => {
    url = (await freshClusterEnv()).DATABASE_URL;
    pool = await openPool(url, 4);
  });
  afterAll(async () => {
    await pool?.end();
  });

  it('returns a board whole first, then only what was committed since, a late commit with a lower seq included', async () => {
    const journal = new PgJournal(pool);
    const feed = new PgCommittedFeed(pool, Date.now);
    const name = 'late-seq';
    await journal.append(name, textUpdate('first'));
    expect(textsOf((await feed.updates([name])).get(name))).toEqual(['first']);
    expect((await feed.updates([name])).get(name)).toEqual([]);

    // Another writer's insert takes its seq now and commits after a later one.
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    await other.query('BEGIN');
    await other.query('INSERT INTO journal (name, data) VALUES ($1, $2)', [name, Buffer.from(textUpdate('late'))]);
    await journal.append(name, textUpdate('early'));
    expect(textsOf((await feed.updates([name])).get(name))).toEqual(['early']);
    await other.query('COMMIT');
    await other.end();
    expect(textsOf((await feed.updates([name])).get(name))).toEqual(['late']);
    expect((await feed.updates([name])).get(name)).toEqual([]);
  });

  it('returns the stored state again once a compaction folded in rows it had not read', async () => {
    const journal = new PgJournal(pool);
    const feed = new PgCommittedFeed(pool, Date.now);
    const name = 'compacted';
    await journal.append(name, textUpdate('before'));
    expect(textsOf((await feed.updates([name])).get(name))).toEqual(['before']);
    await journal.append(name, textUpdate('folded'));
    expect(await journal.compact(name, new Y.Doc())).toBe(true);
    expect(await journal.journalLength(name)).toBe(0);
    expect(textsOf((await feed.updates([name])).get(name))).toEqual(['before', 'folded']);
    expect((await feed.updates([name])).get(name)).toEqual([]);
    // A board no longer asked for is forgotten: asked again, it is returned whole.
    await feed.updates([]);
    expect(textsOf((await feed.updates([name])).get(name))).toEqual(['before', 'folded']);
  });

  it('reads the registry rows of the boards asked for', async () => {
    const feed = new PgCommittedFeed(pool, Date.now);
    await pool.query(
      "INSERT INTO boards (id, mode, created_at, lock_mode, key_hash) VALUES ('b1', 'draw', 'now', 'write', 'h')",
    );
    const records = await feed.records(['b1', 'missing']);
    expect([...records.keys()]).toEqual(['b1']);
    expect(records.get('b1')).toMatchObject({ lockMode: 'write', lockVersion: 0, deletedAt: null });
  });
});
