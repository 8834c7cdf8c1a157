/**
 * The REST write routes, registered from the operation table: each row's
 * `rest` routes under /api/boards/:boardId, its body parsed with the route's
 * schema, the path's `:itemId` and `:kind` becoming the `id` and `kind`
 * arguments, then the row's mutation on the board under its lock rule.
 */
import type { FastifyInstance } from 'fastify';
import { DrawKind } from '../../schema/index.js';
import type { Boards } from '../../host/boards/boards.js';
import { type AnyMutation, type AnyView, OPERATION_LIST, type RestRoute } from '../../board/operations/operations.js';
import { callerOf } from '../kit/caller.js';
import { fromZodIssues } from '../../board/model/errors.js';
import { boardIdParam, itemIdParam, parse } from '../kit/params.js';
import { restIdempotency } from '../kit/idempotency.js';

type Params = Record<string, string>;

const BOARD_PATH = '/api/boards/:boardId';

/**
 * The arguments a route's path adds to its body: the id first, then the kind,
 * the order MCP checks `move` and `erase` arguments in, so the first error
 * named is the same on both surfaces.
 */
function pathArgs(params: Params): { id?: string; kind?: DrawKind } {
  const args: { id?: string; kind?: DrawKind } = {};
  if (params.itemId !== undefined) args.id = itemIdParam(params.itemId);
  if (params.kind !== undefined) args.kind = parse(DrawKind, params.kind);
  return args;
}

/**
 * The body and the path as one set of arguments, checked in the order MCP
 * and frames check them (where the path's id and kind are arguments): the
 * body's fields, then the path, then the body's unknown keys (zod names
 * those after every field).
 */
function argsOf(route: RestRoute, request: { body: unknown; params: Params }): object {
  if (!route.body) return pathArgs(request.params);
  const body = route.body.safeParse(request.body ?? {}, { reportInput: true });
  // zod's output is an object of its own: a path with no id or kind adds nothing to copy it for.
  if (body.success)
    return request.params.itemId === undefined && request.params.kind === undefined
      ? (body.data as object)
      : { ...(body.data as object), ...pathArgs(request.params) };
  if (body.error.issues[0].code === 'unrecognized_keys') pathArgs(request.params); // throws first if the path is wrong
  throw fromZodIssues(body.error.issues);
}

/**
 * One route of a mutation: the board id, then the body and the path (every
 * input is checked before the board is), then one write.
 */
function registerRoute(app: FastifyInstance, boards: Boards, operation: AnyMutation, route: RestRoute): void {
  app.route<{ Params: Params }>({
    method: route.method,
    url: `${BOARD_PATH}${route.path}`,
    // Not async: the write's own promise is the answer (Fastify takes a handler's throw as it takes a rejection).
    handler: (request, reply) => {
      const boardId = boardIdParam(request.params.boardId, operation.access);
      const args = argsOf(route, request);
      const retry = restIdempotency(request, reply);
      return boards.write(boardId, callerOf(request), (w) => operation.mutate(w, args as never), retry);
    },
  });
}

/** One route of a view: the board id, then the query string as its arguments, then one read. */
function registerView(app: FastifyInstance, boards: Boards, operation: AnyView, route: RestRoute): void {
  app.get<{ Params: Params }>(`${BOARD_PATH}${route.path}`, (request) => {
    const boardId = boardIdParam(request.params.boardId, operation.access);
    const args = route.query ? parse(route.query, request.query) : {};
    return boards.read(boardId, callerOf(request), (doc, record) => operation.view(doc, record, args as never));
  });
}

/** Registers every REST route the operation table names. */
export function operationRoutes(app: FastifyInstance, boards: Boards): void {
  for (const operation of OPERATION_LIST) {
    for (const route of operation.rest) {
      if (operation.kind === 'mutation') registerRoute(app, boards, operation, route);
      else if (operation.kind === 'view' && route.method === 'GET') registerView(app, boards, operation, route);
    }
  }
}
