/**
 * The PostgreSQL journal on its own, against a real database: interleavings
 * with another instance's writes, and appends held for a transaction, which
 * no instance can show from the outside. Skipped, loudly, without PostgreSQL.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { openPool, type Pool } from '../store/pg/database.js';
import { PgJournal } from '../store/pg/journal.js';
import { freshClusterEnv, sharedServicesAvailable } from './helpers/shared-services.js';

const available = await sharedServicesAvailable();

function textUpdate(content: string): Uint8Array {
  const doc = new Y.Doc();
  doc.getMap('texts').set(content, { id: content, content });
  return Y.encodeStateAsUpdate(doc);
}

describe.skipIf(!available)('PostgreSQL journal', () => {
  let pool: Pool;
  let url: string;
  beforeAll(async () => {
    url = (await freshClusterEnv()).DATABASE_URL;
    pool = await openPool(url, 4);
  });
  afterAll(async () => {
    await pool?.end();
  });

  it('compaction keeps a row another writer commits while it runs, with a lower seq than the rows it merged', async () => {
    const journal = new PgJournal(pool);
    const name = 'late-commit';
    // Another writer's insert takes its seq now. It also holds the document's
    // stored-state row, so that compaction, having read the journal, waits for
    // it before deleting what it merged: the late row commits in between.
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    await other.query('BEGIN');
    await other.query('INSERT INTO journal (name, data) VALUES ($1, $2)', [name, Buffer.from(textUpdate('late'))]);
    await other.query('INSERT INTO documents (name, data) VALUES ($1, $2)', [
      name,
      Buffer.from(Y.encodeStateAsUpdate(new Y.Doc())),
    ]);
    await journal.append(name, textUpdate('early'));

    const compacted = journal.compact(name, new Y.Doc());
    await new Promise((resolve) => setTimeout(resolve, 300));
    await other.query('COMMIT');
    await other.end();
    expect(await compacted).toBe(true);

    expect(await journal.journalLength(name)).toBe(1); // the late row, not merged, stays
    const stored = new Y.Doc();
    Y.applyUpdate(stored, (await journal.load(name))!);
    expect([...stored.getMap('texts').keys()].sort()).toEqual(['early', 'late']);
  });

  it('appends held for a transaction are invisible until it commits, and gone if it fails', async () => {
    const journal = new PgJournal(pool);
    const { held } = journal.hold('held', () => void journal.append('held', textUpdate('in a transaction')));
    expect(journal.pending('held')).toBe(held.commit.promise);
    await new Promise((resolve) => setTimeout(resolve, 50)); // a group commit would have run by now
    expect(await journal.journalLength('held')).toBe(0);
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await journal.writeHeld(client, held);
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    journal.settle(held, new Error('refused'));
    await expect(held.commit.promise).rejects.toThrow('refused');
    expect(journal.pending('held')).toBeUndefined();
    expect(await journal.journalLength('held')).toBe(0);
  });
});
