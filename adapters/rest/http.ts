/** What every REST route shares: parsing with schema/, board ids, and the one error mapper. */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { BoardId, isUuid, MAX_BODY_BYTES } from '../../schema/index.js';
import { BoardError, errors } from '../../server/errors.js';

/** Turns the first zod issue into the spec's `{field, reason}`. */
export function issueToError(issues: z.core.$ZodIssue[]): BoardError {
  const issue = issues[0];
  const field = issue.path.map(String).join('.');
  const missing = issue.code === 'invalid_type' && 'input' in issue && issue.input === undefined;
  return errors.invalidPayload(field, missing ? 'is required' : issue.message);
}

/** Parses a request body (or query) with a schema from schema/, or throws 400 invalid_payload. */
export function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value ?? {}, { reportInput: true });
  if (!result.success) throw issueToError(result.error.issues);
  return result.data;
}

/** A board id from the path: not a UUID is 404 on reads (nothing there) and 400 on writes. */
export function boardIdParam(raw: string, access: 'read' | 'write'): string {
  if (!isUuid(raw)) throw access === 'read' ? errors.boardNotFound() : errors.invalidBoardId();
  return BoardId.parse(raw);
}

/** Maps any error to a BoardError: ours pass through, Fastify's get the spec's codes. */
export function toBoardError(error: unknown): BoardError {
  if (error instanceof BoardError) return error;
  const fastifyError = error as FastifyError;
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return errors.payloadTooLarge(MAX_BODY_BYTES);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return errors.unsupportedMediaType(String(fastifyError.message.split(': ').pop() ?? 'unknown'));
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return errors.invalidJson(fastifyError.message);
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
  if (boardError.status >= 500) request.log.error({ err: error }, 'request failed');
  if (boardError.status === 401) reply.header('WWW-Authenticate', 'Bearer realm="board", error="board_locked"');
  if (boardError.status === 429) reply.header('Retry-After', String(boardError.details.retryAfterSeconds));
  return reply.status(boardError.status).type('application/json; charset=utf-8').send(boardError.toBody());
}
