/**
 * The whole operation table: the domain's rows (board/operations) and the
 * host's (here, with their `run`), in the order tools/list gives the tools
 * and OpenAPI the routes. REST, MCP, OpenAPI, tools/list, llms.txt and
 * docs/api.md are derived from it, so adding an operation is adding a row.
 */
import type { z } from 'zod';
import {
  type AnyMutation,
  type AnyView,
  BATCH_ROWS,
  BOARD_SETTING_ROWS,
  DRAW_ROWS,
  FIND_ROWS,
  named,
  SELECTION_ROWS,
  TODO_READ_ROWS,
  TODO_ROWS,
} from '../../board/operations/operations.js';
import type { ToolWords } from '../../board/operations/row.js';
import { ENTRY_ROWS, TASK_QUERY_ROWS, WAIT_ROWS } from './board-rows.js';
import { HISTORY_ROWS } from './history-rows.js';
import type { HostRow } from './host-row.js';
import { VIEW_LINK_ROWS } from './view-link-rows.js';

export type { HostArgs, HostCall, HostRow } from './host-row.js';

/** A row of the table: the domain's mutations and views, and the host's rows with their behaviour. */
export type AnyOperation = AnyMutation | AnyView | HostRow;

/** Every operation, in the order tools/list gives the tools and OpenAPI the routes. */
export const OPERATIONS = named({
  ...ENTRY_ROWS,
  ...VIEW_LINK_ROWS,
  ...DRAW_ROWS,
  ...WAIT_ROWS,
  ...BOARD_SETTING_ROWS,
  ...TODO_ROWS,
  ...BATCH_ROWS,
  ...TASK_QUERY_ROWS,
  ...TODO_READ_ROWS,
  ...FIND_ROWS,
  ...HISTORY_ROWS,
  ...SELECTION_ROWS,
});

type Operations = typeof OPERATIONS;
export type OperationName = keyof Operations;
/** The rows that are MCP tools. */
export type McpToolName = {
  [N in OperationName]: Operations[N]['tool'] extends ToolWords ? N : never;
}[OperationName];

/** Every row, in table order. */
export const OPERATION_LIST: readonly AnyOperation[] = Object.values(OPERATIONS) as AnyOperation[];

/** The rows that are MCP tools, by name, in the order of tools/list. */
export const TOOL_OPERATIONS = Object.fromEntries(
  OPERATION_LIST.filter((row) => row.tool).map((row) => [row.name, row]),
) as { [N in McpToolName]: Operations[N] & { tool: ToolWords } };

/** Each tool's arguments (with board_id and access_key) and its result (its outputSchema), by tool name. */
export const McpToolArgs = Object.fromEntries(
  Object.values(TOOL_OPERATIONS).map((row: AnyOperation) => [row.name, row.args]),
) as { [N in McpToolName]: Operations[N]['args'] };
export const McpToolOutputs = Object.fromEntries(
  Object.values(TOOL_OPERATIONS).map((row: AnyOperation) => [row.name, row.result]),
) as { [N in McpToolName]: z.ZodType };
