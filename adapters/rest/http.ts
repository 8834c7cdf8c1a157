/**
 * What REST routes share beyond the adapter kit: the per-board rate limit
 * counted before a body is read, and ETag matching.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Boards } from '../../host/boards/boards.js';
import { isUuid } from '../../schema/index.js';
import { callerOf } from '../kit/caller.js';

/** Routes whose board the per-board rate limit counts at the edge. */
const BOARD_ROUTES = /^\/(?:api\/boards|json|svg-preview)\/:boardId/;

/**
 * Counts a board request before its body is read, so that a flood of large
 * requests is refused with a cheap 429 instead of being parsed first.
 */
export function admitAtTheEdge(app: FastifyInstance, boards: Boards): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const boardId = (request.params as { boardId?: string } | undefined)?.boardId;
    if (!boardId || !isUuid(boardId) || !BOARD_ROUTES.test(request.routeOptions.url ?? '')) return done();
    try {
      boards.admitRequest(boardId.toLowerCase(), callerOf(request));
    } catch (error) {
      return done(error as Error);
    }
    (request as FastifyRequest & { admitted?: boolean }).admitted = true;
    done();
  });
}

/** True when an If-None-Match header names this ETag (or `*`); weak validators compare equal. */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}
