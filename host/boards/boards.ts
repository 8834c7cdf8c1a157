/**
 * The board domain's entry point for every surface: creating, reading, writing,
 * locking and erasing boards. Each call first admits its caller (token tier,
 * rate limit, lock), then a write runs the given domain mutation as one Y
 * transaction with a typed origin, in one unit of the store with its journal
 * entry and registry changes, so it is durable when this returns. A write
 * sent with an idempotency key runs once per key (idempotency.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Document } from '@hocuspocus/server';
import { type BoardMode, type LockMode, READ_PAGE_MAX_BYTES, type Template } from '../../schema/index.js';
import type { Access, Caller, KeyHolder } from '../access/access.js';
import { type BoardOrigin, type BoardWrite, DEFAULT_AUTHORS } from '../../board/mutations/board-write.js';
import type { DocumentHost } from '../documents/document-host.js';
import { boardMaps, CONTENT_MAPS, commitMaps, stagedMaps } from '../../board/model/document-model.js';
import { errors, keyStateOf } from '../../board/model/errors.js';
import { itemSize } from '../../board/render/item-layout.js';
import { anchoredDiagrams, applyImport, type ImportResult, planImport } from '../../board/import/import.js';
import { generateKey, hashKey, hashKeyAsync } from '../access/keys.js';
import { type BoardRecord, tombstoneIsFresh } from '../../board/model/record.js';
import type { BoardEvents } from '../events/board-events.js';
import { BoardHistory } from '../history/board-history.js';
import type { HistoryRecorder } from '../history/history-recorder.js';
import type { PreviewPool } from '../previews/preview-pool.js';
import { DiagramsToLayOut, layOutDiagrams, sizeNoting } from './diagram-layout.js';
import { drawView, etagOf, knownEtag, todoView } from '../../board/reads/snapshot.js';
import { queryTasks, type TaskQuery } from '../../board/reads/task-query.js';
import { type BoardPageArgs, boardPage, matchedTasksPage } from '../../board/reads/board-pages.js';
import { boardOutline } from '../../board/reads/outline.js';
import type { BoardStore, Lock, StoreTx } from '../../store/board-store.js';
import { type DrawSeed, seedDiagram, seedTemplate } from '../../board/mutations/templates.js';
import { setBoardTitle, titleEntry } from '../../board/model/title.js';
import { CREATE_SCOPE, type IdempotentRequest, IdempotentWrites, type Remember } from './idempotency.js';

export type CreateBoard = {
  mode: BoardMode;
  template?: Template;
  /** The board's title (trimmed by the schema; "" is none). */
  title?: string;
  /** Author of imported items that carry none of their own (default `ai:import`). */
  author?: string;
  /** A draw board's example diagram (`GET /draw?seed=`), written by the server. */
  seed?: DrawSeed;
  /** Import content: validated whole before anything is created. */
  content?: unknown;
  autolayout?: boolean;
  /** Lock the board at creation; its key is returned once as `access_key`. */
  lock?: LockMode;
};

export type CreatedBoard = { id: string; mode: BoardMode; access_key?: string } & Partial<ImportResult>;

export type BrowserSnapshot = ReturnType<typeof drawView> | { deleted: true; deleted_at: string };

type Deps = {
  store: BoardStore;
  host: DocumentHost;
  access: Access;
  events: BoardEvents;
  recorder: HistoryRecorder;
  /** The threads that draw previews (SVG, PNG) off the event loop. */
  previews: PreviewPool;
  now: () => number;
};

/** Which diagrams a write may size: only those laid out already (in a preview thread), or any, laying it out here. */
type Sizes = 'laid-out' | 'any';

export type WaitResult = { boardId: string; updated: boolean; timedOut: boolean; etag: string | null; deleted?: true };

export class Boards {
  /** The board's versions, changes and restore (history.md), for every surface. */
  readonly history: BoardHistory;
  /** Writes sent with an idempotency key, run once per key (idempotency.ts). */
  readonly idempotent: IdempotentWrites;

  constructor(private readonly deps: Deps) {
    this.history = new BoardHistory({
      boards: this,
      store: deps.store,
      host: deps.host,
      recorder: deps.recorder,
      previews: deps.previews,
    });
    this.idempotent = new IdempotentWrites(deps.store, deps.now);
  }

  /**
   * Runs a write on a board once per idempotency key: the board's rate limit
   * first (a replay is a request too), then the stored answer if there is
   * one, else the write, which stores its answer with its change. A write
   * without a key runs as it is.
   */
  private keyed<T>(
    boardId: string,
    caller: Caller,
    retry: IdempotentRequest | undefined,
    run: (caller: Caller, remember?: Remember<T>) => Promise<T>,
  ): Promise<T> {
    if (!retry) return run(caller);
    try {
      this.deps.access.admitBoardRequest(boardId, caller);
    } catch (error) {
      return Promise.reject(error); // a refusal is the promise's, as from any other write
    }
    return this.idempotent.once(boardId, retry, (remember) => run({ ...caller, admitted: true }, remember));
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
    return this.keyed(boardId, caller, retry, async (admitted, remember) => {
      const result = await run(admitted);
      // The change is stored whatever happens now: its answer stays true even if a retry cannot replay it.
      if (remember) await this.deps.store.atomically(boardId, (tx) => remember(tx, result)).catch(() => {});
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
   * Admits a caller to a board: token tier and rate limit, existence, then the
   * lock. Public for the domain's siblings (board history) that read no document.
   */
  async admit(boardId: string, caller: Caller, access: 'read' | 'write'): Promise<BoardRecord> {
    this.deps.access.admitBoardRequest(boardId, caller);
    const record = live(await this.deps.store.registry.get(boardId));
    this.deps.access.requireAccess(record, access, caller);
    return record;
  }

  /**
   * Creates a board: a todo board starts with its template's columns, and
   * import content is validated whole first, so an invalid item or an
   * exceeded quota creates nothing, not even the board.
   */
  create(input: CreateBoard, caller: Caller, retry?: IdempotentRequest): Promise<CreatedBoard> {
    return this.idempotent.once(CREATE_SCOPE, retry, async (remember) => {
      const refund = this.deps.access.admitCreate(caller);
      try {
        return await this.createBoard(input, remember);
      } catch (error) {
        refund(); // only created boards count against the creation budget
        throw error;
      }
    });
  }

  private async createBoard(input: CreateBoard, remember?: Remember<CreatedBoard>): Promise<CreatedBoard> {
    const plan = input.content === undefined ? undefined : planImport({ ...input, content: input.content });
    const diagrams = plan ? anchoredDiagrams(plan) : [];
    if (diagrams.length > 0) await layOutDiagrams(this.deps.previews, diagrams);
    const id = randomUUID();
    const key = input.lock ? generateKey() : undefined;
    const lock = input.lock && { mode: input.lock, keyHash: hashKey(key!) };
    const created = { id, mode: input.mode, ...(key && { access_key: key }) };
    const { store } = this.deps;
    if (!plan && input.mode === 'draw' && !input.title && !input.seed) {
      await store.atomically(id, (tx) => {
        tx.createBoard(id, 'draw', lock);
        remember?.(tx, created);
      });
      return created;
    }
    const origin: BoardOrigin = plan
      ? { source: 'import', author: input.author ?? DEFAULT_AUTHORS.import }
      : { source: 'system', author: DEFAULT_AUTHORS.system };
    const imported = await this.deps.host.use(id, (doc) =>
      store.atomically(id, (tx) => {
        const record = tx.createBoard(id, input.mode, lock);
        return this.transact(
          tx,
          doc,
          record,
          origin,
          (w) => {
            w.maps.meta.set('mode', input.mode); // the document mirrors the registry's mode for its clients
            if (input.title) setBoardTitle(w, input.title);
            if (plan) return applyImport(w, plan);
            if (input.seed) seedDiagram(w, input.seed);
            if (input.mode === 'todo') seedTemplate(w, input.template ?? 'kanban');
            return undefined;
          },
          remember && ((staged, imported) => remember(staged, { ...created, ...imported })),
        );
      }),
    );
    return { ...created, ...imported };
  }

  /**
   * Applies a domain mutation to a live board and returns its result once the
   * change is durable. Items the mutation creates without an author of their
   * own get the caller's, else the surface's default.
   */
  write<T>(boardId: string, caller: Caller, mutate: (w: BoardWrite) => T, retry?: IdempotentRequest): Promise<T> {
    if (!retry) return this.writeOnce(boardId, caller, mutate); // the common case: not one step more
    return this.keyed(boardId, caller, retry, (admitted, remember) =>
      this.writeOnce(boardId, admitted, mutate, remember),
    );
  }

  private async writeOnce<T>(
    boardId: string,
    caller: Caller,
    mutate: (w: BoardWrite) => T,
    remember?: Remember<T>,
  ): Promise<T> {
    const origin: BoardOrigin = { source: caller.surface, author: caller.author ?? DEFAULT_AUTHORS[caller.surface] };
    await this.admit(boardId, caller, 'write');
    const attempt = (sizes: Sizes) =>
      this.deps.host.use(boardId, async (doc, waited) => {
        // Checked again in the step that commits: the board may have been erased or locked since, or while it loaded.
        const record = waited ? await this.requireLive(boardId) : live(this.deps.store.registry.peek(boardId));
        this.deps.access.requireAccess(record, 'write', caller);
        return this.deps.store.atomically(boardId, (tx) =>
          this.transact(tx, doc, record, origin, mutate, remember, sizes),
        );
      });
    try {
      return await attempt('laid-out');
    } catch (error) {
      if (!(error instanceof DiagramsToLayOut)) throw error;
      await layOutDiagrams(this.deps.previews, error.sources);
      // Laid out now; one still missing (a cache evicted meanwhile) is laid out here rather than asked for again.
      return attempt('any');
    }
  }

  /**
   * Runs a read against the live board's document. With `payloads`, the
   * board's image payloads are at hand for `blobs.get` in the view.
   */
  async read<T>(
    boardId: string,
    caller: Caller,
    view: (doc: Document, record: BoardRecord) => T,
    payloads = false,
  ): Promise<T> {
    const admitted = await this.admit(boardId, caller, 'read');
    return this.deps.host.use(boardId, async (doc, waited) => {
      const record = waited ? await this.requireLive(boardId) : admitted;
      if (payloads)
        await this.deps.store.blobs.load(
          boardId,
          [...boardMaps(doc).images.values()].map((image) => image.blob),
        );
      const result = view(doc, record);
      // A view that took the state's ETag may hand it out: it must stay a starting point for changes.
      if (knownEtag(doc) !== undefined) this.deps.recorder.handedOut(boardId, doc);
      return result;
    });
  }

  /** The board's schematic SVG preview with its ETag (`/svg-preview`, get_preview, `preview.svg`), drawn in the preview pool. */
  async preview(boardId: string, caller: Caller): Promise<{ etag: string; svg: string }> {
    const { etag, svg } = await this.read(boardId, caller, (doc, record) => ({
      etag: etagOf(doc),
      svg: this.deps.previews.svg(doc, record.mode),
    }));
    return { etag, svg: await svg };
  }

  /** The threads that draw previews: get_preview's PNG is rendered there too. */
  get previews(): PreviewPool {
    return this.deps.previews;
  }

  /** `GET /api/boards/{id}`: the browser snapshot with full image payloads, or the deleted marker for 30 days. */
  async browserSnapshot(boardId: string, caller: Caller): Promise<BrowserSnapshot> {
    const record = await this.deps.store.registry.get(boardId);
    if (record?.deletedAt && tombstoneIsFresh(record, this.deps.now())) {
      this.deps.access.admitBoardRequest(boardId, caller);
      return { deleted: true, deleted_at: record.deletedAt };
    }
    return this.read(
      boardId,
      caller,
      (doc) => drawView(doc, (image) => this.deps.store.blobs.get(boardId, image.blob)),
      true,
    );
  }

  /** What a client needs before it opens a board: its mode, lock (`all`-locked boards need the key) and title when it has one. */
  async meta(
    boardId: string,
    caller: Caller,
  ): Promise<{ boardId: string; mode: BoardMode; title?: string; lockMode: LockMode | null; createdAt: string }> {
    return this.read(boardId, caller, (doc, record) => ({
      boardId,
      mode: record.mode,
      ...titleEntry(doc),
      lockMode: record.lockMode,
      createdAt: record.createdAt,
    }));
  }

  /** An image's payload, for clients that show it (the document holds only its hash). */
  async imageData(boardId: string, imageId: string, caller: Caller): Promise<{ dataUrl: string; etag: string }> {
    return this.read(
      boardId,
      caller,
      (doc) => {
        const image = boardMaps(doc).images.get(imageId);
        const dataUrl = image && this.deps.store.blobs.get(boardId, image.blob);
        if (!image || !dataUrl) throw errors.itemNotFound('image', imageId);
        return { dataUrl, etag: `"${image.blob.slice(0, 32)}"` };
      },
      true,
    );
  }

  /**
   * The JSON channel's snapshot: the `/json` snapshot with full image
   * payloads, and its ETag.
   */
  async fullSnapshot(boardId: string, caller: Caller): Promise<{ board: Record<string, unknown>; etag: string }> {
    return this.read(
      boardId,
      caller,
      (doc, record) => {
        const etag = etagOf(doc);
        const draw = drawView(doc, (image) => this.deps.store.blobs.get(boardId, image.blob));
        const board = {
          boardId,
          mode: record.mode,
          ...titleEntry(doc),
          etag,
          ...draw,
          ...(record.mode === 'todo' ? todoView(boardMaps(doc)) : {}),
        };
        return { board, etag };
      },
      true,
    );
  }

  /** Tombstones a board: its content, payloads, lock and stored state go; connected clients are closed. */
  erase(boardId: string, caller: Caller, retry?: IdempotentRequest): Promise<{ ok: true }> {
    return this.keyed(boardId, caller, retry, (admitted, remember) => this.eraseOnce(boardId, admitted, remember));
  }

  private async eraseOnce(boardId: string, caller: Caller, remember?: Remember<{ ok: true }>): Promise<{ ok: true }> {
    const { store, host } = this.deps;
    await this.admit(boardId, caller, 'write');
    await host.use(boardId, async (doc) => {
      const record = await this.requireLive(boardId);
      this.deps.access.requireAccess(record, 'write', caller);
      await store.atomically(boardId, (tx) => {
        tx.tombstone(boardId);
        remember?.(tx, { ok: true });
        this.transact(tx, doc, record, { source: 'system', author: DEFAULT_AUTHORS.system }, (w) => {
          for (const name of CONTENT_MAPS) w.maps[name].clear();
          w.maps.meta.clear(); // a reused id starts as a blank draw board
          w.counts = {};
        });
        tx.eraseDocument(boardId);
      });
    });
    host.closeConnections(boardId);
    this.deps.events.erased(boardId);
    return { ok: true };
  }

  /**
   * The long poll: resolves after the board's next settled burst of edits, or
   * on timeout, with the ETag of the state then. A board erased meanwhile
   * answers at once with `deleted: true`. With `sinceEtag`, a board whose
   * state is no longer that one answers at once.
   */
  async wait(
    boardId: string,
    caller: Caller,
    timeoutMs: number,
    signal?: AbortSignal,
    sinceEtag?: string,
  ): Promise<WaitResult> {
    await this.admit(boardId, caller, 'read');
    if (sinceEtag !== undefined) {
      // The board already moved past what the caller saw: nothing to wait for (an edit between two waits is not missed).
      const etag = await this.deps.host.use(boardId, (doc) => this.deps.recorder.handedOut(boardId, doc));
      if (etag !== sinceEtag) return { boardId, updated: true, timedOut: false, etag };
    }
    const { updated, timedOut } = await this.deps.events.nextUpdate(boardId, timeoutMs, signal);
    const record = await this.deps.store.registry.get(boardId);
    if (!record || record.deletedAt) return { boardId, updated: true, timedOut: false, etag: null, deleted: true };
    const etag = await this.deps.host.use(boardId, (doc) => this.deps.recorder.handedOut(boardId, doc));
    return { boardId, updated, timedOut, etag };
  }

  /**
   * query_tasks: the board's tasks that match every filter, in board order
   * ("overdue" is judged in UTC), in pages of READ_PAGE_MAX_BYTES. A draw board is wrong_mode, as for every
   * other todo operation: "no task matches" would be a wrong answer there.
   */
  async queryTasks(boardId: string, caller: Caller, query: TaskQuery & { cursor?: string }) {
    const today = new Date(this.deps.now()).toISOString().slice(0, 10);
    const { cursor, ...filters } = query;
    return this.read(boardId, caller, (doc, record) => {
      if (record.mode !== 'todo') throw errors.wrongMode('todo');
      const view = todoView(boardMaps(doc));
      const tasks = queryTasks(view.tasks, filters, today);
      return matchedTasksPage(tasks, view.columns, boardId, cursor, { budget: READ_PAGE_MAX_BYTES });
    });
  }

  /**
   * get_board: the snapshot in pages of READ_PAGE_MAX_BYTES (board-pages.ts), or
   * its outline, which counts the versions the board's history holds.
   */
  async board(boardId: string, caller: Caller, args: BoardPageArgs & { detail?: 'full' | 'outline' }) {
    if (args.detail !== 'outline')
      return this.read(boardId, caller, (doc, record) =>
        boardPage(doc, record.id, record.mode, args, { budget: READ_PAGE_MAX_BYTES }),
      );
    const outline = await this.read(boardId, caller, (doc, record) => boardOutline(doc, record.id, record.mode, 0));
    return { ...outline, versions: await this.deps.store.history.count(boardId) };
  }

  /**
   * Resolves a board id for MCP open_board: a live board is checked for read
   * access; an unknown id, or one whose tombstone is older than 30 days,
   * becomes a new empty draw board (a board creation, rate limited as such).
   */
  async open(boardId: string, caller: Caller): Promise<{ record: BoardRecord; created: boolean }> {
    const { store } = this.deps;
    const existing = await store.registry.get(boardId);
    if (existing && !existing.deletedAt) return { record: await this.admit(boardId, caller, 'read'), created: false };
    if (existing && tombstoneIsFresh(existing, this.deps.now())) throw errors.boardDeleted(existing.deletedAt!);
    const refund = this.deps.access.admitCreate(caller);
    try {
      await store.atomically(boardId, (tx) => {
        if (!existing) return tx.createBoard(boardId, 'draw');
        tx.eraseDocument(boardId);
        // The erased copy may still be loaded (its store is debounced): it is empty, but writes to the
        // reused id go to it and are journalled on top of its history, so that becomes the stored state.
        const loaded = this.deps.host.loaded(boardId);
        if (loaded) tx.replaceDocument(boardId, loaded);
        return tx.reviveBoard(boardId, 'draw');
      });
    } catch (error) {
      refund();
      throw error;
    }
    return { record: (await store.registry.get(boardId))!, created: true };
  }

  /**
   * Locks a board, or changes the mode of its lock. An unlocked board gets a
   * fresh key, returned once; a locked one needs its current key (else 403)
   * and keeps it. The swap fails with 409 if the lock changed meanwhile.
   */
  lock(boardId: string, caller: Caller, mode: LockMode, retry?: IdempotentRequest) {
    return this.keyed(boardId, caller, retry, (admitted, remember) => this.lockOnce(boardId, admitted, mode, remember));
  }

  private async lockOnce(
    boardId: string,
    caller: Caller,
    mode: LockMode,
    remember?: Remember<{ mode: LockMode; key?: string }>,
  ): Promise<{ mode: LockMode; key?: string }> {
    const record = await this.admitLockOperation(boardId, caller);
    if (record.lockMode) {
      if (!this.deps.access.checkKey(record, caller)) throw errors.invalidKey(keyStateOf(caller.key));
      return this.swapLock(record, { mode, keyHash: record.keyHash! }, { mode }, remember);
    }
    const key = generateKey();
    // Hashed off the main thread: another lock call may swap the row meanwhile, and then this one must not.
    const keyHash = await hashKeyAsync(key);
    return this.swapLock(record, { mode, keyHash }, { mode, key }, remember);
  }

  /**
   * Swaps a board's lock if nobody changed it since `record` was read (else
   * 409); with an idempotency key, in one unit with the answer.
   */
  private async swapLock<T>(record: BoardRecord, lock: Lock | null, answer: T, remember?: Remember<T>): Promise<T> {
    const { store } = this.deps;
    if (!remember) {
      if (!(await store.registry.setLock(record.id, lock, record.lockVersion))) throw errors.lockConflict();
    } else {
      await store.atomically(record.id, (tx) => {
        tx.swapLock(record.id, lock, record.lockVersion);
        remember(tx, answer);
      });
    }
    this.deps.events.lockChanged(record.id);
    return answer;
  }

  /**
   * Admits a socket to a board (the JSON channel before its upgrade, a Yjs
   * document when it authenticates): an `all` lock needs the key (401); a
   * `write` lock without it gives a read-only connection.
   */
  async admitSocket(boardId: string, caller: Caller): Promise<{ record: BoardRecord; readOnly: boolean }> {
    const record = await this.requireLive(boardId);
    return { record, readOnly: this.socketReadOnly(record, caller) };
  }

  /** Whether a socket whose client presents its key is read-only on a board as `record` stands; throws when it may not even read. */
  socketReadOnly(record: BoardRecord, holder: KeyHolder): boolean {
    this.deps.access.requireAccess(record, 'read', holder);
    return record.lockMode !== null && !this.deps.access.checkKey(record, holder);
  }

  /** Unlocks a board with its key (403 without); a no-op on an unlocked board. */
  unlock(boardId: string, caller: Caller, retry?: IdempotentRequest): Promise<{ mode: null }> {
    return this.keyed(boardId, caller, retry, (admitted, remember) => this.unlockOnce(boardId, admitted, remember));
  }

  private async unlockOnce(boardId: string, caller: Caller, remember?: Remember<{ mode: null }>) {
    const record = await this.admitLockOperation(boardId, caller);
    if (!record.lockMode) return { mode: null };
    if (!this.deps.access.checkKey(record, caller)) throw errors.invalidKey(keyStateOf(caller.key));
    return this.swapLock(record, null, { mode: null }, remember);
  }

  /** Whether a key opens a locked board; changes nothing (400 on an unlocked board). A wrong key spends the caller's budget like any other. */
  async verifyKey(boardId: string, caller: Caller, key: string): Promise<{ ok: boolean }> {
    const record = await this.admitLockOperation(boardId, caller);
    if (!record.lockMode) throw errors.boardNotLocked();
    return { ok: this.deps.access.checkKey(record, { ip: caller.ip, key }) };
  }

  private admitLockOperation(boardId: string, caller: Caller): Promise<BoardRecord> {
    this.deps.access.admitLockOperation(caller);
    this.deps.access.admitBoardRequest(boardId, caller);
    return this.requireLive(boardId);
  }

  /**
   * Runs a mutation against staged maps, then commits all it changed in one Y
   * transaction: a mutation that throws at any point leaves the document as it was.
   */
  private transact<T>(
    tx: StoreTx,
    doc: Document,
    record: BoardRecord,
    origin: BoardOrigin,
    mutate: (w: BoardWrite) => T,
    remember?: Remember<T>,
    sizes: Sizes = 'any',
  ): T {
    const missing = sizes === 'laid-out' ? new Set<string>() : undefined;
    const write: BoardWrite = {
      boardId: record.id,
      mode: record.mode,
      maps: stagedMaps(doc),
      blobs: this.deps.store.blobs,
      author: origin.author,
      now: new Date(this.deps.now()).toISOString(),
      newId: randomUUID,
      textSize: missing ? sizeNoting(missing) : itemSize,
      counts: {},
      authors: new Set(),
    };
    const result = mutate(write);
    if (missing?.size) throw new DiagramsToLayOut([...missing]); // nothing staged is committed
    if (write.mode !== record.mode) {
      // The registry is the authority; the document mirrors it so that Yjs clients see the switch.
      write.maps.meta.set('mode', write.mode);
      tx.setMode(record.id, write.mode);
    }
    remember?.(tx, result); // before the Y transaction: should the answer be refused, the document is untouched
    const authors = write.authors?.size ? { authors: [...write.authors] } : {};
    doc.transact(() => commitMaps(write.maps), { ...origin, ...authors });
    return result;
  }
}

/** The record of a board that exists and is not erased, or 404 (which says nothing of any lock). */
function live(record: BoardRecord | null): BoardRecord {
  if (!record || record.deletedAt) throw errors.boardNotFound();
  return record;
}
