/** REST routes of whole boards: create, browser snapshot, erase, and the /json snapshot. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CreateBoardInput } from '../../schema/index.js';
import type { Boards } from '../../server/boards.js';
import { errors } from '../../server/errors.js';
import { etagOf, jsonSnapshot } from '../../server/snapshot.js';
import { boardIdParam, parse } from './http.js';

type BoardParams = { Params: { boardId: string } };

const UUID_IN_TEXT = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** True when an If-None-Match header names this ETag (or `*`); weak validators compare equal. */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}

export function boardRoutes(app: FastifyInstance, boards: Boards): void {
  app.post('/api/boards', async (request) => {
    const input = parse(CreateBoardInput, request.body);
    return boards.create({ ...input, mode: input.mode ?? 'draw' });
  });

  app.get<BoardParams>('/api/boards/:boardId', async (request) =>
    boards.browserSnapshot(boardIdParam(request.params.boardId, 'read')),
  );

  app.delete<BoardParams>('/api/boards/:boardId', async (request) => boards.erase(boardIdParam(request.params.boardId, 'write')));

  const sendSnapshot = async (boardId: string, request: FastifyRequest, reply: FastifyReply) => {
    const { etag, body } = await boards.read(boardId, (doc, record) => ({
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
}
