/**
 * The one mapper from BoardError to the MCP wire. Rejections a model can act
 * on (bad arguments, wrong mode, a missing item or version, thinned history)
 * become tool results with `isError`; the spec's protocol errors become
 * JSON-RPC errors with `data`:
 * -32000 for rate limits, quotas and the body cap, -32001 for a lock, and
 * invalid params for an unknown board or a board id that is not a UUID.
 */
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ZodError } from 'zod';
import { type BoardError, errors, knownError } from '../../server/board/errors.js';

export const MCP_SERVER_ERROR = -32000;
export const MCP_BOARD_LOCKED = -32001;
export const JSON_RPC_PARSE_ERROR = -32700;

/**
 * A JSON-RPC error as the SDK sends it (code, message, data). Not McpError,
 * whose message already carries an "MCP error <code>:" prefix that clients add
 * again.
 */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
  }
}
function asBoardError(error: unknown): BoardError {
  const known = knownError(error);
  if (known) return known;
  if (error instanceof McpError || error instanceof RpcError) throw error;
  if (error instanceof ZodError) {
    const issue = error.issues[0];
    return errors.invalidPayload(issue.path.map(String).join('.'), issue.message);
  }
  return errors.internal();
}

/** A JSON-RPC error for errors that are the protocol's business. */
export function toMcpError(boardError: BoardError): RpcError {
  const data = { code: boardError.code, ...boardError.details };
  if (boardError.status === 401) return new RpcError(MCP_BOARD_LOCKED, boardError.message, data);
  if (boardError.code === 'board_not_found' || boardError.code === 'board_deleted' || boardError.code === 'invalid_board_id') {
    return new RpcError(ErrorCode.InvalidParams, boardError.message, data);
  }
  if (boardError.status === 500) return new RpcError(ErrorCode.InternalError, boardError.message, data);
  if (boardError.code === 'invalid_json') return new RpcError(JSON_RPC_PARSE_ERROR, boardError.message, data);
  return new RpcError(MCP_SERVER_ERROR, boardError.message, data);
}

/**
 * Errors a model should read and act on in its next call: an item or version
 * that is not there, or history thinned past its starting point (it reads the
 * whole board instead).
 */
const ACTIONABLE: ReadonlySet<string> = new Set(['item_not_found', 'version_not_found', 'history_gone']);

/** True for errors a model should read and correct in its next call. */
function isToolError(boardError: BoardError): boolean {
  if (boardError.code === 'invalid_board_id') return false; // a board id that is not a UUID is invalid params, like an unknown one
  return boardError.status === 400 || ACTIONABLE.has(boardError.code);
}

/** A tool call that failed: a readable `isError` result, or a thrown JSON-RPC error. */
export function toolFailure(error: unknown): CallToolResult {
  const boardError = asBoardError(error);
  if (!isToolError(boardError)) throw toMcpError(boardError);
  return { content: [{ type: 'text', text: JSON.stringify(boardError.toBody()) }], isError: true };
}

/** A resource request that failed: always a JSON-RPC error. */
export function resourceFailure(error: unknown): never {
  const boardError = asBoardError(error);
  if (isToolError(boardError)) throw new RpcError(ErrorCode.InvalidParams, boardError.message, { code: boardError.code, ...boardError.details });
  throw toMcpError(boardError);
}
