/**
 * The one table of board operations. A row is everything about one
 * operation, keyed by its name once: its argument and result schemas (from
 * schema/), what it does to the board, its lock rule and rate class, and the
 * surfaces that carry it: its REST routes, its /ws frame (its name, unless it
 * says otherwise) and its MCP tool, with the words each shows. REST, MCP, the
 * JSON channel, batch, OpenAPI, tools/list, llms.txt and docs/api.md are all
 * derived from these rows, so adding an operation is adding a row.
 *
 * The words live in the row, not beside an adapter: they are plain strings a
 * browser may carry, and a reader of one row sees what the operation does and
 * how every surface presents it. What is only an adapter's (the icons' SVGs,
 * the MCP annotation objects, the OpenAPI error lists) stays there, keyed by
 * the row's `group` and `effect`.
 *
 * Not here: REST's representation routes (/json with its ETag, /svg-preview,
 * tasks.csv, /wait, the history routes), which answer the same views in
 * another form than JSON and keep their own handlers in adapters/rest.
 */
import type { z } from 'zod';
import { BatchInput, BatchResult, type BatchOp, MAX_BATCH_OPS } from '../../schema/index.js';
import { applyBatch, type BatchOpCall, compactResult, parseBatchOps } from '../mutations/batch.js';
import type { BoardWrite } from '../mutations/board-write.js';
import { BOARD_ROWS, BOARD_SETTING_ROWS, FIND_ROWS, SELECTION_ROWS } from './board-rows.js';
import { DRAW_ROWS } from './draw-rows.js';
import { HISTORY_ROWS } from './history-rows.js';
import { type HostOp, type MutationOp, mutation, post, type ToolWords, type ViewOp } from './row.js';
import { TODO_READ_ROWS, TODO_ROWS } from './todo-rows.js';

export type {
  ArgsOf,
  Effect,
  HostOp,
  MutationOp,
  OperationGroup,
  RateClass,
  RestRoute,
  ToolWords,
  ViewOp,
} from './row.js';

const BATCH_ROWS = {
  // Its ops are parsed by the domain, not at the edge, so that a refused op names its index alike on every surface.
  batch: mutation({
    args: BatchInput,
    result: BatchResult,
    group: 'board',
    // An op may erase.
    effect: 'remove',
    rest: [post('/batch', BatchInput, 'Apply many edits at once, all or none', 'one result per op, in order')],
    tool: {
      title: 'Batch edits',
      description: `Up to ${MAX_BATCH_OPS} edits, all or none. Each op: {type: tool name, ...its args, ref?}; "$ref" as a later op's id, column_id or anchor id is that op's id.`,
    },
    frame: false,
    mutate: (w, args) => ({
      ok: true as const,
      results: runBatch(w, parseBatch(args.ops, 0, args.author)).map(compactResult),
    }),
  }),
};

export type AnyOperation = MutationOp<z.ZodType, unknown> | ViewOp<z.ZodType, unknown> | HostOp<z.ZodType>;
export type AnyMutation = Extract<AnyOperation, { kind: 'mutation' }>;
export type AnyView = Extract<AnyOperation, { kind: 'view' }>;

/** Gives each row its key as its name, and a mutation its frame: its name unless it names another or none. */
function named<T extends Record<string, object>>(rows: T): T {
  for (const [name, row] of Object.entries(rows) as [string, AnyOperation & { frameName?: string | false }][]) {
    row.name = name;
    const frame = row.kind === 'mutation' && row.frameName !== false ? (row.frameName ?? name) : undefined;
    delete row.frameName;
    if (frame) row.frame = frame;
  }
  return rows;
}

/** Every operation, in the order tools/list gives the tools and OpenAPI the routes. */
export const OPERATIONS = named({
  ...BOARD_ROWS,
  ...DRAW_ROWS,
  ...BOARD_SETTING_ROWS,
  ...TODO_ROWS,
  ...BATCH_ROWS,
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

/** The row each /ws mutation frame runs, by frame type. */
export const FRAME_OPERATIONS: Readonly<Record<string, AnyMutation>> = Object.fromEntries(
  OPERATION_LIST.flatMap((row) => (row.kind === 'mutation' && row.frame ? [[row.frame, row]] : [])),
);
export type MutationFrameType = string;
export const MUTATION_FRAME_TYPES: readonly MutationFrameType[] = Object.keys(FRAME_OPERATIONS);

/** The mutation frames' arguments (a mutation's, without board_id and access_key), by frame type. */
export const MUTATION_FRAMES: Readonly<Record<MutationFrameType, z.ZodType>> = Object.fromEntries(
  Object.entries(FRAME_OPERATIONS).map(([frame, row]) => [frame, row.input]),
);

/** The row each batch op runs: every frame's, and also by its tool's name where that differs (set_lane, lane_upsert). */
const BATCH_OPERATIONS: Readonly<Record<string, AnyMutation>> = {
  ...FRAME_OPERATIONS,
  ...Object.fromEntries(
    Object.values(FRAME_OPERATIONS).flatMap((row) => (row.frame !== row.name ? [[row.name, row]] : [])),
  ),
};
export type BatchOpType = string;
/** The arguments of each batch op, by type. */
export const BATCH_OP_ARGS: Readonly<Record<BatchOpType, z.ZodType>> = Object.fromEntries(
  Object.entries(BATCH_OPERATIONS).map(([type, row]) => [type, row.input]),
);

/** Parses a batch's ops against their rows (board/mutations/batch.ts). */
export const parseBatch = (ops: readonly BatchOp[], firstIndex = 0, author?: string): BatchOpCall[] =>
  parseBatchOps(BATCH_OP_ARGS, ops, firstIndex, author);

/** Runs a batch's parsed ops in order inside one write (board/mutations/batch.ts): every surface's batch ends here. */
export function runBatch(w: BoardWrite, ops: readonly BatchOpCall[]): unknown[] {
  return applyBatch(w, ops, (write, op) => BATCH_OPERATIONS[op.type].mutate(write, op.args as never));
}
