/**
 * What a board looks like to each reader: the browser's and the JSON
 * channel's snapshots (with image payloads), the SVG preview, the metadata a
 * client needs before it opens a board, an image's payload, and the agent
 * reads in pages (get_board, query_tasks). Each is a read through Boards.read,
 * which takes a view token too: what is shown names the board by `boardId` as
 * given, what is stored is found by the document's name, the board's own id.
 */

import { boardMaps } from '../../board/model/document-model.js';
import { errors } from '../../board/model/errors.js';
import { tombstoneIsFresh } from '../../board/model/record.js';
import { titleEntry } from '../../board/model/title.js';
import { type BoardPageArgs, boardPage, matchedTasksPage } from '../../board/reads/board-pages.js';
import { boardOutline } from '../../board/reads/outline.js';
import { drawView, etagOf, etagOfView, todoView } from '../../board/reads/snapshot.js';
import { queryTasks, type TaskQuery } from '../../board/reads/task-query.js';
import { type BoardMode, type LockMode, READ_PAGE_MAX_BYTES } from '../../schema/index.js';
import type { Caller } from '../access/access.js';
import type { BoardCore, BoardsDeps } from './board-core.js';

export type BrowserSnapshot = ReturnType<typeof drawView> | { deleted: true; deleted_at: string };

export type BoardMeta = {
  boardId: string;
  mode: BoardMode;
  title?: string;
  lockMode: LockMode | null;
  createdAt: string;
};

export class BoardRepresentations {
  constructor(
    private readonly boards: BoardCore,
    private readonly deps: BoardsDeps,
  ) {}

  /**
   * The board's schematic SVG preview with its ETag (`/svg-preview`,
   * get_preview, `preview.svg`), drawn in the preview pool; with `frame`, that
   * frame's area alone, under an ETag of its own. A frame the board does not
   * hold is item_not_found.
   */
  async preview(
    boardId: string,
    caller: Caller,
    options: { frame?: string } = {},
  ): Promise<{ etag: string; svg: string }> {
    const { frame } = options;
    const { etag, svg } = await this.boards.read(boardId, caller, (doc, record) => {
      if (frame !== undefined && !boardMaps(doc).frames.get(frame)) throw errors.itemNotFound('frame', frame);
      return {
        etag: frame === undefined ? etagOf(doc) : etagOfView(doc, `frame:${frame}`),
        svg: this.deps.previews.svg(doc, record.mode, options),
      };
    });
    return { etag, svg: await svg };
  }

  /** `GET /api/boards/{id}`: the browser snapshot with full image payloads, or the deleted marker for 30 days. */
  async browserSnapshot(boardId: string, caller: Caller): Promise<BrowserSnapshot> {
    const record = await this.deps.store.registry.get(boardId);
    if (record?.deletedAt && tombstoneIsFresh(record, this.deps.now())) {
      this.deps.access.admitBoardRequest(boardId, caller);
      return { deleted: true, deleted_at: record.deletedAt };
    }
    return this.boards.read(
      boardId,
      caller,
      (doc) => drawView(doc, (image) => this.deps.store.blobs.get(doc.name, image.blob)),
      true,
    );
  }

  /** What a client needs before it opens a board: its mode, lock (`all`-locked boards need the key) and title when it has one. */
  meta(boardId: string, caller: Caller): Promise<BoardMeta> {
    return this.boards.read(boardId, caller, (doc, record) => ({
      boardId,
      mode: record.mode,
      ...titleEntry(doc),
      lockMode: record.lockMode,
      createdAt: record.createdAt,
    }));
  }

  /** An image's payload, for clients that show it (the document holds only its hash). */
  imageData(boardId: string, imageId: string, caller: Caller): Promise<{ dataUrl: string; etag: string }> {
    return this.boards.read(
      boardId,
      caller,
      (doc) => {
        const image = boardMaps(doc).images.get(imageId);
        const dataUrl = image && this.deps.store.blobs.get(doc.name, image.blob);
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
  fullSnapshot(boardId: string, caller: Caller): Promise<{ board: Record<string, unknown>; etag: string }> {
    return this.boards.read(
      boardId,
      caller,
      (doc, record) => {
        const etag = etagOf(doc);
        const draw = drawView(doc, (image) => this.deps.store.blobs.get(doc.name, image.blob));
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

  /**
   * query_tasks: the board's tasks that match every filter, in board order
   * ("overdue" is judged in UTC), in pages of READ_PAGE_MAX_BYTES. A draw board is wrong_mode, as for every
   * other todo operation: "no task matches" would be a wrong answer there.
   */
  queryTasks(boardId: string, caller: Caller, query: TaskQuery & { cursor?: string }) {
    const today = new Date(this.deps.now()).toISOString().slice(0, 10);
    const { cursor, ...filters } = query;
    return this.boards.read(boardId, caller, (doc, record) => {
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
      return this.boards.read(boardId, caller, (doc, record) =>
        boardPage(doc, record.id, record.mode, args, { budget: READ_PAGE_MAX_BYTES }),
      );
    const { outline, stored } = await this.boards.read(boardId, caller, (doc, record) => ({
      outline: boardOutline(doc, record.id, record.mode, 0),
      stored: doc.name,
    }));
    return { ...outline, versions: await this.deps.store.history.count(stored) };
  }
}
