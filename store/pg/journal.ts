/**
 * The update journal and stored states in PostgreSQL. Appends are group
 * committed: the updates of one event-loop turn (and those arriving while a
 * commit is in flight) go in one INSERT, and each writer waits, through
 * `durable`, for the commit that holds its update before it is acknowledged.
 * A change that also writes the registry holds its appends back instead
 * (`hold`) and commits them in its own transaction, so that both land or
 * neither does. Compaction merges the stored state, the journal and the live
 * copy under an advisory lock, because another instance's copy may hold what
 * this one lacks.
 */
import * as Y from 'yjs';
import { type DocumentJournal, replayUpdates } from '../board-store.js';
import { autocommit, type Client, type Pool, query, transaction } from './database.js';

type Commit = { promise: Promise<void>; resolve: () => void; reject: (error: unknown) => void };

/** Updates of one document held back from the group commit, and the commit their writers wait for. */
export type HeldAppends = { name: string; updates: Uint8Array[]; commit: Commit };

function nextCommit(): Commit {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
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

const asBuffer = (update: Uint8Array) => Buffer.from(update.buffer, update.byteOffset, update.byteLength);

export class PgJournal implements DocumentJournal {
  private queue: { name: string; update: Uint8Array }[] = [];
  private next: Commit | null = null;
  private flushing = false;
  private held: HeldAppends | null = null;
  /** The commit holding each document's latest update, until it settles. */
  private readonly latest = new Map<string, Promise<void>>();

  constructor(private readonly pool: Pool) {}

  async load(name: string): Promise<Uint8Array | null> {
    const { rows } = await query<{ data: Buffer }>(this.pool, SELECT_DOCUMENT, [name]);
    return replayUpdates(rows.map((row) => row.data));
  }

  append(name: string, update: Uint8Array): Promise<void> {
    if (this.held?.name !== name) return this.enqueue(name, update);
    this.held.updates.push(update);
    this.latest.set(name, this.held.commit.promise);
    return this.held.commit.promise;
  }

  /** Adds an update to the next group commit. */
  private enqueue(name: string, update: Uint8Array): Promise<void> {
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

  /**
   * Runs `change` (synchronous) holding back the appends it makes to `name`:
   * the caller commits them with `writeHeld` inside its own transaction and
   * then `settle`s them, or hands them to the group commit with `release`.
   */
  hold<T>(name: string, change: () => T): { result: T; held: HeldAppends } {
    const held: HeldAppends = { name, updates: [], commit: nextCommit() };
    this.held = held;
    try {
      return { result: change(), held };
    } catch (error) {
      this.release(held); // whatever it applied before throwing is journalled as usual
      throw error;
    } finally {
      this.held = null;
    }
  }

  /** Sends held appends with the next group commit; resolves once they are durable. */
  release(held: HeldAppends): Promise<void> {
    let commit: Promise<void> = Promise.resolve();
    for (const update of held.updates) commit = this.enqueue(held.name, update);
    commit.then(held.commit.resolve, held.commit.reject);
    return held.commit.promise;
  }

  /** Inserts held appends in the caller's transaction. */
  async writeHeld(client: Client, held: HeldAppends): Promise<void> {
    if (held.updates.length === 0) return;
    await client.query('INSERT INTO journal (name, data) SELECT $1, unnest($2::bytea[])', [
      held.name,
      held.updates.map(asBuffer),
    ]);
  }

  /** Tells the writers of held appends whether the transaction holding them committed. */
  settle(held: HeldAppends, error?: unknown): void {
    if (error === undefined) held.commit.resolve();
    else held.commit.reject(error);
    if (this.latest.get(held.name) === held.commit.promise) this.latest.delete(held.name);
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const rows = this.queue;
      const commit = this.next;
      if (!commit) throw new Error('journal: rows queued without a group commit to settle them');
      this.queue = [];
      this.next = null;
      try {
        await autocommit(this.pool, 'INSERT INTO journal (name, data) SELECT * FROM unnest($1::text[], $2::bytea[])', [
          rows.map((row) => row.name),
          rows.map((row) => asBuffer(row.update)),
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
      const merged = replayUpdates([...rows.map((row) => row.data), Y.encodeStateAsUpdate(doc)]);
      await client.query(
        'INSERT INTO documents (name, data) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET data = excluded.data',
        [name, merged],
      );
      // Exactly the rows merged: an insert still in flight may commit a lower seq than one read here.
      await client.query('DELETE FROM journal WHERE name = $1 AND seq = ANY($2::bigint[])', [
        name,
        journalled.map((row) => row.seq),
      ]);
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
