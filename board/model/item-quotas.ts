/**
 * The quota rules of a board's items: how many of each a board holds, how
 * many columns a lane holds, how many image bytes a board holds. One list
 * that the mutations (which refuse a write over it, 413 quota_exceeded) and the
 * compensation of Yjs updates (which removes what a client added over it) both
 * apply, so the two cannot drift.
 */
import {
  MAX_COLUMNS,
  MAX_COLUMNS_PER_LANE,
  MAX_FRAMES,
  MAX_IMAGE_BYTES_TOTAL,
  MAX_IMAGES,
  MAX_SHAPES,
  MAX_STROKES,
  MAX_TASKS,
  MAX_TEXT_NODES,
} from '../../schema/index.js';
import type { CountedMap } from '../mutations/board-write.js';
import { errors } from './errors.js';

/** A count quota: the map it counts, its limit, the `kind` of its quota_exceeded error and what the message calls the items. */
export type ItemQuota = {
  readonly map: CountedMap;
  readonly limit: number;
  readonly kind: string;
  readonly what: string;
};

/** Items per board, by the map that holds them. */
export const ITEM_QUOTAS = {
  texts: { map: 'texts', limit: MAX_TEXT_NODES, kind: 'texts', what: 'text nodes (texts and links)' },
  lines: { map: 'lines', limit: MAX_STROKES, kind: 'strokes', what: 'strokes' },
  images: { map: 'images', limit: MAX_IMAGES, kind: 'images', what: 'images' },
  shapes: { map: 'shapes', limit: MAX_SHAPES, kind: 'shapes', what: 'shapes' },
  frames: { map: 'frames', limit: MAX_FRAMES, kind: 'frames', what: 'frames' },
  columns: { map: 'columns', limit: MAX_COLUMNS, kind: 'columns', what: 'columns' },
  tasks: { map: 'tasks', limit: MAX_TASKS, kind: 'tasks', what: 'tasks' },
} as const satisfies Record<CountedMap, ItemQuota>;

/** Columns in one lane of a todo board. */
export const COLUMNS_PER_LANE = {
  limit: MAX_COLUMNS_PER_LANE,
  kind: 'columns_per_lane',
  reason: `a lane holds at most ${MAX_COLUMNS_PER_LANE} columns`,
} as const;

/** Bytes of all the images of a board together. */
export const IMAGE_BYTES_TOTAL = {
  limit: MAX_IMAGE_BYTES_TOTAL,
  kind: 'image_bytes_total',
  reason: `the images of a board hold at most ${MAX_IMAGE_BYTES_TOTAL} bytes`,
} as const;

/** Refuses a new item when the board already holds `count` of the quota's items and no more fit. */
export function requireRoom(quota: ItemQuota, count: number): void {
  if (count >= quota.limit)
    throw errors.quotaExceeded(quota.kind, `a board holds at most ${quota.limit} ${quota.what}`);
}

/** Refuses a new column in a lane that already holds `inLane` columns. */
export function requireLaneRoom(inLane: number, lane: number): void {
  if (inLane >= COLUMNS_PER_LANE.limit)
    throw errors.quotaExceeded(COLUMNS_PER_LANE.kind, `${COLUMNS_PER_LANE.reason} (lane ${lane} is full)`);
}

/** Refuses images whose bytes would be `total` together. */
export function requireImageBytes(total: number): void {
  if (total > IMAGE_BYTES_TOTAL.limit)
    throw errors.quotaExceeded(IMAGE_BYTES_TOTAL.kind, `${IMAGE_BYTES_TOTAL.reason} (would be ${total})`);
}
