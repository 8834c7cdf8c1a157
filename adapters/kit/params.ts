/**
 * Input at the edge, checked with schema/ the same way on every surface: a
 * body or query, the board id of a path, an item id of a path.
 */
import type { z } from 'zod';
import { errors, type FieldError, fromZodIssues } from '../../board/model/errors.js';
import { ItemId, isUuid, isViewToken } from '../../schema/index.js';

/** Parses a request body (or query) with a schema from schema/, or throws 400 invalid_payload. */
export function parse<S extends z.ZodType>(schema: S, value: unknown, toError?: FieldError): z.output<S> {
  const result = schema.safeParse(value ?? {}, { reportInput: true });
  if (!result.success) throw fromZodIssues(result.error.issues, toError);
  return result.data;
}

/**
 * A board id from the path: not a UUID is 404 on reads (nothing there) and
 * 400 on writes. A view token passes as it is: the host lets it read only.
 */
export function boardIdParam(raw: string, access: 'read' | 'write'): string {
  if (isViewToken(raw)) return raw;
  if (!isUuid(raw)) throw access === 'read' ? errors.boardNotFound() : errors.invalidBoardId();
  return raw.toLowerCase(); // BoardId's transform, without a zod parse on every request once isUuid has said yes
}

/** An item id from the path, checked like the `id` argument of MCP tools and frames: 400 invalid_payload, field `itemId`. */
export function itemIdParam(raw: string): string {
  return parse(ItemId, raw, (_field, reason) => errors.invalidPayload('itemId', reason));
}
