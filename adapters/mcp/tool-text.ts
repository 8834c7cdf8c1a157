/**
 * How each MCP tool presents itself to agents: its title, its description and
 * honest annotations, in the order tools/list gives them. What a tool does is
 * the operation table's (server/board/operations.ts); this is only its words.
 */
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { INK_COLORS, type McpToolName } from '../../schema/index.js';

export type ToolText = { title: string; description: string; annotations: ToolAnnotations };

const COLORS = INK_COLORS.join(', ');
const LOCKED = 'For a locked board pass access_key (or the X-Board-Key header).';
const UPSERT = 'Without id it creates an item with a fresh id; with the id of an existing item it updates that item in place (its author never changes); an unknown id creates a new item.';

export const TOOL_TEXT: { [N in McpToolName]: ToolText } = {
  create_board: {
    title: 'Create a board',
    description: `Creates a new shared board and returns its id and URLs. mode "draw" (default) is an infinite canvas; "todo" is a kanban seeded with a template (kanban: To do/In progress/Done; sprint; bugs). Optional content imports items atomically (arrays texts, lines, images for draw; columns, tasks with columnIndex, lanes for todo; at most 2550 items). lock "write" or "all" locks it at once and returns access_key ONCE: keep it, it cannot be recovered.`,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  open_board: {
    title: 'Open a board',
    description: 'Resolves a board URL ({base_url}/#<id>, ?embed=1#<id>, /json/<id>) or a bare board id and subscribes this session to its state.json resource. It is the only operation that creates a board for an unknown id (a valid UUID); an id whose board was erased more than 30 days ago is reused.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  get_board: {
    title: 'Read a board',
    description: `The full snapshot of a board: {boardId, mode, etag, texts, lines, images} and, for todo boards, colWidth, columns, tasks, lanes. Links appear in texts with kind "link". Image payloads are elided (dataUrl null). ${LOCKED}`,
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  get_preview: {
    title: 'Preview a board as SVG',
    description: `A schematic SVG of the board (a few kB): texts as boxes with their first lines, strokes, image thumbnails, link pills, kanban columns and cards; AI-authored items have a purple border. ${LOCKED}`,
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  add_text: {
    title: 'Add or update a text',
    description: `A text node on a draw board at (x, y), its top-left in canvas pixels. content is board markup (Markdown-like; "- [ ] task" and "- [x] done" are checkboxes); a content that is exactly one fenced \`\`\`mermaid block renders as a diagram (one diagram per text). postit: true makes a sticky note; diagram: true a framed box (not both). width 160 to 4096 px (omit to auto-fit). color: ${COLORS} (anything else becomes auto). At most 100000 characters and 500 text nodes per board. ${UPSERT} ${LOCKED}`,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  add_link: {
    title: 'Add or update a link',
    description: `A clickable link pill showing the URL's hostname, on a draw board at (x, y). url must be an absolute http(s) URL. Links count as text nodes (500 per board). ${UPSERT} ${LOCKED}`,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  add_image: {
    title: 'Add or update an image',
    description: `An image on a draw board: dataUrl must be data:image/<png|jpeg|gif|webp|svg+xml>;base64,... (hosted URLs are rejected), at most 921600 decoded bytes; 50 images and 10 MB per board. x, y, width, height in canvas pixels (sides up to 16384). thumbDataUrl: an optional PNG/JPEG/WebP of about 64 px and at most 8000 bytes, shown in previews. ${UPSERT} ${LOCKED}`,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  draw_stroke: {
    title: 'Draw or update a stroke',
    description: `A freehand stroke on a draw board, 3 px wide. points: [[x,y],...], a flat [x1,y1,x2,y2,...], or a JSON string of either (1 to 10000 points). color: ${COLORS} (case-insensitive; anything else, hex too, becomes auto = theme ink). anchors {start?, end?: {kind: "text"|"image", id, dx, dy}} tie an end to a node so it follows when the node moves. 2000 strokes per board. ${UPSERT} ${LOCKED}`,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  move: {
    title: 'Move an item',
    description: `Moves a text, link or image so its top-left is at (x, y), or translates a stroke so its bounding box's top-left lands at (x, y). kind (texts, links, strokes, images) is optional: the id is looked up. Strokes anchored to a moved text or image follow it. ${LOCKED}`,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  erase: {
    title: 'Erase an item',
    description: `Deletes a text, link, stroke or image by id (kind optional). ${LOCKED}`,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  },
  wait_for_update: {
    title: 'Wait for the next edit',
    description: `Long poll: returns {updated: true} about 3 seconds after the next burst of edits to the board settles (from anyone, on any surface), or {timedOut: true} after timeout_ms (clamped to 1000..55000, default 25000). etag identifies the board state then. Pass since_etag = the etag you last saw: if the board already moved past it, it returns at once, so an edit made between two waits is never missed. Then call get_changes with that same since_etag to learn what changed, rather than re-reading the board. ${LOCKED}`,
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  set_board_mode: {
    title: 'Switch a board between draw and todo',
    description: `Switches an empty board (no texts, strokes, images or tasks; columns do not count) to "draw" or "todo". Switching to todo seeds the template's columns (kanban, sprint, bugs); to draw removes columns and lanes. A board with content gives board_not_empty. ${LOCKED}`,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  },
  create_column: {
    title: 'Create a column',
    description: `A kanban column on a todo board: title (at most 200 chars), sort (its position, a number), lane (row 0 to 9, default 0), color red, blue or green. At most 200 columns, 20 per lane. ${LOCKED}`,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  update_column: {
    title: 'Update a column',
    description: `Changes the given fields of a column (title, sort, lane, color; "" clears the color). ${LOCKED}`,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  delete_column: {
    title: 'Delete a column',
    description: `Deletes a column and every task in it. ${LOCKED}`,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  },
  create_task: {
    title: 'Create a task',
    description: `A card in a column of a todo board: column_id (required), name (at most 500 chars), description, due_date (YYYY-MM-DD or an ISO date-time), priority H, M or L, assignee (at most 200 chars), sort (position in the column; default last), done, color red/blue/green, content (an opaque JSON string of at most 20000 chars, e.g. {"boards": [board ids]}). At most 1000 tasks per board. ${LOCKED}`,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  update_task: {
    title: 'Update a task',
    description: `Changes the given fields of a task (name, description, due_date, priority, assignee, sort, done, color, content, column_id); "" clears priority or color. ${LOCKED}`,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  move_task: {
    title: 'Move a task',
    description: `Moves a task to a column (column_id) and position (sort). ${LOCKED}`,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  delete_task: {
    title: 'Delete a task',
    description: `Deletes a task by id. ${LOCKED}`,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  },
  set_lane: {
    title: 'Name a lane',
    description: `Names a lane (a row of columns, index 0 to 9); an empty or omitted title clears the name. The lane's author is fixed when it is first named. ${LOCKED}`,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  set_column_width: {
    title: 'Set the column width',
    description: `Sets the pixel width shared by all columns of a todo board; values outside 200..480 are clamped (default 280). ${LOCKED}`,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  create_tasks: {
    title: 'Create many tasks at once',
    description: `Creates up to 1000 tasks atomically: if any is invalid or the board would exceed 1000 tasks, none is created. Each task takes the fields of create_task. ${LOCKED}`,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  query_tasks: {
    title: 'Find tasks',
    description: `Filters the tasks of a todo board on the server (a draw board is wrong_mode): assignee (case-insensitive), priority (H, M, L), done, overdue (due before today UTC and not done), due_before and due_after (exclusive, by day), color. All given filters must match. ${LOCKED}`,
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  export_tasks: {
    title: 'Export tasks',
    description: `The tasks as CSV (lane,column,name,priority,assignee,due_date,done,description) or as a Markdown checklist grouped by column: exactly what /api/boards/{id}/tasks.csv and tasks.md return. ${LOCKED}`,
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  list_tasks: {
    title: 'List columns and tasks',
    description: `{mode, columns, tasks, lanes, colWidth} of a board, in board order (empty lists on a draw board). ${LOCKED}`,
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  list_versions: {
    title: 'List versions',
    description: `The board's history, newest first: {version, at, authors, counts, changes: {added, updated, removed}, restoredFrom?} per version. A version is recorded when a burst of edits settles (about 3 s) and before every restore; old versions are thinned (all of the last day, then hourly for a week, then daily for 30 days). Pages of limit (1 to 100, default 50); pass next as before for the following page (null: none). A board locked "all" needs access_key.`,
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  get_changes: {
    title: 'What changed since',
    description: `What changed from a point to the board's current state: {from, to, etag, added, updated, removed}, items as get_board gives them. Give since_etag (the etag you last saw, from wait_for_update or get_board) or since (a version number), not both. The usual loop: wait_for_update with since_etag, then get_changes with that since_etag, and keep the etag it returns for the next round. history_gone: the starting point was thinned; read the board with get_board. A board locked "all" needs access_key.`,
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  restore_version: {
    title: 'Restore a version',
    description: `Makes the board equal to a version from list_versions, as one new edit that everyone on the board sees live. Nothing is lost: the state before the restore is recorded as a version first, and the restore itself becomes a version with restoredFrom. Answers {ok, version, restoredFrom, etag}. ${LOCKED}`,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  },
};
