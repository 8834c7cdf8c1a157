/**
 * The domain's rows of the operation table: every mutation and view, and the
 * maps derived from them that the domain itself uses (the /ws frames and
 * batch ops). A row is everything about one operation, keyed by its name
 * once: its argument and result schemas (from schema/), what it does to the
 * board, its lock rule and rate class, and the surfaces that carry it: its
 * REST routes, its /ws frame (its name, unless it says otherwise) and its MCP
 * tool, with the words each shows. The host adds its own rows, which need
 * what the document does not hold, and assembles the whole table
 * (host/operations/operations.ts).
 *
 * The words live in the row, not beside an adapter: a reader of one row sees
 * what the operation does and how every surface presents it. What is only an
 * adapter's (the icons' SVGs, the MCP annotation objects, the OpenAPI error
 * lists) stays there, keyed by the row's `group` and `effect`.
 *
 * Not here: REST's representation routes (/json with its ETag, /svg-preview,
 * tasks.csv, a version's snapshot), which answer the same views in another
 * form than JSON and keep their own handlers in adapters/rest.
 */
import type { z } from 'zod';
import { BatchInput, type BatchOp, BatchResult, MAX_BATCH_OPS } from '../../schema/index.js';
import { applyBatch, type BatchOpCall, compactResult, parseBatchOps } from '../mutations/batch.js';
import type { BoardWrite } from '../mutations/board-write.js';
import { BOARD_SETTING_ROWS, FIND_ROWS, SELECTION_ROWS } from './board-rows.js';
import { DRAW_ROWS } from './draw-rows.js';
import { type HostOp, type MutationOp, mutation, post, type ViewOp } from './row.js';
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

export { BOARD_SETTING_ROWS, DRAW_ROWS, FIND_ROWS, SELECTION_ROWS, TODO_READ_ROWS, TODO_ROWS };

export const BATCH_ROWS = {
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

/** A row of any kind, before the host gives its rows their behaviour. */
export type AnyRow = MutationOp<z.ZodType, unknown> | ViewOp<z.ZodType, unknown> | HostOp<z.ZodType>;
export type AnyMutation = Extract<AnyRow, { kind: 'mutation' }>;
export type AnyView = Extract<AnyRow, { kind: 'view' }>;

/** Gives each row its key as its name, and a mutation its frame: its name unless it names another or none; a named row stays as it is. */
export function named<T extends Record<string, object>>(rows: T): T {
  for (const [name, row] of Object.entries(rows) as [string, AnyRow & { frameName?: string | false }][]) {
    if (row.name) continue;
    row.name = name;
    const frame = row.kind === 'mutation' && row.frameName !== false ? (row.frameName ?? name) : undefined;
    delete row.frameName;
    if (frame) row.frame = frame;
  }
  return rows;
}

/** The rows the domain answers (a mutation or a view), in table order; host/operations/operations.ts adds the host's. */
export const DOMAIN_OPERATIONS = named({
  ...DRAW_ROWS,
  ...BOARD_SETTING_ROWS,
  ...TODO_ROWS,
  ...BATCH_ROWS,
  ...TODO_READ_ROWS,
  ...FIND_ROWS,
  ...SELECTION_ROWS,
});
const DOMAIN_LIST: readonly AnyRow[] = Object.values(DOMAIN_OPERATIONS) as AnyRow[];

/** The row each /ws mutation frame runs, by frame type. */
export const FRAME_OPERATIONS: Readonly<Record<string, AnyMutation>> = Object.fromEntries(
  DOMAIN_LIST.flatMap((row) => (row.kind === 'mutation' && row.frame ? [[row.frame, row]] : [])),
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
  return applyBatch(w, ops, (write, op) => BATCH_OPERATIONS[op.type].mutate(write, op.args));
}
