/**
 * Frames of the JSON WebSocket channel `/ws/{boardId}`: one JSON object per
 * text frame, discriminated on `type`. Mutation frames are named like the MCP
 * tools and take the same arguments (without board_id and access_key: the
 * connection is bound to one board and its key).
 */
import { z } from 'zod';
import { BatchOp } from './batch.js';
import { BoardMode, IdempotencyKey, ItemId, LockMode, strictObject } from './common.js';
import { MAX_BATCH_OPS, MAX_RECOLOR_ITEMS } from './limits.js';

/** A client's reference for a frame, echoed in its ack or error. */
export const FrameRef = z.union([z.string().max(128), z.number()], { error: 'must be a string or a number' });

/** The `recolor` frame's arguments: the browser's selection recoloured (a frame with no tool). */
export const RecolorArgs = strictObject({
  ids: z
    .array(ItemId)
    .min(1, { error: 'must name at least one item' })
    .max(MAX_RECOLOR_ITEMS, { error: `must name at most ${MAX_RECOLOR_ITEMS} items` }),
  color: z
    .string({ error: 'must be a colour name' })
    .describe('Texts and strokes: an ink name (other values: auto); columns and tasks: red, blue, green or ""'),
});

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

/** The envelope every client frame shares; its body is checked against its row's frame schema (board/operations/frames.ts) or BatchFrame. */
export const ClientFrameEnvelope = z
  .object({
    type: z.string({ error: 'must be a frame type' }),
    ref: FrameRef.optional(),
  })
  .passthrough();

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
