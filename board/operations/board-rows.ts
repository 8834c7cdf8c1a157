/** The board's rows the domain answers: its mode and title set, its items searched and recoloured (the host's are in host/operations). */
import { z } from 'zod';
import {
  FindItemsQuery,
  FindItemsRestQuery,
  FindItemsResult,
  MAX_BOARD_TITLE_CHARS,
  ModeInput,
  READ_PAGE_MAX_BYTES,
  RecolorArgs,
  SetBoardModeResult,
  SetBoardTitleResult,
  TitleInput,
} from '../../schema/index.js';
import { setBoardTitle } from '../model/title.js';
import { recolor } from '../mutations/recolor.js';
import { switchMode } from '../mutations/todo.js';
import { findItems } from '../reads/find-items.js';
import { get, mutation, post, view } from './row.js';

export const BOARD_SETTING_ROWS = {
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
        'Find texts, links, shapes, frames and tasks (text, kind, bbox=x,y,width,height, frame, column_id, lane, assignee; cursor, limit)',
        'the matching items, compact, in pages',
      ),
    ],
    tool: {
      title: 'Find items',
      description: 'Texts, links, shapes, frames and tasks matching every filter, compact.',
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
