/**
 * The one error type of the service and the list of its errors: every code
 * the service answers is made here. Each carries the HTTP status, the
 * specification's machine `code` and its details; every adapter has one
 * mapper from a BoardError to its own wire, and docs/api.md and
 * /openapi.json list the codes from here.
 */

import type { z } from 'zod';
import {
  MAX_BATCH_OPS,
  RETRY_AFTER_SECONDS,
  TOMBSTONE_RETENTION_DAYS,
  WS_CONTINUATION_IDLE_MS,
  WS_CONTINUATION_MAX_FRAMES,
} from '../../schema/limits.js';

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

  /** The same refusal with more details (a batch names the op that was refused). */
  withDetails(details: ErrorDetails): BoardError {
    return new BoardError(this.status, this.code, this.message, { ...this.details, ...details });
  }

  /** The same refusal under another status (a 4xx the HTTP framework raised keeps its own). */
  withStatus(status: number): BoardError {
    return new BoardError(status, this.code, this.message, this.details);
  }
}

/**
 * Where a code arises when it is not an answer of the routes at large:
 * `on` names the place, `statusSent: false` when no HTTP status carries it
 * (an error frame, a JSON-RPC error in a 200, the browser's own refusal).
 */
export type ErrorScope = { on: string; statusSent?: false };

/** An entry of the list: called, it makes its error; its status, code and scope are read without calling it. */
export type ListedError<A extends unknown[]> = ((...args: A) => BoardError) & {
  status: number;
  code: string;
  scope?: ErrorScope;
  /** The message (and details) of the arguments; its parameter names stand in for them in docs/api.md. */
  describe: (...args: A) => string | [string, ErrorDetails];
};

function listed<A extends unknown[]>(
  status: number,
  code: string,
  describe: (...args: A) => string | [string, ErrorDetails],
  scope?: ErrorScope,
): ListedError<A> {
  const make = (...args: A) => {
    const described = describe(...args);
    const [message, details] = typeof described === 'string' ? [described, {}] : described;
    return new BoardError(status, code, message, details);
  };
  return Object.assign(make, { status, code, describe, ...(scope && { scope }) });
}

/** Why a key did not open a locked board: none was sent, or the one sent is not its key. */
export type KeyState = 'missing' | 'wrong';
export const keyStateOf = (key: string | undefined): KeyState => (key === undefined ? 'missing' : 'wrong');

const JSON_CHANNEL: ErrorScope = { on: 'the JSON channel, as an error frame', statusSent: false };

export const errors = {
  invalidPayload: listed(400, 'invalid_payload', (field: string, reason: string) => [
    `invalid ${field || 'body'}: ${reason}`,
    { field, reason },
  ]),
  invalidJson: listed(400, 'invalid_json', (reason: string) => `body is not valid JSON: ${reason}`),
  invalidBoardId: listed(400, 'invalid_board_id', () => 'board id must be a UUID'),
  invalidItem: listed(400, 'invalid_item', (kind: string, index: number, reason: string) => [
    `invalid ${kind}[${index}]: ${reason}`,
    { kind, index, reason },
  ]),
  invalidContent: listed(400, 'invalid_content', (field: string, reason: string) => [
    `invalid ${field}: ${reason}`,
    { field, reason },
  ]),
  contentModeMismatch: listed(400, 'content_mode_mismatch', (reason: string) => reason),
  importQuotaExceeded: listed(400, 'quota_exceeded', (kind: string, reason: string) => [
    `import would exceed the ${kind} quota: ${reason}`,
    { kind, reason },
  ]),
  boardNotEmpty: listed(
    400,
    'board_not_empty',
    () => 'the board holds texts, strokes, images, shapes, frames or tasks; its mode can only change while it is empty',
  ),
  wrongMode: listed(400, 'wrong_mode', (needed: string) => `this operation needs a ${needed} board`),
  unknownKind: listed(400, 'unknown_kind', (kind: string, allowed: readonly string[]) => [
    `unknown item kind "${kind}"; use one of ${allowed.join(', ')}`,
    { kind, allowed },
  ]),
  unsupported: listed(400, 'unsupported_field', (field: string, reason: string) => [
    `${field} is not supported yet: ${reason}`,
    { field, reason },
  ]),
  boardNotLocked: listed(400, 'board_not_locked', () => 'this board is not locked'),
  invalidCursor: listed(400, 'invalid_cursor', (reason: string) => [
    `invalid cursor: ${reason}`,
    { field: 'cursor', reason },
  ]),
  invalidIdempotencyKey: listed(400, 'invalid_idempotency_key', (reason: string) => [
    `invalid idempotency key: ${reason}`,
    { reason },
  ]),
  /** Listed as 400, the usual one; the HTTP mapper keeps the status the framework gave (`withStatus`). */
  badRequest: listed(400, 'bad_request', (message: string) => message),
  boardLocked: listed(401, 'board_locked', (lockMode: string, keyState: KeyState) => [
    keyState === 'missing'
      ? 'this board is locked; send its access key in X-Board-Key'
      : 'the access key sent is wrong for this board; send the key given when it was locked, in X-Board-Key',
    { locked: true, lockMode, keyState },
  ]),
  metricsUnauthorized: listed(401, 'metrics_unauthorized', () => 'send Authorization: Bearer <METRICS_TOKEN>', {
    on: '/metrics',
  }),
  invalidKey: listed(403, 'invalid_key', (keyState: KeyState) => [
    keyState === 'missing'
      ? 'this board is locked; send its current key in X-Board-Key to change its lock'
      : 'the access key sent is wrong for this board; send its current key in X-Board-Key',
    { keyState },
  ]),
  invalidImportToken: listed(403, 'invalid_import_token', () => 'X-Import-Token does not match'),
  readOnlyLink: listed(
    403,
    'read_only_link',
    () => 'this is a view-only link: it reads the board and changes nothing (its editors hold the board id)',
  ),
  hostNotAllowed: listed(
    403,
    'host_not_allowed',
    (host: string) =>
      `Forbidden: this server does not answer MCP for the host ${JSON.stringify(host)}; use its public URL`,
    { on: '/mcp' },
  ),
  boardNotFound: listed(404, 'board_not_found', () => 'no such board'),
  boardDeleted: listed(404, 'board_deleted', (deletedAt: string) => [
    `this board was erased at ${deletedAt} UTC; its id can be reused ${TOMBSTONE_RETENTION_DAYS} days later`,
    { deleted_at: deletedAt },
  ]),
  itemNotFound: listed(404, 'item_not_found', (kind: string, id: string) => [`no ${kind} with id ${id}`, { kind, id }]),
  versionNotFound: listed(404, 'version_not_found', (version: number) => [
    `no version ${version} of this board (it does not exist or was thinned)`,
    { version },
  ]),
  viewLinkNotFound: listed(404, 'view_link_not_found', (id: string) => [
    `no live view link with id ${id} on this board`,
    { id },
  ]),
  routeNotFound: listed(404, 'route_not_found', (method: string, url: string) => `no route ${method} ${url}`),
  lockConflict: listed(409, 'lock_conflict', () => 'the lock changed while this request ran; reload and retry'),
  tooManyViewLinks: listed(409, 'too_many_view_links', (limit: number) => [
    `a board holds at most ${limit} live view links: revoke one first`,
    { limit },
  ]),
  idempotencyKeyInUse: listed(
    409,
    'idempotency_key_in_use',
    () => 'a request with this idempotency key is still being processed; retry once it has answered',
  ),
  historyGone: listed(410, 'history_gone', (reason: string) => [
    `${reason}; read the whole board again (GET /json/{boardId})`,
    { reason },
  ]),
  quotaExceeded: listed(413, 'quota_exceeded', (kind: string, detail: string) => [
    `quota exceeded: ${detail}`,
    { kind, detail },
  ]),
  payloadTooLarge: listed(413, 'payload_too_large', (limitBytes: number) => [
    `request body is larger than ${limitBytes} bytes`,
    { limitBytes },
  ]),
  unsupportedMediaType: listed(
    415,
    'unsupported_media_type',
    () => 'send the body as JSON, with Content-Type: application/json',
  ),
  idempotencyKeyReused: listed(
    422,
    'idempotency_key_reused',
    () => 'this idempotency key was used for another request; use a fresh key for a new request',
  ),
  rateLimited: listed(429, 'rate_limited', (retryAfterSeconds: number) => [
    'too many requests; retry later',
    { retryAfterSeconds },
  ]),
  tooManyConnections: listed(
    429,
    'too_many_connections',
    (limit: number) => [
      `at most ${limit} WebSockets per client; close some first`,
      { retryAfterSeconds: RETRY_AFTER_SECONDS },
    ],
    { on: 'a WebSocket upgrade' },
  ),
  tooManyStreams: listed(
    429,
    'too_many_streams',
    (limit: number) => [
      `at most ${limit} open subscriptions/listen streams per client: close one (or listen to several URIs on one stream) first`,
      { limit },
    ],
    { on: '/mcp, as a JSON-RPC error', statusSent: false },
  ),
  internal: listed(500, 'internal_error', () => 'internal error'),
  storageUnavailable: listed(
    503,
    'storage_unavailable',
    () => 'the change could not be stored; nothing was changed, retry later',
  ),
  outcomeUnknown: listed(
    503,
    'outcome_unknown',
    () =>
      'the storage stopped answering after the change was sent: it may or may not be stored; retry with the same Idempotency-Key (which answers what was stored, or stores it once), or read the board to find out',
  ),
  previewUnavailable: listed(503, 'preview_unavailable', (reason: 'timeout' | 'crashed' | 'busy') => [
    reason === 'busy'
      ? 'too many previews and diagram layouts are waiting; retry later'
      : `the preview or diagram layout could not be made (${reason === 'timeout' ? 'it took too long' : 'its worker stopped'}); retry later`,
    { reason },
  ]),
  notReady: listed(
    503,
    'not_ready',
    (reasons: readonly string[]) => [`not ready: ${reasons.join(', ')}`, { reasons }],
    {
      on: '/readyz',
    },
  ),
  // What the JSON channel and the browser app refuse: no HTTP status carries these.
  unknownFrame: listed(
    400,
    'unknown_frame',
    (type: string) => [`unknown frame type "${type}"`, { frameType: type }],
    JSON_CHANNEL,
  ),
  batchInProgress: listed(
    400,
    'batch_in_progress',
    () => 'finish the batch in progress (same ref) before another',
    JSON_CHANNEL,
  ),
  batchTooLarge: listed(
    400,
    'batch_too_large',
    () => `a batch holds at most ${MAX_BATCH_OPS} ops over at most ${WS_CONTINUATION_MAX_FRAMES} frames`,
    JSON_CHANNEL,
  ),
  batchTimeout: listed(
    400,
    'batch_timeout',
    () => `no frame continued the batch within ${WS_CONTINUATION_IDLE_MS} ms; nothing was applied`,
    JSON_CHANNEL,
  ),
  imagesViaRest: listed(400, 'images_via_rest', () => 'images are uploaded, not written to the document', {
    on: "the browser app's own writes (never sent)",
    statusSent: false,
  }),
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
  /** The view link this connection was opened with was revoked: its token names no board any more. */
  viewLinkRevoked: { code: 4404, reason: 'view_link_revoked' },
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
