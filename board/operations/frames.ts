/** The /ws client frames, built from the rows' frames (schema/ws.ts holds the envelope and the server's frames). */
import { z } from 'zod';
import { BatchFrame, FrameRef, IdempotencyKey } from '../../schema/index.js';
import { MUTATION_FRAME_TYPES, MUTATION_FRAMES, type MutationFrameType } from './operations.js';

/**
 * A mutation frame: its tool's arguments beside `type`, `ref` and
 * `idempotencyKey` (extended, so the tool's refinements run). A ref is the
 * client's counter for matching answers; only a key makes a resent frame the same write.
 */
function mutationFrame(type: MutationFrameType) {
  return (MUTATION_FRAMES[type] as z.ZodObject).safeExtend({
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
] as unknown as [typeof BatchFrame, ...ReturnType<typeof mutationFrame>[]]);
/** A mutation frame: its type (a row's frame), its client's ref and key, and its row's arguments. */
export type MutationFrame = {
  type: MutationFrameType;
  ref?: z.infer<typeof FrameRef>;
  idempotencyKey?: string;
  [arg: string]: unknown;
};
export type ClientFrame = BatchFrame | MutationFrame;
export type ClientFrameType = 'batch' | MutationFrameType;

/** True for a `type` the channel knows. */
export function isClientFrameType(type: string): boolean {
  return type === 'batch' || Object.hasOwn(MUTATION_FRAMES, type);
}
