/**
 * Creating boards: a new board (empty, from a template, seeded with an
 * example diagram, or imported), and MCP open_board's board made on first
 * use. Only created boards count against the caller's creation budget.
 */
import { randomUUID } from 'node:crypto';
import { anchoredDiagrams, applyImport, type ImportResult, planImport } from '../../board/import/import.js';
import { errors } from '../../board/model/errors.js';
import { type BoardRecord, tombstoneIsFresh } from '../../board/model/record.js';
import { setBoardTitle } from '../../board/model/title.js';
import { type BoardOrigin, DEFAULT_AUTHORS } from '../../board/mutations/board-write.js';
import { type DrawSeed, seedDiagram, seedTemplate } from '../../board/mutations/templates.js';
import { type BoardMode, isViewToken, type LockMode, type Template } from '../../schema/index.js';
import type { Caller } from '../access/access.js';
import { generateKey, hashKey } from '../access/keys.js';
import type { BoardCore, BoardsDeps } from './board-core.js';
import { layOutDiagrams } from './diagram-layout.js';
import { CREATE_SCOPE, type IdempotentRequest } from './idempotency.js';

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

export class BoardCreation {
  constructor(
    private readonly boards: BoardCore,
    private readonly deps: BoardsDeps,
  ) {}

  /**
   * Creates a board: a todo board starts with its template's columns, and
   * import content is validated whole first, so an invalid item or an
   * exceeded quota creates nothing, not even the board.
   */
  create(input: CreateBoard, caller: Caller, retry?: IdempotentRequest): Promise<CreatedBoard> {
    return this.boards.idempotent.once<CreatedBoard>(CREATE_SCOPE, retry, async (unit) => {
      const refund = this.deps.access.admitCreate(caller);
      try {
        const plan = input.content === undefined ? undefined : planImport({ ...input, content: input.content });
        const diagrams = plan ? anchoredDiagrams(plan) : [];
        if (diagrams.length > 0) await layOutDiagrams(this.deps.previews, diagrams);
        const id = randomUUID();
        const key = input.lock ? generateKey() : undefined;
        const lock = input.lock && key ? { mode: input.lock, keyHash: hashKey(key) } : undefined;
        const created: CreatedBoard = { id, mode: input.mode, ...(key && { access_key: key }) };
        if (!plan && input.mode === 'draw' && !input.title && !input.seed)
          return await unit(id, (tx) => {
            tx.createBoard(id, 'draw', lock);
            tx.answer(created);
            return created;
          });
        const origin: BoardOrigin = plan
          ? { source: 'import', author: input.author ?? DEFAULT_AUTHORS.import }
          : { source: 'system', author: DEFAULT_AUTHORS.system };
        return await this.deps.host.use(id, (doc) =>
          unit(id, (tx) => {
            const record = tx.createBoard(id, input.mode, lock);
            return this.boards.transact(tx, doc, record, origin, (w) => {
              w.maps.meta.set('mode', input.mode); // the document mirrors the registry's mode for its clients
              if (input.title) setBoardTitle(w, input.title);
              if (plan) return { ...created, ...applyImport(w, plan) };
              if (input.seed) seedDiagram(w, input.seed);
              if (input.mode === 'todo') seedTemplate(w, input.template ?? 'kanban');
              return created;
            });
          }),
        );
      } catch (error) {
        refund(); // only created boards count against the creation budget
        throw error;
      }
    });
  }

  /**
   * Resolves a board id for MCP open_board: a live board is checked for read
   * access; an unknown id, or one whose tombstone is older than 30 days,
   * becomes a new empty draw board (a board creation, rate limited as such).
   */
  async open(boardId: string, caller: Caller): Promise<{ record: BoardRecord; created: boolean }> {
    const { store } = this.deps;
    // A view token opens the board it names, read-only; it never creates one.
    if (isViewToken(boardId)) return { record: await this.boards.admit(boardId, caller, 'read'), created: false };
    const existing = await store.registry.get(boardId);
    if (existing && !existing.deletedAt)
      return { record: await this.boards.admit(boardId, caller, 'read'), created: false };
    if (existing?.deletedAt && tombstoneIsFresh(existing, this.deps.now()))
      throw errors.boardDeleted(existing.deletedAt);
    const refund = this.deps.access.admitCreate(caller);
    let made: BoardRecord;
    try {
      made = await store.atomically(boardId, (tx) => {
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
    return { record: (await store.registry.get(boardId)) ?? made, created: true };
  }
}
