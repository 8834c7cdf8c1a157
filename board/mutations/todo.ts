/**
 * Mutations of todo boards: mode switches, the shared column width, lanes,
 * columns and tasks. Like the draw mutations, each checks everything before
 * its first change and runs inside the caller's one transaction.
 */
import type { ColumnInput, LaneInput, ModeInput, TaskInput, TaskMoveInput } from '../../schema/index.js';
import { MAX_TASK_CONTENT_CHARS } from '../../schema/index.js';
import type { ColumnItem, LaneItem, TaskItem } from '../model/document-model.js';
import { errors } from '../model/errors.js';
import { ITEM_QUOTAS, requireLaneRoom, requireRoom } from '../model/item-quotas.js';
import { dropItem, itemCount, putItem, setPresentFields, stamp } from '../model/items.js';
import { todoView } from '../reads/todo-view.js';
import { type BoardWrite, requireMode } from './board-write.js';
import { seedTemplate } from './templates.js';

/** True when the board holds real content: texts, links, strokes, images, shapes, frames or tasks (columns do not count). */
export function hasRealContent(w: BoardWrite): boolean {
  const { texts, lines, images, shapes, frames, tasks } = w.maps;
  return texts.size + lines.size + images.size + shapes.size + frames.size + tasks.size > 0;
}

/**
 * Switches an empty board's mode: to `todo` seeds the template's columns, to
 * `draw` clears columns and lanes. Asking for todo again with a template
 * reseeds; asking for the current mode otherwise changes nothing.
 */
export function switchMode(w: BoardWrite, input: ModeInput): { ok: true; mode: string; columns?: ColumnItem[] } {
  if (hasRealContent(w)) throw errors.boardNotEmpty();
  if (input.mode === 'draw') {
    if (w.mode !== 'draw') {
      w.maps.columns.clear();
      w.maps.lanes.clear();
      delete w.counts.columns;
      w.mode = 'draw';
    }
    return { ok: true, mode: 'draw' };
  }
  if (w.mode !== 'todo' || input.template !== undefined) {
    seedTemplate(w, input.template ?? 'kanban');
    w.mode = 'todo';
  }
  return { ok: true, mode: 'todo', columns: todoView(w.maps).columns };
}

/** Sets the column width shared by all columns (already clamped by the schema). */
export function setColumnWidth(w: BoardWrite, width: number): { ok: true; width: number } {
  requireMode(w, 'todo');
  w.maps.meta.set('colWidth', width);
  return { ok: true, width };
}

/** Names or renames a lane; an empty title clears the name. The lane's author is fixed when it is first named. */
export function setLane(w: BoardWrite, input: LaneInput): { ok: true; lane: number; title: string } {
  requireMode(w, 'todo');
  const key = String(input.lane);
  const current = w.maps.lanes.get(key);
  const title = input.title ?? '';
  if (!current && title === '') return { ok: true, lane: input.lane, title };
  // Lanes are keyed by index, not by a minted id, so they are stamped by hand.
  w.authors?.add(input.author ?? w.author);
  const lane: LaneItem = {
    lane: input.lane,
    title,
    author: current?.author ?? input.author ?? w.author,
    last_updated: w.now,
  };
  w.maps.lanes.set(key, lane);
  return { ok: true, lane: input.lane, title };
}

function requireColumnRoom(w: BoardWrite, lane: number, movingId?: string): void {
  if (!movingId) requireRoom(ITEM_QUOTAS.columns, itemCount(w, 'columns'));
  let inLane = 0;
  for (const column of w.maps.columns.values()) if (column.lane === lane && column.id !== movingId) inLane++;
  requireLaneRoom(inLane, lane);
}

/** Creates a column, or updates the column `id` names (patch: omitted optional fields keep their value). */
export function upsertColumn(w: BoardWrite, input: ColumnInput): ColumnItem {
  requireMode(w, 'todo');
  const current = input.id === undefined ? undefined : w.maps.columns.get(input.id);
  const lane = input.lane ?? current?.lane ?? 0;
  if (!current || lane !== current.lane) requireColumnRoom(w, lane, current?.id);
  const column: ColumnItem = {
    ...current,
    ...stamp(w, current, input.author),
    title: input.title,
    sort: input.sort,
    lane,
  };
  setPresentFields(column, input, ['color']);
  putItem(w, 'columns', column);
  return column;
}

/** Updates some fields of an existing column (MCP update_column). */
export function patchColumn(w: BoardWrite, id: string, patch: Partial<Omit<ColumnInput, 'id'>>): ColumnItem {
  requireMode(w, 'todo');
  const current = w.maps.columns.get(id);
  if (!current) throw errors.itemNotFound('column', id);
  // The column keeps its author; the edit is the patch's (or the write's), not the column's.
  const { author: _kept, ...fields } = current;
  return upsertColumn(w, { ...fields, ...patch, id });
}

/** Deletes a column and every task in it. */
export function deleteColumn(w: BoardWrite, id: string): { ok: true; id: string } {
  requireMode(w, 'todo');
  if (!w.maps.columns.has(id)) throw errors.itemNotFound('column', id);
  for (const task of [...w.maps.tasks.values()]) if (task.column_id === id) dropItem(w, 'tasks', task.id);
  dropItem(w, 'columns', id);
  return { ok: true, id };
}

function requireColumn(w: BoardWrite, columnId: string): void {
  if (!w.maps.columns.has(columnId))
    throw errors.invalidPayload('column_id', `no column with id ${columnId} on this board`);
}

/** The sort value that puts a task after every task of a column. */
function nextSort(w: BoardWrite, columnId: string): number {
  let max = -1;
  for (const task of w.maps.tasks.values()) if (task.column_id === columnId) max = Math.max(max, task.sort);
  return max + 1;
}

/** A task as written: its input, where a null due date clears it as null clears any optional field (the app's editor). */
export type TaskWrite = Omit<TaskInput, 'due_date'> & { due_date?: string | null };

/** Creates a task (column_id required and existing), or updates the task `id` names (patch semantics). */
export function upsertTask(w: BoardWrite, input: TaskWrite): TaskItem {
  requireMode(w, 'todo');
  if (input.content !== undefined && input.content.length > MAX_TASK_CONTENT_CHARS) {
    throw errors.quotaExceeded(
      'task_content_chars',
      `task content holds at most ${MAX_TASK_CONTENT_CHARS} characters (got ${input.content.length})`,
    );
  }
  const current = input.id === undefined ? undefined : w.maps.tasks.get(input.id);
  const columnId = input.column_id ?? current?.column_id;
  if (columnId === undefined) throw errors.invalidPayload('column_id', 'is required when creating a task');
  requireColumn(w, columnId);
  if (!current) requireRoom(ITEM_QUOTAS.tasks, itemCount(w, 'tasks'));
  const task: TaskItem = {
    ...current,
    ...stamp(w, current, input.author),
    column_id: columnId,
    name: input.name,
    sort: input.sort ?? (current && current.column_id === columnId ? current.sort : nextSort(w, columnId)),
    done: input.done ?? current?.done ?? false,
  };
  setPresentFields(task, input, ['description', 'due_date', 'priority', 'assignee', 'color', 'content']);
  putItem(w, 'tasks', task);
  return task;
}

/** Updates some fields of an existing task (MCP update_task). */
export function patchTask(w: BoardWrite, id: string, patch: Partial<Omit<TaskWrite, 'id'>>): TaskItem {
  requireMode(w, 'todo');
  const current = w.maps.tasks.get(id);
  if (!current) throw errors.itemNotFound('task', id);
  return upsertTask(w, { name: current.name, ...patch, id });
}

/** Moves a task to a column and position. */
export function moveTask(
  w: BoardWrite,
  id: string,
  to: TaskMoveInput,
): { id: string; column_id: string; sort: number } {
  requireMode(w, 'todo');
  const current = w.maps.tasks.get(id);
  if (!current) throw errors.itemNotFound('task', id);
  requireColumn(w, to.column_id);
  w.maps.tasks.set(id, { ...current, column_id: to.column_id, sort: to.sort, last_updated: w.now });
  return { id, column_id: to.column_id, sort: to.sort };
}

export function deleteTask(w: BoardWrite, id: string): { ok: true; id: string } {
  requireMode(w, 'todo');
  if (!w.maps.tasks.has(id)) throw errors.itemNotFound('task', id);
  dropItem(w, 'tasks', id);
  return { ok: true, id };
}
