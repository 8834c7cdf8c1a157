/** Request bodies of todo boards: mode, column width, lanes, columns, tasks. */
import { z } from 'zod';
import { Author, BoardMode, CardColor, ItemId, itemObject, strictObject, Template } from './common.js';
import { isIsoDate } from './item-fields.js';
import { advertise } from './json-schema.js';
import {
  MAX_ASSIGNEE_CHARS,
  MAX_COLUMN_TITLE_CHARS,
  MAX_COLUMN_WIDTH_PX,
  MAX_LANE_TITLE_CHARS,
  MAX_LANES,
  MAX_TASK_DESCRIPTION_CHARS,
  MAX_TASK_NAME_CHARS,
  MIN_COLUMN_WIDTH_PX,
} from './limits.js';
import { SNAPSHOT_KEYS } from './stored.js';

/** Clamps a column width into the allowed range; the spec clamps rather than rejects. */
export function clampColumnWidth(width: number): number {
  return Math.min(MAX_COLUMN_WIDTH_PX, Math.max(MIN_COLUMN_WIDTH_PX, Math.round(width)));
}

/** POST /mode and MCP set_board_mode. */
export const ModeInput = strictObject({ mode: BoardMode, template: Template.optional() });
export type ModeInput = z.infer<typeof ModeInput>;

/** POST /column-width and MCP set_column_width; out-of-range values are clamped. */
export const ColumnWidthInput = strictObject({
  width: z
    .number({ error: 'must be a finite number' })
    .transform(clampColumnWidth)
    .describe(`px, clamped to ${MIN_COLUMN_WIDTH_PX}..${MAX_COLUMN_WIDTH_PX}`),
});
export type ColumnWidthInput = z.infer<typeof ColumnWidthInput>;

/** A lane (row) index: 0 to 9. */
export const LaneIndex = z
  .number({ error: 'must be an integer' })
  .int({ error: 'must be an integer' })
  .min(0, { error: 'must be at least 0' })
  .max(MAX_LANES - 1, { error: `must be at most ${MAX_LANES - 1}` })
  .describe('Row 0-9');

/**
 * A name or title: trimmed at the edge, then limited to `max` characters, so
 * `" Alice "` is stored and found as `"Alice"`. One of spaces only becomes
 * `""`, which these fields accept (docs/choices.md).
 */
export const trimmedName = (max: number) =>
  z
    .string({ error: 'must be a string' })
    .trim()
    .max(max, { error: `must be at most ${max} characters` });

/** A lane's title; empty clears the name. */
export const LaneTitle = trimmedName(MAX_LANE_TITLE_CHARS).describe('Lane name; "" clears');

/** POST /lanes and MCP set_lane; an empty or omitted title clears the name. */
export const LaneInput = itemObject(
  {
    lane: LaneIndex,
    title: LaneTitle.optional(),
    author: Author.optional(),
  },
  SNAPSHOT_KEYS.lane,
);
export type LaneInput = z.infer<typeof LaneInput>;

const ColumnTitle = trimmedName(MAX_COLUMN_TITLE_CHARS).describe('Column title');
const Sort = z.number({ error: 'must be a finite number' }).describe('Order');

/** POST /columns, MCP create_column and update_column. */
export const ColumnInput = itemObject(
  {
    id: ItemId.optional().describe('To update'),
    title: ColumnTitle,
    sort: Sort,
    lane: LaneIndex.optional(),
    color: CardColor.optional(),
    author: Author.optional(),
  },
  SNAPSHOT_KEYS.column,
);
export type ColumnInput = z.infer<typeof ColumnInput>;

export const DueDate = advertise(
  z
    .string({ error: 'must be a string' })
    .refine(isIsoDate, { error: 'must be an ISO 8601 date (YYYY-MM-DD) or date-time' }),
  { type: 'string', format: 'date' },
).describe('YYYY-MM-DD');

/** Task priority: H, M or L, any case on input, stored upper case; '' clears it (null in the output). */
export const Priority = advertise(
  z
    .string({ error: 'must be a string' })
    .transform((value) => value.trim().toUpperCase())
    .refine((value) => value === '' || value === 'H' || value === 'M' || value === 'L', { error: 'must be H, M or L' })
    .transform((value) => (value === '' ? null : (value as 'H' | 'M' | 'L'))),
  { type: 'string', enum: ['H', 'M', 'L', ''] },
).describe('"" clears');

/** The opaque task content: a string that must parse as JSON (it may hold a `boards` array). */
export const TaskContent = z
  .string({ error: 'must be a string' })
  .refine(
    (value) => {
      if (value === '') return true;
      try {
        JSON.parse(value);
        return true;
      } catch {
        return false;
      }
    },
    { error: 'must be a JSON string' },
  )
  .describe('JSON text');

const TaskFields = {
  name: trimmedName(MAX_TASK_NAME_CHARS).describe('Name'),
  description: z
    .string({ error: 'must be a string' })
    .max(MAX_TASK_DESCRIPTION_CHARS, { error: `must be at most ${MAX_TASK_DESCRIPTION_CHARS} characters` })
    .describe('Details'),
  due_date: DueDate,
  priority: Priority,
  assignee: trimmedName(MAX_ASSIGNEE_CHARS).describe('Assignee'),
  sort: Sort,
  done: z.boolean({ error: 'must be true or false' }).describe('Done'),
  color: CardColor,
  content: TaskContent,
};

/** The column a task is in. */
export const ColumnId = ItemId.describe('Column id');

/** POST /tasks, MCP create_task and update_task: `column_id` is required on create (checked by the domain). */
export const TaskInput = itemObject(
  {
    id: ItemId.optional().describe('To update'),
    column_id: ColumnId.optional(),
    name: TaskFields.name,
    description: TaskFields.description.optional(),
    due_date: TaskFields.due_date.optional(),
    priority: TaskFields.priority.optional(),
    assignee: TaskFields.assignee.optional(),
    sort: TaskFields.sort.optional(),
    done: TaskFields.done.optional(),
    color: TaskFields.color.optional(),
    content: TaskFields.content.optional(),
    author: Author.optional(),
  },
  SNAPSHOT_KEYS.task,
);
export type TaskInput = z.infer<typeof TaskInput>;

/** POST /tasks/{id}/move and MCP move_task. */
export const TaskMoveInput = strictObject({ column_id: ColumnId, sort: Sort });
export type TaskMoveInput = z.infer<typeof TaskMoveInput>;
