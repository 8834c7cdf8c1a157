/**
 * The board domain's entry point for every surface: creating, reading, writing
 * and erasing boards. A write runs the given domain mutation as one Y
 * transaction with a typed origin, inside one SQLite transaction that also
 * holds its journal entry, so it is durable when this returns.
 */
import { randomUUID } from 'node:crypto';
import type { Document } from '@hocuspocus/server';
import type { BoardMode, Template } from '../schema/index.js';
import { type BoardOrigin, type BoardWrite, DEFAULT_AUTHORS, type Surface } from './board-write.js';
import type { DocumentHost } from './document-host.js';
import { boardMaps, CONTENT_MAPS } from './document-model.js';
import { errors } from './errors.js';
import type { BoardRecord, Registry } from './registry.js';
import { drawView } from './snapshot.js';
import type { BlobStore } from './store/blob-store.js';
import type { Db } from './store/database.js';
import type { DocumentStore } from './store/document-store.js';
import { applyImport, type ImportResult, planImport } from './import.js';
import { seedTemplate } from './templates.js';

export type CreateBoard = {
  mode: BoardMode;
  template?: Template;
  /** Author of imported items that carry none of their own (default `ai:import`). */
  author?: string;
  /** Import content: validated whole before anything is created. */
  content?: unknown;
  autolayout?: boolean;
  /** Lock-at-creation: accepted by the schema, not yet by the domain. */
  lock?: string;
};

export type CreatedBoard = { id: string; mode: BoardMode } & Partial<ImportResult>;

export type BrowserSnapshot =
  | ReturnType<typeof drawView>
  | { deleted: true; deleted_at: string };

type Deps = {
  db: Db;
  registry: Registry;
  documents: DocumentStore;
  blobs: BlobStore;
  host: DocumentHost;
  now: () => number;
};

export class Boards {
  constructor(private readonly deps: Deps) {}

  /** A board that exists and is not erased, or 404. */
  requireLive(boardId: string): BoardRecord {
    const record = this.deps.registry.get(boardId);
    if (!record || record.deletedAt) throw errors.boardNotFound();
    return record;
  }

  /**
   * Creates a board: a todo board starts with its template's columns, and
   * import content is validated whole first, so an invalid item or an
   * exceeded quota creates nothing, not even the board.
   */
  async create(input: CreateBoard): Promise<CreatedBoard> {
    if (input.lock !== undefined) throw errors.unsupported('lock', 'locking at creation is not available yet');
    const plan = input.content === undefined ? undefined : planImport({ ...input, content: input.content });
    const id = randomUUID();
    const { db, registry } = this.deps;
    if (!plan && input.mode === 'draw') {
      registry.create(id, 'draw');
      return { id, mode: 'draw' };
    }
    const origin: BoardOrigin = plan
      ? { source: 'import', author: input.author ?? DEFAULT_AUTHORS.import }
      : { source: 'system', author: DEFAULT_AUTHORS.system };
    const imported = await this.deps.host.use(id, (doc) =>
      db.transaction(() => {
        const record = registry.create(id, input.mode);
        return this.transact(doc, record, origin, (w) => (plan ? applyImport(w, plan) : void seedTemplate(w, input.template ?? 'kanban')));
      })(),
    );
    return { id, mode: input.mode, ...imported };
  }

  /**
   * Applies a domain mutation to a live board and returns its result once the
   * change is durable. `author` is the tag for items the mutation creates
   * without one of their own; it defaults per surface.
   */
  async write<T>(boardId: string, source: Exclude<Surface, 'yjs'>, author: string | undefined, mutate: (w: BoardWrite) => T): Promise<T> {
    this.requireLive(boardId);
    return this.deps.host.use(boardId, (doc) => {
      // Checked again once the document is loaded: the board may have been erased meanwhile.
      const record = this.requireLive(boardId);
      const origin: BoardOrigin = { source, author: author ?? DEFAULT_AUTHORS[source] };
      return this.deps.db.transaction(() => this.transact(doc, record, origin, mutate))();
    });
  }

  /** Runs a read against the live board's document. */
  async read<T>(boardId: string, view: (doc: Document, record: BoardRecord) => T): Promise<T> {
    this.requireLive(boardId);
    return this.deps.host.use(boardId, (doc) => view(doc, this.requireLive(boardId)));
  }

  /** `GET /api/boards/{id}`: the browser snapshot with full image payloads, or the deleted marker for 30 days. */
  async browserSnapshot(boardId: string): Promise<BrowserSnapshot> {
    const record = this.deps.registry.get(boardId);
    if (record?.deletedAt && this.deps.registry.tombstoneIsFresh(record)) {
      return { deleted: true, deleted_at: record.deletedAt };
    }
    return this.read(boardId, (doc) => drawView(doc, (image) => this.deps.blobs.get(boardId, image.blob)));
  }

  /** Tombstones a board: its content, payloads and stored state go; connected clients are closed. */
  async erase(boardId: string): Promise<{ ok: true }> {
    const { db, registry, blobs, documents, host } = this.deps;
    await this.read(boardId, (doc, record) => {
      db.transaction(() => {
        registry.tombstone(boardId);
        this.transact(doc, record, { source: 'system', author: DEFAULT_AUTHORS.system }, (w) => {
          for (const name of CONTENT_MAPS) w.maps[name].clear();
          w.counts = {};
        });
        blobs.eraseBoard(boardId);
        documents.erase(boardId);
      })();
    });
    host.closeConnections(boardId);
    return { ok: true };
  }

  private transact<T>(doc: Document, record: BoardRecord, origin: BoardOrigin, mutate: (w: BoardWrite) => T): T {
    const write: BoardWrite = {
      boardId: record.id,
      mode: record.mode,
      maps: boardMaps(doc),
      blobs: this.deps.blobs,
      author: origin.author,
      now: new Date(this.deps.now()).toISOString(),
      newId: randomUUID,
      counts: {},
    };
    let result: T;
    doc.transact(() => {
      result = mutate(write);
    }, origin);
    if (write.mode !== record.mode) this.deps.registry.setMode(record.id, write.mode);
    return result!;
  }
}
