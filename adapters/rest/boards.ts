/** REST routes of whole boards: create (and import), entry points, browser snapshot, erase, /json and task exports. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CreateBoardInput, type ImageMimeType, Template, UUID_IN_TEXT, WaitQuery } from '../../schema/index.js';
import type { Boards } from '../../host/boards/boards.js';
import { errors } from '../../board/model/errors.js';
import { tasksCsv, tasksMarkdown } from '../../board/reads/exports.js';
import { createBoardFieldError } from '../../board/import/import.js';
import { etagOf, jsonSnapshot } from '../../board/reads/snapshot.js';
import { isDrawSeed } from '../../board/mutations/templates.js';
import { callerOf } from '../kit/caller.js';
import { boardIdParam, parse } from '../kit/params.js';
import { restIdempotency } from '../kit/idempotency.js';
import { matchesEtag } from './http.js';

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
  app.post('/api/boards', async (request, reply) => {
    const input = parse(CreateBoardInput, request.body, createBoardFieldError);
    return boards.create({ ...input, mode: input.mode ?? 'draw' }, callerOf(request), restIdempotency(request, reply));
  });

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

  app.get<BoardParams>('/api/boards/:boardId/wait', async (request, reply) => {
    const boardId = boardIdParam(request.params.boardId, 'read');
    const { timeout_ms, since_etag } = parse(WaitQuery, request.query);
    const gone = new AbortController();
    reply.raw.once('close', () => gone.abort()); // a client that hangs up stops waiting
    reply.header('Cache-Control', 'no-store');
    return boards.wait(boardId, callerOf(request), timeout_ms, gone.signal, since_etag);
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
    const match = UUID_IN_TEXT.exec(String(request.query.board ?? ''));
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
