/** Board creation, import content and lock bodies. */
import { z } from 'zod';
import {
  AccessKey,
  Author,
  AuthorTag,
  BoardMode,
  Coordinate,
  dropping,
  ItemId,
  itemObject,
  LockMode,
  StrokeColor,
  strictObject,
  Template,
  TextColor,
} from './common.js';
import {
  Anchors,
  Arrowhead,
  FrameInput,
  ImageInput,
  LinkUrl,
  notPostitAndDiagram,
  POSTIT_AND_DIAGRAM,
  Points,
  ShapeInput,
  StrokeInput,
  TextInput,
} from './draw.js';
import { EtagText } from './history.js';
import { advertise, toJsonSchema } from './json-schema.js';
import { MAX_BOARD_TITLE_CHARS, WAIT_DEFAULT_TIMEOUT_MS, WAIT_MAX_TIMEOUT_MS, WAIT_MIN_TIMEOUT_MS } from './limits.js';
import { SNAPSHOT_KEYS } from './stored.js';
import { ColumnInput, LaneIndex, LaneTitle, TaskInput, trimmedName } from './todo.js';

/**
 * A board's title (docs/titles.md): trimmed, at most MAX_BOARD_TITLE_CHARS
 * characters; "" (or spaces only) clears it. The browser's header checks a
 * rename with this same schema.
 */
export const BoardTitle = trimmedName(MAX_BOARD_TITLE_CHARS).describe('Board title; "" clears');

/** POST /title, MCP set_board_title and the frame of the same name. */
export const TitleInput = strictObject({ title: BoardTitle });
export type TitleInput = z.infer<typeof TitleInput>;

/** Clamps a long-poll timeout into [1000, 55000] ms, defaulting to 25000. */
export const WaitTimeout = advertise(
  z
    .number({ error: 'must be a number of milliseconds' })
    .optional()
    .transform((ms) =>
      Math.min(WAIT_MAX_TIMEOUT_MS, Math.max(WAIT_MIN_TIMEOUT_MS, Math.round(ms ?? WAIT_DEFAULT_TIMEOUT_MS))),
    ),
  { type: 'number', minimum: WAIT_MIN_TIMEOUT_MS, maximum: WAIT_MAX_TIMEOUT_MS, default: WAIT_DEFAULT_TIMEOUT_MS },
).describe('ms, clamped');

/**
 * Import items. Every array is validated item by item so that an error can name
 * its kind and index; ids are always minted by the server, `sourceId` lets
 * stroke anchors refer to texts, images and shapes of the same request. An item's
 * keys are those it takes and those a snapshot shows of its kind (an `id`,
 * `last_updated`; dropped), so a snapshot imports back; any other is refused.
 */
/** The id an import's text or image goes by within the request, which a line's anchors name. */
const SourceId = ItemId.optional().describe('Id for anchors');

export const ImportText = itemObject(
  {
    sourceId: SourceId,
    kind: z.enum(['text', 'link']).optional(),
    x: Coordinate.optional(),
    y: Coordinate.optional(),
    content: z.string({ error: 'must be a string' }).optional(),
    url: LinkUrl.optional().describe('Makes it a link'),
    color: TextColor.optional(),
    width: TextInput.shape.width,
    postit: TextInput.shape.postit,
    diagram: TextInput.shape.diagram,
    author: AuthorTag.optional(),
  },
  [...SNAPSHOT_KEYS.text, ...SNAPSHOT_KEYS.link],
).refine(notPostitAndDiagram, POSTIT_AND_DIAGRAM);
export const ImportLine = itemObject(
  {
    points: Points,
    color: StrokeColor.optional(),
    anchors: Anchors.optional(),
    arrowhead: Arrowhead.optional(),
    label: StrokeInput.shape.label,
    author: AuthorTag.optional(),
  },
  SNAPSHOT_KEYS.stroke,
);
export const ImportImage = dropping(
  ImageInput.omit({ id: true, x: true, y: true }).extend({
    sourceId: SourceId,
    author: AuthorTag.optional(),
    x: Coordinate.optional(),
    y: Coordinate.optional(),
  }),
  'id',
);
/** A shape, placed by autolayout when it has no x and y; its `sourceId` lets a line's anchors name it. */
export const ImportShape = dropping(
  ShapeInput.omit({ id: true, x: true, y: true }).extend({
    sourceId: SourceId,
    author: AuthorTag.optional(),
    x: Coordinate.optional(),
    y: Coordinate.optional(),
  }),
  'id',
  'created',
);
/** A frame, where it says: it holds what the import puts inside it. */
export const ImportFrame = dropping(
  FrameInput.omit({ id: true }).extend({ author: AuthorTag.optional() }),
  'id',
  'created',
  'members',
);
export const ImportColumn = dropping(
  ColumnInput.omit({ id: true, sort: true }).extend({
    sort: ColumnInput.shape.sort.optional(),
    author: AuthorTag.optional(),
  }),
  'id',
);
export const ImportTask = dropping(
  TaskInput.omit({ id: true, column_id: true }).extend({
    author: AuthorTag.optional(),
    columnIndex: z
      .number({ error: 'must be an integer' })
      .int({ error: 'must be an integer' })
      .min(0, { error: 'must be at least 0' })
      .describe('Index in columns'),
  }),
  'id',
  'column_id',
);
export const ImportLane = itemObject(
  {
    lane: LaneIndex,
    title: LaneTitle,
    author: AuthorTag.optional(),
  },
  SNAPSHOT_KEYS.lane,
);

export const IMPORT_ITEM_SCHEMAS = {
  texts: ImportText,
  lines: ImportLine,
  images: ImportImage,
  shapes: ImportShape,
  frames: ImportFrame,
  columns: ImportColumn,
  tasks: ImportTask,
  lanes: ImportLane,
} as const;
export type ImportKind = keyof typeof IMPORT_ITEM_SCHEMAS;

/**
 * The top level of import content; items are checked one by one against
 * IMPORT_ITEM_SCHEMAS. Unknown keys are refused (an ignored `strokes` would
 * import nothing), except the wrapper keys of a `/json` snapshot, which are
 * ignored so that a snapshot can be sent back as content.
 */
export const ImportContent = strictObject(
  {
    texts: z.array(z.unknown()).optional(),
    lines: z.array(z.unknown()).optional(),
    images: z.array(z.unknown()).optional(),
    shapes: z.array(z.unknown()).optional(),
    frames: z.array(z.unknown()).optional(),
    columns: z.array(z.unknown()).optional(),
    tasks: z.array(z.unknown()).optional(),
    lanes: z.array(z.unknown()).optional(),
    colWidth: z.number({ error: 'must be a finite number' }).optional(),
    boardId: z.unknown().optional(),
    mode: z.unknown().optional(),
    title: z.unknown().optional(),
    etag: z.unknown().optional(),
  },
  { strokes: 'lines', links: 'texts' },
);
export type ImportContent = z.infer<typeof ImportContent>;

type JsonSchema = { type?: string | string[]; anyOf?: JsonSchema[] };

/** A field the item's tool describes, by its type only: its words and bounds are the tool's. */
const typeOnly = ({ type, anyOf }: JsonSchema): JsonSchema => ({
  type: type ?? [...new Set(anyOf?.flatMap((branch) => branch.type ?? []))],
});

/**
 * An import item as create_board advertises it: the tool whose arguments it
 * takes (listed beside it, with their words: all its fields again would cost
 * 2 500 bytes of tools/list), the fields the item requires, typed, and the
 * fields only an import has, in full.
 */
function importItem(schema: z.ZodType, description: string, own: readonly string[] = []) {
  const { required = [], properties } = toJsonSchema(schema, 'input') as {
    required?: string[];
    properties: Record<string, JsonSchema>;
  };
  return {
    type: 'array',
    items: {
      type: 'object',
      ...(required.length > 0 && { required }),
      properties: Object.fromEntries([
        ...required.filter((key) => !own.includes(key)).map((key) => [key, typeOnly(properties[key])]),
        ...own.map((key) => [key, properties[key]]),
      ]),
    },
    description,
  };
}

/** What create_board advertises of `content`: its arrays, each item as the tool that adds one takes it. */
const ADVERTISED_CONTENT = {
  type: 'object',
  properties: {
    texts: importItem(ImportText, 'add_text or add_link args', ['url', 'sourceId']),
    lines: importItem(ImportLine, 'draw_stroke args'),
    images: importItem(ImportImage, 'add_image args', ['sourceId']),
    shapes: importItem(ImportShape, 'add_shape args', ['sourceId']),
    frames: importItem(ImportFrame, 'add_frame args'),
    columns: importItem(ImportColumn, 'create_column args'),
    tasks: importItem(ImportTask, 'create_task args but column_id', ['columnIndex']),
    lanes: importItem(ImportLane, 'set_lane args'),
    colWidth: { type: 'number', description: 'Column width' },
  },
  // No additionalProperties: false, though other keys are refused: a /json snapshot's boardId, mode, title and etag are let through.
};

/** POST /api/boards and MCP create_board; unknown keys are refused, as in content. */
export const CreateBoardInput = strictObject({
  mode: BoardMode.optional(),
  title: BoardTitle.optional(),
  template: Template.optional(),
  content: advertise(z.unknown(), ADVERTISED_CONTENT).optional().describe('Items to import'),
  autolayout: z.boolean({ error: 'must be a boolean' }).optional().describe('Place items lacking x, y'),
  lock: LockMode.optional(),
  author: Author.optional(),
});
export type CreateBoardInput = z.infer<typeof CreateBoardInput>;

/** POST /lock */
export const LockInput = z.object({ mode: LockMode });
/** POST /verify-key */
export const VerifyKeyInput = z.object({ key: AccessKey });

/** GET /wait query: `timeout_ms` as a query string, clamped like MCP wait_for_update. */
export const WaitQuery = z.object({
  timeout_ms: z.coerce.number({ error: 'must be a number of milliseconds' }).optional().pipe(WaitTimeout),
  /** An ETag the caller saw: when the board has moved past it, the wait answers at once. */
  since_etag: EtagText.optional(),
});
