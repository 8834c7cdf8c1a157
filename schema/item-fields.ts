/**
 * Field schemas that both the write inputs (draw.ts, todo.ts) and the stored
 * shapes (stored.ts) use: stroke points and anchors, link URLs, image types,
 * dates. A module of their own so that the inputs can read the stored shapes
 * (the keys a snapshot shows, which they accept back) without an import cycle.
 */
import { z } from 'zod';
import { ItemId } from './common.js';
import { advertise } from './json-schema.js';
import { MAX_COORDINATE, MAX_STROKE_POINTS, MAX_URL_CHARS } from './limits.js';

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
  if (!Array.isArray(value))
    return 'must be an array of [x, y] pairs, a flat [x1, y1, ...] array, or a JSON string of either';
  if (value.length === 0) return 'must hold at least one point';
  if (Array.isArray(value[0])) {
    if (value.length > MAX_STROKE_POINTS) return `must hold at most ${MAX_STROKE_POINTS} points`;
    // Already nested: checked in place and kept, not copied (a full board holds 100000 coordinates).
    for (const pair of value) {
      if (!Array.isArray(pair) || pair.length !== 2) return 'nested points must each be [x, y]';
      if (!isCanvasNumber(pair[0]) || !isCanvasNumber(pair[1]))
        return 'every coordinate must be a finite number within the canvas';
    }
    return value as Point[];
  }
  if (value.length % 2 !== 0) return 'a flat points array needs an even number of values';
  if (value.length / 2 > MAX_STROKE_POINTS) return `must hold at most ${MAX_STROKE_POINTS} points`;
  const points: Point[] = [];
  for (let i = 0; i < value.length; i += 2) {
    if (!isCanvasNumber(value[i]) || !isCanvasNumber(value[i + 1]))
      return 'every coordinate must be a finite number within the canvas';
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
      {
        type: 'array',
        items: { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 },
        minItems: 1,
        maxItems: MAX_STROKE_POINTS,
      },
      { type: 'array', items: { type: 'number' }, minItems: 2 },
      { type: 'string' },
    ],
  },
).describe('[[x,y],...], [x1,y1,...] or JSON text');

/** The kinds of item a stroke's end can be tied to. */
export const ANCHOR_KINDS = ['text', 'image', 'shape'] as const;

/** One end of a stroke tied to a text, image or shape; the point follows when that node moves. */
export const Anchor = z
  .object({
    kind: z.enum(ANCHOR_KINDS, { error: 'must be "text", "image" or "shape"' }).describe('Node kind'),
    id: ItemId.describe('Node id'),
    dx: z.number().describe('x offset'),
    dy: z.number().describe('y offset'),
  })
  .describe('Tie to a node');
export type Anchor = z.infer<typeof Anchor>;

export const Anchors = z.object({ start: Anchor.optional(), end: Anchor.optional() }).describe('Ends tied to nodes');
export type Anchors = z.infer<typeof Anchors>;

/** Which ends of a stroke carry an arrowhead; a stroke without one has a head where its end is anchored (every stroke drawn before keeps its look). */
export const ARROWHEADS = ['none', 'start', 'end', 'both'] as const;
export const Arrowhead = z
  .enum(ARROWHEADS, { error: 'must be "none", "start", "end" or "both"' })
  .describe('Heads; default: end if anchored');
export type Arrowhead = z.infer<typeof Arrowhead>;

export const IMAGE_MIME_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/svg+xml'] as const;
export type ImageMimeType = (typeof IMAGE_MIME_TYPES)[number];

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

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})?$/;

/** True for an ISO 8601 calendar date or date-time that names a real day and time. */
export function isIsoDate(value: string): boolean {
  const match = ISO_DATE.exec(value) ?? ISO_DATE_TIME.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return false;
  if (match[4] !== undefined) {
    if (Number(match[4]) > 23 || Number(match[5]) > 59 || Number(match[6] ?? 0) > 59) return false;
  }
  return true;
}

/** The outlines a shape is drawn with (the contract's shapes extension). */
export const SHAPE_KINDS = ['rectangle', 'ellipse', 'diamond'] as const;
export type ShapeKind = (typeof SHAPE_KINDS)[number];

/** How a shape is filled with its colour. */
export const SHAPE_FILLS = ['none', 'semi', 'solid'] as const;
export type ShapeFill = (typeof SHAPE_FILLS)[number];
