/** What every REST route shares: parsing with schema/, board ids, and the one error mapper. */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { BoardId, isUuid, ItemId, MAX_BODY_BYTES } from '../../schema/index.js';
import type { Caller } from '../../server/host/access.js';
import type { BoardWrite } from '../../server/board/board-write.js';
import type { Boards } from '../../server/host/boards.js';
import { BoardError, errors, type FieldError, fromZodIssues, knownError } from '../../server/board/errors.js';

/** Parses a request body (or query) with a schema from schema/, or throws 400 invalid_payload. */
export function parse<S extends z.ZodType>(schema: S, value: unknown, toError?: FieldError): z.output<S> {
  const result = schema.safeParse(value ?? {}, { reportInput: true });
  if (!result.success) throw fromZodIssues(result.error.issues, toError);
  return result.data;
}

/** A board id from the path: not a UUID is 404 on reads (nothing there) and 400 on writes. */
export function boardIdParam(raw: string, access: 'read' | 'write'): string {
  if (!isUuid(raw)) throw access === 'read' ? errors.boardNotFound() : errors.invalidBoardId();
  return BoardId.parse(raw);
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Who is calling, as the domain needs it: IP, access key and import token from the headers. */
export function callerOf(request: FastifyRequest): Caller {
  const admitted = (request as FastifyRequest & { admitted?: boolean }).admitted === true;
  return { surface: 'rest', ip: request.ip, key: header(request, 'x-board-key'), importToken: header(request, 'x-import-token'), admitted };
}

/** Routes whose board the per-board rate limit counts at the edge. */
const BOARD_ROUTES = /^\/(?:api\/boards|json|svg-preview)\/:boardId/;

/**
 * Counts a board request before its body is read, so that a flood of large
 * requests is refused with a cheap 429 instead of being parsed first.
 */
export function admitAtTheEdge(app: FastifyInstance, boards: Boards): void {
  app.addHook('onRequest', async (request) => {
    const boardId = (request.params as { boardId?: string } | undefined)?.boardId;
    if (!boardId || !isUuid(boardId) || !BOARD_ROUTES.test(request.routeOptions.url ?? '')) return;
    boards.admitRequest(boardId.toLowerCase(), callerOf(request));
    (request as FastifyRequest & { admitted?: boolean }).admitted = true;
  });
}

/** The service's base URL for a request: the configured PUBLIC_URL, else the request's own origin. */
export function baseUrlOf(publicUrl: string | undefined): (request: FastifyRequest) => string {
  return (request) => publicUrl ?? `${request.protocol}://${request.host}`;
}

/**
 * The longest path segment the router takes (Fastify's default is 100). Longer
 * than any id the schemas accept, so that an over-long item or board id gets
 * the same answer from REST as from MCP and frames: the schema's, not the
 * router's. Longer still is 400 invalid_payload (see toBoardError).
 */
export const MAX_PATH_PARAM_CHARS = 2048;

/** Maps any error to a BoardError: ours pass through, Fastify's get the spec's codes. */
export function toBoardError(error: unknown): BoardError {
  const known = knownError(error);
  if (known) return known;
  const fastifyError = error as FastifyError;
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return errors.payloadTooLarge(MAX_BODY_BYTES);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return errors.unsupportedMediaType();
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return errors.invalidJson(fastifyError.message);
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return errors.invalidPayload('path', `a path segment is longer than ${MAX_PATH_PARAM_CHARS} characters`);
  }
  if (error instanceof SyntaxError) return errors.invalidJson(error.message);
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new BoardError(status, 'bad_request', fastifyError.message);
  }
  return errors.internal();
}

/** Sends a BoardError as the spec's JSON body, with the headers its status calls for. */
export function sendError(request: FastifyRequest, reply: FastifyReply, error: unknown): FastifyReply {
  const boardError = toBoardError(error);
  if (boardError.status === 500) request.log.error({ err: error }, 'request failed');
  else if (boardError.status === 503) request.log.warn({ code: boardError.code }, 'storage refused a write');
  if (boardError.status === 401) reply.header('WWW-Authenticate', 'Bearer realm="board", error="board_locked"');
  if (boardError.status === 429) reply.header('Retry-After', String(boardError.details.retryAfterSeconds));
  return reply.status(boardError.status).type('application/json; charset=utf-8').send(boardError.toBody());
}

/** An item id from the path, checked like the `id` argument of MCP tools and frames: 400 invalid_payload, field `itemId`. */
export function itemIdParam(raw: string): string {
  return parse(ItemId, raw, (_field, reason) => errors.invalidPayload('itemId', reason));
}

type Params = Record<string, string>;

/**
 * Registers `POST path`: the body parsed with `schema`, then the path's other
 * parameters with `parseParams` (so every input is checked before the board
 * is), then one domain mutation on the board of `:boardId`.
 */
export function postMutation<T, P = Params>(
  app: FastifyInstance,
  boards: Boards,
  path: string,
  schema: z.ZodType<T>,
  mutate: (w: BoardWrite, input: T, params: P) => unknown,
  parseParams: (params: Params) => P = (params) => params as P,
): void {
  app.post<{ Params: Params }>(path, async (request) => {
    const boardId = boardIdParam(request.params.boardId, 'write');
    const input = parse(schema, request.body);
    const params = parseParams(request.params);
    return boards.write(boardId, callerOf(request), (w) => mutate(w, input, params));
  });
}

/** Registers `DELETE path`: the path's parameters parsed with `parseParams`, then one domain mutation on the board of `:boardId`. */
export function deleteMutation<P>(app: FastifyInstance, boards: Boards, path: string, parseParams: (params: Params) => P, mutate: (w: BoardWrite, params: P) => unknown): void {
  app.delete<{ Params: Params }>(path, async (request) => {
    const boardId = boardIdParam(request.params.boardId, 'write');
    const params = parseParams(request.params);
    return boards.write(boardId, callerOf(request), (w) => mutate(w, params));
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
