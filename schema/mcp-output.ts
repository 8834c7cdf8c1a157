/**
 * Output schemas of the MCP tools (their `structuredContent`), listed as each
 * tool's outputSchema and checked against every result in the tests. Loose
 * objects: the listed fields are promised and typed, more may follow as the
 * board model grows. No tuples: a pair is an array of two numbers, as a 2025
 * client's JSON Schema validator (draft-07) reads `prefixItems` as nothing and
 * `items: false` as "empty".
 */
import { z } from 'zod';
import { BOARD_MODES, INK_COLORS, LOCK_MODES } from './common.js';
import { DRAW_KINDS } from './draw.js';
import { advertise, toJsonSchema } from './json-schema.js';
import { FIND_KINDS } from './pages.js';
import {
  StoredColumn,
  StoredFrame,
  StoredImage,
  StoredLane,
  StoredLink,
  StoredShape,
  StoredStroke,
  StoredTask,
  StoredText,
} from './stored.js';

const Mode = z.enum(BOARD_MODES);

/** A field's type without its bounds (the writer's to check, schema/stored.ts); a pair is an array of two. */
function unbounded(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodString) return z.string();
  if (schema instanceof z.ZodNumber) return schema.isInt ? z.number().int() : z.number();
  if (schema instanceof z.ZodBoolean) return z.boolean();
  if (schema instanceof z.ZodEnum) return z.enum(schema.options as [string, ...string[]]);
  if (schema instanceof z.ZodLiteral) return z.literal([...schema.values]);
  if (schema instanceof z.ZodOptional) return unbounded(schema.unwrap() as z.ZodType).optional();
  if (schema instanceof z.ZodNullable) return unbounded(schema.unwrap() as z.ZodType).nullable();
  if (schema instanceof z.ZodArray) return z.array(unbounded(schema.element as z.ZodType));
  if (schema instanceof z.ZodTuple) {
    const items = schema.def.items as z.ZodType[];
    return z.array(unbounded(items[0])).length(items.length);
  }
  if (schema instanceof z.ZodObject) return z.looseObject(readShape(schema));
  throw new Error(`schema/mcp-output.ts: no read shape for a ${schema.def.type}`);
}

/** A stored item's fields as a read answers them: the same names and types, without the stored bounds. */
function readShape<S extends z.ZodRawShape>(stored: z.ZodObject<S>): { [K in keyof S]: z.ZodType } {
  const fields = Object.entries(stored.shape).map(([key, field]) => [key, unbounded(field as z.ZodType)]);
  return Object.fromEntries(fields) as { [K in keyof S]: z.ZodType };
}

const Text = z.looseObject(readShape(StoredText));
const Link = z.looseObject(readShape(StoredLink));
const { id: strokeId, points: strokePoints, ...strokeFields } = readShape(StoredStroke);
/** A stroke as reads show it: its points, or in MCP reads by default its `bbox` and `pointCount` instead. */
const Stroke = z.looseObject({
  id: strokeId,
  points: strokePoints.optional(),
  pointCount: z.number().int().optional(),
  bbox: z.looseObject({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }).optional(),
  ...strokeFields,
  // Any number: the one width strokes are stored with is the writer's rule, not a promise of the read.
  width: z.number(),
});
/** An image as reads show it: its payload elided (`dataUrl: null`), its thumbnail kept. */
const Image = z.looseObject(readShape(StoredImage)).omit({ blob: true }).extend({ dataUrl: z.string().nullable() });
const Shape = z.looseObject(readShape(StoredShape));
const Frame = z.looseObject(readShape(StoredFrame));
const Column = z.looseObject(readShape(StoredColumn));
const Task = z.looseObject(readShape(StoredTask));
const Lane = z.looseObject(readShape(StoredLane)).omit({ last_updated: true });
const Deleted = z.looseObject({ ok: z.literal(true), id: z.string() });

const BoardLink = z.looseObject({
  board_id: z.string(),
  url: z.string(),
  embed_url: z.string().optional(),
  mode: Mode,
});
const TodoView = { colWidth: z.number(), columns: z.array(Column), tasks: z.array(Task), lanes: z.array(Lane) };
const Counts = <K extends string>(kinds: readonly K[]) =>
  z.looseObject(Object.fromEntries(kinds.map((kind) => [kind, z.number().int()])) as Record<K, z.ZodNumber>);
const IdLists = <K extends string>(kinds: readonly K[]) =>
  z.looseObject(
    Object.fromEntries(kinds.map((kind) => [kind, z.array(z.string())])) as Record<K, z.ZodArray<z.ZodString>>,
  );

/** The box an item is laid out in, as the app and the preview draw it. */
const LaidOut = {
  bbox: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }).describe('laid-out box, px'),
};
/** An upsert's answer: true when it made the item, false when it updated the one its id named. */
const Created = z.boolean();
/** Given when more of a list remains: pass it as `cursor` for the next page. */
const NextCursor = { next_cursor: z.string().optional() };
const Snapshot = z.looseObject({
  boardId: z.string(),
  mode: Mode,
  title: z.string().optional(),
  etag: z.string(),
  texts: z.array(z.union([Text, Link])),
  lines: z.array(Stroke),
  images: z.array(Image),
  shapes: z.array(Shape).optional(),
  frames: z.array(Frame).optional(),
  ...z.object(TodoView).partial().shape,
  ...NextCursor,
});
const Outline = z.looseObject({
  boardId: z.string(),
  mode: Mode,
  title: z.string().optional(),
  etag: z.string(),
  counts: z.record(z.string(), z.number().int()),
  versions: z.number().int(),
  last_edit: z.looseObject({ at: z.string(), author: z.string() }).nullable(),
  lanes: z
    .array(
      z.looseObject({
        lane: z.number().int(),
        title: z.string().optional(),
        columns: z.number().int(),
        tasks: z.number().int(),
      }),
    )
    .optional(),
  columns: z
    .array(z.looseObject({ id: z.string(), title: z.string(), lane: z.number().int(), tasks: z.number().int() }))
    .optional(),
  items: z.array(z.string()),
  more: z.looseObject({ columns: z.number().int(), items: z.number().int() }),
});
const FoundItem = z.looseObject({
  id: z.string(),
  kind: z.enum(FIND_KINDS),
  excerpt: z.string().optional(),
});

const VersionSummary = z.looseObject({
  version: z.number().int(),
  at: z.string(),
  authors: z.array(z.string()),
  counts: z.record(z.string(), z.number().int()),
  changes: z.looseObject({ added: z.number().int(), updated: z.number().int(), removed: z.number().int() }),
  restoredFrom: z.number().int().optional(),
});
/** An item in a change list: the snapshot's item, with its id and the list it sits in (a link: `link`). */
const ChangedItem = z.looseObject({
  id: z.string(),
  kind: z.enum(['texts', 'link', 'lines', 'images', 'shapes', 'frames', 'columns', 'tasks', 'lanes']),
});

/** Each MCP tool's result (its outputSchema), named after the tool; a row of the operation table names its own. */
export const CreateBoardResult = BoardLink.extend({
  access_key: z.string().optional(),
  imported: Counts(['texts', 'lines', 'images', 'shapes', 'frames', 'columns', 'tasks', 'lanes']).optional(),
  ids: IdLists(['texts', 'lines', 'images', 'shapes', 'frames', 'columns', 'tasks']).optional(),
});
export const OpenBoardResult = BoardLink.extend({
  created: z.boolean(),
  locked: z.boolean(),
  lock_mode: z.enum(LOCK_MODES).nullable(),
});
// An object either way (a 2025 client wraps any other output schema in {result}): the snapshot's page or the outline.
export const GetBoardResult = advertise(z.union([Snapshot, Outline]), {
  type: 'object',
  anyOf: [toJsonSchema(Snapshot, 'output'), toJsonSchema(Outline, 'output')],
});
// A large board's SVG is not inline: svg_uri names its resource, svg_bytes its size.
export const GetPreviewResult = z.looseObject({
  board_id: z.string(),
  mimeType: z.literal('image/svg+xml'),
  svg: z.string().optional(),
  svg_uri: z.string().optional(),
  svg_bytes: z.number().int().optional(),
});
export const AddTextResult = Text.extend({ created: Created, ...LaidOut });
export const AddLinkResult = Link.omit({ last_updated: true }).extend({ created: Created, ...LaidOut });
export const AddImageResult = z.looseObject({
  id: z.string(),
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
  hasThumbDataUrl: z.boolean(),
  author: z.string(),
});
export const DrawStrokeResult = z.looseObject({
  id: z.string(),
  pointCount: z.number().int(),
  color: z.enum(INK_COLORS),
  bbox: z.looseObject({
    x: z.number().int(),
    y: z.number().int(),
    width: z.number().int(),
    height: z.number().int(),
  }),
  author: z.string(),
  created: Created,
});
export const AddShapeResult = Shape.extend({ created: Created });
/** A frame's answer names its members: the items wholly inside it now. */
const Members = z.array(z.string()).describe('ids of the items wholly inside');
export const AddFrameResult = Frame.extend({ created: Created, members: Members });
export const MoveResult = z.looseObject({ id: z.string(), x: z.number(), y: z.number(), members: Members.optional() });
export const EraseResult = Deleted.extend({ kind: z.enum(DRAW_KINDS) });
/** The long poll's answer, on MCP (wait_for_update) and REST (GET /wait) alike. */
export const WaitForUpdateResult = z.looseObject({
  boardId: z.string(),
  updated: z.boolean(),
  timedOut: z.boolean(),
  /** null once the board is erased (`deleted: true`). */
  etag: z.string().nullable(),
  deleted: z.literal(true).optional(),
});
export type WaitResult = z.output<typeof WaitForUpdateResult>;
export const SetBoardModeResult = z.looseObject({
  ok: z.literal(true),
  mode: Mode,
  columns: z.array(Column).optional(),
});
export const SetBoardTitleResult = z.looseObject({ ok: z.literal(true), title: z.string() });
export const CreateColumnResult = Column.extend({ created: Created });
export const UpdateColumnResult = Column;
export const DeleteColumnResult = Deleted;
export const CreateTaskResult = Task.extend({ created: Created });
export const UpdateTaskResult = Task;
export const MoveTaskResult = z.looseObject({ id: z.string(), column_id: z.string(), sort: z.number() });
export const DeleteTaskResult = Deleted;
export const SetLaneResult = z.looseObject({ ok: z.literal(true), lane: z.number().int(), title: z.string() });
export const SetColumnWidthResult = z.looseObject({ ok: z.literal(true), width: z.number() });
export const CreateTasksResult = z.looseObject({
  ok: z.literal(true),
  ids: z.array(z.string()),
  count: z.number().int(),
});
// One result per op, in order: what its tool answers, without the echoes of what was sent (board/mutations/batch.ts).
export const BatchResult = z.looseObject({
  ok: z.literal(true),
  results: z.array(z.looseObject({ id: z.string().optional() })),
});
export const QueryTasksResult = z.looseObject({ tasks: z.array(Task), count: z.number().int(), ...NextCursor });
export const ExportTasksResult = z.looseObject({
  format: z.enum(['csv', 'markdown']),
  content: z.string(),
  ...NextCursor,
});
export const ListTasksResult = z.looseObject({ mode: Mode, ...TodoView, ...NextCursor });
export const FindItemsResult = z.looseObject({ items: z.array(FoundItem), count: z.number().int(), ...NextCursor });
export const ListVersionsResult = z.looseObject({
  boardId: z.string(),
  versions: z.array(VersionSummary),
  next: z.number().int().nullable(),
  ...NextCursor,
});
export const GetChangesResult = z.looseObject({
  boardId: z.string(),
  from: z.number().int().nullable(),
  to: z.number().int().nullable(),
  etag: z.string(),
  added: z.array(ChangedItem),
  updated: z.array(ChangedItem),
  removed: z.array(z.looseObject({ kind: ChangedItem.shape.kind, id: z.string() })),
  ...NextCursor,
});
export const RestoreVersionResult = z.looseObject({
  ok: z.literal(true),
  version: z.number().int(),
  restoredFrom: z.number().int(),
  etag: z.string(),
});
