/**
 * REST routes of board history (docs/history.md): the version list,
 * the board and its preview at a version, the changes since a version or
 * ETag, and restore. Queries and path numbers are parsed with schema/history.ts.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ChangesQuery, PageLimitQuery, RestoreBody, VersionParams, VersionsQuery } from '../../schema/index.js';
import { errors } from '../../board/model/errors.js';
import type { Boards } from '../../host/boards/boards.js';
import { callerOf } from '../kit/caller.js';
import { boardIdParam, parse } from '../kit/params.js';
import { restIdempotency } from '../kit/idempotency.js';
import { matchesEtag } from './http.js';

type BoardParams = { Params: { boardId: string } };
type VersionRoute = { Params: { boardId: string; version: string } };

/**
 * A version never changes, so its answers are cached for a year. Under an
 * `all` lock only the key holder may read it: then no shared cache may keep it.
 */
function sendImmutable(
  request: FastifyRequest,
  reply: FastifyReply,
  etag: string,
  lockMode: string | null,
  type: string,
  body: string,
) {
  reply
    .header('ETag', etag)
    .header('Cache-Control', `${lockMode === 'all' ? 'private' : 'public'}, max-age=31536000, immutable`);
  if (matchesEtag(request.headers['if-none-match'], etag)) return reply.status(304).send();
  return reply.type(type).send(body);
}

const versionOf = (params: { version: string }) =>
  parse(VersionParams, params, (_field, reason) => errors.invalidPayload('version', reason)).version;

export function historyRoutes(app: FastifyInstance, boards: Boards): void {
  app.get<BoardParams>('/api/boards/:boardId/versions', async (request, reply) => {
    const boardId = boardIdParam(request.params.boardId, 'read');
    const { before, limit } = parse(VersionsQuery, request.query);
    reply.header('Cache-Control', 'no-store');
    return boards.history.versions(boardId, callerOf(request), { before, limit });
  });

  app.get<VersionRoute>('/api/boards/:boardId/versions/:version', async (request, reply) => {
    const boardId = boardIdParam(request.params.boardId, 'read');
    const { board, etag, lockMode } = await boards.history.version(
      boardId,
      callerOf(request),
      versionOf(request.params),
    );
    return sendImmutable(request, reply, etag, lockMode, 'application/json; charset=utf-8', JSON.stringify(board));
  });

  app.get<VersionRoute>('/api/boards/:boardId/versions/:version/svg-preview', async (request, reply) => {
    const boardId = boardIdParam(request.params.boardId, 'read');
    const { svg, etag, lockMode } = await boards.history.versionPreview(
      boardId,
      callerOf(request),
      versionOf(request.params),
    );
    return sendImmutable(request, reply, etag, lockMode, 'image/svg+xml; charset=utf-8', svg);
  });

  app.get<BoardParams>('/api/boards/:boardId/changes', async (request, reply) => {
    const boardId = boardIdParam(request.params.boardId, 'read');
    const since = parse(ChangesQuery, request.query);
    // Whole, as history.md has it, unless the caller pages by `limit` (or follows a `next_cursor`).
    const { limit } = parse(PageLimitQuery, request.query);
    reply.header('Cache-Control', 'no-store');
    return boards.history.changes(boardId, callerOf(request), since, { budget: Infinity, limit, points: true });
  });

  app.post<VersionRoute>('/api/boards/:boardId/versions/:version/restore', async (request, reply) => {
    const boardId = boardIdParam(request.params.boardId, 'write');
    const { author } = parse(RestoreBody, request.body);
    const version = versionOf(request.params);
    return boards.history.restore(boardId, { ...callerOf(request), author }, version, restIdempotency(request, reply));
  });
}
