/**
 * The one table of board operations: for each, its name (the MCP tool and the
 * /ws frame), its argument schema and result shape (from schema/), what it
 * does to the board, its lock rule, its rate class and, where REST has it as a
 * plain write, its method and path. The surfaces register from this table, so
 * a new operation is written once here and every surface has it.
 *
 * Lock rules: a mutation needs write access, a view read access; a host row
 * names its own (`access`), which the host checks where it answers it.
 *
 * Not here: create_board and open_board (they act on no existing board, and
 * count as board creations), and REST's representation routes (/json with its
 * ETag, /svg-preview, tasks.csv, /wait), which answer the same views in
 * another form than JSON and keep their own handlers in adapters/rest.
 */
import type * as Y from 'yjs';
import type { z } from 'zod';
import {
  ColumnInput,
  ColumnWidthInput,
  ImageInput,
  LaneInput,
  LinkInput,
  McpToolArgs,
  McpToolOutputs,
  type McpToolName,
  ModeInput,
  MoveInput,
  StrokeInput,
  TaskInput,
  TaskMoveInput,
  TextInput,
  TitleInput,
} from '../../schema/index.js';
import type { BoardWrite } from './board-write.js';
import { isLink } from './document-model.js';
import {
  eraseItem,
  imageResult,
  linkResult,
  moveItem,
  strokeResult,
  upsertImage,
  upsertLink,
  upsertStroke,
  upsertText,
} from './draw.js';
import { errors } from './errors.js';
import { tasksCsv, tasksMarkdown } from './exports.js';
import { setBoardTitle } from './title.js';
import { previewSvg } from './preview.js';
import type { BoardRecord } from './record.js';
import { jsonSnapshot, tasksView } from './snapshot.js';
import {
  deleteColumn,
  deleteTask,
  moveTask,
  patchColumn,
  patchTask,
  setColumnWidth,
  setLane,
  switchMode,
  upsertColumn,
  upsertTask,
} from './todo.js';

/** An operation's arguments as they reach the domain (board_id and access_key are the host's business). */
export type ArgsOf<N extends McpToolName> = Omit<z.output<(typeof McpToolArgs)[N]>, 'board_id' | 'access_key'>;

/**
 * A REST write route of an operation, under `/api/boards/:boardId`. Its body
 * schema is REST's own (the ids of `:itemId` and `:kind` come from the path,
 * not the body); the REST adapter maps the path onto the arguments.
 */
export type RestRoute = { method: 'POST' | 'DELETE'; path: string; body?: z.ZodType };

/**
 * Every board operation is counted against its board's request budget (the
 * `board` class); creations, the only other class, are not board operations.
 */
export type RateClass = 'board';

type Common<N extends McpToolName> = {
  name: N;
  args: (typeof McpToolArgs)[N];
  result: (typeof McpToolOutputs)[N];
  rate: RateClass;
  rest: readonly RestRoute[];
};

/** Changes the board: one Y transaction, refused without write access. */
export type MutationOp<N extends McpToolName, R> = Common<N> & {
  kind: 'mutation';
  access: 'write';
  mutate: (w: BoardWrite, args: ArgsOf<N>) => R;
};
/** Reads the board's document: refused without read access. */
export type ViewOp<N extends McpToolName, R> = Common<N> & {
  kind: 'view';
  access: 'read';
  view: (doc: Y.Doc, record: BoardRecord, args: ArgsOf<N>) => R;
};
/**
 * An operation the host answers itself (Boards.wait, Boards.queryTasks,
 * Boards.history): it needs what the document does not hold, the board
 * events, the host's clock or the stored versions. `access` is its lock rule:
 * a read (public under a `write` lock) or a write (restore_version: the key
 * under any lock), checked by the host method that answers it.
 */
export type HostOp<N extends McpToolName> = Common<N> & { kind: 'host'; access: 'read' | 'write' };

const common = <N extends McpToolName>(name: N, rest: readonly RestRoute[]): Common<N> => ({
  name,
  args: McpToolArgs[name],
  result: McpToolOutputs[name],
  rate: 'board',
  rest,
});

const mutation = <N extends McpToolName, R>(
  name: N,
  mutate: (w: BoardWrite, args: ArgsOf<N>) => R,
  rest: readonly RestRoute[] = [],
): MutationOp<N, R> => ({
  ...common(name, rest),
  kind: 'mutation',
  access: 'write',
  mutate,
});

const view = <N extends McpToolName, R>(
  name: N,
  read: (doc: Y.Doc, record: BoardRecord, args: ArgsOf<N>) => R,
): ViewOp<N, R> => ({
  ...common(name, []),
  kind: 'view',
  access: 'read',
  view: read,
});

const host = <N extends McpToolName>(name: N, access: 'read' | 'write'): HostOp<N> => ({
  ...common(name, []),
  kind: 'host',
  access,
});

const post = (path: string, body: z.ZodType): RestRoute => ({ method: 'POST', path, body });
const del = (path: string): RestRoute => ({ method: 'DELETE', path });

/** The kind of a draw item found by its id (for move and erase without kind). */
function kindOf(w: BoardWrite, id: string) {
  const node = w.maps.texts.get(id);
  if (node) return isLink(node) ? ('links' as const) : ('texts' as const);
  if (w.maps.lines.has(id)) return 'strokes' as const;
  if (w.maps.images.has(id)) return 'images' as const;
  throw errors.itemNotFound('item', id);
}

export const OPERATIONS = {
  get_board: view('get_board', (doc, record) => JSON.parse(jsonSnapshot(doc, record.id, record.mode)) as object),
  get_preview: view('get_preview', (doc, record) => ({
    board_id: record.id,
    mimeType: 'image/svg+xml' as const,
    svg: previewSvg(doc, record.mode),
  })),
  add_text: mutation('add_text', (w, args) => upsertText(w, args), [post('/texts', TextInput)]),
  add_link: mutation('add_link', (w, args) => linkResult(upsertLink(w, args)), [post('/links', LinkInput)]),
  add_image: mutation('add_image', (w, args) => imageResult(upsertImage(w, args)), [post('/images', ImageInput)]),
  // `lines` is the older name of `strokes` on REST.
  draw_stroke: mutation('draw_stroke', (w, args) => strokeResult(upsertStroke(w, args)), [
    post('/strokes', StrokeInput),
    post('/lines', StrokeInput),
  ]),
  move: mutation('move', (w, args) => moveItem(w, args.kind ?? kindOf(w, args.id), args.id, args), [
    post('/:kind/:itemId/move', MoveInput),
  ]),
  erase: mutation('erase', (w, args) => eraseItem(w, args.kind ?? kindOf(w, args.id), args.id), [
    del('/:kind/:itemId'),
  ]),
  wait_for_update: host('wait_for_update', 'read'),
  set_board_mode: mutation('set_board_mode', (w, args) => switchMode(w, args), [post('/mode', ModeInput)]),
  set_board_title: mutation('set_board_title', (w, args) => setBoardTitle(w, args.title), [post('/title', TitleInput)]),
  // REST's POST /columns and /tasks upsert (an id in the body updates), as create_column and create_task do for an existing id.
  create_column: mutation('create_column', (w, args) => upsertColumn(w, args), [post('/columns', ColumnInput)]),
  update_column: mutation('update_column', (w, args) => patchColumn(w, args.id, args)),
  delete_column: mutation('delete_column', (w, args) => deleteColumn(w, args.id), [del('/columns/:itemId')]),
  create_task: mutation('create_task', (w, args) => upsertTask(w, args), [post('/tasks', TaskInput)]),
  update_task: mutation('update_task', (w, args) => patchTask(w, args.id, args)),
  move_task: mutation('move_task', (w, args) => moveTask(w, args.id, args), [
    post('/tasks/:itemId/move', TaskMoveInput),
  ]),
  delete_task: mutation('delete_task', (w, args) => deleteTask(w, args.id), [del('/tasks/:itemId')]),
  set_lane: mutation('set_lane', (w, args) => setLane(w, args), [post('/lanes', LaneInput)]),
  set_column_width: mutation('set_column_width', (w, args) => setColumnWidth(w, args.width), [
    post('/column-width', ColumnWidthInput),
  ]),
  // All or nothing: the tasks are created in the one transaction of the write, so a refused task (or the quota) creates none.
  create_tasks: mutation('create_tasks', (w, args) => {
    const tasks = args.tasks.map((task) => upsertTask(w, { ...task, author: task.author ?? args.author }));
    return { ok: true as const, tasks, ids: tasks.map((task) => task.id) };
  }),
  query_tasks: host('query_tasks', 'read'),
  export_tasks: view('export_tasks', (doc, record, args) => ({
    format: args.format,
    content: args.format === 'csv' ? tasksCsv(doc, record.mode) : tasksMarkdown(doc, record.mode, record.id),
  })),
  list_tasks: view('list_tasks', (doc, record) => tasksView(doc, record.mode)),
  // History (history.md): REST has these as routes of their own (GET /versions, /changes, POST /versions/{v}/restore).
  list_versions: host('list_versions', 'read'),
  get_changes: host('get_changes', 'read'),
  restore_version: host('restore_version', 'write'),
};

export type OperationName = keyof typeof OPERATIONS;
export type AnyOperation = MutationOp<McpToolName, unknown> | ViewOp<McpToolName, unknown> | HostOp<McpToolName>;

/** True for a tool or frame name that is a board operation. */
export function isOperation(name: string): name is OperationName {
  return Object.hasOwn(OPERATIONS, name);
}
