/** REST routes of whole boards besides the operation table's: entry points, meta, images, browser snapshot, erase, /json and task exports. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errors } from '../../board/model/errors.js';
import { isDrawSeed } from '../../board/mutations/templates.js';
import { tasksCsv, tasksMarkdown } from '../../board/reads/exports.js';
import { etagOf, jsonSnapshot } from '../../board/reads/snapshot.js';
import type { Boards } from '../../host/boards/boards.js';
import {
  type ImageMimeType,
  StoredTitle,
  TEMPLATES,
  Template,
  TOMBSTONE_RETENTION_DAYS,
  UUID_IN_TEXT,
  VIEW_TOKEN_IN_TEXT,
} from '../../schema/index.js';
import { callerOf } from '../kit/caller.js';
import { restIdempotency } from '../kit/idempotency.js';
import { boardIdParam } from '../kit/params.js';
import { matchesEtag } from './http.js';
import {
  BOARD_ERRORS,
  BrowserSnapshot,
  boardPath,
  etagHeader,
  JsonSnapshot,
  json,
  type RouteWords,
} from './route-words.js';

type BoardParams = { Params: { boardId: string } };

const IMAGE_EXTENSIONS: Record<ImageMimeType, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
};

/**
 * An SVG may hold script, and opened on its own it would run on our origin
 * were the sandbox lost: it is saved, never shown. A raster image runs
 * nothing, and someone who opens one expects to see it.
 */
function imageDisposition(type: ImageMimeType, itemId: string): string {
  const name = `image-${itemId.replace(/[^A-Za-z0-9_-]/g, '_')}.${IMAGE_EXTENSIONS[type]}`;
  return `${type === 'image/svg+xml' ? 'attachment' : 'inline'}; filename="${name}"`;
}

export type BaseUrl = (request: FastifyRequest) => string;

export function boardRoutes(app: FastifyInstance, boards: Boards, baseUrl: BaseUrl): void {
  // Entry points a person opens in a browser: create a board and go to it.
  const redirectToNew = (request: FastifyRequest, reply: FastifyReply, id: string) =>
    reply
      .status(302)
      .header('Location', `${baseUrl(request)}/#${id}`)
      .header('Cache-Control', 'no-store')
      .send();

  app.get<{ Querystring: { template?: string } }>('/todo', async (request, reply) => {
    const template = Template.safeParse(request.query.template);
    const { id } = await boards.create(
      { mode: 'todo', template: template.success ? template.data : 'kanban' },
      callerOf(request),
    );
    return redirectToNew(request, reply, id);
  });

  app.get<{ Querystring: { seed?: string } }>('/draw', async (request, reply) => {
    const seed = isDrawSeed(request.query.seed) ? request.query.seed : undefined;
    const { id } = await boards.create({ mode: 'draw', seed }, callerOf(request));
    return redirectToNew(request, reply, id);
  });

  app.get<BoardParams>('/api/boards/:boardId/meta', async (request) =>
    boards.meta(boardIdParam(request.params.boardId, 'read'), callerOf(request)),
  );

  // A user's file, which a browser may open as a page: sandboxed, and a download when it is an SVG.
  app.get<{ Params: { boardId: string; itemId: string } }>(
    '/api/boards/:boardId/images/:itemId',
    { config: { securityHeaders: 'user-image' } },
    async (request, reply) => {
      const boardId = boardIdParam(request.params.boardId, 'read');
      const { itemId } = request.params;
      const { dataUrl, etag } = await boards.imageData(boardId, itemId, callerOf(request));
      const type = dataUrl.slice(5, dataUrl.indexOf(';')) as ImageMimeType;
      reply
        .header('ETag', etag)
        .header('Cache-Control', 'no-cache')
        .header('Content-Disposition', imageDisposition(type, itemId));
      if (matchesEtag(request.headers['if-none-match'], etag)) return reply.status(304).send();
      return reply.type(type).send(Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64'));
    },
  );

  app.get<BoardParams>('/api/boards/:boardId', async (request) =>
    boards.browserSnapshot(boardIdParam(request.params.boardId, 'read'), callerOf(request)),
  );

  app.delete<BoardParams>('/api/boards/:boardId', async (request, reply) =>
    boards.erase(boardIdParam(request.params.boardId, 'write'), callerOf(request), restIdempotency(request, reply)),
  );

  const sendSnapshot = async (boardId: string, request: FastifyRequest, reply: FastifyReply) => {
    const { etag, body } = await boards.read(boardId, callerOf(request), (doc, record) => ({
      etag: etagOf(doc),
      body: jsonSnapshot(doc, record.id, record.mode),
    }));
    reply.header('ETag', etag).header('Cache-Control', 'no-cache');
    if (matchesEtag(request.headers['if-none-match'], etag)) return reply.status(304).send();
    return reply.type('application/json; charset=utf-8').send(body);
  };

  app.get<BoardParams>('/json/:boardId', async (request, reply) =>
    sendSnapshot(boardIdParam(request.params.boardId, 'read'), request, reply),
  );

  // `/json?board=<board URL or id>`: agents often hold the human-facing URL.
  const byQuery = async (request: FastifyRequest<{ Querystring: { board?: string } }>, reply: FastifyReply) => {
    const board = String(request.query.board ?? '');
    const match = VIEW_TOKEN_IN_TEXT.exec(board) ?? UUID_IN_TEXT.exec(board);
    if (!match) throw errors.boardNotFound();
    return sendSnapshot(boardIdParam(match[0], 'read'), request, reply);
  };
  app.get('/json', byQuery);
  app.get('/json/', byQuery);

  const exportRoute = (extension: 'csv' | 'md', type: string, render: typeof tasksCsv | typeof tasksMarkdown) =>
    app.get<BoardParams & { Querystring: { download?: string } }>(
      `/api/boards/:boardId/tasks.${extension}`,
      async (request, reply) => {
        const boardId = boardIdParam(request.params.boardId, 'read');
        const body = await boards.read(boardId, callerOf(request), (doc, record) =>
          render(doc, record.mode, record.id),
        );
        const disposition = request.query.download === '1' ? 'attachment' : 'inline';
        return reply
          .type(`${type}; charset=utf-8`)
          .header('Content-Disposition', `${disposition}; filename="board-${boardId}-tasks.${extension}"`)
          .header('Cache-Control', 'no-cache')
          .send(body);
      },
    );
  exportRoute('csv', 'text/csv', tasksCsv);
  exportRoute('md', 'text/markdown', tasksMarkdown);
}

/** What OpenAPI says of these routes. */
export const BOARD_ROUTE_WORDS: RouteWords[] = [
  [
    '/todo',
    'get',
    {
      tag: 'boards',
      summary: 'Create a todo board and redirect to it',
      query: {
        template: {
          type: 'string',
          enum: [...TEMPLATES],
          description: 'starter columns (none: no columns; unknown values fall back to kanban)',
        },
      },
      ok: { status: 302, description: 'Location: {base_url}/#<boardId>', headers: { Location: { type: 'string' } } },
      errors: [429],
    },
  ],
  [
    '/draw',
    'get',
    {
      tag: 'boards',
      summary: 'Create a draw board and redirect to it',
      query: {
        seed: {
          type: 'string',
          enum: ['mermaid-flowchart', 'mermaid-mindmap'],
          description: 'an example diagram (unknown values give a blank board)',
        },
      },
      ok: { status: 302, description: 'Location: {base_url}/#<boardId>', headers: { Location: { type: 'string' } } },
      errors: [429],
    },
  ],
  [
    boardPath,
    'get',
    {
      tag: 'boards',
      summary: `Browser snapshot {texts, lines, images} with image payloads, or the deleted marker for ${TOMBSTONE_RETENTION_DAYS} days`,
      ok: { description: 'snapshot', schema: json(BrowserSnapshot) },
      errors: BOARD_ERRORS,
    },
  ],
  [
    `${boardPath}/meta`,
    'get',
    {
      tag: 'boards',
      summary: 'Mode, title and lock of a board (what a client needs before it opens one)',
      ok: {
        description: 'meta; `title` only when the board has one',
        schema: json(
          z.object({
            boardId: z.string(),
            mode: z.enum(['draw', 'todo']),
            title: StoredTitle.optional(),
            lockMode: z.enum(['write', 'all']).nullable(),
            createdAt: z.string(),
          }),
        ),
      },
      errors: [401, 404, 429],
    },
  ],
  [
    `${boardPath}/images/{itemId}`,
    'get',
    {
      tag: 'boards',
      summary: "An image's payload as a file (the snapshots elide it or inline it as a data URL)",
      ok: {
        description:
          'the image bytes as uploaded (304 when If-None-Match matches); an SVG comes as an attachment, other images inline, each under a sandboxed Content-Security-Policy of its own',
        schema: { type: 'string', format: 'binary' },
        contentType: 'image/*',
        headers: { ...etagHeader, 'Content-Disposition': { type: 'string' } },
      },
      errors: [401, 404, 429],
    },
  ],
  [
    boardPath,
    'delete',
    {
      tag: 'boards',
      summary: 'Erase a board (tombstone)',
      ok: { description: 'erased', schema: json(z.object({ ok: z.literal(true) })) },
      errors: BOARD_ERRORS,
    },
  ],
  [
    '/json/{boardId}',
    'get',
    {
      tag: 'snapshots',
      summary: 'JSON snapshot (image payloads elided), ETag-aware',
      ok: { description: 'snapshot (304 when If-None-Match matches)', schema: json(JsonSnapshot), headers: etagHeader },
      errors: [401, 404, 429],
    },
  ],
  [
    '/json/{boardId}',
    'head',
    {
      tag: 'snapshots',
      summary: 'Headers of the JSON snapshot (ETag)',
      ok: { description: 'headers only', headers: etagHeader },
      errors: [401, 404, 429],
    },
  ],
  [
    '/json',
    'get',
    {
      tag: 'snapshots',
      summary: 'JSON snapshot of the board a URL or id names',
      query: {
        board: { type: 'string', description: 'a board URL ({base_url}/#<id>, ?embed=1#<id>, /json/<id>) or id' },
      },
      locked: true,
      ok: { description: 'snapshot', schema: json(JsonSnapshot), headers: etagHeader },
      errors: [401, 404, 429],
    },
  ],
  [
    `${boardPath}/tasks.csv`,
    'get',
    {
      tag: 'exports',
      summary: 'Tasks as CSV (RFC 4180; header only on draw boards)',
      query: { download: { type: 'string', enum: ['1'], description: '1 makes it an attachment' } },
      ok: {
        description: 'lane,column,name,priority,assignee,due_date,done,description',
        schema: { type: 'string' },
        contentType: 'text/csv',
      },
      errors: [401, 404, 429],
    },
  ],
  [
    `${boardPath}/tasks.md`,
    'get',
    {
      tag: 'exports',
      summary: 'Tasks as a Markdown checklist grouped by column',
      query: { download: { type: 'string', enum: ['1'], description: '1 makes it an attachment' } },
      ok: { description: 'Markdown', schema: { type: 'string' }, contentType: 'text/markdown' },
      errors: [401, 404, 429],
    },
  ],
];
