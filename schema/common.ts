/** Field schemas shared by every resource: ids, authors, coordinates, colours. */
import { z } from 'zod';
import { advertise, unadvertised } from './json-schema.js';
import { MAX_AUTHOR_CHARS, MAX_COORDINATE, MAX_ITEM_ID_CHARS } from './limits.js';
import { isUuid } from './uuid.js';
import { isViewToken } from './view-token.js';

export { isUuid, UUID_IN_TEXT } from './uuid.js';
export { isViewToken, VIEW_TOKEN_IN_TEXT, VIEW_TOKEN_PATTERN, VIEW_TOKENS_IN_TEXT } from './view-token.js';

/**
 * A board id: a UUID, normalised to lower case; or a view token in its place,
 * kept as it is (the host lets a token read only, docs/sharing.md).
 */
export const BoardId = z
  .string()
  .refine((id) => isUuid(id) || isViewToken(id), { error: 'must be a UUID' })
  .transform((id) => (isViewToken(id) ? id : id.toLowerCase()))
  .describe('Board UUID');

/** An item id as a client may name it; ids the server mints are UUIDs. */
export const ItemId = z
  .string()
  .min(1, { error: 'must not be empty' })
  .max(MAX_ITEM_ID_CHARS, { error: `must be at most ${MAX_ITEM_ID_CHARS} characters` })
  .describe('Item id');

export const AUTHOR_PATTERN = /^[A-Za-z0-9:_.-]+$/;

/** Author tags the server alone writes (`system:template`, `system:compensation`), in any case. */
export const isServerAuthor = (author: string | undefined): boolean => author?.slice(0, 7).toLowerCase() === 'system:';

/** Any author tag as a board holds it: letters, digits, colon, underscore, hyphen, period; 1 to 80 chars. */
export const AuthorTag = z
  .string()
  .min(1, { error: 'must not be empty' })
  .max(MAX_AUTHOR_CHARS, { error: `must be at most ${MAX_AUTHOR_CHARS} characters` })
  .regex(AUTHOR_PATTERN, { error: 'may hold only letters, digits, colon, underscore, hyphen and period' })
  .describe('Author');

/** The author a write names: any tag but the server's own `system:` ones. */
export const Author = AuthorTag.refine((author) => !isServerAuthor(author), {
  error: "system: tags are the server's own",
}).describe('Author');

/** A position on the infinite canvas. */
export const Coordinate = z
  .number({ error: 'must be a finite number' })
  .min(-MAX_COORDINATE, { error: `must be at least ${-MAX_COORDINATE}` })
  .max(MAX_COORDINATE, { error: `must be at most ${MAX_COORDINATE}` });

/** The 17 ink colour names of the specification. `auto` and `black` are theme-aware ink. */
export const INK_COLORS = [
  'auto',
  'black',
  'red',
  'blue',
  'green',
  'orange',
  'yellow',
  'pink',
  'purple',
  'maroon',
  'brown',
  'gray',
  'lightgray',
  'teal',
  'sage',
  'sky',
  'lavender',
] as const;
export type InkColor = (typeof INK_COLORS)[number];

const INK_COLOR_SET = new Set<string>(INK_COLORS);

/** How each ink name is drawn; `auto` and `black` are the theme's ink (dark on light, light on dark). */
export const INK_HEX: Record<InkColor, string> = {
  auto: '#222222',
  black: '#222222',
  red: '#d32f2f',
  blue: '#1976d2',
  green: '#388e3c',
  orange: '#f57c00',
  yellow: '#fbc02d',
  pink: '#e91e63',
  purple: '#7b1fa2',
  maroon: '#800000',
  brown: '#795548',
  gray: '#757575',
  lightgray: '#bdbdbd',
  teal: '#00897b',
  sage: '#8a9a5b',
  sky: '#4fc3f7',
  lavender: '#b39ddb',
};

/** How much of its colour a coloured post-it's note takes (the rest white, or the dark page's note in dark mode). */
export const NOTE_TINT = 0.3;

/** Whether a post-it of this colour is tinted by it (the default ink keeps the yellow note). */
export function tintsNote(color: InkColor | undefined): color is Exclude<InkColor, 'auto' | 'black'> {
  return color !== undefined && color !== 'auto' && color !== 'black';
}

/** Any value to an ink colour name: known names case-insensitively, anything else `auto`. */
export function toInkColor(value: unknown): InkColor {
  if (typeof value !== 'string') return 'auto';
  const name = value.trim().toLowerCase();
  return INK_COLOR_SET.has(name) ? (name as InkColor) : 'auto';
}

/** Stroke colour: never rejected; unknown values (hex too) silently become `auto`. Advertised as the ink names. */
export const StrokeColor = advertise(z.unknown().transform(toInkColor), {
  type: 'string',
  enum: [...INK_COLORS],
}).describe('Other values: auto');

/** Text colour: like strokes, but `''` or null clears the colour (theme ink); null in the output means "clear". */
export const TextColor = advertise(
  z.unknown().transform((value) => (value === '' || value === null ? null : toInkColor(value))),
  { type: 'string', enum: [...INK_COLORS, ''] },
).describe('"" clears; other values: auto');

/** Colours of kanban columns and tasks; `''` or null clears (null in the output means "clear"). */
export const CARD_COLORS = ['red', 'blue', 'green'] as const;
export type CardColorName = (typeof CARD_COLORS)[number];
export const CardColor = advertise(
  z
    .union([z.enum(CARD_COLORS), z.literal(''), z.null()], {
      error: `must be one of ${CARD_COLORS.join(', ')} or empty`,
    })
    .transform((value) => (value ? value : null)),
  { type: 'string', enum: [...CARD_COLORS, ''] },
).describe('"" clears');

export const BOARD_MODES = ['draw', 'todo'] as const;
export const BoardMode = z
  .enum(BOARD_MODES, { error: 'must be "draw" or "todo"' })
  .describe('draw: canvas, todo: kanban');
export type BoardMode = z.infer<typeof BoardMode>;

/** A todo board's starter columns; `none` starts it without columns. */
export const TEMPLATES = ['kanban', 'sprint', 'bugs', 'none'] as const;
export const Template = z
  .enum(TEMPLATES, { error: 'must be "kanban", "sprint", "bugs" or "none"' })
  .describe('Default kanban: To do, In progress, Done');
export type Template = z.infer<typeof Template>;

export const LOCK_MODES = ['write', 'all'] as const;
export const LockMode = z.enum(LOCK_MODES, { error: 'must be "write" or "all"' }).describe('Key to write, or all');
export type LockMode = z.infer<typeof LockMode>;

/** An access key: 8 chars of [a-z0-9], or a 6-char legacy key; any case, normalised to lower case. */
export const AccessKey = z
  .string()
  .regex(/^(?:[a-zA-Z0-9]{6}|[a-zA-Z0-9]{8})$/, { error: 'must be 6 or 8 characters of a-z and 0-9' })
  .transform((key) => key.toLowerCase())
  .describe('Key');

/** A client's key for a retried write (the Idempotency-Key draft): 1 to 255 visible ASCII characters; a UUID is best. */
export const MAX_IDEMPOTENCY_KEY_CHARS = 255;
export const IdempotencyKey = z
  .string({ error: 'must be a string' })
  .min(1, { error: 'must not be empty' })
  .max(MAX_IDEMPOTENCY_KEY_CHARS, { error: `must be at most ${MAX_IDEMPOTENCY_KEY_CHARS} characters` })
  .regex(/^[\x21-\x7e]+$/, { error: 'must be visible ASCII characters only' });

/** Levenshtein distance of two short strings (object keys). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

/**
 * Why a key is refused, with the known key it most likely meant: an alias
 * (`strokes` for `lines`), else the nearest by spelling, case aside (at most
 * one edit for keys of five letters or fewer, two for longer ones).
 */
export function unknownKeyReason(key: string, known: readonly string[], aliases: Record<string, string> = {}): string {
  const lower = key.toLowerCase();
  let meant: string | undefined = Object.hasOwn(aliases, lower) ? aliases[lower] : undefined;
  if (meant === undefined) {
    let best = Infinity;
    for (const candidate of known) {
      const distance = editDistance(lower, candidate.toLowerCase());
      if (distance < best && distance <= (Math.max(key.length, candidate.length) <= 5 ? 1 : 2))
        [best, meant] = [distance, candidate];
    }
  }
  return meant === undefined
    ? `unknown key ${JSON.stringify(key)}; known keys: ${known.join(', ')}`
    : `unknown key ${JSON.stringify(key)}: did you mean ${JSON.stringify(meant)}?`;
}

/**
 * A key an item's write schema takes and drops: one a snapshot shows of that
 * kind of item but no write reads (`last_updated`, a stroke's `width`), so
 * that a snapshot item sent back is accepted. Its value is not read, not
 * passed on (undefined) and not advertised.
 */
export const Dropped = unadvertised(
  z
    .unknown()
    .transform(() => undefined)
    .optional(),
);

function isDropped(schema: z.core.$ZodType): boolean {
  return schema === Dropped || (schema instanceof z.ZodOptional && isDropped(schema.unwrap()));
}

/** The keys of a shape a client writes: those not merely taken and dropped; refusals suggest only these. */
export function inputKeys(shape: z.ZodRawShape): string[] {
  return Object.keys(shape).filter((key) => !isDropped(shape[key]));
}

/** The error of an object that refuses unknown keys: each key with the one it most likely meant. */
const unknownKeyError = (known: readonly string[], aliases: Record<string, string>) => (issue: z.core.$ZodRawIssue) =>
  issue.code === 'unrecognized_keys'
    ? issue.keys.map((key) => unknownKeyReason(key, known, aliases)).join('; ')
    : undefined;

/**
 * An object that refuses keys it does not know, naming the one a client most
 * likely meant, where a silently ignored key would lose what the client sent
 * (an import's `strokes` instead of `lines` imported nothing; a `colour`
 * left the text black).
 */
export function strictObject<S extends z.ZodRawShape>(shape: S, aliases: Record<string, string> = {}) {
  return z.strictObject(shape, { error: unknownKeyError(inputKeys(shape), aliases) });
}

/**
 * The write schema of an item, the one rule of every surface (REST bodies,
 * MCP arguments, /ws frames and batch ops, import items): its input keys, the
 * keys a snapshot shows of that kind of item (`snapshotKeys`, from
 * stored.ts; taken and dropped, so a snapshot item sent back still works),
 * and nothing else: `colour` is refused naming `color`.
 */
export function itemObject<S extends z.ZodRawShape>(shape: S, snapshotKeys: readonly string[]) {
  const dropped = Object.fromEntries(
    snapshotKeys.filter((key) => !Object.hasOwn(shape, key)).map((key) => [key, Dropped]),
  );
  // Typed as its input keys: the dropped ones come out undefined, and no write reads them.
  return strictObject({ ...shape, ...dropped }) as unknown as z.ZodObject<S, z.core.$strict>;
}

/**
 * The same object schema, refusing unknown keys as strictObject does (its
 * known keys those of its shape now, after an extend or omit), with its
 * refinements kept: an MCP tool's arguments add board_id and access_key.
 */
export function refuseUnknownKeys<S extends z.ZodObject>(schema: S, aliases: Record<string, string> = {}): S {
  return schema.clone({
    ...schema._zod.def,
    catchall: z.never(),
    error: unknownKeyError(inputKeys(schema.shape), aliases),
  }) as S;
}

/**
 * An item schema whose `keys` are taken and dropped rather than read: an id
 * a create does not take (a snapshot item carries one), refused otherwise.
 */
export function dropping<S extends z.ZodObject>(schema: S, ...keys: string[]) {
  return refuseUnknownKeys(schema.safeExtend(Object.fromEntries(keys.map((key) => [key, Dropped]))) as S);
}
