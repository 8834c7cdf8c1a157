/**
 * Arguments of every MCP tool, as they arrive. Board tools take `board_id` and,
 * for locked boards, `access_key`; the rest are the REST bodies, so MCP, REST and
 * the WebSocket frames (named like these tools) validate the same way.
 */
import { z } from 'zod';
import { CreateBoardInput, WaitTimeout } from './board.js';
import { AccessKey, Author, BoardId, CardColor, dropping, ItemId, refuseUnknownKeys, strictObject } from './common.js';
import { DrawKind, MoveInput } from './draw.js';
import { ChangesQuery, EtagText, VersionNumber, VersionsQuery } from './history.js';
import { advertise } from './json-schema.js';
import { HISTORY_PAGE_DEFAULT, MAX_TASKS, MAX_TEXT_NODES } from './limits.js';
import { Cursor } from './pages.js';
import { ColumnId, ColumnInput, DueDate, Priority, TaskInput, TaskMoveInput } from './todo.js';

/** Every board tool's first arguments; what a key is and when it is needed, the server's instructions say once. */
export const BoardRef = {
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
export const MoveArgs = MoveInput.safeExtend({ id: ItemId, kind: DrawKind.optional() });
export const EraseArgs = strictObject({ id: ItemId, kind: DrawKind.optional() });
export const CreateColumnArgs = dropping(ColumnInput.omit({ id: true }), 'id');
export const UpdateColumnArgs = ColumnPatch.safeExtend({ id: ItemId });
export const DeleteColumnArgs = strictObject({ id: ItemId });
export const CreateTaskArgs = dropping(TaskInput.omit({ id: true }).safeExtend({ column_id: ColumnId }), 'id');
export const UpdateTaskArgs = TaskPatch.safeExtend({ id: ItemId });
export const MoveTaskArgs = TaskMoveInput.safeExtend({ id: ItemId });
export const DeleteTaskArgs = strictObject({ id: ItemId });

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
export const onBoard = <Shape extends z.ZodRawShape, Config extends z.core.$ZodObjectConfig>(
  schema: z.ZodObject<Shape, Config>,
) => refuseUnknownKeys(schema.extend(BoardRef));

/**
 * The other tools' arguments, each named after its tool: a row of the
 * operation table takes them as its `args` and adds board_id and access_key
 * (onBoard), except create_board, open_board and get_changes, whole here.
 */
export const CreateBoardArgs = CreateBoardInput;
export const OpenBoardArgs = refuseUnknownKeys(
  z.object({
    board: z.string({ error: 'must be a string' }).min(1).describe('Board URL or id'),
    access_key: BoardRef.access_key,
  }),
);
export const GetBoardArgs = z.object({
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
});
export const GetPreviewArgs = z.object({ frame: ItemId.optional().describe('Only this frame') });
export const WaitForUpdateArgs = z.object({
  timeout_ms: WaitTimeout,
  since_etag: EtagText.optional(),
});
export const CreateTasksArgs = z.object({
  tasks: z
    // Advertised by reference to create_task, listed just before it: its fields again cost 850 bytes of tools/list.
    .array(
      advertise(refuseUnknownKeys(CreateTaskArgs), {
        type: 'object',
        required: ['column_id', 'name'],
      }).describe('create_task args'),
    )
    .min(1, { error: 'must hold at least one task' })
    .max(MAX_TASKS, { error: `must hold at most ${MAX_TASKS} tasks` })
    .describe('Tasks to create'),
  author: Author.optional(),
});
export const QueryTasksArgs = z.object({
  assignee: z.string({ error: 'must be a string' }).trim().optional().describe('Exact, any case'),
  priority: Priority.optional(),
  done: z.boolean().optional().describe('Done'),
  overdue: z.boolean().optional().describe('Late, not done'),
  due_before: DueDate.optional().describe('Due before this day'),
  due_after: DueDate.optional().describe('Due after this day'),
  color: CardColor.optional(),
  cursor: Cursor.optional(),
});
export const ExportTasksArgs = z.object({
  format: z.enum(['csv', 'markdown'], { error: 'must be "csv" or "markdown"' }).describe('Output format'),
  cursor: Cursor.optional(),
});
export const ListTasksArgs = z.object({ cursor: Cursor.optional() });
export const ListVersionsArgs = HistoryArgs.list_versions;
export const RestoreVersionArgs = HistoryArgs.restore_version;
export const GetChangesArgs = refuseUnknownKeys(HistoryArgs.get_changes.safeExtend(BoardRef));
