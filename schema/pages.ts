/**
 * Input of the reads that page (docs/mcp.md, "Pages") and of find_items: the
 * cursor a page answers, REST's page size, and find_items' filters. Query
 * strings carry numbers as digits and a box as `x,y,width,height`; both are
 * read into the values the tool arguments take, then checked alike.
 */
import { z } from 'zod';
import { Coordinate, ItemId, strictObject } from './common.js';
import { advertise } from './json-schema.js';
import { MAX_ASSIGNEE_CHARS, MAX_COORDINATE, MAX_TEXT_CHARS } from './limits.js';
import { ColumnId, LaneIndex } from './todo.js';

/** The `next_cursor` a page answered: opaque, bound to its tool and board. */
export const Cursor = advertise(
  z
    .string({ error: 'must be a string' })
    .min(1, { error: 'must not be empty' })
    .max(2_048, { error: 'is not a cursor this service gave' }),
  { type: 'string' },
).describe('next_cursor');

/** The most items a REST page holds when the caller asks for pages by count. */
export const MAX_PAGE_ITEMS = 1_000;

const Extent = z
  .number({ error: 'must be a number' })
  .min(0, { error: 'must be at least 0' })
  .max(2 * MAX_COORDINATE, { error: `must be at most ${2 * MAX_COORDINATE}` });

/** An area of the canvas: items that intersect it match. */
export const Box = strictObject({ x: Coordinate, y: Coordinate, width: Extent, height: Extent });

export const FIND_KINDS = ['texts', 'links', 'shapes', 'frames', 'tasks'] as const;

/**
 * find_items' filters: every one given must hold. Advertised in the fewest
 * bytes tools/list allows (its budget); the checks are the full ones.
 */
export const FindItemsQuery = z.object({
  text: advertise(
    z
      .string({ error: 'must be a string' })
      .max(MAX_TEXT_CHARS, { error: `must be at most ${MAX_TEXT_CHARS} characters` }),
    { type: 'string' },
  )
    .optional()
    .describe('Any case'),
  kind: z
    .enum(FIND_KINDS, { error: `must be one of ${FIND_KINDS.join(', ')}` })
    .optional()
    .describe('Kind'),
  bbox: advertise(Box, { type: 'object' }).optional().describe('{x,y,width,height}'),
  frame: advertise(ItemId, { type: 'string' }).optional().describe("A frame's members"),
  column_id: advertise(ColumnId, { type: 'string' }).optional().describe('Column id'),
  lane: advertise(LaneIndex, { type: 'integer' }).optional().describe('Row 0-9'),
  assignee: advertise(
    z
      .string({ error: 'must be a string' })
      .trim()
      .max(MAX_ASSIGNEE_CHARS, { error: `must be at most ${MAX_ASSIGNEE_CHARS} characters` }),
    { type: 'string' },
  )
    .optional()
    .describe('Exact, any case'),
  cursor: Cursor.optional(),
});
export type FindItemsQuery = z.infer<typeof FindItemsQuery>;

const DIGITS = /^-?\d{1,16}$/;
const number = (text: unknown) => (typeof text === 'string' && DIGITS.test(text) ? Number(text) : text);

/** REST's page size: `limit` items at most. */
export const PageLimitQuery = z.object({
  limit: z
    .preprocess(
      number,
      z
        .number({ error: 'must be a whole number' })
        .int({ error: 'must be a whole number' })
        .min(1, { error: 'must be at least 1' })
        .max(MAX_PAGE_ITEMS, { error: `must be at most ${MAX_PAGE_ITEMS}` }),
    )
    .optional()
    .describe('Items per page, at most'),
});

/** `GET /api/boards/{id}/items`: find_items' filters as a query string, plus `limit`. */
export const FindItemsRestQuery = z.preprocess((query) => {
  if (typeof query !== 'object' || query === null) return query;
  const { lane, bbox, ...rest } = query as Record<string, unknown>;
  const box = typeof bbox === 'string' ? bbox.split(',').map((part) => Number(part)) : bbox;
  return {
    ...rest,
    ...(lane !== undefined && { lane: number(lane) }),
    ...(box !== undefined && {
      bbox: Array.isArray(box) && box.length === 4 ? { x: box[0], y: box[1], width: box[2], height: box[3] } : box,
    }),
  };
}, FindItemsQuery.extend(PageLimitQuery.shape));
