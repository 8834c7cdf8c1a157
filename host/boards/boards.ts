/**
 * The board domain's entry point for every surface: admitting callers,
 * reading boards and writing them. Each call first admits its caller (token
 * tier, rate limit, lock), then a write runs the given domain mutation as one
 * Y transaction with a typed origin, in one unit of the store with its journal
 * entry, registry changes and, when it was sent with an idempotency key, its
 * answer (idempotency.ts), so it is durable when this returns. Creation,
 * erasure, locks and the board's representations are modules of their own
 * beside this one; the methods here that name them hand over to them.
 */
import type { Document } from '@hocuspocus/server';
import { boardMaps } from '../../board/model/document-model.js';
import { errors } from '../../board/model/errors.js';
import type { BoardRecord } from '../../board/model/record.js';
import { type BoardOrigin, type BoardWrite, DEFAULT_AUTHORS } from '../../board/mutations/board-write.js';
import type { BoardPageArgs } from '../../board/reads/board-pages.js';
import { knownEtag } from '../../board/reads/snapshot.js';
import type { TaskQuery } from '../../board/reads/task-query.js';
import { itemSize } from '../../board/render/item-layout.js';
import { isViewToken, type LockMode, type WaitResult } from '../../schema/index.js';
import type { Caller, KeyHolder } from '../access/access.js';
import { BoardHistory } from '../history/board-history.js';
import type { PreviewPool } from '../previews/preview-pool.js';
import type { BoardCore, BoardsDeps } from './board-core.js';
import { BoardCreation, type CreateBoard, type CreatedBoard } from './creation.js';
import { layOutDiagrams, sizeNoting } from './diagram-layout.js';
import { BoardErasure } from './erasure.js';
import { type AnswerTx, type IdempotentRequest, IdempotentWrites, type Unit } from './idempotency.js';
import { BoardLocks } from './locks.js';
import { BoardRepresentations } from './representations.js';
import { commit, stage } from './transact.js';
import { BoardViewLinks } from './view-links.js';

export type { CreateBoard, CreatedBoard } from './creation.js';
export type { BrowserSnapshot } from './representations.js';

/** A write staged: its result to commit, or the diagrams it met that no thread has laid out yet (nothing committed). */
type Attempt<T> = { result: T } | { diagrams: string[] };

export class Boards implements BoardCore {
  /** The board's versions, changes and restore (history.md), for every surface. */
  readonly history: BoardHistory;
  /** Writes sent with an idempotency key, run once per key (idempotency.ts). */
  readonly idempotent: IdempotentWrites;
  private readonly creation: BoardCreation;
  private readonly erasure: BoardErasure;
  private readonly locks: BoardLocks;
  private readonly representations: BoardRepresentations;
  /** The board's view-only links (view-links.ts). */
  readonly viewLinks: BoardViewLinks;

  constructor(private readonly deps: BoardsDeps) {
    this.history = new BoardHistory({
      boards: this,
      store: deps.store,
      host: deps.host,
      recorder: deps.recorder,
      previews: deps.previews,
    });
    this.idempotent = new IdempotentWrites(deps.store, deps.now);
    this.creation = new BoardCreation(this, deps);
    this.erasure = new BoardErasure(this, deps);
    this.locks = new BoardLocks(this, deps);
    this.representations = new BoardRepresentations(this, deps);
    this.viewLinks = new BoardViewLinks(this, deps);
  }

  /**
   * Runs a write on a board once per idempotency key: the board's rate limit
   * first (a replay is a request too), then the stored answer if there is
   * one, else the write, which commits in `unit` and so stores its answer
   * with its change. A write without a key runs as it is.
   */
  keyed<T>(
    boardId: string,
    caller: Caller,
    retry: IdempotentRequest | undefined,
    run: (caller: Caller, unit: Unit<T>) => Promise<T>,
  ): Promise<T> {
    // Every write comes through here: a view token is refused before anything is counted or stored.
    if (isViewToken(boardId)) return this.boardOf(boardId, 'write') as Promise<never>;
    if (!retry) return run(caller, this.idempotent.plain as Unit<T>);
    try {
      this.deps.access.admitBoardRequest(boardId, caller);
    } catch (error) {
      return Promise.reject(error); // a refusal is the promise's, as from any other write
    }
    return this.idempotent.once<T>(boardId, retry, (unit) => run({ ...caller, admitted: true }, unit));
  }

  /**
   * keyed for a write that commits in steps of its own (a restore): its
   * answer is stored right after it, in a unit of its own.
   */
  once<T>(
    boardId: string,
    caller: Caller,
    retry: IdempotentRequest | undefined,
    run: (caller: Caller) => Promise<T>,
  ): Promise<T> {
    return this.keyed<T>(boardId, caller, retry, async (admitted, unit) => {
      const result = await run(admitted);
      // The change is stored whatever happens now: its answer stays true even if a retry cannot replay it.
      if (retry) await unit(boardId, (tx) => tx.answer(result)).catch(() => {});
      return result;
    });
  }

  /** Counts a request against its board's rate limit; the REST edge calls it before reading a body. */
  admitRequest(boardId: string, caller: Caller): void {
    this.deps.access.admitBoardRequest(boardId, caller);
  }

  /** A board that exists and is not erased, or 404 (which says nothing of any lock). */
  async requireLive(boardId: string): Promise<BoardRecord> {
    return live(await this.deps.store.registry.get(boardId));
  }

  /**
   * The board a reference names: a board id as it is, or the board of a live
   * view token (docs/sharing.md), which may only read: 404 for a token that
   * names nothing (never made, or revoked), 403 read_only_link for a write.
   */
  async boardOf(ref: string, access: 'read' | 'write'): Promise<string> {
    if (!isViewToken(ref)) return ref;
    const link = await this.viewLinks.find(ref);
    if (!link) throw errors.boardNotFound();
    if (access === 'write') throw errors.readOnlyLink();
    return link.boardId;
  }

  /**
   * Admits a caller to a board its id or a view token names: token tier and
   * rate limit (the board's, whichever names it), existence, then the lock.
   * The record is the board's own: what is stored is found by `record.id`,
   * while what is shown names the board as the caller did. Public for the
   * domain's siblings (board history) that read no document.
   */
  async admit(ref: string, caller: Caller, access: 'read' | 'write'): Promise<BoardRecord> {
    const boardId = await this.boardOf(ref, access);
    this.deps.access.admitBoardRequest(boardId, caller);
    const record = live(await this.deps.store.registry.get(boardId));
    this.deps.access.requireAccess(record, access, caller);
    return record;
  }

  /**
   * Applies a domain mutation to a live board and returns its result once the
   * change is durable. Items the mutation creates without an author of their
   * own get the caller's, else the surface's default. A Mermaid diagram the
   * write sizes that no thread has laid out yet is laid out in the preview
   * threads first, as a step of the write (diagram-layout.ts).
   */
  write<T>(boardId: string, caller: Caller, mutate: (w: BoardWrite) => T, retry?: IdempotentRequest): Promise<T> {
    return this.keyed<T>(boardId, caller, retry, async (admitted, unit) => {
      const origin: BoardOrigin = {
        source: admitted.surface,
        author: admitted.author ?? DEFAULT_AUTHORS[admitted.surface],
      };
      await this.admit(boardId, admitted, 'write');
      const attempt = (layOutHere: boolean) =>
        this.deps.host.use(boardId, async (doc, waited) => {
          // Checked again in the step that commits: the board may have been erased or locked since, or while it loaded.
          const record = waited ? await this.requireLive(boardId) : live(this.deps.store.registry.peek(boardId));
          this.deps.access.requireAccess(record, 'write', admitted);
          return unit(boardId, (tx): Attempt<T> => {
            const missing = new Set<string>();
            const staged = stage(doc, record, origin, mutate, {
              blobs: this.deps.store.blobs,
              now: this.deps.now(),
              textSize: layOutHere ? itemSize : sizeNoting(missing),
            });
            if (missing.size > 0) return { diagrams: [...missing] }; // nothing staged is committed
            return { result: commit(tx, doc, record, origin, staged) };
          });
        });
      const first = await attempt(false);
      if ('result' in first) return first.result;
      await layOutDiagrams(this.deps.previews, first.diagrams);
      // Laid out now; one still missing (a cache evicted meanwhile) is laid out here rather than asked for again.
      const second = await attempt(true);
      if ('result' in second) return second.result;
      throw errors.internal(); // a write that may lay out its diagrams itself always commits
    });
  }

  /**
   * Runs a mutation against staged maps, then commits all it changed in one Y
   * transaction (transact.ts), its answer staged in `tx` before it: a
   * mutation that throws at any point leaves the document as it was.
   */
  transact<T>(
    tx: AnswerTx<T>,
    doc: Document,
    record: BoardRecord,
    origin: BoardOrigin,
    mutate: (w: BoardWrite) => T,
  ): T {
    const context = { blobs: this.deps.store.blobs, now: this.deps.now(), textSize: itemSize };
    return commit(tx, doc, record, origin, stage(doc, record, origin, mutate, context));
  }

  /**
   * Runs a read against the live board's document. With `payloads`, the
   * board's image payloads are at hand for `blobs.get` in the view.
   */
  async read<T>(
    ref: string,
    caller: Caller,
    view: (doc: Document, record: BoardRecord) => T,
    payloads = false,
  ): Promise<T> {
    const admitted = await this.admit(ref, caller, 'read');
    const boardId = admitted.id;
    return this.deps.host.use(boardId, async (doc, waited) => {
      const record = waited ? await this.requireLive(boardId) : admitted;
      if (payloads)
        await this.deps.store.blobs.load(
          boardId,
          [...boardMaps(doc).images.values()].map((image) => image.blob),
        );
      // The view names the board as the caller did (a view token stays the token); the document is the board's.
      const result = view(doc, ref === boardId ? record : { ...record, id: ref });
      // A view that took the state's ETag may hand it out: it must stay a starting point for changes.
      if (knownEtag(doc) !== undefined) this.deps.recorder.handedOut(boardId, doc);
      return result;
    });
  }

  /**
   * The long poll: resolves after the board's next settled burst of edits, or
   * on timeout, with the ETag of the state then. A board erased meanwhile
   * answers at once with `deleted: true`. With `sinceEtag`, a board whose
   * state is no longer that one answers at once.
   */
  async wait(
    ref: string,
    caller: Caller,
    timeoutMs: number,
    signal?: AbortSignal,
    sinceEtag?: string,
  ): Promise<WaitResult> {
    const boardId = (await this.admit(ref, caller, 'read')).id;
    if (sinceEtag !== undefined) {
      // The board already moved past what the caller saw: nothing to wait for (an edit between two waits is not missed).
      const etag = await this.deps.host.use(boardId, (doc) => this.deps.recorder.handedOut(boardId, doc));
      if (etag !== sinceEtag) return { boardId: ref, updated: true, timedOut: false, etag };
    }
    const revoked = isViewToken(ref) ? this.whenRevoked(ref, boardId) : undefined;
    const { updated, timedOut } = await this.deps.events
      .nextUpdate(boardId, timeoutMs, revoked ? AbortSignal.any([revoked.signal, ...(signal ? [signal] : [])]) : signal)
      .finally(() => revoked?.stop());
    if (revoked) await this.boardOf(ref, 'read'); // a link revoked while it waited answers 404
    const record = await this.deps.store.registry.get(boardId);
    if (!record || record.deletedAt) return { boardId: ref, updated: true, timedOut: false, etag: null, deleted: true };
    const etag = await this.deps.host.use(boardId, (doc) => this.deps.recorder.handedOut(boardId, doc));
    return { boardId: ref, updated, timedOut, etag };
  }

  /** A signal aborted once the view token no longer names the board (its link revoked): told by the board's lock changes. */
  private whenRevoked(token: string, boardId: string): { signal: AbortSignal; stop: () => void } {
    const revoked = new AbortController();
    const stop = this.deps.events.watch(boardId, (heard) => {
      if (heard !== 'lockChanged') return;
      void this.viewLinks.find(token).then(
        (link) => link || revoked.abort(),
        () => {},
      );
    });
    return { signal: revoked.signal, stop };
  }

  /** The threads that draw previews: get_preview's PNG is rendered there too. */
  get previews(): PreviewPool {
    return this.deps.previews;
  }

  // Creation (creation.ts).
  create(input: CreateBoard, caller: Caller, retry?: IdempotentRequest): Promise<CreatedBoard> {
    return this.creation.create(input, caller, retry);
  }
  open(boardId: string, caller: Caller) {
    return this.creation.open(boardId, caller);
  }

  // Erasure (erasure.ts).
  erase(boardId: string, caller: Caller, retry?: IdempotentRequest) {
    return this.erasure.erase(boardId, caller, retry);
  }

  // Locks (locks.ts).
  lock(boardId: string, caller: Caller, mode: LockMode, retry?: IdempotentRequest) {
    return this.locks.lock(boardId, caller, mode, retry);
  }
  unlock(boardId: string, caller: Caller, retry?: IdempotentRequest) {
    return this.locks.unlock(boardId, caller, retry);
  }
  verifyKey(boardId: string, caller: Caller, key: string) {
    return this.locks.verifyKey(boardId, caller, key);
  }
  admitSocket(boardId: string, caller: Caller) {
    return this.locks.admitSocket(boardId, caller);
  }
  socketReadOnly(record: BoardRecord, holder: KeyHolder): boolean {
    return this.locks.socketReadOnly(record, holder);
  }

  // Representations (representations.ts).
  preview(boardId: string, caller: Caller, options: { frame?: string } = {}) {
    return this.representations.preview(boardId, caller, options);
  }
  browserSnapshot(boardId: string, caller: Caller) {
    return this.representations.browserSnapshot(boardId, caller);
  }
  meta(boardId: string, caller: Caller) {
    return this.representations.meta(boardId, caller);
  }
  imageData(boardId: string, imageId: string, caller: Caller) {
    return this.representations.imageData(boardId, imageId, caller);
  }
  fullSnapshot(boardId: string, caller: Caller) {
    return this.representations.fullSnapshot(boardId, caller);
  }
  queryTasks(boardId: string, caller: Caller, query: TaskQuery & { cursor?: string }) {
    return this.representations.queryTasks(boardId, caller, query);
  }
  board(boardId: string, caller: Caller, args: BoardPageArgs & { detail?: 'full' | 'outline' }) {
    return this.representations.board(boardId, caller, args);
  }
}

/** The record of a board that exists and is not erased, or 404 (which says nothing of any lock). */
function live(record: BoardRecord | null): BoardRecord {
  if (!record || record.deletedAt) throw errors.boardNotFound();
  return record;
}
