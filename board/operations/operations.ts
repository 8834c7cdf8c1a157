/**
 * The one table of board operations. A row is everything about one
 * operation: its name, its argument and result schemas (from schema/), what it
 * does to the board, its lock rule and rate class, and the surfaces that carry
 * it: its REST routes, its /ws frame and its MCP tool, with the words each
 * shows. REST, MCP, the JSON channel, OpenAPI, tools/list, llms.txt and
 * docs/api.md are all derived from these rows, so adding an operation is
 * adding a row here (and its schemas in schema/).
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
import type * as Y from 'yjs';
import { z } from 'zod';
import {
  BatchInput,
  type BatchOpType,
  ColumnInput,
  ColumnWidthInput,
  FindItemsRestQuery,
  ImageInput,
  LaneInput,
  LinkInput,
  MAX_IMPORT_ITEMS,
  McpToolArgs,
  McpToolOutputs,
  type McpToolName,
  ModeInput,
  MoveInput,
  MAX_BATCH_OPS,
  READ_PAGE_MAX_BYTES,
  MUTATION_FRAMES,
  type MutationFrameType,
  StoredColumn,
  StoredTask,
  LaidOutText,
  StrokeInput,
  TaskInput,
  TaskMoveInput,
  TextInput,
  TitleInput,
} from '../../schema/index.js';
import { applyBatch, atIndex, type BatchOpCall, compactResult, parseBatchOps } from '../mutations/batch.js';
import type { BoardWrite } from '../mutations/board-write.js';
import { isLink, type TextNode } from '../model/document-model.js';
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
} from '../mutations/draw.js';
import { errors } from '../model/errors.js';
import { tasksCsv, tasksMarkdown } from '../reads/exports.js';
import { itemSize, type Size } from '../render/item-layout.js';

type Box = Size & { x: number; y: number };
import type { BoardRecord } from '../model/record.js';
import { recolor } from '../mutations/recolor.js';
import { tasksPage } from '../reads/board-pages.js';
import { findItems } from '../reads/find-items.js';
import { pageText } from '../reads/paging.js';
import { memoized } from '../reads/snapshot.js';
import { setBoardTitle } from '../model/title.js';
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
} from '../mutations/todo.js';

/** An operation's arguments as they reach the domain (board_id and access_key are the host's business). */
export type ArgsOf<A extends z.ZodType> = Omit<z.output<A>, 'board_id' | 'access_key'>;

/**
 * A REST route of an operation, under `/api/boards/:boardId`. Its body schema
 * is REST's own (the ids of `:itemId` and `:kind` come from the path, not the
 * body); the REST adapter maps the path onto the arguments. `summary` and
 * `answer` are its words in OpenAPI; `answers` is the schema OpenAPI gives its
 * 200, where REST promises more than the tool's result (the stored record).
 */
export type RestRoute = {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  body?: z.ZodType;
  /** A GET's query string, parsed into the arguments. */
  query?: z.ZodType;
  summary: string;
  answer: string;
  answers?: z.ZodType;
};

/** How an MCP tool presents itself: a title for people, a description for models (tools/list counts its words). */
export type ToolWords = { title: string; description: string };

/**
 * `board` operations count against their board's request budget; `create`
 * ones (a board made or opened by URL) against the client's creations.
 */
export type RateClass = 'board' | 'create';

/** Where an operation belongs: its MCP icon and its OpenAPI tag. */
export type OperationGroup = 'board' | 'draw' | 'todo' | 'history';

/**
 * What an operation does to what it names, which MCP states as annotations:
 * reads; adds something new; sets something to what it is told (twice is
 * once, nothing lost); replaces what was there (twice is once); removes.
 */
export type Effect = 'read' | 'add' | 'set' | 'replace' | 'remove';

/** What every row states. `frame` and `tool` are the surfaces beyond REST that carry it, when they do. */
type Common<N extends string, A extends z.ZodType> = {
  name: N;
  /** Its arguments as the tool takes them (with board_id and access_key), or as its frame does for a frame-only row. */
  args: A;
  result: z.ZodType;
  group: OperationGroup;
  effect: Effect;
  rate: RateClass;
  rest: readonly RestRoute[];
  /** Its /ws frame type: the row's name, except `lane_upsert` (set_lane), the name the contract gives that frame. */
  frame?: MutationFrameType;
  tool?: ToolWords;
};

/** Changes the board: one Y transaction, refused without write access. */
export type MutationOp<N extends string, A extends z.ZodType, R> = Common<N, A> & {
  kind: 'mutation';
  access: 'write';
  mutate: (w: BoardWrite, args: ArgsOf<A>) => R;
};
/** Reads the board's document: refused without read access. */
export type ViewOp<N extends string, A extends z.ZodType, R> = Common<N, A> & {
  kind: 'view';
  access: 'read';
  view: (doc: Y.Doc, record: BoardRecord, args: ArgsOf<A>) => R;
};
/**
 * An operation the host answers itself (Boards.wait, Boards.queryTasks,
 * Boards.board, Boards.preview, Boards.history, Boards.create, Boards.open): it
 * needs what the document does not hold, the board events, the host's clock,
 * the stored versions, the preview threads, or no board yet. `access` is its lock rule: none (a board is created), a read
 * (public under a `write` lock) or a write (restore_version: the key under
 * any lock), checked by the host method that answers it.
 */
export type HostOp<N extends string, A extends z.ZodType> = Common<N, A> & {
  kind: 'host';
  access: 'none' | 'read' | 'write';
};

type Row<N extends string, A extends z.ZodType> = Omit<Common<N, A>, 'rate' | 'rest'> &
  Partial<Pick<Common<N, A>, 'rate' | 'rest'>>;

const filled = <N extends string, A extends z.ZodType>(row: Row<N, A>): Common<N, A> => ({
  ...row,
  rate: row.rate ?? 'board',
  rest: row.rest ?? [],
});

const mutation = <const N extends string, A extends z.ZodType, R>(
  row: Row<N, A> & { mutate: (w: BoardWrite, args: ArgsOf<A>) => R },
): MutationOp<N, A, R> => ({ ...filled(row), kind: 'mutation', access: 'write', mutate: row.mutate });

const view = <const N extends string, A extends z.ZodType, R>(
  row: Omit<Row<N, A>, 'effect'> & { view: (doc: Y.Doc, record: BoardRecord, args: ArgsOf<A>) => R },
): ViewOp<N, A, R> => ({ ...filled({ ...row, effect: 'read' }), kind: 'view', access: 'read', view: row.view });

const host = <const N extends string, A extends z.ZodType>(
  row: Row<N, A> & { access: HostOp<N, A>['access'] },
): HostOp<N, A> => ({ ...filled(row), kind: 'host', access: row.access });

const post = (path: string, body: z.ZodType, summary: string, answer: string, answers?: z.ZodType): RestRoute => ({
  method: 'POST',
  path,
  body,
  summary,
  answer,
  ...(answers && { answers }),
});
const del = (path: string, summary: string, answer: string, answers?: z.ZodType): RestRoute => ({
  method: 'DELETE',
  path,
  summary,
  answer,
  ...(answers && { answers }),
});

const get = (path: string, query: z.ZodType, summary: string, answer: string): RestRoute => ({
  method: 'GET',
  path,
  query,
  summary,
  answer,
});

/** The upsert rule of the add_* tools, said once per tool in the fewest words. */
const UPSERT = 'An existing id updates it.';

/** An upsert's answer says whether it made the item: an upsert keeps the id it updates and mints one otherwise. */
const upserted = <T extends { id: string }>(args: object, item: T): T & { created: boolean } => ({
  ...item,
  // REST's /columns and /tasks bodies take the id that the tools' and frames' arguments drop.
  created: item.id !== (args as { id?: string }).id,
});

/** REST's answer to an upsert as OpenAPI describes it: the stored record and whether it was made. */
const upsertAnswer = <S extends z.ZodObject>(stored: S) => stored.extend({ created: z.boolean() });

/** REST's answer to a delete as OpenAPI describes it: `ok` is true whenever it answers 200. */
const Deleted = z.object({ ok: z.literal(true), id: z.string() });

/** An item's answer with the box it is laid out in (`bbox`, as strokes answer theirs): what an agent needs to place arrows and neighbours. */
function withBox<T extends object>(w: BoardWrite, answer: T, item: TextNode): T & { bbox: Box } {
  return { ...answer, bbox: { x: item.x, y: item.y, ...(w.textSize(item) ?? itemSize(item)) } };
}

/** The kind of a draw item found by its id (for move and erase without kind). */
function kindOf(w: BoardWrite, id: string) {
  const node = w.maps.texts.get(id);
  if (node) return isLink(node) ? ('links' as const) : ('texts' as const);
  if (w.maps.lines.has(id)) return 'strokes' as const;
  if (w.maps.images.has(id)) return 'images' as const;
  throw errors.itemNotFound('item', id);
}

/** Every operation, in the order tools/list gives the tools and OpenAPI the routes. */
export const OPERATIONS = {
  create_board: host({
    name: 'create_board',
    args: McpToolArgs.create_board,
    result: McpToolOutputs.create_board,
    group: 'board',
    effect: 'add',
    access: 'none',
    rate: 'create',
    tool: {
      title: 'Create a board',
      description: `Creates a board: board_id, url. content imports up to ${MAX_IMPORT_ITEMS} items. lock answers access_key once: keep it.`,
    },
  }),
  open_board: host({
    name: 'open_board',
    args: McpToolArgs.open_board,
    result: McpToolOutputs.open_board,
    group: 'board',
    effect: 'set',
    access: 'read',
    rate: 'create',
    tool: { title: 'Open a board', description: 'Opens a board by URL or id (a new UUID creates one).' },
  }),
  // A host row: its outline counts the board's stored versions.
  get_board: host({
    name: 'get_board',
    args: McpToolArgs.get_board,
    result: McpToolOutputs.get_board,
    group: 'board',
    effect: 'read',
    access: 'read',
    tool: {
      title: 'Read a board',
      description: 'The board: etag, texts, lines, images; columns, tasks, lanes.',
    },
  }),
  // A host row: the picture is drawn in the host's preview threads.
  get_preview: host({
    name: 'get_preview',
    args: McpToolArgs.get_preview,
    result: McpToolOutputs.get_preview,
    group: 'board',
    effect: 'read',
    access: 'read',
    tool: {
      title: 'Preview a board',
      description: 'The board as a PNG picture and an SVG sketch (a big one by its URI).',
    },
  }),
  add_text: mutation({
    name: 'add_text',
    args: McpToolArgs.add_text,
    result: McpToolOutputs.add_text,
    group: 'draw',
    effect: 'add',
    rest: [
      post(
        '/texts',
        TextInput,
        'Create a text, or update the one `id` names',
        'the text, with the box it is laid out in (`bbox`)',
        upsertAnswer(LaidOutText),
      ),
    ],
    frame: 'add_text',
    tool: {
      title: 'Add a text',
      description: `Markdown-like text; a \`\`\`mermaid block is a diagram. 500 per board. Answers its laid-out bbox. ${UPSERT}`,
    },
    mutate: (w, args) => {
      const text = upsertText(w, args);
      return upserted(args, withBox(w, text, text));
    },
  }),
  add_link: mutation({
    name: 'add_link',
    args: McpToolArgs.add_link,
    result: McpToolOutputs.add_link,
    group: 'draw',
    effect: 'add',
    rest: [
      post(
        '/links',
        LinkInput,
        'Create a link pill, or update the one `id` names',
        'the link, with the box it is laid out in (`bbox`)',
      ),
    ],
    frame: 'add_link',
    tool: { title: 'Add a link', description: `A link pill. Answers its laid-out bbox. ${UPSERT}` },
    mutate: (w, args) => {
      const link = upsertLink(w, args);
      return upserted(args, withBox(w, linkResult(link), link));
    },
  }),
  add_image: mutation({
    name: 'add_image',
    args: McpToolArgs.add_image,
    result: McpToolOutputs.add_image,
    group: 'draw',
    effect: 'add',
    rest: [post('/images', ImageInput, 'Create an image, or update the one `id` names', 'the image')],
    frame: 'add_image',
    tool: {
      title: 'Add an image',
      description: `An image from a data URL (no http), max 900 kB; 50 per board. ${UPSERT}`,
    },
    mutate: (w, args) => upserted(args, imageResult(upsertImage(w, args))),
  }),
  draw_stroke: mutation({
    name: 'draw_stroke',
    args: McpToolArgs.draw_stroke,
    result: McpToolOutputs.draw_stroke,
    group: 'draw',
    effect: 'add',
    // `lines` is the older name of `strokes` on REST.
    rest: [
      post('/strokes', StrokeInput, 'Create a stroke, or update the one `id` names', 'the stroke'),
      post('/lines', StrokeInput, 'Alias of /strokes', 'the stroke'),
    ],
    frame: 'draw_stroke',
    tool: { title: 'Draw a stroke', description: `A stroke, up to 10000 points; 2000 per board. ${UPSERT}` },
    mutate: (w, args) => upserted(args, strokeResult(upsertStroke(w, args))),
  }),
  move: mutation({
    name: 'move',
    args: McpToolArgs.move,
    result: McpToolOutputs.move,
    group: 'draw',
    effect: 'set',
    rest: [
      post('/:kind/:itemId/move', MoveInput, 'Move an item (strokes: their bounding box top-left)', 'where it is'),
    ],
    frame: 'move',
    tool: { title: 'Move an item', description: 'Moves an item (its top-left) to x, y.' },
    mutate: (w, args) => moveItem(w, args.kind ?? kindOf(w, args.id), args.id, args),
  }),
  erase: mutation({
    name: 'erase',
    args: McpToolArgs.erase,
    result: McpToolOutputs.erase,
    group: 'draw',
    effect: 'remove',
    rest: [del('/:kind/:itemId', 'Erase an item', 'erased', Deleted.extend({ kind: z.string() }))],
    frame: 'erase',
    tool: { title: 'Erase an item', description: 'Deletes a text, link, stroke or image.' },
    mutate: (w, args) => eraseItem(w, args.kind ?? kindOf(w, args.id), args.id),
  }),
  wait_for_update: host({
    name: 'wait_for_update',
    args: McpToolArgs.wait_for_update,
    result: McpToolOutputs.wait_for_update,
    group: 'board',
    effect: 'read',
    access: 'read',
    tool: {
      title: 'Wait for edits',
      description:
        'Long poll: {updated, etag} once the next edits settle, or {timedOut}. Pass since_etag not to miss edits, then get_changes.',
    },
  }),
  set_board_mode: mutation({
    name: 'set_board_mode',
    args: McpToolArgs.set_board_mode,
    result: McpToolOutputs.set_board_mode,
    group: 'board',
    effect: 'replace',
    rest: [
      post('/mode', ModeInput, 'Switch an empty board between draw and todo', 'the new mode (and seeded columns)'),
    ],
    tool: { title: 'Switch draw/todo', description: 'Switches an empty board to draw or todo.' },
    mutate: (w, args) => switchMode(w, args),
  }),
  set_board_title: mutation({
    name: 'set_board_title',
    args: McpToolArgs.set_board_title,
    result: McpToolOutputs.set_board_title,
    group: 'board',
    // Replaces the title there was, and the same title twice is one.
    effect: 'replace',
    rest: [
      post('/title', TitleInput, 'Set the board title (trimmed, at most 200 characters; "" clears it)', 'the title'),
    ],
    frame: 'set_board_title',
    tool: { title: 'Title a board', description: 'Names the board.' },
    mutate: (w, args) => setBoardTitle(w, args.title),
  }),
  // REST's POST /columns and /tasks upsert (an id in the body updates), as create_column and create_task do for an existing id.
  create_column: mutation({
    name: 'create_column',
    args: McpToolArgs.create_column,
    result: McpToolOutputs.create_column,
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
    frame: 'create_column',
    tool: { title: 'Create a column', description: 'A column on a todo board; 20 per lane.' },
    mutate: (w, args) => upserted(args, upsertColumn(w, args)),
  }),
  update_column: mutation({
    name: 'update_column',
    args: McpToolArgs.update_column,
    result: McpToolOutputs.update_column,
    group: 'todo',
    effect: 'set',
    frame: 'update_column',
    tool: { title: 'Update a column', description: 'Changes the given fields of a column.' },
    mutate: (w, args) => patchColumn(w, args.id, args),
  }),
  delete_column: mutation({
    name: 'delete_column',
    args: McpToolArgs.delete_column,
    result: McpToolOutputs.delete_column,
    group: 'todo',
    effect: 'remove',
    rest: [del('/columns/:itemId', 'Delete a column and every task in it', 'deleted', Deleted)],
    frame: 'delete_column',
    tool: { title: 'Delete a column', description: 'Deletes a column and its tasks.' },
    mutate: (w, args) => deleteColumn(w, args.id),
  }),
  create_task: mutation({
    name: 'create_task',
    args: McpToolArgs.create_task,
    result: McpToolOutputs.create_task,
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
    frame: 'create_task',
    tool: { title: 'Create a task', description: 'A task on a todo board; 1000 per board.' },
    mutate: (w, args) => upserted(args, upsertTask(w, args)),
  }),
  update_task: mutation({
    name: 'update_task',
    args: McpToolArgs.update_task,
    result: McpToolOutputs.update_task,
    group: 'todo',
    effect: 'set',
    frame: 'update_task',
    tool: { title: 'Update a task', description: 'Changes the given fields of a task.' },
    mutate: (w, args) => patchTask(w, args.id, args),
  }),
  move_task: mutation({
    name: 'move_task',
    args: McpToolArgs.move_task,
    result: McpToolOutputs.move_task,
    group: 'todo',
    effect: 'set',
    rest: [post('/tasks/:itemId/move', TaskMoveInput, 'Move a task to a column and position', 'where it is')],
    frame: 'move_task',
    tool: { title: 'Move a task', description: 'Moves a task to a column and position.' },
    mutate: (w, args) => moveTask(w, args.id, args),
  }),
  delete_task: mutation({
    name: 'delete_task',
    args: McpToolArgs.delete_task,
    result: McpToolOutputs.delete_task,
    group: 'todo',
    effect: 'remove',
    rest: [del('/tasks/:itemId', 'Delete a task', 'deleted', Deleted)],
    frame: 'delete_task',
    tool: { title: 'Delete a task', description: 'Deletes a task.' },
    mutate: (w, args) => deleteTask(w, args.id),
  }),
  set_lane: mutation({
    name: 'set_lane',
    args: McpToolArgs.set_lane,
    result: McpToolOutputs.set_lane,
    group: 'todo',
    effect: 'set',
    rest: [post('/lanes', LaneInput, 'Name or clear a lane', 'the lane')],
    frame: 'lane_upsert',
    tool: { title: 'Name a lane', description: 'Names a lane (row of columns).' },
    mutate: (w, args) => setLane(w, args),
  }),
  set_column_width: mutation({
    name: 'set_column_width',
    args: McpToolArgs.set_column_width,
    result: McpToolOutputs.set_column_width,
    group: 'todo',
    effect: 'set',
    rest: [post('/column-width', ColumnWidthInput, 'Set the column width (clamped to 200..480)', 'the width')],
    frame: 'set_column_width',
    tool: { title: 'Set column width', description: 'Width of all columns.' },
    mutate: (w, args) => setColumnWidth(w, args.width),
  }),
  create_tasks: mutation({
    name: 'create_tasks',
    args: McpToolArgs.create_tasks,
    result: McpToolOutputs.create_tasks,
    group: 'todo',
    effect: 'add',
    tool: { title: 'Create tasks', description: 'Creates up to 1000 tasks, all or none; answers their ids.' },
    // All or nothing: the tasks are created in the one transaction of the write, so a refused task (its index named) creates none.
    mutate: (w, args) => {
      const ids = args.tasks.map(
        (task, index) => atIndex(index, () => upsertTask(w, { ...task, author: task.author ?? args.author })).id,
      );
      return { ok: true as const, ids, count: ids.length };
    },
  }),
  // Its ops are parsed by the domain, not at the edge, so that a refused op names its index alike on every surface.
  batch: mutation({
    name: 'batch',
    args: McpToolArgs.batch,
    result: McpToolOutputs.batch,
    group: 'board',
    // An op may erase.
    effect: 'remove',
    rest: [post('/batch', BatchInput, 'Apply many edits at once, all or none', 'one result per op, in order')],
    tool: {
      title: 'Batch edits',
      description: `Up to ${MAX_BATCH_OPS} edits, all or none. Each op: {type: tool name, ...its args, ref?}; "$ref" as a later op's id, column_id or anchor id is that op's id.`,
    },
    mutate: (w, args) => ({
      ok: true as const,
      results: runBatch(w, parseBatchOps(args.ops, 0, args.author)).map(compactResult),
    }),
  }),
  query_tasks: host({
    name: 'query_tasks',
    args: McpToolArgs.query_tasks,
    result: McpToolOutputs.query_tasks,
    group: 'todo',
    effect: 'read',
    access: 'read',
    tool: { title: 'Find tasks', description: `Tasks matching every filter.` },
  }),
  export_tasks: view({
    name: 'export_tasks',
    args: McpToolArgs.export_tasks,
    result: McpToolOutputs.export_tasks,
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
    name: 'list_tasks',
    args: McpToolArgs.list_tasks,
    result: McpToolOutputs.list_tasks,
    group: 'todo',
    tool: { title: 'List tasks', description: `Columns, tasks and lanes in order.` },
    view: (doc, record, args) => tasksPage(doc, record.id, record.mode, args.cursor, { budget: READ_PAGE_MAX_BYTES }),
  }),
  find_items: view({
    name: 'find_items',
    args: McpToolArgs.find_items,
    result: McpToolOutputs.find_items,
    group: 'board',
    rest: [
      get(
        '/items',
        FindItemsRestQuery,
        'Find texts, links and tasks (text, kind, bbox=x,y,width,height, column_id, lane, assignee; cursor, limit)',
        'the matching items, compact, in pages',
      ),
    ],
    tool: {
      title: 'Find items',
      description: 'Texts, links and tasks matching every filter, compact.',
    },
    view: (doc, record, args) =>
      findItems(doc, record.id, record.mode, args, {
        budget: READ_PAGE_MAX_BYTES,
        limit: (args as { limit?: number }).limit,
      }),
  }),
  // History (history.md): REST has these as routes of their own (GET /versions, /changes, POST /versions/{v}/restore).
  list_versions: host({
    name: 'list_versions',
    args: McpToolArgs.list_versions,
    result: McpToolOutputs.list_versions,
    group: 'history',
    effect: 'read',
    access: 'read',
    tool: { title: 'List versions', description: `Versions newest first, one per burst of edits.` },
  }),
  get_changes: host({
    name: 'get_changes',
    args: McpToolArgs.get_changes,
    result: McpToolOutputs.get_changes,
    group: 'history',
    effect: 'read',
    access: 'read',
    tool: {
      title: 'Get changes',
      description: 'Items added, updated, removed since since_etag (any etag read) or since; new etag.',
    },
  }),
  restore_version: host({
    name: 'restore_version',
    args: McpToolArgs.restore_version,
    result: McpToolOutputs.restore_version,
    group: 'history',
    effect: 'remove',
    access: 'write',
    tool: { title: 'Restore a version', description: 'Brings a version back as a new edit.' },
  }),
  // A frame of its own, for the browser's selection: the browser runs the same function on its copy of the board.
  recolor: mutation({
    name: 'recolor',
    args: MUTATION_FRAMES.recolor,
    result: z.object({ ok: z.literal(true), ids: z.array(z.string()), color: z.string() }),
    group: 'board',
    effect: 'set',
    frame: 'recolor',
    mutate: (w, args) => recolor(w, args.ids, args.color),
  }),
};

export type OperationName = keyof typeof OPERATIONS;
type Operations = typeof OPERATIONS;
export type AnyOperation =
  | MutationOp<string, z.ZodType, unknown>
  | ViewOp<string, z.ZodType, unknown>
  | HostOp<string, z.ZodType>;
export type AnyMutation = Extract<AnyOperation, { kind: 'mutation' }>;
export type AnyView = Extract<AnyOperation, { kind: 'view' }>;

/** Compile-time: every MCP tool of schema/mcp.ts has a row (test/operation-table.test.ts checks the converse). */
const everyToolHasARow: Exclude<McpToolName, OperationName> extends never ? true : never = true;
void everyToolHasARow;

/** Every row, in table order. */
export const OPERATION_LIST: readonly AnyOperation[] = Object.values(OPERATIONS) as AnyOperation[];

/** The rows that are MCP tools, by name, in the order of tools/list. */
export const TOOL_OPERATIONS = Object.fromEntries(
  OPERATION_LIST.filter((row) => row.tool).map((row) => [row.name, row]),
) as { [N in McpToolName]: Operations[N] & { tool: ToolWords } };

/** The row each /ws mutation frame runs. */
export const FRAME_OPERATIONS = Object.fromEntries(
  OPERATION_LIST.flatMap((row) => (row.kind === 'mutation' && row.frame ? [[row.frame, row]] : [])),
) as Record<MutationFrameType, AnyMutation>;

/** The row each batch op runs: every frame's, and set_lane's by its tool name (its frame is lane_upsert). */
const BATCH_OPERATIONS: Record<BatchOpType, AnyMutation> = { ...FRAME_OPERATIONS, set_lane: OPERATIONS.set_lane };

/** Runs a batch's parsed ops in order inside one write (board/mutations/batch.ts): every surface's batch ends here. */
export function runBatch(w: BoardWrite, ops: readonly BatchOpCall[]): unknown[] {
  return applyBatch(w, ops, (write, op) => BATCH_OPERATIONS[op.type].mutate(write, op.args));
}
