/**
 * Icons a client may show beside the server and its tools: four small SVGs
 * served at /mcp/icons/{name}.svg, so tools/list (and the serverInfo every
 * 2026-07-28 result carries) hold a short URL rather than copies of a picture.
 */
import type { Icon } from '@modelcontextprotocol/server';
import type { OperationGroup } from '../../board/operations/operations.js';
import { type McpToolName, OPERATIONS } from '../../host/operations/operations.js';

const svg = (body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="24" height="24"><rect x="1" y="1" width="22" height="22" rx="5" fill="#2962ff"/>${body}</svg>`;

/** The tool icons, one per group of operations (the row's `group`): a board, a canvas, a kanban, a clock. */
export const TOOL_ICON_SVGS: Record<OperationGroup, string> = {
  board: svg('<rect x="6" y="6" width="12" height="12" rx="2" fill="#fff"/>'),
  draw: svg('<path d="M6 17c3-8 6 2 12-9" stroke="#fff" stroke-width="2.2" fill="none" stroke-linecap="round"/>'),
  todo: svg(
    '<rect x="5" y="6" width="4" height="12" rx="1" fill="#fff"/><rect x="10" y="6" width="4" height="8" rx="1" fill="#fff"/><rect x="15" y="6" width="4" height="5" rx="1" fill="#fff"/>',
  ),
  history: svg(
    '<circle cx="12" cy="12" r="6.5" stroke="#fff" stroke-width="2" fill="none"/><path d="M12 8v4l3 2" stroke="#fff" stroke-width="2" fill="none" stroke-linecap="round"/>',
  ),
};

/** The server's icon (2026-07-28 repeats serverInfo in every result's _meta, so it is a URL, not a picture). */
export const serverIcons = (baseUrl: string): Icon[] => [
  { src: `${baseUrl}/mcp/icons/board.svg`, mimeType: 'image/svg+xml', sizes: ['any'] },
];

/**
 * A tool's icon, served by this instance at its public base URL. Only `src`:
 * tools/list is read whole by every agent, and `.svg` already says the type.
 */
export const toolIcons = (name: McpToolName, baseUrl: string): Icon[] => [
  { src: `${baseUrl}/mcp/icons/${OPERATIONS[name].group}.svg` },
];
