/**
 * A batch of edits, the same on every surface (MCP `batch`, REST
 * `POST /api/boards/{id}/batch`, the `/ws` `batch` frame): its ops parsed
 * with the schema their type names, then run in order inside one write, so
 * that all apply or none. A refused op, at parse or when it runs, names its
 * `index`; an op's `ref` lets a later op name the item it made (`"$ref"`).
 */
import type { z } from 'zod';
import { BATCH_OP_ARGS, type BatchOp, type BatchOpType } from '../../schema/index.js';
import type { BoardWrite } from './board-write.js';
import { BoardError, errors, fromZodIssues } from '../model/errors.js';

type OpArgs = { [T in BatchOpType]: z.output<(typeof BATCH_OP_ARGS)[T]> };
/** An op parsed: its type, its name within the batch, and its arguments as its row's mutation takes them. */
export type BatchOpCall = {
  [T in BatchOpType]: { type: T; ref?: string | number; args: OpArgs[T] };
}[BatchOpType];

/** Runs one op's row inside the batch's write. */
export type RunOp = (w: BoardWrite, op: BatchOpCall) => unknown;

const OP_TYPES = Object.keys(BATCH_OP_ARGS) as BatchOpType[];

/** Runs `step`, naming `index` in the BoardError it throws (a batch's op, a bulk call's task). */
export function atIndex<T>(index: number, step: () => T): T {
  try {
    return step();
  } catch (error) {
    if (error instanceof BoardError)
      throw new BoardError(error.status, error.code, error.message, { ...error.details, index });
    throw error;
  }
}

/** Schemas that take an `author` get the batch's, when an op gives none of its own. */
const takesAuthor = (type: BatchOpType) => 'author' in (BATCH_OP_ARGS[type] as z.ZodObject).shape;

/**
 * Parses the ops of a batch, `firstIndex` being the index of the first (a
 * /ws batch continued over several frames counts on from the frames before).
 * `author` is the batch's: it tags the items of ops that name no author.
 */
export function parseBatchOps(ops: readonly BatchOp[], firstIndex = 0, author?: string): BatchOpCall[] {
  return ops.map((op, offset) =>
    atIndex(firstIndex + offset, () => {
      const { type, ref, ...args } = op;
      if (!Object.hasOwn(BATCH_OP_ARGS, type))
        throw errors.invalidPayload('type', `must be a write tool: ${OP_TYPES.join(', ')}`);
      const opType = type as BatchOpType;
      const parsed = BATCH_OP_ARGS[opType].safeParse(args, { reportInput: true });
      if (!parsed.success) throw fromZodIssues(parsed.error.issues);
      const withAuthor =
        author !== undefined && takesAuthor(opType) && (parsed.data as { author?: string }).author === undefined
          ? { ...parsed.data, author }
          : parsed.data;
      return { type: opType, ...(ref !== undefined && { ref }), args: withAuthor } as BatchOpCall;
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
      const result = run(w, { ...op, args: resolveRefs(op.args as Record<string, unknown>, ids) } as BatchOpCall);
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
