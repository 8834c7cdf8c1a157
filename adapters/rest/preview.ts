/**
 * GET /svg-preview/{boardId}: the schematic SVG, with an ETag (304 on a match) and the lock rules of every read;
 * `?frame={frameId}` draws that frame's area alone, under an ETag of its own.
 */
import type { FastifyInstance } from 'fastify';
import type { Boards } from '../../host/boards/boards.js';
import { GetPreviewArgs } from '../../schema/index.js';
import { callerOf } from '../kit/caller.js';
import { boardIdParam, parse } from '../kit/params.js';
import { matchesEtag } from './http.js';
import { etagHeader, type RouteWords } from './route-words.js';

export function previewRoutes(app: FastifyInstance, boards: Boards): void {
  app.get<{ Params: { boardId: string } }>('/svg-preview/:boardId', async (request, reply) => {
    const boardId = boardIdParam(request.params.boardId, 'read');
    const { frame } = parse(GetPreviewArgs, request.query);
    const { etag, svg } = await boards.preview(boardId, callerOf(request), { frame });
    reply.header('ETag', etag).header('Cache-Control', 'no-cache');
    if (matchesEtag(request.headers['if-none-match'], etag)) return reply.status(304).send();
    return reply.type('image/svg+xml; charset=utf-8').send(svg);
  });
}

/** What OpenAPI says of this route. */
export const PREVIEW_ROUTE_WORDS: RouteWords[] = [
  [
    '/svg-preview/{boardId}',
    'get',
    {
      tag: 'snapshots',
      summary: 'Schematic SVG preview, ETag-aware',
      query: {
        frame: {
          type: 'string',
          description: "a frame's id: that frame's area alone (404 item_not_found when the board has no such frame)",
        },
      },
      ok: {
        description: 'SVG (304 when If-None-Match matches)',
        schema: { type: 'string' },
        contentType: 'image/svg+xml',
        headers: etagHeader,
      },
      errors: [400, 401, 404, 429],
    },
  ],
];
