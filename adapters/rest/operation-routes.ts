/**
 * The REST routes of the operation table: each row's `rest` routes under
 * /api/boards/:boardId (or /api/boards, before any board), its body or query
 * parsed with the route's schema, the path's `:itemId`, `:kind` and
 * `:version` becoming arguments, then the row on the board under its lock
 * rule: a mutation's write, a view's read, a host row's `run`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors, type FieldError, fromZodIssues } from '../../board/model/errors.js';
import type { RestRoute } from '../../board/operations/operations.js';
import type { Boards } from '../../host/boards/boards.js';
import { type AnyOperation, OPERATION_LIST } from '../../host/operations/operations.js';
import { DrawKind, VersionParams } from '../../schema/index.js';
import { callerOf } from '../kit/caller.js';
import { restIdempotency } from '../kit/idempotency.js';
import { boardIdParam, itemIdParam, parse } from '../kit/params.js';
import type { BaseUrl } from './boards.js';

type Params = Record<string, string>;
type Request = FastifyRequest<{ Params: Params }>;

const BOARD_PATH = '/api/boards/:boardId';

/** A route's URL as Fastify takes it. */
export const routeUrl = (route: RestRoute) => `${route.onBoard === false ? '/api/boards' : BOARD_PATH}${route.path}`;

/**
 * The arguments a route's path adds to its body: the id first, then the kind,
 * the order MCP checks `move` and `erase` arguments in, so the first error
 * named is the same on both surfaces.
 */
function pathArgs(params: Params): { id?: string; kind?: DrawKind; version?: number } {
  const args: { id?: string; kind?: DrawKind; version?: number } = {};
  if (params.itemId !== undefined) args.id = itemIdParam(params.itemId);
  if (params.kind !== undefined) args.kind = parse(DrawKind, params.kind);
  if (params.version !== undefined)
    args.version = parse(VersionParams, params, (_field, reason) => errors.invalidPayload('version', reason)).version;
  return args;
}

const hasPathArgs = (params: Params) =>
  params.itemId !== undefined || params.kind !== undefined || params.version !== undefined;

/**
 * The body or query and the path as one set of arguments, checked in the
 * order MCP and frames check them (where the path's id and kind are
 * arguments): the body's fields, then the path, then the body's unknown keys
 * (zod names those after every field).
 */
function argsOf(route: RestRoute, request: Request, fieldError?: FieldError): object {
  if (route.query) return parse(route.query, request.query, fieldError) as object;
  if (!route.body) return pathArgs(request.params);
  const body = route.body.safeParse(request.body ?? {}, { reportInput: true });
  // zod's output is an object of its own: a path with no id or kind adds nothing to copy it for.
  if (body.success)
    return hasPathArgs(request.params)
      ? { ...(body.data as object), ...pathArgs(request.params) }
      : (body.data as object);
  if (body.error.issues[0].code === 'unrecognized_keys') pathArgs(request.params); // throws first if the path is wrong
  throw fromZodIssues(body.error.issues, fieldError);
}

/** The board a route names, checked before its arguments are; a read of a board that is no UUID finds nothing. */
const boardOf = (operation: AnyOperation, route: RestRoute, request: Request) =>
  route.onBoard === false
    ? undefined
    : boardIdParam(request.params.boardId, operation.access === 'write' ? 'write' : 'read');

/** A signal aborted when the client hangs up: a long poll stops waiting. */
function hangUp(reply: FastifyReply): AbortSignal {
  const gone = new AbortController();
  reply.raw.once('close', () => gone.abort());
  return gone.signal;
}

/**
 * Runs one route of a row: the board id, then the body or query and the path
 * (every input is checked before the board is), then the row. Not async: the
 * row's own promise is the answer (Fastify takes a handler's throw as it
 * takes a rejection).
 */
function handle(
  boards: Boards,
  baseUrl: BaseUrl,
  operation: AnyOperation,
  route: RestRoute,
  request: Request,
  reply: FastifyReply,
) {
  const boardId = boardOf(operation, route, request);
  const args = argsOf(route, request, operation.fieldError);
  switch (operation.kind) {
    case 'mutation':
      return boards.write(
        boardId as string,
        callerOf(request),
        (w) => operation.mutate(w, args),
        restIdempotency(request, reply),
      );
    case 'view':
      return boards.read(boardId as string, callerOf(request), (doc, record) => operation.view(doc, record, args));
    case 'host': {
      // A host row's GET reads what changes without a new ETag (versions, a wait's outcome): no cache keeps it.
      if (route.method === 'GET') reply.header('Cache-Control', 'no-store');
      const author = (args as { author?: string }).author;
      // A route before any board (create) has no board_id; its row's run reads none.
      return operation.run(boards, { ...args, board_id: boardId } as { board_id: string }, {
        caller: () => ({ ...callerOf(request), ...(author !== undefined && { author }) }),
        signal: hangUp(reply),
        retry: route.method === 'GET' ? undefined : restIdempotency(request, reply),
        baseUrl: baseUrl(request),
      });
    }
  }
}

/** Registers every REST route the operation table names. */
export function operationRoutes(app: FastifyInstance, boards: Boards, baseUrl: BaseUrl): void {
  for (const operation of OPERATION_LIST)
    for (const route of operation.rest)
      app.route<{ Params: Params }>({
        method: route.method,
        url: routeUrl(route),
        handler: (request, reply) => handle(boards, baseUrl, operation, route, request, reply),
      });
}
