/** Request bodies of draw items: texts, strokes, images, links, and moves. */
import { z } from 'zod';
import { Author, Coordinate, ItemId, StrokeColor, TextColor } from './common.js';
import { advertise } from './json-schema.js';
import {
  MAX_COORDINATE, MAX_IMAGE_SIDE_PX, MAX_STROKE_POINTS, MAX_TEXT_WIDTH_PX, MAX_THUMBNAIL_CHARS, MAX_URL_CHARS,
  MIN_TEXT_WIDTH_PX,
} from './limits.js';

export type Point = [number, number];

function isCanvasNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= MAX_COORDINATE;
}

/**
 * Normalises stroke points: nested `[[x,y],...]`, flat `[x1,y1,...]`, or a JSON
 * string of either, to nested pairs. Returns a reason string when it cannot.
 */
export function normalizePoints(input: unknown): Point[] | string {
  if (input === undefined) return 'is required';
  let value = input;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return 'is a string but not JSON';
    }
  }
  if (!Array.isArray(value)) return 'must be an array of [x, y] pairs, a flat [x1, y1, ...] array, or a JSON string of either';
  if (value.length === 0) return 'must hold at least one point';
  if (Array.isArray(value[0])) {
    if (value.length > MAX_STROKE_POINTS) return `must hold at most ${MAX_STROKE_POINTS} points`;
    // Already nested: checked in place and kept, not copied (a full board holds 100000 coordinates).
    for (const pair of value) {
      if (!Array.isArray(pair) || pair.length !== 2) return 'nested points must each be [x, y]';
      if (!isCanvasNumber(pair[0]) || !isCanvasNumber(pair[1])) return 'every coordinate must be a finite number within the canvas';
    }
    return value as Point[];
  }
  if (value.length % 2 !== 0) return 'a flat points array needs an even number of values';
  if (value.length / 2 > MAX_STROKE_POINTS) return `must hold at most ${MAX_STROKE_POINTS} points`;
  const points: Point[] = [];
  for (let i = 0; i < value.length; i += 2) {
    if (!isCanvasNumber(value[i]) || !isCanvasNumber(value[i + 1])) return 'every coordinate must be a finite number within the canvas';
    points.push([value[i], value[i + 1]]);
  }
  return points;
}

/** Stroke points in any of the three accepted forms, normalised to nested pairs. */
export const Points = advertise(
  z.unknown().transform((input, ctx): Point[] => {
    const result = normalizePoints(input);
    if (typeof result === 'string') {
      ctx.issues.push({ code: 'custom', message: result, input });
      return z.NEVER;
    }
    return result;
  }),
  {
    anyOf: [
      { type: 'array', items: { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 }, minItems: 1, maxItems: MAX_STROKE_POINTS },
      { type: 'array', items: { type: 'number' }, minItems: 2 },
      { type: 'string' },
    ],
  },
).describe('[[x,y],...], [x1,y1,...] or JSON text');

/** One end of a stroke tied to a text or image; the point follows when that node moves. */
export const Anchor = z.object({
  kind: z.enum(['text', 'image'], { error: 'must be "text" or "image"' }).describe('Node kind'),
  id: ItemId.describe('Node id'),
  dx: z.number().describe('x offset'),
  dy: z.number().describe('y offset'),
}).describe('Tie to a node');
export type Anchor = z.infer<typeof Anchor>;

export const Anchors = z.object({ start: Anchor.optional(), end: Anchor.optional() }).describe('Ends tied to nodes');
export type Anchors = z.infer<typeof Anchors>;

/**
 * The cross-field rule of texts: not both a post-it and a diagram frame. A
 * refinement, so it runs wherever the schema is used whole; schemas made from
 * `.shape` lose it, which is why the MCP arguments and frames extend the
 * schema instead (schema/mcp.ts) and import texts apply it themselves.
 */
export const notPostitAndDiagram = (text: { postit?: boolean; diagram?: boolean }) => !(text.postit === true && text.diagram === true);
export const POSTIT_AND_DIAGRAM = { error: 'a text cannot be both a post-it and a diagram frame', path: ['diagram'] };

/** The `id` of an upsert: the item to update; without it one is created. */
const UpsertId = ItemId.optional().describe('To update');
/** The top-left corner of an item, in canvas pixels. */
const Left = Coordinate.describe('Left, px');
const Top = Coordinate.describe('Top, px');

/** POST /texts and MCP add_text: create, or update when `id` names an existing text. */
export const TextInput = z
  .object({
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
  })
  .refine(notPostitAndDiagram, POSTIT_AND_DIAGRAM);
export type TextInput = z.infer<typeof TextInput>;

/** POST /strokes and MCP draw_stroke. Width is fixed; colour never rejected. */
export const StrokeInput = z.object({
  id: UpsertId,
  points: Points,
  color: StrokeColor.optional(),
  anchors: Anchors.optional(),
  author: Author.optional(),
});
export type StrokeInput = z.infer<typeof StrokeInput>;

export const IMAGE_MIME_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/svg+xml'] as const;
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
    ctx.addIssue({ code: 'custom', message: 'hosted URLs are not accepted; send the image inline as data:image/<png|jpeg|gif|webp|svg+xml>;base64,...' });
  } else {
    const parsed = parseImageDataUrl(value);
    if (!parsed) {
      ctx.addIssue({ code: 'custom', message: 'must be data:image/<png|jpeg|gif|webp|svg+xml>;base64,<data> with valid base64' });
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
export const ImageInput = z.object({
  id: UpsertId,
  x: Left,
  y: Top,
  width: ImageSide.describe('px'),
  height: ImageSide.describe('px'),
  dataUrl: ImageDataUrl.describe('Base64 data URL'),
  thumbDataUrl: ThumbDataUrl.optional().describe('Small PNG data URL'),
  author: Author.optional(),
});
export type ImageInput = z.infer<typeof ImageInput>;

/** An http(s) URL, as links carry. */
export const LinkUrl = z
  .string({ error: 'must be a string' })
  .max(MAX_URL_CHARS, { error: `must be at most ${MAX_URL_CHARS} characters` })
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
      } catch {
        return false;
      }
    },
    { error: 'must be an absolute http or https URL' },
  );

/** POST /links and MCP add_link. */
export const LinkInput = z.object({
  id: UpsertId,
  x: Left,
  y: Top,
  url: LinkUrl.describe('http(s) URL'),
  author: Author.optional(),
});
export type LinkInput = z.infer<typeof LinkInput>;

/** POST /{kind}/{itemId}/move */
export const MoveInput = z.object({ x: Left, y: Top });
export type MoveInput = z.infer<typeof MoveInput>;

/** Item kinds as they appear in move and erase paths. `lines` is an alias of `strokes`. */
export const DRAW_KINDS = ['texts', 'links', 'strokes', 'lines', 'images'] as const;
export type DrawKind = (typeof DRAW_KINDS)[number];

const isDrawKind = (kind: string): kind is DrawKind => (DRAW_KINDS as readonly string[]).includes(kind);

/**
 * A draw kind, in a REST path or an MCP/frame argument. An unknown one is the
 * spec's `unknown_kind` error on every surface: the issue names that code
 * (`params.code`), which fromZodIssues (server/errors.ts) maps.
 */
export const DrawKind = z
  .string({ error: `must be one of ${DRAW_KINDS.join(', ')}` })
  .refine(isDrawKind, { error: `must be one of ${DRAW_KINDS.join(', ')}`, params: { code: 'unknown_kind', allowed: DRAW_KINDS } })
  .meta({ enum: [...DRAW_KINDS] })
  .describe('Optional');
