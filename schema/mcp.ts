/**
 * Arguments of every MCP tool, as they arrive. Board tools take `board_id` and,
 * for locked boards, `access_key`; the rest are the REST bodies, so MCP, REST and
 * the WebSocket frames (named like these tools) validate the same way.
 */
import { z } from 'zod';
import { AccessKey, Author, BoardId, CardColor, dropping, ItemId, refuseUnknownKeys, strictObject } from './common.js';
import { BatchInput } from './batch.js';
import { CreateBoardInput, TitleInput, WaitTimeout } from './board.js';
import { DrawKind, ImageInput, LinkInput, MoveInput, StrokeInput, TextInput } from './draw.js';
import { ChangesQuery, EtagText, VersionNumber, VersionsQuery } from './history.js';
import {
  ColumnId,
  ColumnInput,
  ColumnWidthInput,
  DueDate,
  LaneInput,
  ModeInput,
  Priority,
  TaskInput,
  TaskMoveInput,
} from './todo.js';
import { advertise } from './json-schema.js';
import { HISTORY_PAGE_DEFAULT, MAX_TASKS, MAX_TEXT_NODES } from './limits.js';
import { Cursor, FindItemsQuery } from './pages.js';

/** Every board tool's first arguments; what a key is and when it is needed, the server's instructions say once. */
const BoardRef = {
  board_id: BoardId,
  access_key: AccessKey.optional(),
};

const ColumnPatch = ColumnInput.omit({ id: true }).partial();
const TaskPatch = TaskInput.omit({ id: true }).partial();

/**
 * The arguments of the mutations MCP tools and JSON frames share, without
 * board_id and access_key. Each is a whole schema of its own, extended rather
 * than rebuilt from `.shape`, so that its refinements (cross-field rules such
 * as a text's postit/diagram) run on every surface, and its rule on keys
 * (schema/common.ts itemObject): the keys of the item and of its snapshot,
 * nothing else. A create takes a snapshot item's `id` and drops it.
 */
export const MutationArgs = {
  add_text: TextInput,
  add_link: LinkInput,
  add_image: ImageInput,
  draw_stroke: StrokeInput,
  move: MoveInput.safeExtend({ id: ItemId, kind: DrawKind.optional() }),
  erase: strictObject({ id: ItemId, kind: DrawKind.optional() }),
  create_column: dropping(ColumnInput.omit({ id: true }), 'id'),
  update_column: ColumnPatch.safeExtend({ id: ItemId }),
  delete_column: strictObject({ id: ItemId }),
  create_task: dropping(TaskInput.omit({ id: true }).safeExtend({ column_id: ColumnId }), 'id'),
  update_task: TaskPatch.safeExtend({ id: ItemId }),
  move_task: TaskMoveInput.safeExtend({ id: ItemId }),
  delete_task: strictObject({ id: ItemId }),
  set_lane: LaneInput,
  set_column_width: ColumnWidthInput,
  set_board_title: TitleInput,
} as const;

/**
 * A history number as a tool argument: a JSON number, then the REST
 * validator's own checks (whole, in range), so both surfaces refuse alike.
 * The history schemas also take the digits of a query string, which a JSON
 * argument has no need of; a tool advertises an integer.
 */
const asNumber = <T extends z.ZodType<number, number | string>>(schema: T) =>
  // The cast narrows the schema's input to the number it is handed here (it takes number | string).
  z.int({ error: 'must be a whole number' }).pipe(schema as unknown as z.ZodType<number, number>);

/** The history tools' arguments (docs/history.md), on the schemas of the REST queries. */
const HistoryArgs = {
  list_versions: z.object({
    before: asNumber(VersionNumber).optional().describe('Page: next'),
    cursor: Cursor.optional(),
    limit: asNumber(VersionsQuery.shape.limit.unwrap()).default(HISTORY_PAGE_DEFAULT).describe('Versions per page'),
  }),
  // safeExtend keeps ChangesQuery's rule: exactly one of since and since_etag.
  get_changes: ChangesQuery.safeExtend({
    since: asNumber(VersionNumber).optional().describe('Version'),
    since_etag: EtagText.optional(),
  }),
  restore_version: z.object({
    version: asNumber(VersionNumber).describe('Version to bring back'),
    author: Author.optional(),
  }),
} as const;

/**
 * A board tool's arguments: the schema extended with board_id and access_key
 * (extend keeps its refinements), refusing unknown keys as the REST body and
 * the frame of the same write do (`colour` is refused naming `color`), the
 * known keys now with board_id and access_key among them.
 */
const onBoard = <Shape extends z.ZodRawShape, Config extends z.core.$ZodObjectConfig>(
  schema: z.ZodObject<Shape, Config>,
) => refuseUnknownKeys(schema.extend(BoardRef));

export const McpToolArgs = {
  create_board: CreateBoardInput,
  open_board: refuseUnknownKeys(
    z.object({
      board: z.string({ error: 'must be a string' }).min(1).describe('Board URL or id'),
      access_key: BoardRef.access_key,
    }),
  ),
  get_board: onBoard(
    z.object({
      detail: advertise(z.enum(['full', 'outline'], { error: 'must be "full" or "outline"' }), { enum: ['outline'] })
        .optional()
        .describe('Summary'),
      cursor: Cursor.optional(),
      include_points: z.boolean({ error: 'must be a boolean' }).optional().describe('Stroke points'),
      ids: advertise(
        z
          .array(ItemId)
          .min(1, { error: 'must name at least one item' })
          .max(MAX_TEXT_NODES, { error: `must name at most ${MAX_TEXT_NODES} items` }),
        { type: 'array', items: { type: 'string' } },
      )
        .optional()
        .describe('Only these, whole'),
    }),
  ),
  get_preview: onBoard(z.object({})),
  add_text: onBoard(MutationArgs.add_text),
  add_link: onBoard(MutationArgs.add_link),
  add_image: onBoard(MutationArgs.add_image),
  draw_stroke: onBoard(MutationArgs.draw_stroke),
  move: onBoard(MutationArgs.move),
  erase: onBoard(MutationArgs.erase),
  wait_for_update: onBoard(
    z.object({
      timeout_ms: WaitTimeout,
      since_etag: EtagText.optional(),
    }),
  ),
  set_board_mode: onBoard(ModeInput),
  set_board_title: onBoard(MutationArgs.set_board_title),
  create_column: onBoard(MutationArgs.create_column),
  update_column: onBoard(MutationArgs.update_column),
  delete_column: onBoard(MutationArgs.delete_column),
  create_task: onBoard(MutationArgs.create_task),
  update_task: onBoard(MutationArgs.update_task),
  move_task: onBoard(MutationArgs.move_task),
  delete_task: onBoard(MutationArgs.delete_task),
  set_lane: onBoard(MutationArgs.set_lane),
  set_column_width: onBoard(MutationArgs.set_column_width),
  create_tasks: onBoard(
    z.object({
      tasks: z
        // Advertised by reference to create_task, listed just before it: its fields again cost 850 bytes of tools/list.
        .array(
          advertise(refuseUnknownKeys(MutationArgs.create_task), {
            type: 'object',
            required: ['column_id', 'name'],
          }).describe('create_task args'),
        )
        .min(1, { error: 'must hold at least one task' })
        .max(MAX_TASKS, { error: `must hold at most ${MAX_TASKS} tasks` })
        .describe('Tasks to create'),
      author: Author.optional(),
    }),
  ),
  batch: onBoard(BatchInput),
  query_tasks: onBoard(
    z.object({
      assignee: z.string({ error: 'must be a string' }).trim().optional().describe('Exact, any case'),
      priority: Priority.optional(),
      done: z.boolean().optional().describe('Done'),
      overdue: z.boolean().optional().describe('Late, not done'),
      due_before: DueDate.optional().describe('Due before this day'),
      due_after: DueDate.optional().describe('Due after this day'),
      color: CardColor.optional(),
      cursor: Cursor.optional(),
    }),
  ),
  export_tasks: onBoard(
    z.object({
      format: z.enum(['csv', 'markdown'], { error: 'must be "csv" or "markdown"' }).describe('Output format'),
      cursor: Cursor.optional(),
    }),
  ),
  list_tasks: onBoard(z.object({ cursor: Cursor.optional() })),
  find_items: onBoard(FindItemsQuery),
  list_versions: onBoard(HistoryArgs.list_versions),
  get_changes: refuseUnknownKeys(HistoryArgs.get_changes.safeExtend(BoardRef)),
  restore_version: onBoard(HistoryArgs.restore_version),
} as const;

export type McpToolName = keyof typeof McpToolArgs;
