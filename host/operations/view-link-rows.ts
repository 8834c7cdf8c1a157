/**
 * The rows of view-only links (docs/sharing.md): REST's three routes, each a
 * row of its own, and MCP's one `view_links` tool, whose `action` picks one of
 * the same three host methods (one tool keeps tools/list within its budget).
 */
import { z } from 'zod';
import {
  ItemId,
  MAX_VIEW_LINK_LABEL_CHARS,
  MAX_VIEW_LINKS,
  MadeViewLink,
  RevokedViewLink,
  strictObject,
  ViewLinkBody,
  ViewLinkList,
  ViewLinksArgs,
  ViewLinksResult,
} from '../../schema/index.js';
import type { Boards } from '../boards/boards.js';
import { type HostArgs, type HostCall, hostRow } from './host-row.js';

/** Makes a link and answers its token once, with the address that opens it. */
async function make(boards: Boards, boardId: string, label: string | undefined, call: HostCall) {
  const made = await boards.viewLinks.create(boardId, call.caller(boardId), label);
  return { ...made, url: `${call.baseUrl}/#${made.token}` };
}

const EDITORS_ONLY = 'a view token cannot make, list or revoke links (403 read_only_link)';

export const VIEW_LINK_ROWS = {
  view_links: hostRow({
    args: ViewLinksArgs,
    result: ViewLinksResult,
    group: 'board',
    effect: 'remove',
    access: 'write',
    tool: {
      title: 'Share read-only',
      description:
        'View-only links: create (token and url, once), list, revoke by id. A token reads as board_id, never writes.',
    },
    run: async (boards, args: HostArgs<typeof ViewLinksArgs>, call) => {
      switch (args.action) {
        case 'create':
          return make(boards, args.board_id, args.label, call);
        case 'list':
          return boards.viewLinks.list(args.board_id, call.caller(args.board_id));
        case 'revoke':
          return boards.viewLinks.revoke(args.board_id, call.caller(args.board_id), ItemId.parse(args.id ?? ''));
        default: {
          const unknown: never = args.action;
          return unknown;
        }
      }
    },
  }),
  create_view_link: hostRow({
    args: ViewLinkBody,
    result: MadeViewLink,
    group: 'board',
    effect: 'add',
    access: 'write',
    rest: [
      {
        method: 'POST',
        path: '/view-links',
        body: ViewLinkBody,
        summary: 'Make a view-only link (its token is answered once)',
        answer: '{token, url, label, created_at, id}',
        description: `A token \`v_…\` reads the board wherever its id does, and never writes. \`label\` is at most ${MAX_VIEW_LINK_LABEL_CHARS} characters; a board holds at most ${MAX_VIEW_LINKS} live links (409 too_many_view_links). A write of the board: its key under a lock; ${EDITORS_ONLY}.`,
        errors: [400, 401, 403, 404, 409, 413, 415, 429],
      },
    ],
    run: (boards, args, call) => make(boards, args.board_id, args.label, call),
  }),
  list_view_links: hostRow({
    args: z.object({}),
    result: ViewLinkList,
    group: 'board',
    effect: 'read',
    access: 'read',
    rest: [
      {
        method: 'GET',
        path: '/view-links',
        query: strictObject({}),
        summary: "The board's live view-only links (never their tokens)",
        answer: '{links: [{id, label, created_at}]}',
        description: `A read of the board: its key under an \`all\` lock; ${EDITORS_ONLY}.`,
        errors: [401, 403, 404, 429],
      },
    ],
    run: (boards, args, call) => boards.viewLinks.list(args.board_id, call.caller(args.board_id)),
  }),
  revoke_view_link: hostRow({
    args: z.object({ id: ItemId }),
    result: RevokedViewLink,
    group: 'board',
    effect: 'remove',
    access: 'write',
    rest: [
      {
        method: 'DELETE',
        path: '/view-links/:itemId',
        summary: 'Revoke a view-only link',
        answer: '{ok, id}',
        description: `From then on its token answers 404 everywhere, and what was opened with it is closed within a second. A write of the board; ${EDITORS_ONLY}.`,
        errors: [400, 401, 403, 404, 429],
      },
    ],
    run: (boards, args, call) => boards.viewLinks.revoke(args.board_id, call.caller(args.board_id), args.id),
  }),
};
