/**
 * Arguments of every MCP tool, as they arrive. Board tools take `board_id` and,
 * for locked boards, `access_key`; the rest are the REST bodies, so MCP, REST and
 * the WebSocket frames (named like these tools) validate the same way.
 */
import { z } from 'zod';
import { AccessKey, Author, BoardId, CardColor, ItemId } from './common.js';
import { CreateBoardInput, WaitTimeout } from './board.js';
import { DrawKind, ImageInput, LinkInput, MoveInput, StrokeInput, TextInput } from './draw.js';
import { ColumnInput, ColumnWidthInput, DueDate, LaneInput, ModeInput, Priority, TaskInput, TaskMoveInput } from './todo.js';
import { MAX_TASKS } from './limits.js';

const BoardRef = {
  board_id: BoardId.describe('The board id (a UUID).'),
  access_key: AccessKey.optional().describe('The access key of a locked board (or send the X-Board-Key header).'),
};

const onBoard = <T extends z.ZodRawShape>(shape: T) => z.object({ ...BoardRef, ...shape });

const ColumnPatch = ColumnInput.omit({ id: true }).partial();
const TaskPatch = TaskInput.omit({ id: true }).partial();

export const McpToolArgs = {
  create_board: CreateBoardInput,
  open_board: z.object({
    board: z.string({ error: 'must be a string' }).min(1).describe('A board URL ({base_url}/#<id>, ?embed=1#<id>, /json/<id>) or a bare board id.'),
    access_key: BoardRef.access_key,
  }),
  get_board: onBoard({}),
  get_preview: onBoard({}),
  add_text: onBoard(TextInput.shape),
  add_link: onBoard(LinkInput.shape),
  add_image: onBoard(ImageInput.shape),
  draw_stroke: onBoard(StrokeInput.shape),
  move: onBoard({ id: ItemId, kind: DrawKind.optional(), ...MoveInput.shape }),
  erase: onBoard({ id: ItemId, kind: DrawKind.optional() }),
  wait_for_update: onBoard({ timeout_ms: WaitTimeout }),
  set_board_mode: onBoard(ModeInput.shape),
  create_column: onBoard(ColumnInput.omit({ id: true }).shape),
  update_column: onBoard({ id: ItemId, ...ColumnPatch.shape }),
  delete_column: onBoard({ id: ItemId }),
  create_task: onBoard({ ...TaskInput.omit({ id: true }).shape, column_id: ItemId }),
  update_task: onBoard({ id: ItemId, ...TaskPatch.shape }),
  move_task: onBoard({ id: ItemId, ...TaskMoveInput.shape }),
  delete_task: onBoard({ id: ItemId }),
  set_lane: onBoard(LaneInput.shape),
  set_column_width: onBoard(ColumnWidthInput.shape),
  create_tasks: onBoard({
    tasks: z
      .array(z.object({ ...TaskInput.omit({ id: true }).shape, column_id: ItemId }))
      .min(1, { error: 'must hold at least one task' })
      .max(MAX_TASKS, { error: `must hold at most ${MAX_TASKS} tasks` }),
    author: Author.optional(),
  }),
  query_tasks: onBoard({
    assignee: z.string().optional(),
    priority: Priority.optional(),
    done: z.boolean().optional(),
    overdue: z.boolean().optional().describe('Only tasks due before today that are not done.'),
    due_before: DueDate.optional(),
    due_after: DueDate.optional(),
    color: CardColor.optional(),
  }),
  export_tasks: onBoard({ format: z.enum(['csv', 'markdown'], { error: 'must be "csv" or "markdown"' }) }),
  list_tasks: onBoard({}),
} as const;

export type McpToolName = keyof typeof McpToolArgs;
