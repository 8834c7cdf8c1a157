/**
 * Arguments of every MCP tool, as they arrive. Board tools take `board_id` and,
 * for locked boards, `access_key`; the rest are the REST bodies, so MCP, REST and
 * the WebSocket frames (named like these tools) validate the same way.
 */
import { z } from 'zod';
import { AccessKey, Author, BoardId, CardColor, ItemId } from './common.js';
import { CreateBoardInput, WaitTimeout } from './board.js';
import { DrawKind, ImageInput, LinkInput, MoveInput, StrokeInput, TextInput } from './draw.js';
import { ChangesQuery, EtagText, VersionNumber, VersionsQuery } from './history.js';
import { ColumnInput, ColumnWidthInput, DueDate, LaneInput, ModeInput, Priority, TaskInput, TaskMoveInput } from './todo.js';
import { HISTORY_PAGE_DEFAULT, MAX_TASKS } from './limits.js';

const BoardRef = {
  board_id: BoardId.describe('The board id (a UUID).'),
  access_key: AccessKey.optional().describe('The access key of a locked board (or send the X-Board-Key header).'),
};

const ColumnPatch = ColumnInput.omit({ id: true }).partial();
const TaskPatch = TaskInput.omit({ id: true }).partial();

/**
 * The arguments of the mutations MCP tools and JSON frames share, without
 * board_id and access_key. Each is a whole schema of its own, extended rather
 * than rebuilt from `.shape`, so that its refinements (cross-field rules such
 * as a text's postit/diagram) run on every surface.
 */
export const MutationArgs = {
  add_text: TextInput,
  add_link: LinkInput,
  add_image: ImageInput,
  draw_stroke: StrokeInput,
  move: MoveInput.safeExtend({ id: ItemId, kind: DrawKind.optional() }),
  erase: z.object({ id: ItemId, kind: DrawKind.optional() }),
  create_column: ColumnInput.omit({ id: true }),
  update_column: ColumnPatch.safeExtend({ id: ItemId }),
  delete_column: z.object({ id: ItemId }),
  create_task: TaskInput.omit({ id: true }).safeExtend({ column_id: ItemId }),
  update_task: TaskPatch.safeExtend({ id: ItemId }),
  move_task: TaskMoveInput.safeExtend({ id: ItemId }),
  delete_task: z.object({ id: ItemId }),
  set_lane: LaneInput,
  set_column_width: ColumnWidthInput,
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

/** The history tools' arguments (../shared/spec/history.md), on the schemas of the REST queries. */
const HistoryArgs = {
  list_versions: z.object({
    before: asNumber(VersionNumber).optional().describe('A version number: list the versions older than it (the `next` of the previous page).'),
    limit: asNumber(VersionsQuery.shape.limit.unwrap()).default(HISTORY_PAGE_DEFAULT).describe('Versions per page, 1 to 100 (default 50).'),
  }),
  // safeExtend keeps ChangesQuery's rule: exactly one of since and since_etag.
  get_changes: ChangesQuery.safeExtend({
    since: asNumber(VersionNumber).optional().describe('A version number: the changes since that version.'),
    since_etag: EtagText.optional().describe('An ETag you saw (from get_board or wait_for_update): the changes since that state.'),
  }),
  restore_version: z.object({
    version: asNumber(VersionNumber).describe('The version to bring back (from list_versions).'),
    author: Author.optional(),
  }),
} as const;

/** A board tool's arguments: the schema extended with board_id and access_key (extend keeps its refinements). */
const onBoard = <Shape extends z.ZodRawShape, Config extends z.core.$ZodObjectConfig>(schema: z.ZodObject<Shape, Config>) => schema.extend(BoardRef);

export const McpToolArgs = {
  create_board: CreateBoardInput,
  open_board: z.object({
    board: z.string({ error: 'must be a string' }).min(1).describe('A board URL ({base_url}/#<id>, ?embed=1#<id>, /json/<id>) or a bare board id.'),
    access_key: BoardRef.access_key,
  }),
  get_board: z.object(BoardRef),
  get_preview: z.object(BoardRef),
  add_text: onBoard(MutationArgs.add_text),
  add_link: onBoard(MutationArgs.add_link),
  add_image: onBoard(MutationArgs.add_image),
  draw_stroke: onBoard(MutationArgs.draw_stroke),
  move: onBoard(MutationArgs.move),
  erase: onBoard(MutationArgs.erase),
  wait_for_update: onBoard(z.object({
    timeout_ms: WaitTimeout,
    since_etag: EtagText.optional().describe('The ETag you last saw: when the board has already moved past it, returns at once.'),
  })),
  set_board_mode: onBoard(ModeInput),
  create_column: onBoard(MutationArgs.create_column),
  update_column: onBoard(MutationArgs.update_column),
  delete_column: onBoard(MutationArgs.delete_column),
  create_task: onBoard(MutationArgs.create_task),
  update_task: onBoard(MutationArgs.update_task),
  move_task: onBoard(MutationArgs.move_task),
  delete_task: onBoard(MutationArgs.delete_task),
  set_lane: onBoard(MutationArgs.set_lane),
  set_column_width: onBoard(MutationArgs.set_column_width),
  create_tasks: onBoard(z.object({
    tasks: z
      .array(MutationArgs.create_task)
      .min(1, { error: 'must hold at least one task' })
      .max(MAX_TASKS, { error: `must hold at most ${MAX_TASKS} tasks` }),
    author: Author.optional(),
  })),
  query_tasks: onBoard(z.object({
    assignee: z.string({ error: 'must be a string' }).trim().optional().describe('Matched case-insensitively and exactly, spaces around it ignored.'),
    priority: Priority.optional(),
    done: z.boolean().optional(),
    overdue: z.boolean().optional().describe('Only tasks due before today that are not done.'),
    due_before: DueDate.optional(),
    due_after: DueDate.optional(),
    color: CardColor.optional(),
  })),
  export_tasks: onBoard(z.object({ format: z.enum(['csv', 'markdown'], { error: 'must be "csv" or "markdown"' }) })),
  list_tasks: z.object(BoardRef),
  list_versions: onBoard(HistoryArgs.list_versions),
  get_changes: HistoryArgs.get_changes.safeExtend(BoardRef),
  restore_version: onBoard(HistoryArgs.restore_version),
} as const;

export type McpToolName = keyof typeof McpToolArgs;
