/**
 * REST routes of board history (docs/history.md) besides the operation
 * table's (the version list, changes and restore): the board and its preview
 * at a version, which never change.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errors } from '../../board/model/errors.js';
import type { Boards } from '../../host/boards/boards.js';
import { VersionParams } from '../../schema/index.js';
import { callerOf } from '../kit/caller.js';
import { boardIdParam, parse } from '../kit/params.js';
import { matchesEtag } from './http.js';
import { BOARD_ERRORS, boardPath, etagHeader, JsonSnapshot, json, type RouteWords } from './route-words.js';

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
}

/** What OpenAPI says of these routes. */
export const HISTORY_ROUTE_WORDS: RouteWords[] = [
  [
    `${boardPath}/versions/{version}`,
    'get',
    {
      tag: 'history',
      summary: 'The JSON snapshot of the board at a version, plus `version` and `at`; immutable',
      ok: {
        description: 'snapshot (304 when If-None-Match matches; Cache-Control immutable)',
        schema: json(JsonSnapshot.extend({ version: z.number().int(), at: z.string() })),
        headers: etagHeader,
      },
      errors: BOARD_ERRORS,
    },
  ],
  [
    `${boardPath}/versions/{version}/svg-preview`,
    'get',
    {
      tag: 'history',
      summary: 'The schematic SVG preview of the board at a version; immutable',
      ok: { description: 'SVG', schema: { type: 'string' }, contentType: 'image/svg+xml', headers: etagHeader },
      errors: BOARD_ERRORS,
    },
  ],
];
