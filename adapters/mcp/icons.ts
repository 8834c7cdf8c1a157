/**
 * Icons a client may show beside the server and its tools: four small SVGs
 * served at /mcp/icons/{name}.svg, so tools/list (and the serverInfo every
 * 2026-07-28 result carries) hold a short URL rather than copies of a picture.
 */
import type { Icon } from '@modelcontextprotocol/server';
import type { McpToolName } from '../../schema/index.js';

const svg = (body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="24" height="24"><rect x="1" y="1" width="22" height="22" rx="5" fill="#2962ff"/>${body}</svg>`;

/** The tool icons by name: a board, a canvas, a kanban, a clock. */
export const TOOL_ICON_SVGS = {
  board: svg('<rect x="6" y="6" width="12" height="12" rx="2" fill="#fff"/>'),
  draw: svg('<path d="M6 17c3-8 6 2 12-9" stroke="#fff" stroke-width="2.2" fill="none" stroke-linecap="round"/>'),
  todo: svg(
    '<rect x="5" y="6" width="4" height="12" rx="1" fill="#fff"/><rect x="10" y="6" width="4" height="8" rx="1" fill="#fff"/><rect x="15" y="6" width="4" height="5" rx="1" fill="#fff"/>',
  ),
  history: svg(
    '<circle cx="12" cy="12" r="6.5" stroke="#fff" stroke-width="2" fill="none"/><path d="M12 8v4l3 2" stroke="#fff" stroke-width="2" fill="none" stroke-linecap="round"/>',
  ),
} as const;

export type ToolIconName = keyof typeof TOOL_ICON_SVGS;

/** The server's icon (2026-07-28 repeats serverInfo in every result's _meta, so it is a URL, not a picture). */
export const serverIcons = (baseUrl: string): Icon[] => [
  { src: `${baseUrl}/mcp/icons/board.svg`, mimeType: 'image/svg+xml', sizes: ['any'] },
];

const TOOL_ICON: { [N in McpToolName]: ToolIconName } = {
  create_board: 'board',
  open_board: 'board',
  get_board: 'board',
  get_preview: 'board',
  wait_for_update: 'board',
  set_board_mode: 'board',
  set_board_title: 'board',
  add_text: 'draw',
  add_link: 'draw',
  add_image: 'draw',
  draw_stroke: 'draw',
  move: 'draw',
  erase: 'draw',
  create_column: 'todo',
  update_column: 'todo',
  delete_column: 'todo',
  create_task: 'todo',
  update_task: 'todo',
  move_task: 'todo',
  delete_task: 'todo',
  set_lane: 'todo',
  set_column_width: 'todo',
  create_tasks: 'todo',
  query_tasks: 'todo',
  export_tasks: 'todo',
  list_tasks: 'todo',
  list_versions: 'history',
  get_changes: 'history',
  restore_version: 'history',
};

/**
 * A tool's icon, served by this instance at its public base URL. Only `src`:
 * tools/list is read whole by every agent, and `.svg` already says the type.
 */
export const toolIcons = (name: McpToolName, baseUrl: string): Icon[] => [
  { src: `${baseUrl}/mcp/icons/${TOOL_ICON[name]}.svg` },
];
