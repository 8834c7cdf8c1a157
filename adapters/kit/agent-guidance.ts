/**
 * What the service tells an agent, written once: the MCP server's
 * instructions are these sentences, and llms.txt and the server card quote
 * the ones they need.
 */
import { MAX_BATCH_OPS, OUTLINE_MAX_BYTES, READ_PAGE_MAX_BYTES } from '../../schema/limits.js';
import { MODERN_REVISION } from './mcp-revisions.js';

const kb = (bytes: number) => `${bytes / 1024} KB`;

export const ACCESS =
  'Shared boards with no accounts: whoever has a board id can read and write it, unless it is locked.';
export const KINDS =
  'A draw board is an infinite canvas (texts, post-its, Mermaid diagrams, strokes, images, links); a todo board is a kanban (columns in lanes, tasks).';
export const START =
  'Start with create_board or open_board (a board URL or id), read with get_board or get_preview (an SVG and a PNG picture), then edit with the add_*/draw_stroke/move/erase or column/task tools, or many edits in one batch call.';
/** Said once here rather than in every tool's schema (adapters/mcp/tool-list.ts). */
export const ARGUMENTS =
  "Every board tool takes board_id, the board's UUID (or a view-only link's token), and access_key, the board's key; author, where a tool takes it, names you on what you write.";
/** A model passes arguments; only a program (or the host reading a resource for the model) sets headers. */
export const KEYS = `A locked board needs its key: a model passes it as the access_key argument of the tool call (a 2025 session then remembers it for that board); a resource read, which takes no arguments, and a client program send it in the X-Board-Key header (as does a ${MODERN_REVISION} subscriptions/listen on a locked board).`;
/** How an agent keeps its context small. */
export const READING = `A read answers at most ${kb(READ_PAGE_MAX_BYTES)}: a list that goes on says next_cursor, which cursor takes for the next page; get_board {detail: "outline"} is a board in ${kb(OUTLINE_MAX_BYTES)}, find_items finds texts, links and tasks, strokes come as bbox and pointCount (include_points for the points), and an item over ${kb(READ_PAGE_MAX_BYTES)} alone is cut and marked truncated (get_board ids gives it whole). batch makes up to ${MAX_BATCH_OPS} edits in one call, all or none; an op's ref names its item to later ops ("$ref"). add_text and add_link answer the laid-out bbox of what they made.`;
export const LIVE =
  'Every edit reaches the people and agents on the board live. Subscribe to svc://board/{id}/state.json, or call wait_for_update (pass since_etag), to hear of their edits; then get_changes with the same since_etag tells what changed.';
export const VERSIONS =
  'Every settled burst of edits is a version: list_versions, svc://board/{id}/versions/{version}/state.json and restore_version bring a board back.';

/** How a refused call answers, the one thing the protocol eras tell differently (adapters/mcp/errors.ts). */
export const REFUSALS = {
  modern: 'A refused call answers isError with a code and what to do next.',
  legacy:
    'A refused call says why (a code) and what to do next: an isError result for bad arguments or a missing item, else a JSON-RPC error with data.code (a lock, a limit, a quota, an unknown board).',
} as const;

/** The MCP server's instructions to the model, true for the era that serves them. */
export const instructionsFor = (era: keyof typeof REFUSALS): string =>
  [ACCESS, KINDS, START, ARGUMENTS, KEYS, READING, LIVE, VERSIONS, REFUSALS[era]].join(' ');
