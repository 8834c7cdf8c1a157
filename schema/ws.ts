/**
 * Frames of the JSON WebSocket channel `/ws/{boardId}`: one JSON object per
 * text frame, discriminated on `type`. Mutation frames are named like the MCP
 * tools and take the same arguments (without board_id and access_key: the
 * connection is bound to one board and its key).
 */
import { z } from 'zod';
import { ItemId } from './common.js';
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
  recolor: z.object({
    ids: z.array(ItemId).min(1, { error: 'must name at least one item' }).max(MAX_RECOLOR_ITEMS, { error: `must name at most ${MAX_RECOLOR_ITEMS} items` }),
    color: z.string({ error: 'must be a colour name' }),
  }),
} as const;
export type MutationFrameType = keyof typeof MUTATION_FRAMES;
export const MUTATION_FRAME_TYPES = Object.keys(MUTATION_FRAMES) as MutationFrameType[];

/** One operation of a batch: a mutation frame without `ref`. */
export const BatchOp = z
  .object({ type: z.enum(MUTATION_FRAME_TYPES as [MutationFrameType, ...MutationFrameType[]], { error: 'must be a mutation frame type' }) })
  .passthrough();
export type BatchOp = z.infer<typeof BatchOp>;

/** A batch, or one frame of a batch continued over several frames (`more: true`, same `ref`). */
export const BatchFrame = z.object({
  type: z.literal('batch'),
  ref: FrameRef.optional(),
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
