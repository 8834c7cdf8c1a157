/**
 * A batch's envelope, the same on every surface (MCP `batch`, REST
 * `POST /api/boards/{id}/batch`, the `/ws` `batch` frame): ops of the form
 * `{type, ref?, ...args}`. Only the envelope is checked here; each op's
 * arguments are parsed with the schema its type names (BATCH_OP_ARGS,
 * schema/ws.ts) by the domain (board/mutations/batch.ts), so that a refused op
 * names its index alike on every surface.
 */
import { z } from 'zod';
import { Author, strictObject } from './common.js';
import { advertise } from './json-schema.js';
import { MAX_BATCH_OPS } from './limits.js';

/** An op's name within its batch: `"$<ref>"` in a later op's id, column_id or anchor id stands for the id it made. */
export const BatchOpRef = advertise(z.union([z.string().min(1).max(128), z.number()], { error: 'must be a string' }), {
  type: 'string',
}).describe('Name of its id');

/** One op of a batch: a write tool's name and its arguments beside it (checked by the domain, per type). */
export const BatchOp = z.looseObject({
  type: z.string({ error: 'must be a tool name' }).describe('Tool name'),
  ref: BatchOpRef.optional(),
});
export type BatchOp = z.infer<typeof BatchOp>;

/** The ops of one batch on MCP and REST (a /ws batch may continue over several frames, schema/ws.ts). */
export const BatchInput = strictObject({
  ops: z
    .array(BatchOp)
    .min(1, { error: 'must hold at least one op' })
    .max(MAX_BATCH_OPS, { error: `must hold at most ${MAX_BATCH_OPS} ops` })
    .describe('In order'),
  author: Author.optional(),
});
export type BatchInput = z.infer<typeof BatchInput>;
