/** GET /svg-preview/{boardId}: the schematic SVG, with an ETag (304 on a match) and the lock rules of every read. */
import type { FastifyInstance } from 'fastify';
import type { Boards } from '../../host/boards/boards.js';
import { callerOf } from '../kit/caller.js';
import { boardIdParam } from '../kit/params.js';
import { matchesEtag } from './http.js';

export function previewRoutes(app: FastifyInstance, boards: Boards): void {
  app.get<{ Params: { boardId: string } }>('/svg-preview/:boardId', async (request, reply) => {
    const boardId = boardIdParam(request.params.boardId, 'read');
    const { etag, svg } = await boards.preview(boardId, callerOf(request));
    reply.header('ETag', etag).header('Cache-Control', 'no-cache');
    if (matchesEtag(request.headers['if-none-match'], etag)) return reply.status(304).send();
    return reply.type('image/svg+xml; charset=utf-8').send(svg);
  });
}
