/**
 * Messages beside the Yjs sync protocol: the stateless messages the server
 * sends a `/collab` client, and the board events instances of the shared
 * setup send each other over Redis. Each is a union discriminated on `type`.
 */
import { z } from 'zod';

/** What the server did about one item a Yjs client wrote (host/documents/compensation.ts). */
export const CollabRepair = z.object({
  /** The document map the item lives in (texts, lines, images, columns, tasks, lanes, meta). */
  kind: z.string(),
  id: z.string(),
  action: z.enum(['removed', 'restored']),
  reason: z.string(),
});
export type CollabRepair = z.infer<typeof CollabRepair>;

/** A stateless message to a `/collab` client: `compensated` lists the repairs made to its last change. */
export const CollabStateless = z.discriminatedUnion('type', [
  z.object({ type: z.literal('compensated'), repairs: z.array(CollabRepair) }),
]);
export type CollabStateless = z.infer<typeof CollabStateless>;

/**
 * A board event one instance tells the others (cluster/redis.ts), with
 * the sender's instance id in `from`: a change was stored, the board was
 * erased, its lock or its registry row changed, or people left it (`awareness`:
 * a base64 awareness update that removes them); and the sender's heartbeat, or
 * that it stopped (cluster/relay-peers.ts).
 */
export const ClusterEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('changed'), from: z.string(), boardId: z.string() }),
  z.object({ type: z.literal('erased'), from: z.string(), boardId: z.string() }),
  z.object({ type: z.literal('lockChanged'), from: z.string(), boardId: z.string() }),
  z.object({ type: z.literal('recordChanged'), from: z.string(), boardId: z.string() }),
  z.object({ type: z.literal('left'), from: z.string(), boardId: z.string(), awareness: z.string() }),
  z.object({ type: z.literal('heartbeat'), from: z.string() }),
  z.object({ type: z.literal('stopped'), from: z.string() }),
]);
export type ClusterEvent = z.infer<typeof ClusterEvent>;
