/**
 * A batch of edits, the same on every surface (MCP `batch`, REST
 * `POST /api/boards/{id}/batch`, the `/ws` `batch` frame): its ops parsed
 * with the schema their type names, then run in order inside one write, so
 * that all apply or none. A refused op, at parse or when it runs, names its
 * `index`; an op's `ref` lets a later op name the item it made (`"$ref"`).
 */
import type { z } from 'zod';
import type { BatchOp } from '../../schema/index.js';
import { BoardError, errors, fromZodIssues } from '../model/errors.js';
import type { BoardWrite } from './board-write.js';

/** The schema of each op's arguments, by op type (the operation table's BATCH_OP_ARGS). */
export type BatchOpArgs = Readonly<Record<string, z.ZodType>>;
/** An op parsed: its type, its name within the batch, and its arguments as its row's mutation takes them. */
export type BatchOpCall = { type: string; ref?: string | number; args: Record<string, unknown> };

/** Runs one op's row inside the batch's write. */
export type RunOp = (w: BoardWrite, op: BatchOpCall) => unknown;

/** Runs `step`, naming `index` in the BoardError it throws (a batch's op, a bulk call's task). */
export function atIndex<T>(index: number, step: () => T): T {
  try {
    return step();
  } catch (error) {
    if (error instanceof BoardError) throw error.withDetails({ index });
    throw error;
  }
}

/** Schemas that take an `author` get the batch's, when an op gives none of its own. */
const takesAuthor = (schema: z.ZodType) => 'author' in (schema as z.ZodObject).shape;

/**
 * Parses the ops of a batch, `firstIndex` being the index of the first (a
 * /ws batch continued over several frames counts on from the frames before).
 * `author` is the batch's: it tags the items of ops that name no author.
 */
export function parseBatchOps(
  opArgs: BatchOpArgs,
  ops: readonly BatchOp[],
  firstIndex = 0,
  author?: string,
): BatchOpCall[] {
  return ops.map((op, offset) =>
    atIndex(firstIndex + offset, () => {
      const { type, ref, ...args } = op;
      if (!Object.hasOwn(opArgs, type))
        throw errors.invalidPayload('type', `must be a write tool: ${Object.keys(opArgs).join(', ')}`);
      const opType = type;
      const parsed = opArgs[opType].safeParse(args, { reportInput: true });
      if (!parsed.success) throw fromZodIssues(parsed.error.issues);
      const data = parsed.data as Record<string, unknown>; // every op's schema is an object's (a row's arguments)
      const withAuthor =
        author !== undefined && takesAuthor(opArgs[opType]) && data.author === undefined ? { ...data, author } : data;
      return { type: opType, ...(ref !== undefined && { ref }), args: withAuthor };
    }),
  );
}

/** The fields of an op's arguments that name an item, where `"$ref"` stands for an earlier op's item. */
const ID_FIELDS = ['id', 'column_id'] as const;

/** The op's arguments with every `"$ref"` replaced by the id the op of that ref made. */
function resolveRefs(args: Record<string, unknown>, ids: ReadonlyMap<string, string>): Record<string, unknown> {
  const idOf = (value: unknown, field: string): unknown => {
    if (typeof value !== 'string' || !value.startsWith('$')) return value;
    const id = ids.get(value.slice(1));
    if (id === undefined)
      throw errors.invalidPayload(field, `${value} names no earlier op's ref (an op with a ref that made an item)`);
    return id;
  };
  let out = args;
  const set = (key: string, value: unknown) => {
    if (value !== out[key]) out = { ...out, [key]: value };
  };
  for (const field of ID_FIELDS) set(field, idOf(out[field], field));
  const anchors = out.anchors as Record<string, { id: string } | undefined> | undefined;
  if (anchors) {
    const ends = Object.fromEntries(
      Object.entries(anchors).map(([end, anchor]) => [
        end,
        anchor && { ...anchor, id: idOf(anchor.id, `anchors.${end}.id`) as string },
      ]),
    );
    if (Object.entries(ends).some(([end, anchor]) => anchor?.id !== anchors[end]?.id)) set('anchors', ends);
  }
  if (Array.isArray(out.ids))
    set(
      'ids',
      out.ids.map((id, i) => idOf(id, `ids.${i}`)),
    );
  return out;
}

/** Runs the ops in order inside one write: every result, or the first refusal with its op's index (nothing applied). */
export function applyBatch(w: BoardWrite, ops: readonly BatchOpCall[], run: RunOp): unknown[] {
  const ids = new Map<string, string>();
  const refs = new Set<string>();
  return ops.map((op, index) =>
    atIndex(index, () => {
      const key = op.ref === undefined ? undefined : String(op.ref);
      if (key !== undefined && refs.has(key))
        throw errors.invalidPayload('ref', `"${key}" names an earlier op already`);
      if (key !== undefined) refs.add(key);
      const result = run(w, { ...op, args: resolveRefs(op.args, ids) });
      const id = (result as { id?: unknown } | null)?.id;
      if (key !== undefined && typeof id === 'string') ids.set(key, id);
      return result;
    }),
  );
}

/**
 * What an agent needs of an op's result: its id, kind, size and place; not
 * the echoes of what it sent (text, points, names, stamps), which would make
 * the answer to a batch as large as the batch.
 */
const ECHOES = new Set(['content', 'description', 'points', 'url', 'name', 'author', 'last_updated']);
/** A result with its laid-out box says where the item is in it: its own place and looks are what was sent. */
const BOXED_ECHOES = new Set([...ECHOES, 'x', 'y', 'width', 'color', 'postit', 'diagram']);

export function compactResult(result: unknown): Record<string, unknown> {
  if (result === null || typeof result !== 'object') return {};
  const echoes = 'bbox' in result ? BOXED_ECHOES : ECHOES;
  return Object.fromEntries(Object.entries(result).filter(([key]) => !echoes.has(key)));
}
