/**
 * The one mapper from BoardError to the MCP wire, for both eras.
 *
 * A refused tool call on the 2026-07-28 revision is always a tool result with
 * `isError: true`: its text is the JSON of the REST error body (`error`,
 * the machine `code` and details such as `retryAfterSeconds`) plus `next`,
 * one sentence saying what to do next. A model reads results, not JSON-RPC
 * errors. It carries no `structuredContent`: clients (the 2025 SDK, the MCP
 * Inspector) check any they get against the tool's outputSchema, an error's too.
 *
 * The 2025 revisions keep the contract's mapping (the interface
 * specification, "MCP mapping"): a lock is JSON-RPC error -32001, a rate
 * limit, a quota or the body cap -32000, an unknown board invalid params, each with `data.code`;
 * bad arguments and a missing item are `isError` results there too. Their
 * messages carry the same next step.
 *
 * Protocol faults (a malformed request, an unknown tool or method, the body
 * cap, a resource read) are JSON-RPC errors on both.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { ZodError } from 'zod';
import { type BoardError, errors, quotaAdvice } from '../../board/model/errors.js';
import { MAX_BODY_BYTES, MAX_STROKE_POINTS } from '../../schema/index.js';
import { knownError } from '../../store/storage-errors.js';

export type Era = 'modern' | 'legacy';

/** How a tool call ended: `refused` is the caller's doing (arguments, lock, limit, quota), `error` the server's. */
export type ToolOutcome = 'ok' | 'refused' | 'error';

/** Told of every tool call's outcome (the operator's metrics). */
export type ToolCalls = (era: Era, tool: string, outcome: ToolOutcome) => void;

export const MCP_SERVER_ERROR = -32000;
export const MCP_BOARD_LOCKED = -32001;
export const JSON_RPC_PARSE_ERROR = -32700;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;

/** A JSON-RPC error as the SDK sends it (code, message, data). */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** What a call threw, as the one error type (an RpcError is the protocol's own, thrown on). */
export function asBoardError(error: unknown): BoardError {
  const known = knownError(error);
  if (known) return known;
  if (error instanceof RpcError) throw error;
  if (error instanceof ZodError) {
    const issue = error.issues[0];
    return errors.invalidPayload(issue.path.map(String).join('.'), issue.message);
  }
  return errors.internal();
}

/**
 * How the refused request can send a key: a tool call as its `access_key`
 * argument; a resource read or listen, which takes no arguments, only in the
 * X-Board-Key header of its HTTP request, or in a 2025 session also as the key
 * the session remembers from a tool call that gave it.
 */
export type KeyChannel = 'argument' | 'header' | 'session';

const LOCK_STEPS: Record<KeyChannel, Record<'missing' | 'wrong', (lockMode: string) => string>> = {
  argument: {
    missing: (lockMode) => `The board is locked (${lockMode}): call again with access_key set to its key.`,
    wrong: () =>
      'The key sent is wrong for this board: call again with access_key set to the key given when it was locked (each wrong key makes the next try wait longer).',
  },
  header: {
    missing: (lockMode) =>
      `The board is locked (${lockMode}): this request takes no access_key, so send the key in the X-Board-Key header of the HTTP request.`,
    wrong: () => 'The key in the X-Board-Key header is wrong for this board: send the key given when it was locked.',
  },
  session: {
    missing: (lockMode) =>
      `The board is locked (${lockMode}): this request takes no access_key; call open_board with access_key first (the session remembers the key), or send it in the X-Board-Key header.`,
    wrong: () =>
      'The key sent (the X-Board-Key header, else the one this session remembers from an access_key) is wrong for this board: call open_board with the right access_key.',
  },
};

/** The field of a stroke's points (draw_stroke's, or an import's `lines[i].points`). */
const STROKE_POINTS = /(^|\.)points$/;

/**
 * What an agent should do next, in one sentence, by error code. Keys are
 * always named as tool arguments: an agent cannot set HTTP headers.
 */
function nextStep(error: BoardError, keyChannel: KeyChannel = 'argument'): string {
  const details = error.details as Record<string, unknown>;
  switch (error.code) {
    case 'board_not_found':
      return 'No board has this id: call create_board for a new board, or open_board with the board URL you were given.';
    case 'board_deleted':
      return 'This board was erased: call create_board for a new one.';
    case 'invalid_board_id':
      return 'board_id must be the board UUID that create_board or open_board returned.';
    case 'board_locked':
    case 'invalid_key':
      return LOCK_STEPS[keyChannel][details.keyState === 'wrong' ? 'wrong' : 'missing'](String(details.lockMode));
    case 'read_only_link':
      return 'This board was opened with a view-only link: read it as much as you like; to change it, ask its editors for the board link.';
    case 'too_many_view_links':
      return 'Revoke a view link that is no longer needed (view_links action list, then revoke), then create again.';
    case 'view_link_not_found':
      return 'Call view_links with action list to see the live links and their ids.';
    case 'rate_limited':
      return `Too many calls: retry in ${String(details.retryAfterSeconds)} s.`;
    case 'quota_exceeded':
      return `Over the ${String(details.kind)} limit: ${quotaAdvice(details.kind, error.status === 400)}.`;
    case 'invalid_payload': {
      const reason = String(details.reason);
      if (STROKE_POINTS.test(String(details.field)) && reason.includes(`${MAX_STROKE_POINTS}`))
        return `Simplify the stroke to at most ${MAX_STROKE_POINTS} points, or split it into several strokes.`;
      if (/at most \d+ characters/.test(reason)) return `Shorten ${String(details.field)} and call again.`;
      return 'Correct the arguments and call again.';
    }
    case 'payload_too_large':
      return `The request is too large: send less (at most ${MAX_BODY_BYTES / 2 ** 20} MiB), for example in several calls.`;
    case 'item_not_found':
      return 'No item has this id: call get_board to see the current ids.';
    case 'version_not_found':
      return 'No such version: call list_versions to see the versions kept.';
    case 'invalid_cursor':
      return 'Pass the next_cursor the same tool last answered for this board, or call without cursor to start again.';
    case 'history_gone':
      return 'The history no longer reaches back that far: call get_board for the whole board.';
    case 'wrong_mode':
      return 'This tool does not fit the board kind: use the draw tools on a draw board and the column/task tools on a todo board, or set_board_mode on an empty board.';
    case 'board_not_empty':
      return 'Only an empty board changes kind: create_board makes a new one of the kind you need.';
    case 'storage_unavailable':
      return 'Nothing was changed: retry in a few seconds.';
    case 'outcome_unknown':
      return 'The change may or may not be stored: retry with the same _meta.idempotencyKey, or read the board to see.';
    case 'preview_unavailable':
      return 'The picture could not be drawn now: retry in a few seconds, or read the board with get_board.';
    case 'idempotency_key_in_use':
      return 'The first call with this idempotency key is still running: retry once it has answered.';
    case 'idempotency_key_reused':
      return 'This idempotency key belongs to another call: send a fresh one for a new call.';
    case 'internal_error':
      return 'Nothing was changed: retry, and report it if it repeats.';
    default:
      return 'Correct the arguments and call again.';
  }
}

/** Codes whose own message speaks of HTTP headers, which an agent cannot set: their next step says it all. */
const HEADER_MESSAGES: ReadonlySet<string> = new Set(['board_locked', 'invalid_key']);

/** The error's message followed by its next step. */
export const actionableMessage = (error: BoardError, keyChannel: KeyChannel = 'argument') =>
  HEADER_MESSAGES.has(error.code) ? nextStep(error, keyChannel) : `${error.message}. ${nextStep(error, keyChannel)}`;

/** A JSON-RPC error for errors that are the protocol's business (and, on the 2025 revisions, the contract's mapping). */
export function toMcpError(boardError: BoardError, keyChannel: KeyChannel = 'argument'): RpcError {
  const data = { code: boardError.code, ...boardError.details };
  const message = actionableMessage(boardError, keyChannel);
  // A view token is refused as a lock refuses: the contract's -32001, with its own code.
  if (boardError.status === 401 || boardError.code === 'read_only_link')
    return new RpcError(MCP_BOARD_LOCKED, message, data);
  if (
    boardError.code === 'board_not_found' ||
    boardError.code === 'board_deleted' ||
    boardError.code === 'invalid_board_id'
  ) {
    return new RpcError(INVALID_PARAMS, message, data);
  }
  if (boardError.status === 500) return new RpcError(INTERNAL_ERROR, boardError.message, data);
  if (boardError.code === 'invalid_json') return new RpcError(JSON_RPC_PARSE_ERROR, boardError.message, data);
  return new RpcError(MCP_SERVER_ERROR, message, data);
}

/**
 * Errors a 2025 session gets as `isError` results: ones the contract does not
 * map to a JSON-RPC error (bad arguments, a missing item or version, thinned
 * history).
 */
const LEGACY_RESULTS: ReadonlySet<string> = new Set(['item_not_found', 'version_not_found', 'history_gone']);

function isLegacyResult(boardError: BoardError): boolean {
  if (boardError.code === 'invalid_board_id') return false;
  return boardError.status === 400 || LEGACY_RESULTS.has(boardError.code);
}

/** The codes that are the server's fault (5xx) rather than the caller's. */
const SERVER_FAULTS: ReadonlySet<unknown> = new Set([
  'internal_error',
  'storage_unavailable',
  'outcome_unknown',
  'preview_unavailable',
]);

/** The outcome of a failed call, from what it threw or the `code` of its `isError` result. */
export function failureOutcome(failure: unknown): Exclude<ToolOutcome, 'ok'> {
  let code: unknown;
  if (failure instanceof RpcError)
    code = failure.data?.code ?? (failure.code === INTERNAL_ERROR ? 'internal_error' : undefined);
  else if (typeof failure === 'string') code = failure;
  else code = knownError(failure)?.code ?? 'internal_error';
  return SERVER_FAULTS.has(code) ? 'error' : 'refused';
}

/** A tool call that failed: an `isError` result, or on the 2025 revisions a thrown JSON-RPC error where the contract says so. */
export function toolFailure(boardError: BoardError, era: Era): CallToolResult {
  if (era === 'legacy' && !isLegacyResult(boardError)) throw toMcpError(boardError);
  // The REST body (the same words and fields on every surface) and the next step; a lock's words never name a header.
  const body = boardError.toBody();
  const refusal = {
    ...body,
    ...(HEADER_MESSAGES.has(boardError.code) && { error: nextStep(boardError) }),
    next: nextStep(boardError),
  };
  return { content: [{ type: 'text', text: JSON.stringify(refusal) }], isError: true };
}

/**
 * A resource request that failed: always a JSON-RPC error, naming the URI
 * asked for (SEP-2164). A 2025 session can lend it a remembered key; a
 * 2026-07-28 request only its header.
 */
export function resourceFailure(error: unknown, uri: string, era: Era): never {
  const boardError = asBoardError(error);
  const keyChannel = era === 'legacy' ? 'session' : 'header';
  if (isLegacyResult(boardError))
    throw new RpcError(INVALID_PARAMS, actionableMessage(boardError, keyChannel), {
      code: boardError.code,
      ...boardError.details,
      uri,
    });
  const rpc = toMcpError(boardError, keyChannel);
  throw new RpcError(rpc.code, rpc.message, { ...rpc.data, uri });
}
