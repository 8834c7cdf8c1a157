/**
 * The idempotency key of a write as each surface carries it (REST's
 * Idempotency-Key header, MCP's `_meta.idempotencyKey`, a frame's
 * `idempotencyKey`), checked with the same schema: 400 invalid_idempotency_key.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '../../board/model/errors.js';
import type { IdempotentRequest } from '../../host/boards/idempotency.js';
import { IdempotencyKey } from '../../schema/index.js';

/** A key as sent, checked; undefined when none was sent. */
export function idempotencyKey(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const key = IdempotencyKey.safeParse(value);
  if (!key.success) throw errors.invalidIdempotencyKey(key.error.issues[0].message);
  return key.data;
}

/** The header is a structured-field string (`"…"`, RFC 8941); a bare token is taken as it is. */
function headerKey(header: string | string[] | undefined): string | undefined {
  if (Array.isArray(header)) throw errors.invalidIdempotencyKey('send one Idempotency-Key header');
  const quoted = header === undefined ? undefined : /^"((?:[^"\\]|\\["\\])*)"$/.exec(header);
  return idempotencyKey(quoted ? quoted[1].replace(/\\(["\\])/g, '$1') : header);
}

/**
 * A REST write's Idempotency-Key with what makes it the same request
 * (method, route, path and body), and the header a replayed answer carries.
 */
export function restIdempotency(request: FastifyRequest, reply: FastifyReply): IdempotentRequest | undefined {
  const key = headerKey(request.headers['idempotency-key']);
  if (key === undefined) return undefined;
  return {
    key,
    request: ['rest', request.method, request.routeOptions.url, request.params, request.body ?? null],
    replayed: () => reply.header('Idempotent-Replayed', 'true'),
  };
}
