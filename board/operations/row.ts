/**
 * A row of the operation table: its types, the builders each row is made by,
 * and the REST route and answer helpers the rows share.
 */
import type * as Y from 'yjs';
import { z } from 'zod';
import { onBoard } from '../../schema/index.js';
import { isLink, type TextNode } from '../model/document-model.js';
import { errors, type FieldError } from '../model/errors.js';
import type { BoardRecord } from '../model/record.js';
import type { BoardWrite } from '../mutations/board-write.js';
import { itemSize, type Size } from '../render/item-layout.js';

type Box = Size & { x: number; y: number };

/** An operation's arguments as they reach the domain (board_id and access_key are the host's business). */
export type ArgsOf<A extends z.ZodType> = Omit<z.output<A>, 'board_id' | 'access_key'>;

/**
 * A REST route of an operation, under `/api/boards/:boardId`. Its body schema
 * is REST's own (the ids of `:itemId` and `:kind` come from the path, not the
 * body); the REST adapter maps the path onto the arguments. `summary` and
 * `answer` are its words in OpenAPI; `answers` is the schema OpenAPI gives its
 * 200, where REST promises more than the tool's result (the stored record).
 */
export type RestRoute = {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  /** `false`: the path is under `/api/boards`, before any board (a board is created). */
  onBoard?: false;
  body?: z.ZodType;
  /** A GET's query string, parsed into the arguments. */
  query?: z.ZodType;
  summary: string;
  answer: string;
  answers?: z.ZodType;
  /** OpenAPI's longer words, where the summary is not enough. */
  description?: string;
  /** OpenAPI's query parameters, where they say more than `query`'s schema does (ranges, defaults, words). */
  parameters?: Readonly<Record<string, Record<string, unknown> & { description: string }>>;
  /** The error statuses it answers, where they are not a board route's usual ones. */
  errors?: readonly number[];
  /** Whether the operator's X-Import-Token selects a higher rate tier. */
  token?: true;
};

/** How an MCP tool presents itself: a title for people, a description for models (tools/list counts its words). */
export type ToolWords = { title: string; description: string };

/**
 * `board` operations count against their board's request budget; `create`
 * ones (a board made or opened by URL) against the client's creations.
 */
export type RateClass = 'board' | 'create';

/** Where an operation belongs: its MCP icon and its OpenAPI tag. */
export type OperationGroup = 'board' | 'draw' | 'todo' | 'history';

/**
 * What an operation does to what it names, which MCP states as annotations:
 * reads; adds something new; sets something to what it is told (twice is
 * once, nothing lost); replaces what was there (twice is once); removes.
 */
export type Effect = 'read' | 'add' | 'set' | 'replace' | 'remove';

/**
 * What a row states, keyed by its name in the table (operations.ts gives it
 * `name`). `args` are the arguments as the domain takes them, without
 * board_id and access_key; its tool takes them with those two (`onBoard`),
 * unless `onBoard: false` says `args` are the tool's already (no board yet,
 * or a rule of its own). `frame` is its /ws frame: a mutation's name unless
 * it names another (`lane_upsert`) or `false` (none).
 */
type Spec<A extends z.ZodType, T extends ToolWords | undefined> = {
  args: A;
  result: z.ZodType;
  group: OperationGroup;
  effect: Effect;
  rate?: RateClass;
  rest?: readonly RestRoute[];
  tool?: T;
  onBoard?: false;
  /** The error of a refused field, where a field has one of its own (create_board's content is invalid_content). */
  fieldError?: FieldError;
};

/** What every row holds once named: `args` its tool's (or frame's) whole arguments, `input` the domain's. */
export type Common<A extends z.ZodType, T extends ToolWords | undefined> = {
  name: string;
  args: z.ZodType<ArgsOf<A> & { board_id: string; access_key?: string }>;
  input: A;
  result: z.ZodType;
  group: OperationGroup;
  effect: Effect;
  rate: RateClass;
  rest: readonly RestRoute[];
  /** Its /ws frame type, when it has one. */
  frame?: string;
  tool: T;
  fieldError?: FieldError;
};

/** Changes the board: one Y transaction, refused without write access. */
export type MutationOp<A extends z.ZodType, R, T extends ToolWords | undefined = ToolWords | undefined> = Common<
  A,
  T
> & {
  kind: 'mutation';
  access: 'write';
  mutate: (w: BoardWrite, args: ArgsOf<A>) => R;
};
/** Reads the board's document: refused without read access. */
export type ViewOp<A extends z.ZodType, R, T extends ToolWords | undefined = ToolWords | undefined> = Common<A, T> & {
  kind: 'view';
  access: 'read';
  view: (doc: Y.Doc, record: BoardRecord, args: ArgsOf<A>) => R;
};
/**
 * An operation the host answers itself (host/operations gives it its `run`):
 * it needs what the document does not hold, the board events, the host's
 * clock, the stored versions, the preview threads, or no board yet. `access`
 * is its lock rule: none (a board is created), a read (public under a
 * `write` lock) or a write (restore_version: the key under any lock),
 * checked by the host method that answers it.
 */
export type HostOp<A extends z.ZodType, T extends ToolWords | undefined = ToolWords | undefined> = Common<A, T> & {
  kind: 'host';
  access: 'none' | 'read' | 'write';
};

const filled = <A extends z.ZodType, T extends ToolWords | undefined>(row: Spec<A, T>): Common<A, T> => ({
  name: '',
  args: (row.onBoard === false || !row.tool ? row.args : onBoard(row.args as unknown as z.ZodObject)) as Common<
    A,
    T
  >['args'],
  input: row.args,
  result: row.result,
  group: row.group,
  effect: row.effect,
  rate: row.rate ?? 'board',
  rest: row.rest ?? [],
  tool: row.tool as T,
  ...(row.fieldError && { fieldError: row.fieldError }),
});

/** A mutation row; `frame` as Spec says. */
export const mutation = <A extends z.ZodType, R, T extends ToolWords | undefined = undefined>(
  row: Spec<A, T> & { frame?: string | false; mutate: (w: BoardWrite, args: ArgsOf<A>) => R },
): MutationOp<A, R, T> & { frameName?: string | false } => ({
  ...filled(row),
  kind: 'mutation',
  access: 'write',
  mutate: row.mutate,
  ...(row.frame !== undefined && { frameName: row.frame }),
});

export const view = <A extends z.ZodType, R, T extends ToolWords | undefined = undefined>(
  row: Omit<Spec<A, T>, 'effect'> & { view: (doc: Y.Doc, record: BoardRecord, args: ArgsOf<A>) => R },
): ViewOp<A, R, T> => ({ ...filled({ ...row, effect: 'read' }), kind: 'view', access: 'read', view: row.view });

export const host = <A extends z.ZodType, T extends ToolWords | undefined = undefined>(
  row: Spec<A, T> & { access: HostOp<A>['access'] },
): HostOp<A, T> => ({ ...filled(row), kind: 'host', access: row.access });

export const post = (
  path: string,
  body: z.ZodType,
  summary: string,
  answer: string,
  answers?: z.ZodType,
): RestRoute => ({
  method: 'POST',
  path,
  body,
  summary,
  answer,
  ...(answers && { answers }),
});
export const del = (path: string, summary: string, answer: string, answers?: z.ZodType): RestRoute => ({
  method: 'DELETE',
  path,
  summary,
  answer,
  ...(answers && { answers }),
});

export const get = (path: string, query: z.ZodType, summary: string, answer: string): RestRoute => ({
  method: 'GET',
  path,
  query,
  summary,
  answer,
});

/** The upsert rule of the add_* tools, said once per tool in the fewest words. */
export const UPSERT = 'An existing id updates it.';

/** An upsert's answer says whether it made the item: an upsert keeps the id it updates and mints one otherwise. */
export const upserted = <T extends { id: string }>(args: object, item: T): T & { created: boolean } => ({
  ...item,
  // REST's /columns and /tasks bodies take the id that the tools' and frames' arguments drop.
  created: item.id !== (args as { id?: string }).id,
});

/** REST's answer to an upsert as OpenAPI describes it: the stored record and whether it was made. */
export const upsertAnswer = <S extends z.ZodObject>(stored: S) => stored.extend({ created: z.boolean() });

/** REST's answer to a delete as OpenAPI describes it: `ok` is true whenever it answers 200. */
export const Deleted = z.object({ ok: z.literal(true), id: z.string() });

/** An item's answer with the box it is laid out in (`bbox`, as strokes answer theirs): what an agent needs to place arrows and neighbours. */
export function withBox<T extends object>(w: BoardWrite, answer: T, item: TextNode): T & { bbox: Box } {
  return { ...answer, bbox: { x: item.x, y: item.y, ...(w.textSize(item) ?? itemSize(item)) } };
}

/** The kind of a draw item found by its id (for move and erase without kind). */
export function kindOf(w: BoardWrite, id: string) {
  const node = w.maps.texts.get(id);
  if (node) return isLink(node) ? ('links' as const) : ('texts' as const);
  if (w.maps.lines.has(id)) return 'strokes' as const;
  if (w.maps.images.has(id)) return 'images' as const;
  if (w.maps.shapes.has(id)) return 'shapes' as const;
  if (w.maps.frames.has(id)) return 'frames' as const;
  throw errors.itemNotFound('item', id);
}
