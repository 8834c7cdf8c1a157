/**
 * The update journal and stored states in PostgreSQL. Appends are group
 * committed: the updates of one event-loop turn (and those arriving while a
 * commit is in flight) go in one INSERT, and each writer waits, through
 * `durable`, for the commit that holds its update before it is acknowledged.
 * Compaction merges the stored state, the journal and the live copy under an
 * advisory lock, because another instance's copy may hold what this one lacks.
 */
import * as Y from 'yjs';
import { type DocumentJournal, replayUpdates } from '../board-store.js';
import { type Client, type Pool, query, transaction } from './database.js';

type Commit = { promise: Promise<void>; resolve: () => void; reject: (error: unknown) => void };

function nextCommit(): Commit {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  promise.catch(() => {}); // a writer that awaits it still sees the failure
  return { promise, resolve, reject };
}

/** Rows of a document in replay order: its stored state first, then its journal. */
const SELECT_DOCUMENT = `
  SELECT data, NULL::bigint AS seq FROM documents WHERE name = $1
  UNION ALL
  SELECT data, seq FROM journal WHERE name = $1
  ORDER BY seq NULLS FIRST`;

/** Forgets a document's stored state and journal, inside the caller's transaction. */
export async function deleteDocumentRows(client: Client, name: string): Promise<void> {
  await client.query('DELETE FROM journal WHERE name = $1', [name]);
  await client.query('DELETE FROM documents WHERE name = $1', [name]);
}

export class PgJournal implements DocumentJournal {
  private queue: { name: string; update: Uint8Array }[] = [];
  private next: Commit | null = null;
  private flushing = false;
  /** The commit holding each document's latest update, until it settles. */
  private readonly latest = new Map<string, Promise<void>>();

  constructor(private readonly pool: Pool) {}

  async load(name: string): Promise<Uint8Array | null> {
    const { rows } = await query<{ data: Buffer }>(this.pool, SELECT_DOCUMENT, [name]);
    return replayUpdates(rows.map((row) => row.data));
  }

  append(name: string, update: Uint8Array): Promise<void> {
    this.queue.push({ name, update });
    this.next ??= nextCommit();
    const { promise } = this.next;
    this.latest.set(name, promise);
    if (!this.flushing) {
      this.flushing = true;
      setImmediate(() => void this.flush());
    }
    return promise;
  }

  pending(name: string): Promise<void> | undefined {
    return this.latest.get(name);
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const rows = this.queue;
      const commit = this.next!;
      this.queue = [];
      this.next = null;
      try {
        await query(this.pool, 'INSERT INTO journal (name, data) SELECT * FROM unnest($1::text[], $2::bytea[])', [
          rows.map((row) => row.name),
          rows.map((row) => Buffer.from(row.update.buffer, row.update.byteOffset, row.update.byteLength)),
        ]);
        commit.resolve();
      } catch (error) {
        commit.reject(error);
      }
      for (const { name } of rows) if (this.latest.get(name) === commit.promise) this.latest.delete(name);
    }
    this.flushing = false;
  }

  async compact(name: string, doc: Y.Doc): Promise<boolean> {
    return transaction(this.pool, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [name]);
      const { rows } = await client.query<{ data: Buffer; seq: string | null }>(SELECT_DOCUMENT, [name]);
      const journalled = rows.filter((row) => row.seq !== null);
      if (journalled.length === 0) return false;
      const merged = replayUpdates([...rows.map((row) => row.data), Y.encodeStateAsUpdate(doc)])!;
      await client.query('INSERT INTO documents (name, data) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET data = excluded.data', [name, merged]);
      // Exactly the rows merged: an insert still in flight may commit a lower seq than one read here.
      await client.query('DELETE FROM journal WHERE name = $1 AND seq = ANY($2::bigint[])', [name, journalled.map((row) => row.seq)]);
      return true;
    });
  }

  async erase(name: string): Promise<void> {
    await transaction(this.pool, (client) => deleteDocumentRows(client, name));
  }

  async journalLength(name: string): Promise<number> {
    const { rows } = await query<{ n: string }>(this.pool, 'SELECT count(*) AS n FROM journal WHERE name = $1', [name]);
    return Number(rows[0].n);
  }
}
