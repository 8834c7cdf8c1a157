/** The rows the host answers for a whole board: made and opened, read whole or as a picture, waited on, its tasks found. */
import { z } from 'zod';
import { createBoardFieldError } from '../../board/import/import.js';
import { errors } from '../../board/model/errors.js';
import {
  CreateBoardArgs,
  CreateBoardResult,
  GetBoardArgs,
  GetBoardResult,
  GetPreviewArgs,
  GetPreviewResult,
  MAX_IMPORT_ITEMS,
  OpenBoardArgs,
  OpenBoardResult,
  QueryTasksArgs,
  QueryTasksResult,
  UUID_IN_TEXT,
  VIEW_TOKEN_IN_TEXT,
  WAIT_DEFAULT_TIMEOUT_MS,
  WAIT_MAX_TIMEOUT_MS,
  WAIT_MIN_TIMEOUT_MS,
  WaitForUpdateArgs,
  WaitForUpdateResult,
  WaitQuery,
} from '../../schema/index.js';
import { hostRow } from './host-row.js';

/** REST's answer to a creation as OpenAPI describes it. */
const Created = z.object({
  id: z.string(),
  mode: z.enum(['draw', 'todo']),
  access_key: z.string().optional(),
  imported: z.record(z.string(), z.number().int()).optional(),
  ids: z.record(z.string(), z.array(z.string())).optional(),
});

export const ENTRY_ROWS = {
  create_board: hostRow({
    args: CreateBoardArgs,
    onBoard: false,
    result: CreateBoardResult,
    group: 'board',
    effect: 'add',
    access: 'none',
    rate: 'create',
    fieldError: createBoardFieldError,
    rest: [
      {
        method: 'POST',
        path: '',
        onBoard: false,
        body: CreateBoardArgs,
        summary: 'Create a board (optionally importing content, optionally locked)',
        answer: 'the new board; `imported` and `ids` when content was given; `access_key` once when locked',
        answers: Created,
        token: true,
        errors: [400, 403, 413, 415, 429],
      },
    ],
    tool: {
      title: 'Create a board',
      description: `Creates a board: board_id, url. content imports up to ${MAX_IMPORT_ITEMS} items. lock answers access_key once: keep it.`,
    },
    run: (boards, args, call) => boards.create({ ...args, mode: args.mode ?? 'draw' }, call.caller(), call.retry),
  }),
  open_board: hostRow({
    args: OpenBoardArgs,
    onBoard: false,
    result: OpenBoardResult,
    group: 'board',
    effect: 'set',
    access: 'read',
    rate: 'create',
    tool: { title: 'Open a board', description: 'Opens a board by URL or id (a new UUID creates one).' },
    run: async (boards, args, call) => {
      const token = VIEW_TOKEN_IN_TEXT.exec(args.board);
      const match = token ?? UUID_IN_TEXT.exec(args.board);
      if (!match) throw errors.invalidPayload('board', 'holds no board id (a UUID)');
      const boardId = token ? match[0] : match[0].toLowerCase();
      return { boardId, ...(await boards.open(boardId, call.caller(boardId))) };
    },
  }),
  // Its outline counts the board's stored versions.
  get_board: hostRow({
    args: GetBoardArgs,
    result: GetBoardResult,
    group: 'board',
    effect: 'read',
    access: 'read',
    tool: {
      title: 'Read a board',
      description: 'The board: etag, texts, lines, images, shapes, frames; columns, tasks, lanes.',
    },
    run: (boards, { board_id, access_key: _key, ...read }, call) => boards.board(board_id, call.caller(board_id), read),
  }),
  // The picture is drawn in the host's preview threads.
  get_preview: hostRow({
    args: GetPreviewArgs,
    result: GetPreviewResult,
    group: 'board',
    effect: 'read',
    access: 'read',
    tool: {
      title: 'Preview a board',
      description: 'The board as a PNG picture and an SVG sketch (a big one by its URI).',
    },
    run: (boards, { board_id, frame }, call) => boards.preview(board_id, call.caller(board_id), { frame }),
  }),
};

export const WAIT_ROWS = {
  // It waits on the board's events, on the host's clock.
  wait_for_update: hostRow({
    args: WaitForUpdateArgs,
    result: WaitForUpdateResult,
    group: 'board',
    effect: 'read',
    access: 'read',
    rest: [
      {
        method: 'GET',
        path: '/wait',
        query: WaitQuery,
        summary: 'Long poll until the next settled burst of edits, or timeout',
        answer: 'what happened',
        parameters: {
          timeout_ms: {
            type: 'integer',
            minimum: WAIT_MIN_TIMEOUT_MS,
            maximum: WAIT_MAX_TIMEOUT_MS,
            default: WAIT_DEFAULT_TIMEOUT_MS,
            description: `clamped to ${WAIT_MIN_TIMEOUT_MS}..${WAIT_MAX_TIMEOUT_MS}`,
          },
          since_etag: {
            type: 'string',
            description: 'an ETag the caller saw: answers at once when the board has moved past it',
          },
        },
      },
    ],
    tool: {
      title: 'Wait for edits',
      description:
        'Long poll: {updated, etag} once the next edits settle, or {timedOut}. Pass since_etag not to miss edits, then get_changes.',
    },
    run: (boards, args, call) =>
      boards.wait(args.board_id, call.caller(args.board_id), args.timeout_ms, call.signal, args.since_etag),
  }),
};

export const TASK_QUERY_ROWS = {
  // Its pages are the host's: they are cut by bytes for the agent's context.
  query_tasks: hostRow({
    args: QueryTasksArgs,
    result: QueryTasksResult,
    group: 'todo',
    effect: 'read',
    access: 'read',
    tool: { title: 'Find tasks', description: `Tasks matching every filter.` },
    run: (boards, { board_id, access_key: _key, ...query }, call) =>
      boards.queryTasks(board_id, call.caller(board_id), query),
  }),
};
