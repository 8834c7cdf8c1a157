/** REST routes of board locks: lock, unlock and verify-key. */
import type { FastifyInstance } from 'fastify';
import { LockInput, VerifyKeyInput } from '../../schema/index.js';
import type { Boards } from '../../host/boards/boards.js';
import { callerOf } from '../kit/caller.js';
import { boardIdParam, parse } from '../kit/params.js';
import { restIdempotency } from '../kit/idempotency.js';

type BoardParams = { Params: { boardId: string } };

export function lockRoutes(app: FastifyInstance, boards: Boards): void {
  app.post<BoardParams>('/api/boards/:boardId/lock', async (request, reply) => {
    const boardId = boardIdParam(request.params.boardId, 'write');
    const { mode } = parse(LockInput, request.body);
    return boards.lock(boardId, callerOf(request), mode, restIdempotency(request, reply));
  });

  app.post<BoardParams>('/api/boards/:boardId/unlock', async (request, reply) =>
    boards.unlock(boardIdParam(request.params.boardId, 'write'), callerOf(request), restIdempotency(request, reply)),
  );

  app.post<BoardParams>('/api/boards/:boardId/verify-key', async (request) => {
    const boardId = boardIdParam(request.params.boardId, 'read');
    const { key } = parse(VerifyKeyInput, request.body);
    return boards.verifyKey(boardId, callerOf(request), key);
  });
}
