/**
 * The one error type of the service and the list of its errors. Each carries
 * the HTTP status, the specification's machine `code` and its details; every
 * adapter has one mapper from a BoardError to its own wire.
 */

import type { z } from 'zod';
import { TOMBSTONE_RETENTION_DAYS } from '../../schema/limits.js';

export type ErrorDetails = Record<string, unknown>;

export class BoardError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
    this.name = 'BoardError';
  }

  /** The JSON body every surface sends: `{error, code, ...details}`. */
  toBody(): Record<string, unknown> {
    return { error: this.message, code: this.code, ...this.details };
  }
}

/** Why a key did not open a locked board: none was sent, or the one sent is not its key. */
export type KeyState = 'missing' | 'wrong';
export const keyStateOf = (key: string | undefined): KeyState => (key === undefined ? 'missing' : 'wrong');

export const errors = {
  invalidPayload: (field: string, reason: string) =>
    new BoardError(400, 'invalid_payload', `invalid ${field || 'body'}: ${reason}`, { field, reason }),
  invalidCursor: (reason: string) =>
    new BoardError(400, 'invalid_cursor', `invalid cursor: ${reason}`, { field: 'cursor', reason }),
  invalidJson: (reason: string) => new BoardError(400, 'invalid_json', `body is not valid JSON: ${reason}`),
  invalidBoardId: () => new BoardError(400, 'invalid_board_id', 'board id must be a UUID'),
  invalidItem: (kind: string, index: number, reason: string) =>
    new BoardError(400, 'invalid_item', `invalid ${kind}[${index}]: ${reason}`, { kind, index, reason }),
  invalidContent: (field: string, reason: string) =>
    new BoardError(400, 'invalid_content', `invalid ${field}: ${reason}`, { field, reason }),
  contentModeMismatch: (reason: string) => new BoardError(400, 'content_mode_mismatch', reason),
  importQuotaExceeded: (kind: string, reason: string) =>
    new BoardError(400, 'quota_exceeded', `import would exceed the ${kind} quota: ${reason}`, { kind, reason }),
  boardNotEmpty: () =>
    new BoardError(
      400,
      'board_not_empty',
      'the board holds texts, strokes, images or tasks; its mode can only change while it is empty',
    ),
  wrongMode: (needed: string) => new BoardError(400, 'wrong_mode', `this operation needs a ${needed} board`),
  unknownKind: (kind: string, allowed: readonly string[]) =>
    new BoardError(400, 'unknown_kind', `unknown item kind "${kind}"; use one of ${allowed.join(', ')}`, {
      kind,
      allowed,
    }),
  unsupported: (field: string, reason: string) =>
    new BoardError(400, 'unsupported_field', `${field} is not supported yet: ${reason}`, { field, reason }),
  boardLocked: (lockMode: string, keyState: KeyState) =>
    new BoardError(
      401,
      'board_locked',
      keyState === 'missing'
        ? 'this board is locked; send its access key in X-Board-Key'
        : 'the access key sent is wrong for this board; send the key given when it was locked, in X-Board-Key',
      { locked: true, lockMode, keyState },
    ),
  invalidImportToken: () => new BoardError(403, 'invalid_import_token', 'X-Import-Token does not match'),
  invalidKey: (keyState: KeyState) =>
    new BoardError(
      403,
      'invalid_key',
      keyState === 'missing'
        ? 'this board is locked; send its current key in X-Board-Key to change its lock'
        : 'the access key sent is wrong for this board; send its current key in X-Board-Key',
      { keyState },
    ),
  boardNotLocked: () => new BoardError(400, 'board_not_locked', 'this board is not locked'),
  lockConflict: () => new BoardError(409, 'lock_conflict', 'the lock changed while this request ran; reload and retry'),
  boardNotFound: () => new BoardError(404, 'board_not_found', 'no such board'),
  boardDeleted: (deletedAt: string) =>
    new BoardError(
      404,
      'board_deleted',
      `this board was erased at ${deletedAt} UTC; its id can be reused ${TOMBSTONE_RETENTION_DAYS} days later`,
      { deleted_at: deletedAt },
    ),
  itemNotFound: (kind: string, id: string) =>
    new BoardError(404, 'item_not_found', `no ${kind} with id ${id}`, { kind, id }),
  versionNotFound: (version: number) =>
    new BoardError(404, 'version_not_found', `no version ${version} of this board (it does not exist or was thinned)`, {
      version,
    }),
  historyGone: (reason: string) =>
    new BoardError(410, 'history_gone', `${reason}; read the whole board again (GET /json/{boardId})`, { reason }),
  routeNotFound: (method: string, url: string) => new BoardError(404, 'route_not_found', `no route ${method} ${url}`),
  quotaExceeded: (kind: string, detail: string) =>
    new BoardError(413, 'quota_exceeded', `quota exceeded: ${detail}`, { kind, detail }),
  payloadTooLarge: (limitBytes: number) =>
    new BoardError(413, 'payload_too_large', `request body is larger than ${limitBytes} bytes`, { limitBytes }),
  unsupportedMediaType: () =>
    new BoardError(415, 'unsupported_media_type', 'send the body as JSON, with Content-Type: application/json'),
  rateLimited: (retryAfterSeconds: number) =>
    new BoardError(429, 'rate_limited', 'too many requests; retry later', { retryAfterSeconds }),
  storageUnavailable: () =>
    new BoardError(503, 'storage_unavailable', 'the change could not be stored; nothing was changed, retry later'),
  outcomeUnknown: () =>
    new BoardError(
      503,
      'outcome_unknown',
      'the storage stopped answering after the change was sent: it may or may not be stored; retry with the same Idempotency-Key (which answers what was stored, or stores it once), or read the board to find out',
    ),
  invalidIdempotencyKey: (reason: string) =>
    new BoardError(400, 'invalid_idempotency_key', `invalid idempotency key: ${reason}`, { reason }),
  idempotencyKeyInUse: () =>
    new BoardError(
      409,
      'idempotency_key_in_use',
      'a request with this idempotency key is still being processed; retry once it has answered',
    ),
  idempotencyKeyReused: () =>
    new BoardError(
      422,
      'idempotency_key_reused',
      'this idempotency key was used for another request; use a fresh key for a new request',
    ),
  previewUnavailable: (reason: 'timeout' | 'crashed' | 'busy') =>
    new BoardError(
      503,
      'preview_unavailable',
      reason === 'busy'
        ? 'too many previews and diagram layouts are waiting; retry later'
        : `the preview or diagram layout could not be made (${reason === 'timeout' ? 'it took too long' : 'its worker stopped'}); retry later`,
      { reason },
    ),
  internal: () => new BoardError(500, 'internal_error', 'internal error'),
};

/**
 * What to do about each limit, by the `kind` of its quota_exceeded: a limit
 * on one item's size asks for a smaller item (erasing others would not help),
 * a limit on a board's count for fewer items. An import (status 400) creates
 * a board, so its count limits ask for less content instead.
 */
const ITEM_SIZE_ADVICE: Record<string, string> = {
  text_chars: 'shorten the text, or split it into several texts',
  task_content_chars: 'shorten the task content, or split it over several tasks',
  image_bytes_per_item: 'send a smaller image (scale it down, or compress it as JPEG or WebP)',
};
const BOARD_COUNT_ADVICE: Record<string, string> = {
  texts: 'erase texts or links that are no longer needed, or use another board',
  strokes: 'erase strokes that are no longer needed, or use another board',
  images: 'erase images that are no longer needed, or use another board',
  image_bytes_total: 'use smaller images, erase some, or use another board',
  columns: 'delete columns that are no longer needed, or use another board',
  columns_per_lane: 'put the column in another lane, or delete one of this lane',
  tasks: 'delete tasks that are no longer needed, or use another board',
};

/** The next step for a quota_exceeded of `kind`; `importing` for an import's content (create_board, POST /api/boards). */
export function quotaAdvice(kind: unknown, importing: boolean): string {
  const key = String(kind);
  if (Object.hasOwn(ITEM_SIZE_ADVICE, key)) return ITEM_SIZE_ADVICE[key];
  if (importing)
    return 'import less: a new board holds no more than this, so leave some items out or spread them over several boards';
  if (Object.hasOwn(BOARD_COUNT_ADVICE, key)) return BOARD_COUNT_ADVICE[key];
  return 'send less';
}

/**
 * Every WebSocket close code the service sends, with its reason: one list for
 * `/ws` and `/collab` (docs/realtime.md). The 4xxx codes mirror the HTTP
 * status of the same refusal; 4008 and 1009 are the protocol's own.
 */
export const CLOSE = {
  /** A Yjs client kept sending changes the server had to repair. */
  invalidUpdates: { code: 4400, reason: 'invalid_updates' },
  /** The board's lock changed what this connection may do: reconnect and be authorised afresh. */
  boardLocked: { code: 4401, reason: 'board_locked' },
  boardErased: { code: 4404, reason: 'board_erased' },
  /** Over the board's Yjs update budget: the provider reconnects with backoff and resyncs. */
  rateLimited: { code: 4429, reason: 'rate_limited' },
  /** The storage refused a change (the document was dropped) or could not be read to authorise the connection: reconnect. */
  storageUnavailable: { code: 4503, reason: 'storage_unavailable' },
  /** The client could not keep up with what it was sent. */
  slowConsumer: { code: 4008, reason: 'slow_consumer' },
  frameTooLarge: { code: 1009, reason: 'frame_too_large' },
} as const;

export type FieldError = (field: string, reason: string) => BoardError;

/** The dotted path an issue is about; for keys a strict object refuses, the (first) key itself. */
export function issueField(issue: z.core.$ZodIssue): string {
  const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]] : issue.path;
  return path.map(String).join('.');
}

/**
 * The first issue of a failed parse with a schema from schema/, as the spec's
 * `{field, reason}` (400 invalid_payload unless told otherwise). A schema may
 * name another code for its issue (`params.code`, e.g. DrawKind's
 * `unknown_kind`), so that every surface answers it alike.
 */
export function fromZodIssues(issues: z.core.$ZodIssue[], toError: FieldError = errors.invalidPayload): BoardError {
  const issue = issues[0];
  if (issue.code === 'custom' && issue.params?.code === 'unknown_kind')
    return errors.unknownKind(String(issue.input), issue.params.allowed);
  const field = issueField(issue);
  const missing = issue.code === 'invalid_type' && 'input' in issue && issue.input === undefined;
  return toError(field, missing ? 'is required' : issue.message);
}
