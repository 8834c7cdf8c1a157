/**
 * Reads back what every instance committed to PostgreSQL, per board, for the
 * catch-up while the relay is down. Two traps of the tables shape it. The
 * journal's seq is a sequence, so an insert still in flight can commit a seq
 * lower than one already read: rows are read again above a watermark that
 * trails by OVERLAP_MS, skipping those already returned. Compaction (on any
 * instance) folds rows into `documents` and deletes them, maybe before they
 * were read: a `documents` row whose version (its xmin) changed is returned whole.
 */
import type { BoardRecord } from '../../board/model/record.js';
import type { CommittedFeed } from '../board-store.js';
import { type RegistryRow, recordOf } from '../registry-row.js';
import { type Pool, query } from './database.js';

/** How long a journal insert may stay in flight and still be read: longer ones are caught by the next compaction. */
const OVERLAP_MS = 10_000;

/**
 * Where a board was read up to: its stored state's version ('' when it has
 * none), the seq below which every row was returned, the seqs above it
 * returned so far, and the highest seq read at each read (the watermark trails them).
 */
type Cursor = { version: string; low: bigint; returned: Set<bigint>; reads: { at: number; high: bigint }[] };

/** The stored state (when it changed) then the journal rows not yet returned, per asked board, in replay order. */
const SELECT_COMMITTED = `
  WITH asked AS (SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[]) AS a(name, version, low))
  SELECT d.name, NULL::bigint AS seq, d.xmin::text AS version, d.data
    FROM documents d JOIN asked a ON a.name = d.name
    WHERE a.version IS NULL OR d.xmin::text <> a.version
  UNION ALL
  SELECT j.name, j.seq, NULL, j.data
    FROM journal j JOIN asked a ON a.name = j.name
    WHERE j.seq > a.low AND NOT (j.seq = ANY($4::bigint[]))
  ORDER BY seq NULLS FIRST`;

/** A `documents` row carries its version and no seq, a journal row the other way round. */
type Row = { name: string; data: Buffer } & ({ seq: null; version: string } | { seq: string; version: null });

export class PgCommittedFeed implements CommittedFeed {
  private cursors = new Map<string, Cursor>();

  constructor(
    private readonly pool: Pool,
    private readonly now: () => number,
  ) {}

  async updates(boardIds: string[]): Promise<Map<string, Uint8Array[]>> {
    const kept = new Map<string, Cursor>();
    for (const id of boardIds) {
      const cursor = this.cursors.get(id);
      if (cursor) kept.set(id, cursor);
    }
    this.cursors = kept;
    const asked = [...new Set(boardIds)];
    const returned = [...kept.values()].flatMap((cursor) => [...cursor.returned].map(String));
    const { rows } = await query<Row>(this.pool, SELECT_COMMITTED, [
      asked,
      asked.map((id) => kept.get(id)?.version ?? null),
      asked.map((id) => String(kept.get(id)?.low ?? -1n)),
      returned,
    ]);
    const at = this.now();
    const updates = new Map<string, Uint8Array[]>(asked.map((id) => [id, []]));
    for (const id of asked)
      if (!kept.has(id)) this.cursors.set(id, { version: '', low: -1n, returned: new Set(), reads: [] });
    for (const row of rows) {
      const cursor = this.cursors.get(row.name);
      const into = updates.get(row.name);
      if (!cursor || !into) throw new Error(`committed feed: a row of ${row.name}, which was not asked for`);
      into.push(row.data);
      if (row.seq === null) cursor.version = row.version;
      else cursor.returned.add(BigInt(row.seq));
    }
    for (const cursor of this.cursors.values()) this.advance(cursor, at);
    return updates;
  }

  reset(): void {
    this.cursors.clear();
  }

  /** Moves the watermark up to the highest seq read OVERLAP_MS ago: no insert is in flight below it any more. */
  private advance(cursor: Cursor, at: number): void {
    let high = cursor.low;
    for (const seq of cursor.returned) if (seq > high) high = seq;
    cursor.reads.push({ at, high });
    while (cursor.reads.length > 0 && cursor.reads[0].at <= at - OVERLAP_MS) {
      cursor.low = cursor.reads[0].high;
      cursor.reads.shift();
    }
    for (const seq of cursor.returned) if (seq <= cursor.low) cursor.returned.delete(seq);
  }

  async records(boardIds: string[]): Promise<Map<string, BoardRecord>> {
    const { rows } = await query<RegistryRow>(this.pool, 'SELECT * FROM boards WHERE id = ANY($1::text[])', [boardIds]);
    return new Map(rows.map((row) => [row.id, recordOf(row)]));
  }
}
