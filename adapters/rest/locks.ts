/** REST routes of board locks: lock, unlock and verify-key. */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Boards } from '../../host/boards/boards.js';
import { LockInput, VerifyKeyInput } from '../../schema/index.js';
import { callerOf } from '../kit/caller.js';
import { restIdempotency } from '../kit/idempotency.js';
import { boardIdParam, parse } from '../kit/params.js';
import { boardPath, json, type RouteWords } from './route-words.js';

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

/** What OpenAPI says of these routes. */
export const LOCK_ROUTE_WORDS: RouteWords[] = [
  [
    `${boardPath}/lock`,
    'post',
    {
      tag: 'locks',
      summary: 'Lock a board (key returned once) or change the mode of its lock',
      body: LockInput,
      ok: {
        description: '{mode, key?}',
        schema: json(z.object({ mode: z.enum(['write', 'all']), key: z.string().optional() })),
      },
      errors: [400, 401, 403, 404, 409, 413, 415, 429],
    },
  ],
  [
    `${boardPath}/unlock`,
    'post',
    {
      tag: 'locks',
      summary: 'Unlock a board with its key',
      ok: { description: 'unlocked', schema: json(z.object({ mode: z.null() })) },
      errors: [403, 404, 409, 429],
    },
  ],
  [
    `${boardPath}/verify-key`,
    'post',
    {
      tag: 'locks',
      summary: 'Check a key; changes nothing',
      body: VerifyKeyInput,
      locked: false,
      ok: { description: '{ok}', schema: json(z.object({ ok: z.boolean() })) },
      errors: [400, 404, 413, 415, 429],
    },
  ],
];
