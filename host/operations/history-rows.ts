/** The history rows (docs/history.md): the stored versions, what changed since one, and restoring one. */
import { z } from 'zod';
import {
  ChangesQuery,
  GetChangesArgs,
  GetChangesResult,
  HISTORY_PAGE_DEFAULT,
  HISTORY_PAGE_MAX,
  ListVersionsArgs,
  ListVersionsResult,
  MAX_PAGE_ITEMS,
  PageLimitQuery,
  READ_PAGE_MAX_BYTES,
  RestoreBody,
  RestoreVersionArgs,
  RestoreVersionResult,
  VersionsQuery,
} from '../../schema/index.js';
import { hostRow, readsForAgent } from './host-row.js';

const versionQuery = (description: string) => ({ type: 'integer', minimum: 1, description });

export const HISTORY_ROWS = {
  list_versions: hostRow({
    args: ListVersionsArgs,
    result: ListVersionsResult,
    group: 'history',
    effect: 'read',
    access: 'read',
    rest: [
      {
        method: 'GET',
        path: '/versions',
        query: VersionsQuery,
        summary: 'Versions newest first, paged',
        answer: '{boardId, versions, next}',
        parameters: {
          before: versionQuery('a version (exclusive): the `next` of the previous page'),
          limit: {
            type: 'integer',
            minimum: 1,
            maximum: HISTORY_PAGE_MAX,
            default: HISTORY_PAGE_DEFAULT,
            description: 'versions per page',
          },
        },
      },
    ],
    tool: { title: 'List versions', description: `Versions newest first, one per burst of edits.` },
    run: (boards, { board_id, before, limit, cursor }, call) => {
      const caller = call.caller(board_id);
      const budget = readsForAgent(caller) ? READ_PAGE_MAX_BYTES : undefined;
      return boards.history.versions(board_id, caller, { before, limit, cursor, budget });
    },
  }),
  get_changes: hostRow({
    args: GetChangesArgs,
    onBoard: false,
    result: GetChangesResult,
    group: 'history',
    effect: 'read',
    access: 'read',
    rest: [
      {
        method: 'GET',
        path: '/changes',
        // Whole, as history.md has it, unless the caller pages by `limit` (or follows a `next_cursor`).
        query: z.intersection(ChangesQuery, PageLimitQuery),
        summary: 'Items added, updated and removed since a version or an ETag',
        description:
          'Give exactly one of `since` and `since_etag`: any ETag a read gave is a starting point (`from` is null when it is no version). 410 `history_gone` when the starting point was thinned: read /json/{boardId} again. The whole list by default; with `limit`, pages of at most that many items and `next_cursor`, which `cursor` takes (it carries the starting point).',
        answer: 'the changes',
        parameters: {
          since: versionQuery('a version'),
          since_etag: { type: 'string', description: 'an ETag the caller saw (from /json, wait or an op frame)' },
          cursor: { type: 'string', description: 'the next_cursor of the previous page' },
          limit: { type: 'integer', minimum: 1, maximum: MAX_PAGE_ITEMS, description: 'items per page' },
        },
        errors: [400, 401, 404, 429, 410],
      },
    ],
    tool: {
      title: 'Get changes',
      description: 'Items added, updated, removed since since_etag (any etag read) or since; new etag.',
    },
    run: (boards, args, call) => {
      const { board_id, since, since_etag, cursor } = args;
      const caller = call.caller(board_id);
      const from = cursor !== undefined ? { cursor } : since !== undefined ? { since } : { since_etag };
      // An agent's page is cut by bytes and leaves strokes' points out; a script's is whole unless it asks for a limit.
      const page = readsForAgent(caller)
        ? { budget: READ_PAGE_MAX_BYTES, points: false }
        : { budget: Infinity, limit: (args as { limit?: number }).limit, points: true };
      return boards.history.changes(board_id, caller, from, page);
    },
  }),
  restore_version: hostRow({
    args: RestoreVersionArgs,
    result: RestoreVersionResult,
    group: 'history',
    effect: 'remove',
    access: 'write',
    rest: [
      {
        method: 'POST',
        path: '/versions/:version/restore',
        body: RestoreBody,
        summary: 'Make the board equal to a version (one change by the caller; the state before is kept as a version)',
        answer: 'the version the restore made',
        errors: [400, 401, 404, 429],
      },
    ],
    tool: { title: 'Restore a version', description: 'Brings a version back as a new edit.' },
    run: (boards, args, call) =>
      boards.history.restore(args.board_id, call.caller(args.board_id), args.version, call.retry),
  }),
};
