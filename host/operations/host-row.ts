/**
 * A host row: an operation the host answers itself (see HostOp), with its
 * behaviour in the row. `run` takes the tool's arguments (board_id among
 * them) and what the surface knows of the call; each surface runs it the
 * same way and only translates its answer.
 */
import type { z } from 'zod';
import { type ArgsOf, type HostOp, host, type ToolWords } from '../../board/operations/row.js';
import type { Caller } from '../access/access.js';
import type { Boards } from '../boards/boards.js';
import type { IdempotentRequest } from '../boards/idempotency.js';

/** What a surface knows of a call beside its arguments. */
export type HostCall = {
  /** The caller for a board (MCP finds the key an agent gave before for it); for create_board, none yet. */
  caller: (boardId?: string) => Caller;
  /** Aborted when the client goes away: a long poll stops waiting. */
  signal: AbortSignal;
  retry?: IdempotentRequest;
  /** The service's public URL as this call reached it: where a link an answer names points. */
  baseUrl: string;
};

export type HostArgs<A extends z.ZodType> = ArgsOf<A> & { board_id: string; access_key?: string };

export type HostRow<A extends z.ZodType = z.ZodType, T extends ToolWords | undefined = ToolWords | undefined> = HostOp<
  A,
  T
> & {
  // A method, so that every row is a HostRow whatever its arguments.
  run(boards: Boards, args: HostArgs<A>, call: HostCall): Promise<object>;
};

/** An agent's read (an MCP call) comes in pages sized for a model's context, without strokes' points; a script's is whole. */
export const readsForAgent = (caller: Caller) => caller.surface === 'mcp';

export const hostRow = <A extends z.ZodType, T extends ToolWords | undefined = undefined>(
  row: Parameters<typeof host<A, T>>[0] & { run: HostRow<A, T>['run'] },
): HostRow<A, T> => ({ ...host(row), run: row.run });
