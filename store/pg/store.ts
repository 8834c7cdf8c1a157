/**
 * The shared setup's store: PostgreSQL behind every instance. A change's Y
 * transaction runs synchronously; its updates join the journal's next group
 * commit, unless it also staged registry writes: then both are committed in
 * one transaction, as SQLite does, so a board's row and its document never
 * disagree (an idempotent write's answer takes the same path). Either way a
 * 2xx means everything it did is stored.
 */
import * as Y from 'yjs';
import { errors } from '../../board/model/errors.js';
import { type BoardRecord, sqlTimestamp } from '../../board/model/record.js';
import type { BoardMode } from '../../schema/index.js';
import type { BoardStore, Lock, StoreTx } from '../board-store.js';
import { insertAnswer, PgAnswers } from './answers.js';
import { PgBlobs } from './blobs.js';
import { PgCommittedFeed } from './committed-feed.js';
import { type Client, openPool, type Pool, transaction } from './database.js';
import { deleteDocumentRows, PgJournal } from './journal.js';
import { PgRegistry, SWAP_LOCK } from './registry.js';
import { deleteVersionRows, PgVersions } from './version-store.js';
import { PgViewLinks } from './view-links.js';

type Step = (client: Client) => Promise<unknown>;

const REVIVE =
  'UPDATE boards SET mode = $1, created_at = $2, deleted_at = NULL, lock_mode = NULL, key_hash = NULL, lock_version = lock_version + 1 WHERE id = $3 AND deleted_at IS NOT NULL';
const TOMBSTONE =
  'UPDATE boards SET deleted_at = $1, lock_mode = NULL, key_hash = NULL, lock_version = lock_version + 1 WHERE id = $2';
const UPSERT_STATE =
  'INSERT INTO documents (name, data) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET data = excluded.data';

export class PgStore implements BoardStore {
  readonly registry: PgRegistry;
  readonly documents: PgJournal;
  readonly blobs: PgBlobs;
  readonly history: PgVersions;
  readonly answers: PgAnswers;
  readonly viewLinks: PgViewLinks;
  readonly committed: PgCommittedFeed;
  /** Told of every board whose registry row a change committed (other instances must read it again). */
  recordChanged: (boardId: string) => void = () => {};

  private constructor(
    readonly pool: Pool,
    private readonly now: () => number,
  ) {
    this.registry = new PgRegistry(pool);
    this.documents = new PgJournal(pool);
    this.blobs = new PgBlobs(pool);
    this.history = new PgVersions(pool);
    this.answers = new PgAnswers(pool);
    this.viewLinks = new PgViewLinks(pool);
    this.committed = new PgCommittedFeed(pool, now);
  }

  static async open(url: string, poolSize: number, now: () => number): Promise<PgStore> {
    return new PgStore(await openPool(url, poolSize), now);
  }

  async atomically<T>(boardId: string, change: (tx: StoreTx) => T): Promise<T> {
    const steps: Step[] = [];
    const touched = new Set<string>();
    // What the change builds on must be stored before it is: a change on top of a refused one is refused too.
    const earlier = this.documents.pending(boardId);
    const { result, held } = this.documents.hold(boardId, () => change(this.stagedTx(steps, touched)));
    if (steps.length === 0) {
      // A content change alone joins the journal's group commit.
      await Promise.all([earlier, this.documents.release(held), this.blobs.pending(boardId)]);
      return result;
    }
    // Payloads before the rows that reference them; the journal and the registry in one transaction.
    try {
      await earlier;
      await this.blobs.pending(boardId);
      await transaction(this.pool, async (client) => {
        await this.documents.writeHeld(client, held);
        for (const step of steps) await step(client);
      });
      this.documents.settle(held);
    } catch (error) {
      this.documents.settle(held, error);
      throw error;
    }
    for (const id of touched) {
      await this.registry.refresh(id);
      this.recordChanged(id);
    }
    return result;
  }

  private stagedTx(steps: Step[], touched: Set<string>): StoreTx {
    const timestamp = () => sqlTimestamp(this.now());
    const stage = (id: string, step: Step) => {
      touched.add(id);
      steps.push(step);
    };
    const fresh = (id: string, mode: BoardMode, createdAt: string, lock?: Lock): BoardRecord => ({
      id,
      mode,
      createdAt,
      deletedAt: null,
      lockMode: lock?.mode ?? null,
      keyHash: lock?.keyHash ?? null,
      lockVersion: 0,
    });
    return {
      // An answer is no registry change: it takes the transaction path (as the change's unit) but touches no record.
      rememberAnswer: (answer) => {
        const createdMs = this.now();
        steps.push((c) => insertAnswer(c, answer, createdMs));
      },
      createBoard: (id, mode, lock) => {
        const createdAt = timestamp();
        stage(id, (c) =>
          c.query('INSERT INTO boards (id, mode, created_at, lock_mode, key_hash) VALUES ($1, $2, $3, $4, $5)', [
            id,
            mode,
            createdAt,
            lock?.mode ?? null,
            lock?.keyHash ?? null,
          ]),
        );
        return fresh(id, mode, createdAt, lock);
      },
      reviveBoard: (id, mode) => {
        const createdAt = timestamp();
        stage(id, (c) => c.query(REVIVE, [mode, createdAt, id]));
        return fresh(id, mode, createdAt);
      },
      setMode: (id, mode) => stage(id, (c) => c.query('UPDATE boards SET mode = $1 WHERE id = $2', [mode, id])),
      swapLock: (id, lock, expectedVersion) =>
        stage(id, async (c) => {
          const { rowCount } = await c.query(SWAP_LOCK, [
            lock?.mode ?? null,
            lock?.keyHash ?? null,
            id,
            expectedVersion,
          ]);
          if (rowCount !== 1) throw errors.lockConflict();
        }),
      tombstone: (id) => {
        const deletedAt = timestamp();
        stage(id, (c) => c.query(TOMBSTONE, [deletedAt, id]));
      },
      eraseDocument: (id) => {
        this.blobs.forget(id);
        stage(id, async (c) => {
          await deleteDocumentRows(c, id);
          await c.query('DELETE FROM image_blobs WHERE board_id = $1', [id]);
          await deleteVersionRows(c, id);
          await c.query('DELETE FROM view_links WHERE board_id = $1', [id]);
        });
      },
      replaceDocument: (id, doc) => {
        const state = Y.encodeStateAsUpdate(doc); // now: the document goes on changing
        stage(id, async (c) => {
          await c.query(UPSERT_STATE, [id, state]);
          await c.query('DELETE FROM journal WHERE name = $1', [id]);
        });
      },
    };
  }

  /** A trivial query through the pool; the caller bounds how long it waits. */
  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  /** The pool's connections, for the metrics: open, idle, and requests waiting for one. */
  poolFigures(): { total: number; idle: number; waiting: number } {
    return { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount };
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
