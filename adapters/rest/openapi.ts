/**
 * The OpenAPI 3.1.0 description of the HTTP surface (`/openapi.json`), built
 * from the same zod schemas the routes parse with, so it cannot drift from the
 * validator. A test checks that every route Fastify serves is described here.
 */
import { maxHeaderSize } from 'node:http';
import type { z } from 'zod';
import type { OperationGroup } from '../../board/operations/operations.js';
import { OPERATION_LIST } from '../../host/operations/operations.js';
import { SERVICE_INFO } from '../../host/operator/service-info.js';
import { DRAW_KINDS, MAX_BODY_BYTES, MAX_IDEMPOTENCY_KEY_CHARS } from '../../schema/index.js';
import { API_DOCS_ROUTE_WORDS } from './api-docs.js';
import { BOARD_ROUTE_WORDS } from './boards.js';
import { DISCOVERY_ROUTE_WORDS } from './discovery-words.js';
import { HISTORY_ROUTE_WORDS } from './history.js';
import { LOCK_ROUTE_WORDS } from './locks.js';
import { ERROR_STATUSES, errorDescription, FAILURE } from './openapi-errors.js';
import { PREVIEW_ROUTE_WORDS } from './preview.js';
import {
  BOARD_ERRORS,
  boardPath,
  json,
  type Operation,
  type RouteWords,
  type Schema,
  WRITE_ERRORS,
} from './route-words.js';
import { SURFACE_ROUTE_WORDS } from './surface-words.js';

const ERROR_SCHEMA: Schema = {
  type: 'object',
  required: ['error', 'code'],
  properties: {
    error: { type: 'string', description: 'human-readable' },
    code: { type: 'string', description: 'machine-readable, see docs/choices.md' },
    requestId: { type: 'string', description: 'the X-Request-Id of the answer: its line in the server log' },
  },
  additionalProperties: true,
};
/**
 * Node's HTTP parser answers these before any route runs, with Fastify's own
 * body: a route that takes no input can still be refused here.
 */
const HTTP_LAYER_ERROR: Schema = {
  description: `Request headers (the URL included) over the ${maxHeaderSize / 1024} KiB that Node accepts, refused before any route runs`,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['error', 'statusCode'],
        properties: { error: { type: 'string' }, message: { type: 'string' }, statusCode: { type: 'integer' } },
      },
    },
  },
};
const EVERY_ROUTE_ERRORS = [431];

const PATH_PARAMS: Record<string, string> = {
  boardId: 'the board id (a UUID); on a read, a view token (`v_…`) in its place',
  kind: 'texts, links, strokes (alias lines) or images',
  version: 'a version number (GET /versions lists them)',
};

function operation(path: string, method: string, op: Operation): Schema {
  const parameters: Schema[] = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema:
      name === 'kind'
        ? { type: 'string', enum: [...DRAW_KINDS] }
        : name === 'version'
          ? { type: 'integer', minimum: 1 }
          : { type: 'string' },
    description: PATH_PARAMS[name] ?? 'the item id',
  }));
  for (const [name, schema] of Object.entries(op.query ?? {})) {
    const { description, ...rest } = schema;
    parameters.push({ name, in: 'query', required: false, schema: rest, description });
  }
  // The key is optional (`{}`): only a locked board asks for it. The scheme, not a parameter, describes the header.
  const keyed = op.locked ?? path.includes('{boardId}');
  const security = op.keyAsSubprotocol ? [{}, { boardKeySubprotocol: [] }] : keyed ? [{}, { boardKey: [] }] : [];
  if (op.token) {
    parameters.push({
      name: 'X-Import-Token',
      in: 'header',
      required: false,
      schema: { type: 'string' },
      description: 'operator token: selects the higher rate tiers (server-to-server only)',
    });
  }
  // A made view link is not replayed: its answer holds the token, which is stored nowhere but as its hash.
  if (
    method !== 'get' &&
    path.startsWith('/api/boards') &&
    !path.endsWith('/verify-key') &&
    !path.includes('/view-links')
  ) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      schema: { type: 'string', minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_CHARS },
      description: 'makes the write safe to retry (a fresh UUID per write): see Safe retries',
    });
  }
  const responses: Schema = {
    [String(op.ok.status ?? 200)]: {
      description: op.ok.description,
      ...(op.ok.headers && {
        headers: Object.fromEntries(Object.entries(op.ok.headers).map(([name, schema]) => [name, { schema }])),
      }),
      ...(op.ok.schema && { content: { [op.ok.contentType ?? 'application/json']: { schema: op.ok.schema } } }),
    },
  };
  for (const status of [...op.errors, ...EVERY_ROUTE_ERRORS])
    responses[String(status)] = { $ref: `#/components/responses/E${status}` };
  responses.default = { $ref: '#/components/responses/Failure' };
  return {
    [method]: {
      summary: op.summary,
      ...(op.description && { description: op.description }),
      tags: [op.tag],
      operationId: `${method}${path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      ...(parameters.length && { parameters }),
      security,
      ...(op.body && {
        requestBody: { required: true, content: { 'application/json': { schema: json(op.body, 'input') } } },
      }),
      responses,
    },
  };
}

/** The OpenAPI tag of each group of operations. */
const TAG_OF_GROUP: Record<OperationGroup, string> = {
  board: 'boards',
  draw: 'draw',
  todo: 'todo',
  history: 'history',
};

/** A GET route's query parameters, from its schema; a box is given as `x,y,width,height`. */
function queryParameters(query: z.ZodType): Record<string, Schema & { description: string }> {
  const properties = (json(query, 'output') as { properties?: Record<string, Schema> }).properties ?? {};
  return Object.fromEntries(
    Object.entries(properties).map(([name, schema]) => [
      name,
      schema.type === 'object'
        ? { type: 'string', description: 'x,y,width,height' }
        : { ...schema, description: String(schema.description ?? name) },
    ]),
  );
}

/** The REST routes of the operation table's rows, described from the rows: their words, body and answer. */
function operationRoutes(): RouteWords[] {
  return OPERATION_LIST.flatMap((row) =>
    row.rest.map(
      (route): RouteWords => [
        `${route.onBoard === false ? '/api/boards' : boardPath}${route.path.replace(/:(\w+)/g, '{$1}')}`,
        route.method.toLowerCase(),
        {
          tag: TAG_OF_GROUP[row.group],
          summary: route.summary,
          ...(route.description && { description: route.description }),
          body: route.body,
          ...(route.parameters ? { query: route.parameters } : route.query && { query: queryParameters(route.query) }),
          ...(route.token && { token: true }),
          ok: { description: route.answer, schema: json(route.answers ?? row.result) },
          // A body can be too large or not JSON; a DELETE has none.
          errors: [...(route.errors ?? (route.body ? WRITE_ERRORS : BOARD_ERRORS))],
        },
      ],
    ),
  );
}

/** [path, method, operation] for every HTTP route. */
const ROUTES: RouteWords[] = [
  // The table's first: a board is created before anything else is done to it.
  ...operationRoutes(),
  ...BOARD_ROUTE_WORDS,
  ...HISTORY_ROUTE_WORDS,
  ...PREVIEW_ROUTE_WORDS,
  ...LOCK_ROUTE_WORDS,
  ...SURFACE_ROUTE_WORDS,
  ...DISCOVERY_ROUTE_WORDS,
  ...API_DOCS_ROUTE_WORDS,
];

/** The groups of operations, in the order a reader meets them. */
const TAGS: Record<string, string> = {
  boards: 'Create, read, title and erase boards; long-poll for edits',
  snapshots: 'Read a whole board as JSON or as a schematic SVG',
  history: 'Versions of a board, what changed since one, and restoring one',
  exports: 'The tasks of a todo board as CSV or Markdown',
  draw: 'Texts, strokes, images, links, shapes and frames on a draw board',
  todo: 'Columns, lanes and tasks on a todo board',
  locks: 'Lock a board with an access key, change or remove the lock',
  mcp: 'The Model Context Protocol endpoint (Streamable HTTP) for AI agents',
  realtime: 'WebSockets: Yjs sync and the JSON frame channel',
  discovery: 'Documents that describe the service to machines and agents, and health',
  app: 'The browser app',
};

const SECURITY_SCHEMES: Schema = {
  boardKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Board-Key',
    description:
      'The access key of a locked board (6 or 8 letters and digits, any case). Only a locked board asks for it: an unlocked board needs no key.',
  },
  boardKeySubprotocol: {
    type: 'apiKey',
    in: 'header',
    name: 'Sec-WebSocket-Protocol',
    description:
      'The JSON frame channel takes the access key as the WebSocket subprotocol `svc-key.<key>` (echoed in the 101), since a browser cannot set headers on a WebSocket.',
  },
};

/** The OpenAPI document; `baseUrl` becomes its server URL. */
export function openApiDocument(baseUrl: string): Schema {
  const paths: Record<string, Schema> = {};
  for (const [path, method, op] of ROUTES) paths[path] = { ...paths[path], ...operation(path, method, op) };
  const responses: Record<string, Schema> = {};
  for (const status of ERROR_STATUSES) {
    responses[`E${status}`] = {
      description: errorDescription(status),
      ...(status === 401 && { headers: { 'WWW-Authenticate': { schema: { type: 'string' } } } }),
      ...(status === 429 && { headers: { 'Retry-After': { schema: { type: 'integer' } } } }),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  responses.E431 = HTTP_LAYER_ERROR;
  responses.Failure = {
    description: FAILURE,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: SERVICE_INFO.title,
      version: '1.0.0',
      description: `${SERVICE_INFO.description}. No accounts: the board id is the credential unless the board is locked. Request bodies are JSON of at most ${MAX_BODY_BYTES} bytes. Every public endpoint sends Access-Control-Allow-Origin: *.`,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: baseUrl }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths,
    components: { schemas: { Error: ERROR_SCHEMA }, responses, securitySchemes: SECURITY_SCHEMES },
  };
}

/** Method and path of every described operation, in Fastify's `:param` form (for the route coverage test). */
export const DESCRIBED_ROUTES = ROUTES.map(
  ([path, method]) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`,
);
