/**
 * Frames of the JSON WebSocket channel `/ws/{boardId}`: one JSON object per
 * text frame, discriminated on `type`. Mutation frames are named like the MCP
 * tools and take the same arguments (without board_id and access_key: the
 * connection is bound to one board and its key).
 */
import { z } from 'zod';
import { BoardMode, IdempotencyKey, ItemId, LockMode, strictObject } from './common.js';
import { BatchOp } from './batch.js';
import { MAX_BATCH_OPS, MAX_RECOLOR_ITEMS } from './limits.js';
import { MutationArgs } from './mcp.js';

/** A client's reference for a frame, echoed in its ack or error. */
export const FrameRef = z.union([z.string().max(128), z.number()], { error: 'must be a string or a number' });

/** The mutation frames, each with the arguments of its MCP tool (the same schemas, refinements included). */
export const MUTATION_FRAMES = {
  add_text: MutationArgs.add_text,
  add_link: MutationArgs.add_link,
  add_image: MutationArgs.add_image,
  draw_stroke: MutationArgs.draw_stroke,
  move: MutationArgs.move,
  erase: MutationArgs.erase,
  create_column: MutationArgs.create_column,
  update_column: MutationArgs.update_column,
  delete_column: MutationArgs.delete_column,
  create_task: MutationArgs.create_task,
  update_task: MutationArgs.update_task,
  move_task: MutationArgs.move_task,
  delete_task: MutationArgs.delete_task,
  set_column_width: MutationArgs.set_column_width,
  lane_upsert: MutationArgs.set_lane,
  set_board_title: MutationArgs.set_board_title,
  recolor: strictObject({
    ids: z
      .array(ItemId)
      .min(1, { error: 'must name at least one item' })
      .max(MAX_RECOLOR_ITEMS, { error: `must name at most ${MAX_RECOLOR_ITEMS} items` }),
    color: z
      .string({ error: 'must be a colour name' })
      .describe('Texts and strokes: an ink name (other values: auto); columns and tasks: red, blue, green or ""'),
  }),
} as const;
export type MutationFrameType = keyof typeof MUTATION_FRAMES;
export const MUTATION_FRAME_TYPES = Object.keys(MUTATION_FRAMES) as MutationFrameType[];

/**
 * The ops a batch takes, on every surface: each mutation frame, and `set_lane`
 * beside `lane_upsert` (its frame's name), so that every op is named like its
 * MCP tool.
 */
export const BATCH_OP_ARGS = { ...MUTATION_FRAMES, set_lane: MutationArgs.set_lane } as const;
export type BatchOpType = keyof typeof BATCH_OP_ARGS;

/** A batch, or one frame of a batch continued over several frames (`more: true`, same `ref`). */
export const BatchFrame = z.object({
  type: z.literal('batch'),
  ref: FrameRef.optional(),
  /** Makes the batch safe to send again (docs/realtime.md); read from its first frame. */
  idempotencyKey: IdempotencyKey.optional(),
  ops: z.array(BatchOp).max(MAX_BATCH_OPS, { error: `must hold at most ${MAX_BATCH_OPS} ops` }),
  more: z.boolean().optional(),
});
export type BatchFrame = z.infer<typeof BatchFrame>;

/** The envelope every client frame shares; its body is checked against MUTATION_FRAMES[type] or BatchFrame. */
export const ClientFrameEnvelope = z
  .object({
    type: z.string({ error: 'must be a frame type' }),
    ref: FrameRef.optional(),
  })
  .passthrough();

/**
 * A mutation frame: its tool's arguments beside `type`, `ref` and
 * `idempotencyKey` (extended, so the tool's refinements run). A ref is the
 * client's counter for matching answers; only a key makes a resent frame the same write.
 */
function mutationFrame<T extends MutationFrameType>(type: T) {
  return MUTATION_FRAMES[type].safeExtend({
    type: z.literal(type),
    ref: FrameRef.optional(),
    idempotencyKey: IdempotencyKey.optional(),
  });
}

/**
 * Every frame a client sends, discriminated on `type`. The channel reads the
 * envelope first (so that an unknown type is answered `unknown_frame`), then
 * parses the frame with this union, which checks only the member its type names.
 */
export const ClientFrame = z.discriminatedUnion('type', [
  BatchFrame,
  ...MUTATION_FRAME_TYPES.map(mutationFrame),
  // The cast names each member's type, which a mapped array loses.
] as unknown as [
  typeof BatchFrame,
  ...{ [T in MutationFrameType]: ReturnType<typeof mutationFrame<T>> }[MutationFrameType][],
]);
export type ClientFrame = z.infer<typeof ClientFrame>;
export type ClientFrameType = ClientFrame['type'];
export type MutationFrame = Exclude<ClientFrame, BatchFrame>;

/** True for a `type` the channel knows. */
export function isClientFrameType(type: string): type is ClientFrameType {
  return type === 'batch' || Object.hasOwn(MUTATION_FRAMES, type);
}

/** One item's net change as the `op` frame carries it (docs/realtime.md). */
const OpFrame = z.discriminatedUnion('op', [
  z.object({
    type: z.literal('op'),
    op: z.literal('upsert'),
    kind: z.string(),
    item: z.record(z.string(), z.unknown()),
    author: z.string(),
    etag: z.string(),
  }),
  z.object({
    type: z.literal('op'),
    op: z.literal('delete'),
    kind: z.string(),
    id: z.string(),
    author: z.string(),
    etag: z.string(),
  }),
  z.object({
    type: z.literal('op'),
    op: z.literal('set'),
    kind: z.literal('meta'),
    key: z.string(),
    value: z.unknown(),
    author: z.string(),
    etag: z.string(),
  }),
]);

/**
 * Every frame the server sends, discriminated on `type`: `hello` and
 * `snapshot` on connect, `op` for each accepted change, `ack` and `error`
 * answering a client's frame (by its `ref`), `board_erased` before the close.
 */
export const ServerFrame = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('hello'),
    boardId: z.string(),
    mode: BoardMode,
    lockMode: LockMode.nullable(),
    readOnly: z.boolean(),
    author: z.string(),
  }),
  z.object({ type: z.literal('snapshot'), board: z.record(z.string(), z.unknown()), etag: z.string() }),
  OpFrame,
  z.object({ type: z.literal('ack'), ref: FrameRef, result: z.unknown() }),
  /** An error's details (field, reason, index, …) sit beside its code and message, as in REST bodies. */
  z
    .object({ type: z.literal('error'), code: z.string(), message: z.string(), ref: FrameRef.optional() })
    .catchall(z.unknown()),
  z.object({ type: z.literal('board_erased'), boardId: z.string() }),
]);
export type ServerFrame = z.infer<typeof ServerFrame>;
