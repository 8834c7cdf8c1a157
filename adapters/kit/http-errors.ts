/**
 * The one mapper from anything thrown at the HTTP edge to a BoardError, and
 * the JSON answer it becomes. REST answers with it; /mcp maps the same
 * BoardError on to JSON-RPC, and the socket upgrades refuse with it.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { type BoardError, errors } from '../../board/model/errors.js';
import { MAX_BODY_BYTES } from '../../schema/index.js';
import { knownError } from '../../store/storage-errors.js';

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
    return errors.badRequest(fastifyError.message).withStatus(status);
  }
  return errors.internal();
}

/**
 * Sends a BoardError as the spec's JSON body, with the headers its status calls
 * for, and the request id (also in `X-Request-Id`) so that a report can be matched
 * with its log line: errors the router answers before any hook carry it too.
 */
export function sendError(request: FastifyRequest, reply: FastifyReply, error: unknown): FastifyReply {
  const boardError = toBoardError(error);
  if (boardError.status === 500) request.log.error({ err: error }, 'request failed');
  else if (boardError.code === 'preview_unavailable')
    request.log.warn({ code: boardError.code, reason: boardError.details.reason }, 'preview not drawn');
  else if (boardError.status === 503) request.log.warn({ code: boardError.code }, 'storage refused a write');
  if (boardError.status === 401) reply.header('WWW-Authenticate', 'Bearer realm="board", error="board_locked"');
  if (boardError.status === 429) reply.header('Retry-After', String(boardError.details.retryAfterSeconds));
  reply.header('X-Request-Id', request.id);
  return reply
    .status(boardError.status)
    .type('application/json; charset=utf-8')
    .send({ ...boardError.toBody(), requestId: request.id });
}

/** The service's base URL for a request: the configured PUBLIC_URL, else the request's own origin. */
export function baseUrlOf(publicUrl: string | undefined): (request: FastifyRequest) => string {
  return (request) => publicUrl ?? `${request.protocol}://${request.host}`;
}

/**
 * The request headers `baseUrlOf` reads, for the `Vary` of a cacheable answer
 * that names the base URL: none with PUBLIC_URL; Host, and the forwarded
 * headers when a proxy is trusted to set them (Fastify's `request.host` and
 * `request.protocol`).
 */
export function baseUrlVary(publicUrl: string | undefined, trustProxy: boolean): string | undefined {
  if (publicUrl) return undefined;
  return trustProxy ? 'Host, X-Forwarded-Host, X-Forwarded-Proto' : 'Host';
}
