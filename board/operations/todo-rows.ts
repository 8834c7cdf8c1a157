/** The rows of a todo board: columns, tasks and lanes, and their reads. */
import {
  ColumnInput,
  ColumnWidthInput,
  CreateColumnArgs,
  CreateColumnResult,
  CreateTaskArgs,
  CreateTaskResult,
  CreateTasksArgs,
  CreateTasksResult,
  DeleteColumnArgs,
  DeleteColumnResult,
  DeleteTaskArgs,
  DeleteTaskResult,
  ExportTasksArgs,
  ExportTasksResult,
  LaneInput,
  ListTasksArgs,
  ListTasksResult,
  MAX_COLUMN_WIDTH_PX,
  MAX_COLUMNS_PER_LANE,
  MAX_TASKS,
  MIN_COLUMN_WIDTH_PX,
  MoveTaskArgs,
  MoveTaskResult,
  READ_PAGE_MAX_BYTES,
  SetColumnWidthResult,
  SetLaneResult,
  StoredColumn,
  StoredTask,
  TaskInput,
  TaskMoveInput,
  UpdateColumnArgs,
  UpdateColumnResult,
  UpdateTaskArgs,
  UpdateTaskResult,
} from '../../schema/index.js';
import { atIndex } from '../mutations/batch.js';
import {
  deleteColumn,
  deleteTask,
  moveTask,
  patchColumn,
  patchTask,
  setColumnWidth,
  setLane,
  upsertColumn,
  upsertTask,
} from '../mutations/todo.js';
import { tasksPage } from '../reads/board-pages.js';
import { tasksCsv, tasksMarkdown } from '../reads/exports.js';
import { pageText } from '../reads/paging.js';
import { memoized } from '../reads/snapshot.js';
import { Deleted, del, mutation, post, upsertAnswer, upserted, view } from './row.js';

export const TODO_ROWS = {
  // REST's POST /columns and /tasks upsert (an id in the body updates), as create_column and create_task do for an existing id.
  create_column: mutation({
    args: CreateColumnArgs,
    result: CreateColumnResult,
    group: 'todo',
    effect: 'add',
    rest: [
      post(
        '/columns',
        ColumnInput,
        'Create a column, or update the one `id` names',
        'the column record',
        upsertAnswer(StoredColumn),
      ),
    ],
    tool: { title: 'Create a column', description: `A column on a todo board; ${MAX_COLUMNS_PER_LANE} per lane.` },
    mutate: (w, args) => upserted(args, upsertColumn(w, args)),
  }),
  update_column: mutation({
    args: UpdateColumnArgs,
    result: UpdateColumnResult,
    group: 'todo',
    effect: 'set',
    tool: { title: 'Update a column', description: 'Changes the given fields of a column.' },
    mutate: (w, args) => patchColumn(w, args.id, args),
  }),
  delete_column: mutation({
    args: DeleteColumnArgs,
    result: DeleteColumnResult,
    group: 'todo',
    effect: 'remove',
    rest: [del('/columns/:itemId', 'Delete a column and every task in it', 'deleted', Deleted)],
    tool: { title: 'Delete a column', description: 'Deletes a column and its tasks.' },
    mutate: (w, args) => deleteColumn(w, args.id),
  }),
  create_task: mutation({
    args: CreateTaskArgs,
    result: CreateTaskResult,
    group: 'todo',
    effect: 'add',
    rest: [
      post(
        '/tasks',
        TaskInput,
        'Create a task, or update the one `id` names',
        'the task record',
        upsertAnswer(StoredTask),
      ),
    ],
    tool: { title: 'Create a task', description: `A task on a todo board; ${MAX_TASKS} per board.` },
    mutate: (w, args) => upserted(args, upsertTask(w, args)),
  }),
  update_task: mutation({
    args: UpdateTaskArgs,
    result: UpdateTaskResult,
    group: 'todo',
    effect: 'set',
    tool: { title: 'Update a task', description: 'Changes the given fields of a task.' },
    mutate: (w, args) => patchTask(w, args.id, args),
  }),
  move_task: mutation({
    args: MoveTaskArgs,
    result: MoveTaskResult,
    group: 'todo',
    effect: 'set',
    rest: [post('/tasks/:itemId/move', TaskMoveInput, 'Move a task to a column and position', 'where it is')],
    tool: { title: 'Move a task', description: 'Moves a task to a column and position.' },
    mutate: (w, args) => moveTask(w, args.id, args),
  }),
  delete_task: mutation({
    args: DeleteTaskArgs,
    result: DeleteTaskResult,
    group: 'todo',
    effect: 'remove',
    rest: [del('/tasks/:itemId', 'Delete a task', 'deleted', Deleted)],
    tool: { title: 'Delete a task', description: 'Deletes a task.' },
    mutate: (w, args) => deleteTask(w, args.id),
  }),
  set_lane: mutation({
    args: LaneInput,
    result: SetLaneResult,
    group: 'todo',
    effect: 'set',
    rest: [post('/lanes', LaneInput, 'Name or clear a lane', 'the lane')],
    frame: 'lane_upsert',
    tool: { title: 'Name a lane', description: 'Names a lane (row of columns).' },
    mutate: (w, args) => setLane(w, args),
  }),
  set_column_width: mutation({
    args: ColumnWidthInput,
    result: SetColumnWidthResult,
    group: 'todo',
    effect: 'set',
    rest: [
      post(
        '/column-width',
        ColumnWidthInput,
        `Set the column width (clamped to ${MIN_COLUMN_WIDTH_PX}..${MAX_COLUMN_WIDTH_PX})`,
        'the width',
      ),
    ],
    tool: { title: 'Set column width', description: 'Width of all columns.' },
    mutate: (w, args) => setColumnWidth(w, args.width),
  }),
  create_tasks: mutation({
    args: CreateTasksArgs,
    result: CreateTasksResult,
    group: 'todo',
    effect: 'add',
    tool: { title: 'Create tasks', description: `Creates up to ${MAX_TASKS} tasks, all or none; answers their ids.` },
    // All or nothing: the tasks are created in the one transaction of the write, so a refused task (its index named) creates none.
    frame: false,
    mutate: (w, args) => {
      const ids = args.tasks.map(
        (task, index) => atIndex(index, () => upsertTask(w, { ...task, author: task.author ?? args.author })).id,
      );
      return { ok: true as const, ids, count: ids.length };
    },
  }),
};

export const TODO_READ_ROWS = {
  export_tasks: view({
    args: ExportTasksArgs,
    result: ExportTasksResult,
    group: 'todo',
    tool: { title: 'Export tasks', description: `Tasks as CSV or a Markdown checklist.` },
    view: (doc, record, args) =>
      pageText(
        { format: args.format, content: '' },
        'content',
        // Cached per board state: an export read in pages is made once.
        memoized(doc, `export:${args.format}:${record.mode}`, () =>
          args.format === 'csv' ? tasksCsv(doc, record.mode) : tasksMarkdown(doc, record.mode, record.id),
        ),
        { tool: 'export_tasks', boardId: record.id, cursor: args.cursor, budget: READ_PAGE_MAX_BYTES },
      ),
  }),
  list_tasks: view({
    args: ListTasksArgs,
    result: ListTasksResult,
    group: 'todo',
    tool: { title: 'List tasks', description: `Columns, tasks and lanes in order.` },
    view: (doc, record, args) => tasksPage(doc, record.id, record.mode, args.cursor, { budget: READ_PAGE_MAX_BYTES }),
  }),
};
