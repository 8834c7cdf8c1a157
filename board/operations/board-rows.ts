/** The board's rows: made and opened, read whole or as a picture, waited on, set, searched, recoloured. */
import { z } from 'zod';
import {
  CreateBoardArgs,
  CreateBoardResult,
  FindItemsQuery,
  FindItemsRestQuery,
  FindItemsResult,
  GetBoardArgs,
  GetBoardResult,
  GetPreviewArgs,
  GetPreviewResult,
  MAX_BOARD_TITLE_CHARS,
  MAX_IMPORT_ITEMS,
  ModeInput,
  OpenBoardArgs,
  OpenBoardResult,
  READ_PAGE_MAX_BYTES,
  RecolorArgs,
  SetBoardModeResult,
  SetBoardTitleResult,
  TitleInput,
  WaitForUpdateArgs,
  WaitForUpdateResult,
} from '../../schema/index.js';
import { recolor } from '../mutations/recolor.js';
import { findItems } from '../reads/find-items.js';
import { setBoardTitle } from '../model/title.js';
import { switchMode } from '../mutations/todo.js';
import { mutation, view, host, post, get } from './row.js';

export const BOARD_ROWS = {
  create_board: host({
    args: CreateBoardArgs,
    onBoard: false,
    result: CreateBoardResult,
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
    args: OpenBoardArgs,
    onBoard: false,
    result: OpenBoardResult,
    group: 'board',
    effect: 'set',
    access: 'read',
    rate: 'create',
    tool: { title: 'Open a board', description: 'Opens a board by URL or id (a new UUID creates one).' },
  }),
  // A host row: its outline counts the board's stored versions.
  get_board: host({
    args: GetBoardArgs,
    result: GetBoardResult,
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
    args: GetPreviewArgs,
    result: GetPreviewResult,
    group: 'board',
    effect: 'read',
    access: 'read',
    tool: {
      title: 'Preview a board',
      description: 'The board as a PNG picture and an SVG sketch (a big one by its URI).',
    },
  }),
};

export const BOARD_SETTING_ROWS = {
  wait_for_update: host({
    args: WaitForUpdateArgs,
    result: WaitForUpdateResult,
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
    args: ModeInput,
    result: SetBoardModeResult,
    group: 'board',
    effect: 'replace',
    rest: [
      post('/mode', ModeInput, 'Switch an empty board between draw and todo', 'the new mode (and seeded columns)'),
    ],
    tool: { title: 'Switch draw/todo', description: 'Switches an empty board to draw or todo.' },
    frame: false,
    mutate: (w, args) => switchMode(w, args),
  }),
  set_board_title: mutation({
    args: TitleInput,
    result: SetBoardTitleResult,
    group: 'board',
    // Replaces the title there was, and the same title twice is one.
    effect: 'replace',
    rest: [
      post(
        '/title',
        TitleInput,
        `Set the board title (trimmed, at most ${MAX_BOARD_TITLE_CHARS} characters; "" clears it)`,
        'the title',
      ),
    ],
    tool: { title: 'Title a board', description: 'Names the board.' },
    mutate: (w, args) => setBoardTitle(w, args.title),
  }),
};

export const FIND_ROWS = {
  find_items: view({
    args: FindItemsQuery,
    result: FindItemsResult,
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
};

export const SELECTION_ROWS = {
  // A frame of its own, for the browser's selection: the browser runs the same function on its copy of the board.
  recolor: mutation({
    args: RecolorArgs,
    result: z.object({ ok: z.literal(true), ids: z.array(z.string()), color: z.string() }),
    group: 'board',
    effect: 'set',
    mutate: (w, args) => recolor(w, args.ids, args.color),
  }),
};
