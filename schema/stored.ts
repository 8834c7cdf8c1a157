/**
 * Items as the document stores them (docs/document-model.md). Server writes
 * produce these shapes; updates from Yjs clients are checked against them,
 * and what fails is repaired by the server (see host/documents/compensation.ts).
 */
import { z } from 'zod';
import { AUTHOR_PATTERN, CARD_COLORS, INK_COLORS, ItemId } from './common.js';
import {
  Anchors,
  Arrowhead,
  IMAGE_MIME_TYPES,
  isIsoDate,
  LinkUrl,
  normalizePoints,
  SHAPE_FILLS,
  SHAPE_KINDS,
} from './item-fields.js';
import {
  MAX_ASSIGNEE_CHARS,
  MAX_AUTHOR_CHARS,
  MAX_BOARD_TITLE_CHARS,
  MAX_COLUMN_TITLE_CHARS,
  MAX_COLUMN_WIDTH_PX,
  MAX_COORDINATE,
  MAX_FRAME_TITLE_CHARS,
  MAX_IMAGE_BYTES,
  MAX_IMAGE_SIDE_PX,
  MAX_LANE_TITLE_CHARS,
  MAX_LANES,
  MAX_SHAPE_LABEL_CHARS,
  MAX_SHAPE_SIDE_PX,
  MAX_STROKE_LABEL_CHARS,
  MAX_TASK_CONTENT_CHARS,
  MAX_TASK_DESCRIPTION_CHARS,
  MAX_TASK_NAME_CHARS,
  MAX_TEXT_CHARS,
  MAX_TEXT_WIDTH_PX,
  MAX_THUMBNAIL_CHARS,
  MIN_COLUMN_WIDTH_PX,
  MIN_FRAME_SIDE_PX,
  MIN_SHAPE_SIDE_PX,
  MIN_TEXT_WIDTH_PX,
  STROKE_WIDTH_PX,
} from './limits.js';

const Coord = z.number().min(-MAX_COORDINATE).max(MAX_COORDINATE);
const Stamp = {
  author: z.string().min(1).max(MAX_AUTHOR_CHARS).regex(AUTHOR_PATTERN),
  last_updated: z.string().max(40),
};

export const StoredText = z
  .strictObject({
    id: ItemId,
    x: Coord,
    y: Coord,
    content: z.string().max(MAX_TEXT_CHARS),
    color: z.enum(INK_COLORS).optional(),
    width: z.number().min(MIN_TEXT_WIDTH_PX).max(MAX_TEXT_WIDTH_PX).optional(),
    postit: z.boolean().optional(),
    diagram: z.boolean().optional(),
    ...Stamp,
  })
  .refine((text) => !(text.postit && text.diagram), { error: 'a text cannot be both a post-it and a diagram frame' });

/** The box an item is laid out in, in board px: where it lies and its laid-out width and height. */
export const LaidOutBox = z.object({
  x: z.number(),
  y: z.number(),
  width: z.number().min(0),
  height: z.number().min(0),
});

/** A text as its write answers it: the stored text, and the box the app and the preview lay it out in. */
export const LaidOutText = StoredText.safeExtend({ bbox: LaidOutBox });

export const StoredLink = z.strictObject({
  id: ItemId,
  kind: z.literal('link'),
  x: Coord,
  y: Coord,
  url: LinkUrl,
  ...Stamp,
});

export const StoredStroke = z.strictObject({
  id: ItemId,
  points: z
    .array(z.tuple([z.number(), z.number()]))
    .refine((points) => typeof normalizePoints(points) !== 'string', { error: 'invalid points' }),
  color: z.enum(INK_COLORS),
  width: z.literal(STROKE_WIDTH_PX),
  anchors: Anchors.optional(),
  arrowhead: Arrowhead.optional(),
  label: z.string().max(MAX_STROKE_LABEL_CHARS).optional(),
  ...Stamp,
});

/** A rectangle, ellipse or diamond with an optional label inside (the contract's shapes extension). */
export const StoredShape = z.strictObject({
  id: ItemId,
  shape: z.enum(SHAPE_KINDS),
  x: Coord,
  y: Coord,
  width: z.number().min(MIN_SHAPE_SIDE_PX).max(MAX_SHAPE_SIDE_PX),
  height: z.number().min(MIN_SHAPE_SIDE_PX).max(MAX_SHAPE_SIDE_PX),
  label: z.string().max(MAX_SHAPE_LABEL_CHARS).optional(),
  color: z.enum(INK_COLORS),
  fill: z.enum(SHAPE_FILLS),
  ...Stamp,
});

/** A titled area whose members are the items wholly inside it (the contract's shapes extension). */
export const StoredFrame = z.strictObject({
  id: ItemId,
  x: Coord,
  y: Coord,
  width: z.number().min(MIN_FRAME_SIDE_PX).max(MAX_SHAPE_SIDE_PX),
  height: z.number().min(MIN_FRAME_SIDE_PX).max(MAX_SHAPE_SIDE_PX),
  title: z.string().max(MAX_FRAME_TITLE_CHARS).optional(),
  ...Stamp,
});

export const StoredImage = z.strictObject({
  id: ItemId,
  x: Coord,
  y: Coord,
  width: z.number().gt(0).max(MAX_IMAGE_SIDE_PX),
  height: z.number().gt(0).max(MAX_IMAGE_SIDE_PX),
  blob: z.string().regex(/^[0-9a-f]{64}$/),
  mime: z.enum(IMAGE_MIME_TYPES),
  bytes: z.number().int().min(1).max(MAX_IMAGE_BYTES),
  thumbDataUrl: z.string().max(MAX_THUMBNAIL_CHARS).startsWith('data:image/').optional(),
  ...Stamp,
});

export const StoredColumn = z.strictObject({
  id: ItemId,
  title: z.string().max(MAX_COLUMN_TITLE_CHARS),
  sort: z.number(),
  lane: z
    .number()
    .int()
    .min(0)
    .max(MAX_LANES - 1),
  color: z.enum(CARD_COLORS).optional(),
  ...Stamp,
});

export const StoredTask = z.strictObject({
  id: ItemId,
  column_id: ItemId,
  name: z.string().max(MAX_TASK_NAME_CHARS),
  description: z.string().max(MAX_TASK_DESCRIPTION_CHARS).optional(),
  due_date: z.string().refine(isIsoDate).optional(),
  priority: z.enum(['H', 'M', 'L']).optional(),
  assignee: z.string().max(MAX_ASSIGNEE_CHARS).optional(),
  sort: z.number(),
  done: z.boolean(),
  color: z.enum(CARD_COLORS).optional(),
  content: z.string().max(MAX_TASK_CONTENT_CHARS).optional(),
  ...Stamp,
});

export const StoredLane = z.strictObject({
  lane: z
    .number()
    .int()
    .min(0)
    .max(MAX_LANES - 1),
  title: z.string().max(MAX_LANE_TITLE_CHARS),
  ...Stamp,
});

export const StoredColWidth = z.number().min(MIN_COLUMN_WIDTH_PX).max(MAX_COLUMN_WIDTH_PX);
/** A board's title as `meta.title` holds it: trimmed, not empty (no title is no key), at most MAX_BOARD_TITLE_CHARS. */
export const StoredTitle = z
  .string({ error: 'must be a string' })
  .min(1, { error: 'an empty title is no key' })
  .max(MAX_BOARD_TITLE_CHARS, { error: `must be at most ${MAX_BOARD_TITLE_CHARS} characters` })
  .refine((title) => title === title.trim(), { error: 'must be trimmed' });

/**
 * The keys a snapshot (`GET /json/:id`, get_board, board/reads/snapshot.ts)
 * shows of each kind of item: its stored keys, except that an image's `blob`
 * is shown as `dataUrl` (snapshot.ts, publicImage). The write schemas take
 * these and drop what they do not read, so a snapshot item sent back works.
 */
export const SNAPSHOT_KEYS = {
  text: Object.keys(StoredText.shape),
  link: Object.keys(StoredLink.shape),
  stroke: Object.keys(StoredStroke.shape),
  image: [...Object.keys(StoredImage.shape).filter((key) => key !== 'blob'), 'dataUrl'],
  shape: Object.keys(StoredShape.shape),
  frame: Object.keys(StoredFrame.shape),
  column: Object.keys(StoredColumn.shape),
  task: Object.keys(StoredTask.shape),
  lane: Object.keys(StoredLane.shape),
} as const satisfies Record<string, readonly string[]>;
