/**
 * Output schemas of the MCP tools (their `structuredContent`). Loose objects:
 * the listed fields are promised, more may follow as the board model grows.
 */
import { z } from 'zod';

const Stamp = { author: z.string(), last_updated: z.string() };
const Item = z.looseObject({ id: z.string(), ...Stamp });
const Text = Item.extend({ x: z.number(), y: z.number() });
const Column = Item.extend({ title: z.string(), sort: z.number(), lane: z.number() });
const Task = Item.extend({ column_id: z.string(), name: z.string(), sort: z.number(), done: z.boolean() });
const Lane = z.looseObject({ lane: z.number(), title: z.string(), author: z.string() });
const Ok = z.looseObject({ ok: z.boolean(), id: z.string() });
/** The box an item is laid out in, as the app and the preview draw it: its laid-out width and height. */
const LaidOut = {
  bbox: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }).describe('laid-out box, px'),
};
const BoardLink = z.looseObject({
  board_id: z.string(),
  url: z.string(),
  embed_url: z.string().optional(),
  mode: z.enum(['draw', 'todo']),
});
/** Given when more of a list remains: pass it as `cursor` for the next page. */
const NextCursor = { next_cursor: z.string().optional() };
const TasksView = z.looseObject({
  mode: z.enum(['draw', 'todo']),
  columns: z.array(Column),
  tasks: z.array(Task),
  lanes: z.array(Lane),
  colWidth: z.number(),
  ...NextCursor,
});
const Snapshot = z.looseObject({
  boardId: z.string(),
  mode: z.enum(['draw', 'todo']),
  etag: z.string(),
  texts: z.array(z.looseObject({})),
  lines: z.array(z.looseObject({})),
  images: z.array(z.looseObject({})),
  ...NextCursor,
});
const Outline = z.looseObject({
  boardId: z.string(),
  mode: z.enum(['draw', 'todo']),
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
  kind: z.enum(['texts', 'links', 'tasks']),
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
/** An upsert's answer: true when it made the item, false when it updated the one its id named. */
const Created = z.boolean();
const ChangedItem = z.looseObject({ id: z.string(), kind: z.string() });

export const McpToolOutputs = {
  create_board: BoardLink.extend({ access_key: z.string().optional() }),
  open_board: BoardLink.extend({
    created: z.boolean(),
    locked: z.boolean(),
    lock_mode: z.enum(['write', 'all']).nullable(),
  }),
  get_board: z.union([Snapshot, Outline]),
  // A large board's SVG is not inline: svg_uri names its resource, svg_bytes its size.
  get_preview: z.looseObject({
    board_id: z.string(),
    mimeType: z.literal('image/svg+xml'),
    svg: z.string().optional(),
    svg_uri: z.string().optional(),
    svg_bytes: z.number().int().optional(),
  }),
  add_text: Text.extend({ content: z.string(), created: Created, ...LaidOut }),
  add_link: z.looseObject({
    id: z.string(),
    x: z.number(),
    y: z.number(),
    url: z.string(),
    author: z.string(),
    kind: z.literal('link'),
    created: Created,
    ...LaidOut,
  }),
  add_image: z.looseObject({
    id: z.string(),
    x: z.number(),
    y: z.number(),
    width: z.number(),
    height: z.number(),
    hasThumbDataUrl: z.boolean(),
    author: z.string(),
    created: Created,
  }),
  draw_stroke: z.looseObject({
    id: z.string(),
    pointCount: z.number().int(),
    color: z.string(),
    bbox: z.object({ x: z.number().int(), y: z.number().int(), width: z.number().int(), height: z.number().int() }),
    author: z.string(),
    created: Created,
  }),
  move: z.looseObject({ id: z.string(), x: z.number(), y: z.number() }),
  erase: Ok.extend({ kind: z.string() }),
  wait_for_update: z.looseObject({
    boardId: z.string(),
    updated: z.boolean(),
    timedOut: z.boolean(),
    etag: z.string().nullable(),
  }),
  set_board_mode: z.looseObject({
    ok: z.boolean(),
    mode: z.enum(['draw', 'todo']),
    columns: z.array(Column).optional(),
  }),
  set_board_title: z.looseObject({ ok: z.boolean(), title: z.string() }),
  create_column: Column.extend({ created: Created }),
  update_column: Column,
  delete_column: Ok,
  create_task: Task.extend({ created: Created }),
  update_task: Task,
  move_task: z.looseObject({ id: z.string(), column_id: z.string(), sort: z.number() }),
  delete_task: Ok,
  set_lane: z.looseObject({ ok: z.boolean(), lane: z.number(), title: z.string() }),
  set_column_width: z.looseObject({ ok: z.boolean(), width: z.number() }),
  create_tasks: z.looseObject({ ok: z.literal(true), ids: z.array(z.string()), count: z.number().int() }),
  // One result per op, in order: what its tool answers, without the echoes of what was sent (server/board/batch.ts).
  batch: z.looseObject({ ok: z.literal(true), results: z.array(z.looseObject({ id: z.string().optional() })) }),
  query_tasks: z.looseObject({ tasks: z.array(Task), count: z.number().int(), ...NextCursor }),
  export_tasks: z.looseObject({ format: z.enum(['csv', 'markdown']), content: z.string(), ...NextCursor }),
  list_tasks: TasksView,
  find_items: z.looseObject({ items: z.array(FoundItem), count: z.number().int(), ...NextCursor }),
  list_versions: z.looseObject({
    boardId: z.string(),
    versions: z.array(VersionSummary),
    next: z.number().int().nullable(),
    ...NextCursor,
  }),
  get_changes: z.looseObject({
    boardId: z.string(),
    from: z.number().int().nullable(),
    to: z.number().int().nullable(),
    etag: z.string(),
    added: z.array(ChangedItem),
    updated: z.array(ChangedItem),
    removed: z.array(z.looseObject({ kind: z.string(), id: z.string() })),
    ...NextCursor,
  }),
  restore_version: z.looseObject({
    ok: z.literal(true),
    version: z.number().int(),
    restoredFrom: z.number().int(),
    etag: z.string(),
  }),
} as const;
