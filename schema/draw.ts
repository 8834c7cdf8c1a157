/** Request bodies of draw items: texts, strokes, images, links, and moves. */
import { z } from 'zod';
import { Author, Coordinate, ItemId, itemObject, StrokeColor, strictObject, TextColor } from './common.js';
import { Anchors, Arrowhead, LinkUrl, Points, SHAPE_FILLS, SHAPE_KINDS } from './item-fields.js';
import {
  MAX_FRAME_TITLE_CHARS,
  MAX_IMAGE_SIDE_PX,
  MAX_SHAPE_LABEL_CHARS,
  MAX_SHAPE_SIDE_PX,
  MAX_STROKE_LABEL_CHARS,
  MAX_TEXT_WIDTH_PX,
  MAX_THUMBNAIL_CHARS,
  MIN_FRAME_SIDE_PX,
  MIN_SHAPE_SIDE_PX,
  MIN_TEXT_WIDTH_PX,
} from './limits.js';
import { SNAPSHOT_KEYS } from './stored.js';

export {
  ANCHOR_KINDS,
  Anchor,
  Anchors,
  ARROWHEADS,
  Arrowhead,
  IMAGE_MIME_TYPES,
  type ImageMimeType,
  isIsoDate,
  LinkUrl,
  normalizePoints,
  type Point,
  Points,
  SHAPE_FILLS,
  SHAPE_KINDS,
  type ShapeFill,
  type ShapeKind,
} from './item-fields.js';

/**
 * The cross-field rule of texts: not both a post-it and a diagram frame. A
 * refinement, so it runs wherever the schema is used whole; schemas made from
 * `.shape` lose it, which is why the MCP arguments and frames extend the
 * schema instead (schema/mcp.ts) and import texts apply it themselves.
 */
export const notPostitAndDiagram = (text: { postit?: boolean; diagram?: boolean }) =>
  !(text.postit === true && text.diagram === true);
export const POSTIT_AND_DIAGRAM = { error: 'a text cannot be both a post-it and a diagram frame', path: ['diagram'] };

/** A write's answer carries the box its item is laid out in and whether it was made; sent back, they are taken and dropped like a snapshot's keys. */
const ANSWERED_KEYS = ['bbox', 'created'];

/** The `id` of an upsert: the item to update; without it one is created (each upsert's description says so). */
const UpsertId = ItemId.optional();
/** The top-left corner of an item, in canvas pixels. */
const Left = Coordinate.describe('Left, px');
const Top = Coordinate.describe('Top, px');

/** POST /texts and MCP add_text: create, or update when `id` names an existing text. */
export const TextInput = itemObject(
  {
    id: UpsertId,
    x: Left,
    y: Top,
    content: z.string({ error: 'must be a string' }).describe('Markup text'),
    color: TextColor.optional(),
    width: z
      .number({ error: 'must be a number' })
      .min(MIN_TEXT_WIDTH_PX, { error: `must be at least ${MIN_TEXT_WIDTH_PX}` })
      .max(MAX_TEXT_WIDTH_PX, { error: `must be at most ${MAX_TEXT_WIDTH_PX}` })
      .optional()
      .describe('px; omit to auto-fit'),
    postit: z.boolean({ error: 'must be a boolean' }).optional().describe('Sticky note'),
    diagram: z.boolean({ error: 'must be a boolean' }).optional().describe('Framed box'),
    author: Author.optional(),
  },
  [...SNAPSHOT_KEYS.text, ...ANSWERED_KEYS],
).refine(notPostitAndDiagram, POSTIT_AND_DIAGRAM);
export type TextInput = z.infer<typeof TextInput>;

/** A stroke's caption, drawn at its middle. */
const StrokeLabel = z
  .string({ error: 'must be a string' })
  .max(MAX_STROKE_LABEL_CHARS, { error: `must be at most ${MAX_STROKE_LABEL_CHARS} characters` })
  .describe('Caption');

/** POST /strokes and MCP draw_stroke. Width is fixed; colour never rejected. */
export const StrokeInput = itemObject(
  {
    id: UpsertId,
    points: Points,
    color: StrokeColor.optional(),
    anchors: Anchors.optional(),
    arrowhead: Arrowhead.optional(),
    label: StrokeLabel.optional(),
    author: Author.optional(),
  },
  SNAPSHOT_KEYS.stroke,
);
export type StrokeInput = z.infer<typeof StrokeInput>;

/** A side of a shape or frame, in px, within [min, MAX_SHAPE_SIDE_PX]. */
const side = (min: number) =>
  z
    .number({ error: 'must be a number' })
    .min(min, { error: `must be at least ${min}` })
    .max(MAX_SHAPE_SIDE_PX, { error: `must be at most ${MAX_SHAPE_SIDE_PX}` })
    .describe('px');

/** POST /shapes and MCP add_shape: create, or update when `id` names an existing shape. */
export const ShapeInput = itemObject(
  {
    id: UpsertId,
    shape: z.enum(SHAPE_KINDS, { error: `must be one of ${SHAPE_KINDS.join(', ')}` }).describe('Outline'),
    x: Left,
    y: Top,
    width: side(MIN_SHAPE_SIDE_PX),
    height: side(MIN_SHAPE_SIDE_PX),
    label: z
      .string({ error: 'must be a string' })
      .max(MAX_SHAPE_LABEL_CHARS, { error: `must be at most ${MAX_SHAPE_LABEL_CHARS} characters` })
      .optional()
      .describe('Markup, centred'),
    color: StrokeColor.optional(),
    fill: z
      .enum(SHAPE_FILLS, { error: `must be one of ${SHAPE_FILLS.join(', ')}` })
      .optional()
      .describe('Default none'),
    author: Author.optional(),
  },
  [...SNAPSHOT_KEYS.shape, 'created'],
);
export type ShapeInput = z.infer<typeof ShapeInput>;

/** POST /frames and MCP add_frame: create, or update when `id` names an existing frame. */
export const FrameInput = itemObject(
  {
    id: UpsertId,
    x: Left,
    y: Top,
    width: side(MIN_FRAME_SIDE_PX),
    height: side(MIN_FRAME_SIDE_PX),
    title: z
      .string({ error: 'must be a string' })
      .max(MAX_FRAME_TITLE_CHARS, { error: `must be at most ${MAX_FRAME_TITLE_CHARS} characters` })
      .optional()
      .describe('Shown above'),
    author: Author.optional(),
  },
  [...SNAPSHOT_KEYS.frame, 'created', 'members'],
);
export type FrameInput = z.infer<typeof FrameInput>;

export const THUMBNAIL_MIME_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
const DATA_URL_PATTERN = /^data:(image\/(?:png|jpeg|gif|webp|svg\+xml));base64,([A-Za-z0-9+/]*={0,2})$/;

/** Splits an image data URL into its MIME type and base64 payload, or null if it is not one. */
export function parseImageDataUrl(value: string): { mime: string; base64: string } | null {
  const match = DATA_URL_PATTERN.exec(value);
  if (!match || match[2].length % 4 !== 0 || match[2].length === 0) return null;
  return { mime: match[1], base64: match[2] };
}

const SIGNATURES: Record<string, (head: string) => boolean> = {
  'image/png': (head) => head.startsWith('\x89PNG\r\n\x1a\n'),
  'image/jpeg': (head) => head.startsWith('\xff\xd8\xff'),
  'image/gif': (head) => head.startsWith('GIF87a') || head.startsWith('GIF89a'),
  'image/webp': (head) => head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP',
  'image/svg+xml': (head) => /^(?:\xef\xbb\xbf)?\s*</.test(head),
};

/** True when the payload starts with the signature of its declared image type. */
export function matchesImageSignature(mime: string, base64: string): boolean {
  let head: string;
  try {
    head = atob(base64.slice(0, 24)); // 18 bytes: enough for every signature above
  } catch {
    return false;
  }
  return SIGNATURES[mime]?.(head) ?? false;
}

/** Decoded byte count of a base64 payload, without decoding it. */
export function base64DecodedBytes(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return (base64.length / 4) * 3 - padding;
}

const ImageDataUrl = z.string({ error: 'must be a string' }).superRefine((value, ctx) => {
  if (/^https?:/i.test(value)) {
    ctx.addIssue({
      code: 'custom',
      message:
        'hosted URLs are not accepted; send the image inline as data:image/<png|jpeg|gif|webp|svg+xml>;base64,...',
    });
  } else {
    const parsed = parseImageDataUrl(value);
    if (!parsed) {
      ctx.addIssue({
        code: 'custom',
        message: 'must be data:image/<png|jpeg|gif|webp|svg+xml>;base64,<data> with valid base64',
      });
    } else if (!matchesImageSignature(parsed.mime, parsed.base64)) {
      ctx.addIssue({ code: 'custom', message: `the payload is not a ${parsed.mime} image` });
    }
  }
});

const ThumbDataUrl = z
  .string({ error: 'must be a string' })
  .max(MAX_THUMBNAIL_CHARS, { error: `must be at most ${MAX_THUMBNAIL_CHARS} bytes` })
  .superRefine((value, ctx) => {
    const parsed = parseImageDataUrl(value);
    if (!parsed || !(THUMBNAIL_MIME_TYPES as readonly string[]).includes(parsed.mime)) {
      ctx.addIssue({ code: 'custom', message: 'must be a PNG, JPEG or WebP base64 data URL' });
    } else if (!matchesImageSignature(parsed.mime, parsed.base64)) {
      ctx.addIssue({ code: 'custom', message: `the payload is not a ${parsed.mime} image` });
    }
  });

const ImageSide = z
  .number({ error: 'must be a finite number' })
  .gt(0, { error: 'must be greater than 0' })
  .max(MAX_IMAGE_SIDE_PX, { error: `must be at most ${MAX_IMAGE_SIDE_PX}` });

/** POST /images and MCP add_image. */
export const ImageInput = itemObject(
  {
    id: UpsertId,
    x: Left,
    y: Top,
    width: ImageSide.describe('px'),
    height: ImageSide.describe('px'),
    dataUrl: ImageDataUrl.describe('Base64 data URL'),
    thumbDataUrl: ThumbDataUrl.optional().describe('Small PNG data URL'),
    author: Author.optional(),
  },
  SNAPSHOT_KEYS.image,
);
export type ImageInput = z.infer<typeof ImageInput>;

/** POST /links and MCP add_link. */
export const LinkInput = itemObject(
  {
    id: UpsertId,
    x: Left,
    y: Top,
    url: LinkUrl.describe('http(s) URL'),
    author: Author.optional(),
  },
  [...SNAPSHOT_KEYS.link, ...ANSWERED_KEYS],
);
export type LinkInput = z.infer<typeof LinkInput>;

/** POST /{kind}/{itemId}/move: a position, not an item, so only its own keys. */
export const MoveInput = strictObject({ x: Left, y: Top });
export type MoveInput = z.infer<typeof MoveInput>;

/** An image's new size, its payload kept: the browser's resize handle (no REST or MCP surface yet). */
export const ImageResizeInput = strictObject({ width: ImageSide, height: ImageSide });
export type ImageResizeInput = z.infer<typeof ImageResizeInput>;

/** Item kinds as they appear in move and erase paths. `lines` is an alias of `strokes`. */
export const DRAW_KINDS = ['texts', 'links', 'strokes', 'lines', 'images', 'shapes', 'frames'] as const;
export type DrawKind = (typeof DRAW_KINDS)[number];

const isDrawKind = (kind: string): kind is DrawKind => (DRAW_KINDS as readonly string[]).includes(kind);

/**
 * A draw kind, in a REST path or an MCP/frame argument. An unknown one is the
 * spec's `unknown_kind` error on every surface: the issue names that code
 * (`params.code`), which fromZodIssues (board/model/errors.ts) maps.
 */
export const DrawKind = z
  .string({ error: `must be one of ${DRAW_KINDS.join(', ')}` })
  .refine(isDrawKind, {
    error: `must be one of ${DRAW_KINDS.join(', ')}`,
    params: { code: 'unknown_kind', allowed: DRAW_KINDS },
  })
  .meta({ enum: [...DRAW_KINDS] })
  .describe('Optional');
