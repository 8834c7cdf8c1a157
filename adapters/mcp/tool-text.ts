/**
 * How each MCP tool presents itself to agents: its title, its description and
 * honest annotations, in the order tools/list gives them. What a tool does is
 * the operation table's (server/board/operations.ts); this is only its words.
 *
 * Words are counted: tools/list stays under 5 000 tokens. A description says
 * what the tool does, what it answers and the limits a model runs into; each
 * argument is described in its schema, and what every board tool shares
 * (access_key, upserts) is said once in the server's instructions or here.
 */
import type { ToolAnnotations } from '@modelcontextprotocol/server';
import { MAX_IMPORT_ITEMS, type McpToolName } from '../../schema/index.js';

export type ToolText = { title: string; description: string; annotations: ToolAnnotations };

/** The upsert rule of the add_* tools, said once per tool in the fewest words. */
const UPSERT = 'An existing id updates it.';

/**
 * Honest annotations, each hint stated where it differs from the protocol's
 * default (readOnly false, destructive true, idempotent false, openWorld
 * true), as the defaults cost 1 400 bytes of tools/list: no tool reaches
 * outside the service.
 */
const READ: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
const ADD: ToolAnnotations = { destructiveHint: false, openWorldHint: false };
const SET: ToolAnnotations = { destructiveHint: false, idempotentHint: true, openWorldHint: false };
const DELETE: ToolAnnotations = { openWorldHint: false };

export const TOOL_TEXT: { [N in McpToolName]: ToolText } = {
  create_board: {
    title: 'Create a board',
    description: `Creates a board: board_id, url. content imports up to ${MAX_IMPORT_ITEMS} items. lock answers access_key once: keep it.`,
    annotations: ADD,
  },
  open_board: {
    title: 'Open a board',
    description: 'Opens a board by URL or id (a new UUID creates one).',
    annotations: SET,
  },
  get_board: {
    title: 'Read a board',
    description: 'The board: etag, texts, lines, images; columns, tasks, lanes.',
    annotations: READ,
  },
  get_preview: {
    title: 'Preview a board',
    description: 'The board as an SVG sketch and a PNG picture.',
    annotations: READ,
  },
  add_text: {
    title: 'Add a text',
    description: `Markdown-like text; a \`\`\`mermaid block is a diagram. 500 per board. ${UPSERT}`,
    annotations: ADD,
  },
  add_link: {
    title: 'Add a link',
    description: `A link pill. ${UPSERT}`,
    annotations: ADD,
  },
  add_image: {
    title: 'Add an image',
    description: `An image from a data URL (no http), max 900 kB; 50 per board. ${UPSERT}`,
    annotations: ADD,
  },
  draw_stroke: {
    title: 'Draw a stroke',
    description: `A stroke, up to 10000 points; 2000 per board. ${UPSERT}`,
    annotations: ADD,
  },
  move: {
    title: 'Move an item',
    description: 'Moves an item (its top-left) to x, y.',
    annotations: SET,
  },
  erase: {
    title: 'Erase an item',
    description: 'Deletes a text, link, stroke or image.',
    annotations: DELETE,
  },
  wait_for_update: {
    title: 'Wait for edits',
    description:
      'Long poll: {updated, etag} once the next edits settle, or {timedOut}. Pass since_etag not to miss edits, then get_changes.',
    annotations: READ,
  },
  set_board_mode: {
    title: 'Switch draw/todo',
    description: 'Switches an empty board to draw or todo.',
    annotations: { idempotentHint: true, openWorldHint: false },
  },
  set_board_title: {
    title: 'Title a board',
    description: 'Names the board.',
    // Replaces the title there was (destructive, the default), and the same title twice is one.
    annotations: { idempotentHint: true, openWorldHint: false },
  },
  create_column: {
    title: 'Create a column',
    description: 'A column on a todo board; 20 per lane.',
    annotations: ADD,
  },
  update_column: {
    title: 'Update a column',
    description: 'Changes the given fields of a column.',
    annotations: SET,
  },
  delete_column: {
    title: 'Delete a column',
    description: 'Deletes a column and its tasks.',
    annotations: DELETE,
  },
  create_task: {
    title: 'Create a task',
    description: 'A task on a todo board; 1000 per board.',
    annotations: ADD,
  },
  update_task: {
    title: 'Update a task',
    description: 'Changes the given fields of a task.',
    annotations: SET,
  },
  move_task: {
    title: 'Move a task',
    description: 'Moves a task to a column and position.',
    annotations: SET,
  },
  delete_task: {
    title: 'Delete a task',
    description: 'Deletes a task.',
    annotations: DELETE,
  },
  set_lane: {
    title: 'Name a lane',
    description: 'Names a lane (row of columns).',
    annotations: SET,
  },
  set_column_width: {
    title: 'Set column width',
    description: 'Width of all columns.',
    annotations: SET,
  },
  create_tasks: {
    title: 'Create tasks',
    description: 'Creates up to 1000 tasks, all or none.',
    annotations: ADD,
  },
  query_tasks: {
    title: 'Find tasks',
    description: 'Tasks matching every filter.',
    annotations: READ,
  },
  export_tasks: {
    title: 'Export tasks',
    description: 'Tasks as CSV or a Markdown checklist.',
    annotations: READ,
  },
  list_tasks: {
    title: 'List tasks',
    description: 'Columns, tasks and lanes in order.',
    annotations: READ,
  },
  list_versions: {
    title: 'List versions',
    description: 'Versions newest first, one per burst of edits.',
    annotations: READ,
  },
  get_changes: {
    title: 'Get changes',
    description: 'Items added, updated, removed since since_etag or since; new etag.',
    annotations: READ,
  },
  restore_version: {
    title: 'Restore a version',
    description: 'Brings a version back as a new edit.',
    annotations: DELETE,
  },
};
