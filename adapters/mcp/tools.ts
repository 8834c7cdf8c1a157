/**
 * Every MCP tool: its description for agents, its argument and output schemas
 * (from schema/), honest annotations, and a handler that calls the same domain
 * functions as REST. Handlers translate and nothing more.
 */
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { INK_COLORS, type McpToolArgs, type McpToolName } from '../../schema/index.js';
import type { Document } from '@hocuspocus/server';
import type { BoardWrite } from '../../server/board/board-write.js';
import type { Boards } from '../../server/host/boards.js';
import type { BoardRecord } from '../../server/board/record.js';
import { errors } from '../../server/board/errors.js';
import { tasksCsv, tasksMarkdown } from '../../server/board/exports.js';
import { previewSvg } from '../../server/board/preview.js';
import { jsonSnapshot, tasksView } from '../../server/board/snapshot.js';
import { MUTATIONS } from '../../server/board/mutations.js';
import { switchMode } from '../../server/board/todo.js';
import { boardUrl, embedUrl, mcpCaller, type RequestContext } from './context.js';
import { stateUri } from './resources.js';

/** What a handler may use besides its arguments. */
export type ToolContext = {
  boards: Boards;
  request: RequestContext;
  signal: AbortSignal;
  /** Remembers a key that opened a board, for this session's resource reads and subscriptions. */
  rememberKey(boardId: string, key: string | undefined): void;
  subscribe(uri: string): void;
};

type ToolDefinition<N extends McpToolName> = {
  title: string;
  description: string;
  annotations: ToolAnnotations;
  run(args: z.output<(typeof McpToolArgs)[N]>, context: ToolContext): Promise<object>;
};

const COLORS = INK_COLORS.join(', ');
const LOCKED = 'For a locked board pass access_key (or the X-Board-Key header).';
const UPSERT = 'Without id it creates an item with a fresh id; with the id of an existing item it updates that item in place (its author never changes); an unknown id creates a new item.';

/** The caller for a board tool: its access_key argument or the header, and the author argument. */
const callerFor = (context: ToolContext, args: { access_key?: string; author?: string }) => mcpCaller(context.request, args.access_key, args.author);

type BoardArgs = { board_id: string; access_key?: string; author?: string };

/** Runs a mutation on a board for a tool call, remembering the key that opened it. */
async function write<T>(context: ToolContext, args: BoardArgs, mutate: (w: BoardWrite) => T): Promise<T> {
  const result = await context.boards.write(args.board_id, callerFor(context, args), mutate);
  context.rememberKey(args.board_id, args.access_key ?? context.request.key);
  return result;
}

/** Runs a read of a board for a tool call, remembering the key that opened it. */
async function read<T>(context: ToolContext, args: BoardArgs, view: (doc: Document, record: BoardRecord) => T): Promise<T> {
  const result = await context.boards.read(args.board_id, callerFor(context, args), view);
  context.rememberKey(args.board_id, args.access_key ?? context.request.key);
  return result;
}

const UUID_IN_TEXT = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

export const TOOLS: { [N in McpToolName]: ToolDefinition<N> } = {
  create_board: {
    title: 'Create a board',
    description: `Creates a new shared board and returns its id and URLs. mode "draw" (default) is an infinite canvas; "todo" is a kanban seeded with a template (kanban: To do/In progress/Done; sprint; bugs). Optional content imports items atomically (arrays texts, lines, images for draw; columns, tasks with columnIndex, lanes for todo; at most 2550 items). lock "write" or "all" locks it at once and returns access_key ONCE: keep it, it cannot be recovered.`,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    async run(args, context) {
      const created = await context.boards.create({ ...args, mode: args.mode ?? 'draw' }, mcpCaller(context.request, undefined, args.author));
      const base = context.request.baseUrl;
      return {
        board_id: created.id,
        url: boardUrl(base, created.id),
        ...(args.lock !== 'all' && { embed_url: embedUrl(base, created.id) }),
        mode: created.mode,
        ...(created.access_key && { access_key: created.access_key }),
        ...(created.imported && { imported: created.imported, ids: created.ids }),
      };
    },
  },
  open_board: {
    title: 'Open a board',
    description: 'Resolves a board URL ({base_url}/#<id>, ?embed=1#<id>, /json/<id>) or a bare board id and subscribes this session to its state.json resource. It is the only operation that creates a board for an unknown id (a valid UUID); an id whose board was erased more than 30 days ago is reused.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async run(args, context) {
      const match = UUID_IN_TEXT.exec(args.board);
      if (!match) throw errors.invalidPayload('board', 'holds no board id (a UUID)');
      const boardId = match[0].toLowerCase();
      const { record, created } = await context.boards.open(boardId, mcpCaller(context.request, args.access_key));
      context.rememberKey(boardId, args.access_key ?? context.request.key);
      context.subscribe(stateUri(boardId));
      const base = context.request.baseUrl;
      return {
        board_id: boardId,
        url: boardUrl(base, boardId),
        ...(record.lockMode !== 'all' && { embed_url: embedUrl(base, boardId) }),
        mode: record.mode,
        created,
        locked: record.lockMode !== null,
        lock_mode: record.lockMode,
      };
    },
  },
  get_board: {
    title: 'Read a board',
    description: `The full snapshot of a board: {boardId, mode, etag, texts, lines, images} and, for todo boards, colWidth, columns, tasks, lanes. Links appear in texts with kind "link". Image payloads are elided (dataUrl null). ${LOCKED}`,
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: (args, context) => read(context, args, (doc, record) => JSON.parse(jsonSnapshot(doc, record.id, record.mode)) as object),
  },
  get_preview: {
    title: 'Preview a board as SVG',
    description: `A schematic SVG of the board (a few kB): texts as boxes with their first lines, strokes, image thumbnails, link pills, kanban columns and cards; AI-authored items have a purple border. ${LOCKED}`,
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: (args, context) => read(context, args, (doc, record) => ({ board_id: record.id, mimeType: 'image/svg+xml' as const, svg: previewSvg(doc, record.mode) })),
  },
  add_text: {
    title: 'Add or update a text',
    description: `A text node on a draw board at (x, y), its top-left in canvas pixels. content is board markup (Markdown-like; "- [ ] task" and "- [x] done" are checkboxes); a content that is exactly one fenced \`\`\`mermaid block renders as a diagram (one diagram per text). postit: true makes a sticky note; diagram: true a framed box (not both). width 160 to 4096 px (omit to auto-fit). color: ${COLORS} (anything else becomes auto). At most 100000 characters and 500 text nodes per board. ${UPSERT} ${LOCKED}`,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run: (args, context) => write(context, args, (w) => MUTATIONS.add_text(w, args)),
  },
  add_link: {
    title: 'Add or update a link',
    description: `A clickable link pill showing the URL's hostname, on a draw board at (x, y). url must be an absolute http(s) URL. Links count as text nodes (500 per board). ${UPSERT} ${LOCKED}`,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run: (args, context) => write(context, args, (w) => MUTATIONS.add_link(w, args)),
  },
  add_image: {
    title: 'Add or update an image',
    description: `An image on a draw board: dataUrl must be data:image/<png|jpeg|gif|webp|svg+xml>;base64,... (hosted URLs are rejected), at most 921600 decoded bytes; 50 images and 10 MB per board. x, y, width, height in canvas pixels (sides up to 16384). thumbDataUrl: an optional PNG/JPEG/WebP of about 64 px and at most 8000 bytes, shown in previews. ${UPSERT} ${LOCKED}`,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run: (args, context) => write(context, args, (w) => MUTATIONS.add_image(w, args)),
  },
  draw_stroke: {
    title: 'Draw or update a stroke',
    description: `A freehand stroke on a draw board, 3 px wide. points: [[x,y],...], a flat [x1,y1,x2,y2,...], or a JSON string of either (1 to 10000 points). color: ${COLORS} (case-insensitive; anything else, hex too, becomes auto = theme ink). anchors {start?, end?: {kind: "text"|"image", id, dx, dy}} tie an end to a node so it follows when the node moves. 2000 strokes per board. ${UPSERT} ${LOCKED}`,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run: (args, context) => write(context, args, (w) => MUTATIONS.draw_stroke(w, args)),
  },
  move: {
    title: 'Move an item',
    description: `Moves a text, link or image so its top-left is at (x, y), or translates a stroke so its bounding box's top-left lands at (x, y). kind (texts, links, strokes, images) is optional: the id is looked up. Strokes anchored to a moved text or image follow it. ${LOCKED}`,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: (args, context) => write(context, args, (w) => MUTATIONS.move(w, args)),
  },
  erase: {
    title: 'Erase an item',
    description: `Deletes a text, link, stroke or image by id (kind optional). ${LOCKED}`,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    run: (args, context) => write(context, args, (w) => MUTATIONS.erase(w, args)),
  },
  wait_for_update: {
    title: 'Wait for the next edit',
    description: `Long poll: returns {updated: true} about 3 seconds after the next burst of edits to the board settles (from anyone, on any surface), or {timedOut: true} after timeout_ms (clamped to 1000..55000, default 25000). etag identifies the board state then. ${LOCKED}`,
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: (args, context) => context.boards.wait(args.board_id, callerFor(context, args), args.timeout_ms, context.signal),
  },
  set_board_mode: {
    title: 'Switch a board between draw and todo',
    description: `Switches an empty board (no texts, strokes, images or tasks; columns do not count) to "draw" or "todo". Switching to todo seeds the template's columns (kanban, sprint, bugs); to draw removes columns and lanes. A board with content gives board_not_empty. ${LOCKED}`,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    run: (args, context) => write(context, args, (w) => switchMode(w, args)),
  },
  create_column: {
    title: 'Create a column',
    description: `A kanban column on a todo board: title (at most 200 chars), sort (its position, a number), lane (row 0 to 9, default 0), color red, blue or green. At most 200 columns, 20 per lane. ${LOCKED}`,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run: (args, context) => write(context, args, (w) => MUTATIONS.create_column(w, args)),
  },
  update_column: {
    title: 'Update a column',
    description: `Changes the given fields of a column (title, sort, lane, color; "" clears the color). ${LOCKED}`,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: (args, context) => write(context, args, (w) => MUTATIONS.update_column(w, args)),
  },
  delete_column: {
    title: 'Delete a column',
    description: `Deletes a column and every task in it. ${LOCKED}`,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    run: (args, context) => write(context, args, (w) => MUTATIONS.delete_column(w, args)),
  },
  create_task: {
    title: 'Create a task',
    description: `A card in a column of a todo board: column_id (required), name (at most 500 chars), description, due_date (YYYY-MM-DD or an ISO date-time), priority H, M or L, assignee (at most 200 chars), sort (position in the column; default last), done, color red/blue/green, content (an opaque JSON string of at most 20000 chars, e.g. {"boards": [board ids]}). At most 1000 tasks per board. ${LOCKED}`,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run: (args, context) => write(context, args, (w) => MUTATIONS.create_task(w, args)),
  },
  update_task: {
    title: 'Update a task',
    description: `Changes the given fields of a task (name, description, due_date, priority, assignee, sort, done, color, content, column_id); "" clears priority or color. ${LOCKED}`,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: (args, context) => write(context, args, (w) => MUTATIONS.update_task(w, args)),
  },
  move_task: {
    title: 'Move a task',
    description: `Moves a task to a column (column_id) and position (sort). ${LOCKED}`,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: (args, context) => write(context, args, (w) => MUTATIONS.move_task(w, args)),
  },
  delete_task: {
    title: 'Delete a task',
    description: `Deletes a task by id. ${LOCKED}`,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    run: (args, context) => write(context, args, (w) => MUTATIONS.delete_task(w, args)),
  },
  set_lane: {
    title: 'Name a lane',
    description: `Names a lane (a row of columns, index 0 to 9); an empty or omitted title clears the name. The lane's author is fixed when it is first named. ${LOCKED}`,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: (args, context) => write(context, args, (w) => MUTATIONS.set_lane(w, args)),
  },
  set_column_width: {
    title: 'Set the column width',
    description: `Sets the pixel width shared by all columns of a todo board; values outside 200..480 are clamped (default 280). ${LOCKED}`,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: (args, context) => write(context, args, (w) => MUTATIONS.set_column_width(w, args)),
  },
  create_tasks: {
    title: 'Create many tasks at once',
    description: `Creates up to 1000 tasks atomically: if any is invalid or the board would exceed 1000 tasks, none is created. Each task takes the fields of create_task. ${LOCKED}`,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    async run(args, context) {
      const tasks = await write(context, args, (w) => args.tasks.map((task) => MUTATIONS.create_task(w, { ...task, author: task.author ?? args.author })));
      return { ok: true, tasks, ids: tasks.map((task) => task.id) };
    },
  },
  query_tasks: {
    title: 'Find tasks',
    description: `Filters the tasks of a todo board on the server (a draw board is wrong_mode): assignee (case-insensitive), priority (H, M, L), done, overdue (due before today UTC and not done), due_before and due_after (exclusive, by day), color. All given filters must match. ${LOCKED}`,
    annotations: { readOnlyHint: true, openWorldHint: false },
    async run(args, context) {
      const { board_id, access_key, ...query } = args;
      const result = await context.boards.queryTasks(board_id, callerFor(context, args), query);
      context.rememberKey(board_id, access_key ?? context.request.key);
      return result;
    },
  },
  export_tasks: {
    title: 'Export tasks',
    description: `The tasks as CSV (lane,column,name,priority,assignee,due_date,done,description) or as a Markdown checklist grouped by column: exactly what /api/boards/{id}/tasks.csv and tasks.md return. ${LOCKED}`,
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: (args, context) =>
      read(context, args, (doc, record) => ({
        format: args.format,
        content: args.format === 'csv' ? tasksCsv(doc, record.mode) : tasksMarkdown(doc, record.mode, record.id),
      })),
  },
  list_tasks: {
    title: 'List columns and tasks',
    description: `{mode, columns, tasks, lanes, colWidth} of a board, in board order (empty lists on a draw board). ${LOCKED}`,
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: (args, context) => read(context, args, (doc, record) => tasksView(doc, record.mode)),
  },
};


