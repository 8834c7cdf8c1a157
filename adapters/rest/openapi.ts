/**
 * The OpenAPI 3.1.0 description of the HTTP surface (`/openapi.json`), built
 * from the same zod schemas the routes parse with, so it cannot drift from the
 * validator. A test checks that every route Fastify serves is described here.
 */
import { maxHeaderSize } from 'node:http';
import { z } from 'zod';
import {
  CreateBoardInput,
  LockInput,
  GetChangesResult,
  ListVersionsResult,
  RestoreVersionResult,
  StoredColumn,
  StoredTitle,
  StoredImage,
  StoredLane,
  StoredLink,
  StoredStroke,
  StoredTask,
  StoredText,
  toJsonSchema,
  VerifyKeyInput,
  WAIT_DEFAULT_TIMEOUT_MS,
  WAIT_MAX_TIMEOUT_MS,
  WAIT_MIN_TIMEOUT_MS,
  WaitForUpdateResult,
  DRAW_KINDS,
  HISTORY_PAGE_DEFAULT,
  HISTORY_PAGE_MAX,
  MAX_BODY_BYTES,
  MAX_IDEMPOTENCY_KEY_CHARS,
  MAX_PAGE_ITEMS,
  RestoreBody,
  TEMPLATES,
  TOMBSTONE_RETENTION_DAYS,
} from '../../schema/index.js';
import { OPERATION_LIST, type OperationGroup } from '../../board/operations/operations.js';
import { SERVICE_INFO } from '../../host/operator/service-info.js';
import { ERROR_STATUSES, errorDescription, FAILURE } from './openapi-errors.js';

type Schema = Record<string, unknown>;
const json = (schema: z.ZodType, io: 'input' | 'output' = 'output') => toJsonSchema(schema, io);

const PublicImage = StoredImage.omit({ blob: true }).extend({ dataUrl: z.string().nullable() });
const TextNode = z.union([StoredText, StoredLink]);
const DrawContent = { texts: z.array(TextNode), lines: z.array(StoredStroke), images: z.array(PublicImage) };
const TodoContent = {
  colWidth: z.number().optional(),
  columns: z.array(StoredColumn).optional(),
  tasks: z.array(StoredTask).optional(),
  lanes: z.array(StoredLane.omit({ last_updated: true })).optional(),
};
const JsonSnapshot = z.object({
  boardId: z.string(),
  mode: z.enum(['draw', 'todo']),
  title: StoredTitle.optional(),
  etag: z.string(),
  ...DrawContent,
  ...TodoContent,
});
const BrowserSnapshot = z.union([
  z.object(DrawContent),
  z.object({ deleted: z.literal(true), deleted_at: z.string() }),
]);
const Created = z.object({
  id: z.string(),
  mode: z.enum(['draw', 'todo']),
  access_key: z.string().optional(),
  imported: z.record(z.string(), z.number().int()).optional(),
  ids: z.record(z.string(), z.array(z.string())).optional(),
});
// The history answers are the same on REST and MCP: one schema, from schema/mcp-output.ts.
const versionQuery = (description: string) => ({ type: 'integer', minimum: 1, description });

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

type Operation = {
  summary: string;
  tag: string;
  body?: z.ZodType;
  query?: Record<string, Schema & { description: string }>;
  ok: { status?: number; description: string; schema?: Schema; contentType?: string; headers?: Record<string, Schema> };
  errors: number[];
  /** Whether a board's lock may apply, so X-Board-Key opens it (default: the path names a board). */
  locked?: boolean;
  /** The JSON channel takes the key as a WebSocket subprotocol instead of X-Board-Key. */
  keyAsSubprotocol?: boolean;
  token?: boolean;
  description?: string;
};

const BOARD_ERRORS = [400, 401, 404, 429];
const WRITE_ERRORS = [400, 401, 404, 413, 415, 429];

const PATH_PARAMS: Record<string, string> = {
  boardId: 'the board id (a UUID)',
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
  if (method !== 'get' && path.startsWith('/api/boards') && !path.endsWith('/verify-key')) {
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

const etagHeader = { ETag: { type: 'string' } };
const boardPath = '/api/boards/{boardId}';

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
function operationRoutes(): [string, string, Operation][] {
  return OPERATION_LIST.flatMap((row) =>
    row.rest.map((route): [string, string, Operation] => [
      `${boardPath}${route.path.replace(/:(\w+)/g, '{$1}')}`,
      route.method.toLowerCase(),
      {
        tag: TAG_OF_GROUP[row.group],
        summary: route.summary,
        body: route.body,
        ...(route.query && { query: queryParameters(route.query) }),
        ok: { description: route.answer, schema: json(route.answers ?? row.result) },
        // A body can be too large or not JSON; a DELETE has none.
        errors: route.body ? WRITE_ERRORS : BOARD_ERRORS,
      },
    ]),
  );
}

/** [path, method, operation] for every HTTP route. */
const ROUTES: [string, string, Operation][] = [
  [
    '/api/boards',
    'post',
    {
      tag: 'boards',
      summary: 'Create a board (optionally importing content, optionally locked)',
      body: CreateBoardInput,
      token: true,
      ok: {
        description: 'the new board; `imported` and `ids` when content was given; `access_key` once when locked',
        schema: json(Created),
      },
      errors: [400, 403, 413, 415, 429],
    },
  ],
  [
    '/todo',
    'get',
    {
      tag: 'boards',
      summary: 'Create a todo board and redirect to it',
      query: {
        template: {
          type: 'string',
          enum: [...TEMPLATES],
          description: 'starter columns (none: no columns; unknown values fall back to kanban)',
        },
      },
      ok: { status: 302, description: 'Location: {base_url}/#<boardId>', headers: { Location: { type: 'string' } } },
      errors: [429],
    },
  ],
  [
    '/draw',
    'get',
    {
      tag: 'boards',
      summary: 'Create a draw board and redirect to it',
      query: {
        seed: {
          type: 'string',
          enum: ['mermaid-flowchart', 'mermaid-mindmap'],
          description: 'an example diagram (unknown values give a blank board)',
        },
      },
      ok: { status: 302, description: 'Location: {base_url}/#<boardId>', headers: { Location: { type: 'string' } } },
      errors: [429],
    },
  ],
  [
    boardPath,
    'get',
    {
      tag: 'boards',
      summary: `Browser snapshot {texts, lines, images} with image payloads, or the deleted marker for ${TOMBSTONE_RETENTION_DAYS} days`,
      ok: { description: 'snapshot', schema: json(BrowserSnapshot) },
      errors: BOARD_ERRORS,
    },
  ],
  [
    `${boardPath}/meta`,
    'get',
    {
      tag: 'boards',
      summary: 'Mode, title and lock of a board (what a client needs before it opens one)',
      ok: {
        description: 'meta; `title` only when the board has one',
        schema: json(
          z.object({
            boardId: z.string(),
            mode: z.enum(['draw', 'todo']),
            title: StoredTitle.optional(),
            lockMode: z.enum(['write', 'all']).nullable(),
            createdAt: z.string(),
          }),
        ),
      },
      errors: [401, 404, 429],
    },
  ],
  [
    `${boardPath}/images/{itemId}`,
    'get',
    {
      tag: 'boards',
      summary: "An image's payload as a file (the snapshots elide it or inline it as a data URL)",
      ok: {
        description:
          'the image bytes as uploaded (304 when If-None-Match matches); an SVG comes as an attachment, other images inline, each under a sandboxed Content-Security-Policy of its own',
        schema: { type: 'string', format: 'binary' },
        contentType: 'image/*',
        headers: { ...etagHeader, 'Content-Disposition': { type: 'string' } },
      },
      errors: [401, 404, 429],
    },
  ],
  [
    boardPath,
    'delete',
    {
      tag: 'boards',
      summary: 'Erase a board (tombstone)',
      ok: { description: 'erased', schema: json(z.object({ ok: z.literal(true) })) },
      errors: BOARD_ERRORS,
    },
  ],
  [
    `${boardPath}/wait`,
    'get',
    {
      tag: 'boards',
      summary: 'Long poll until the next settled burst of edits, or timeout',
      query: {
        timeout_ms: {
          type: 'integer',
          minimum: WAIT_MIN_TIMEOUT_MS,
          maximum: WAIT_MAX_TIMEOUT_MS,
          default: WAIT_DEFAULT_TIMEOUT_MS,
          description: `clamped to ${WAIT_MIN_TIMEOUT_MS}..${WAIT_MAX_TIMEOUT_MS}`,
        },
        since_etag: {
          type: 'string',
          description: 'an ETag the caller saw: answers at once when the board has moved past it',
        },
      },
      ok: { description: 'what happened', schema: json(WaitForUpdateResult) },
      errors: BOARD_ERRORS,
    },
  ],
  [
    `${boardPath}/versions`,
    'get',
    {
      tag: 'history',
      summary: 'Versions newest first, paged',
      query: {
        before: versionQuery('a version (exclusive): the `next` of the previous page'),
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: HISTORY_PAGE_MAX,
          default: HISTORY_PAGE_DEFAULT,
          description: 'versions per page',
        },
      },
      ok: { description: '{boardId, versions, next}', schema: json(ListVersionsResult) },
      errors: BOARD_ERRORS,
    },
  ],
  [
    `${boardPath}/versions/{version}`,
    'get',
    {
      tag: 'history',
      summary: 'The JSON snapshot of the board at a version, plus `version` and `at`; immutable',
      ok: {
        description: 'snapshot (304 when If-None-Match matches; Cache-Control immutable)',
        schema: json(JsonSnapshot.extend({ version: z.number().int(), at: z.string() })),
        headers: etagHeader,
      },
      errors: BOARD_ERRORS,
    },
  ],
  [
    `${boardPath}/versions/{version}/svg-preview`,
    'get',
    {
      tag: 'history',
      summary: 'The schematic SVG preview of the board at a version; immutable',
      ok: { description: 'SVG', schema: { type: 'string' }, contentType: 'image/svg+xml', headers: etagHeader },
      errors: BOARD_ERRORS,
    },
  ],
  [
    `${boardPath}/versions/{version}/restore`,
    'post',
    {
      tag: 'history',
      summary: 'Make the board equal to a version (one change by the caller; the state before is kept as a version)',
      body: RestoreBody,
      ok: { description: 'the version the restore made', schema: json(RestoreVersionResult) },
      errors: BOARD_ERRORS,
    },
  ],
  [
    `${boardPath}/changes`,
    'get',
    {
      tag: 'history',
      summary: 'Items added, updated and removed since a version or an ETag',
      description:
        'Give exactly one of `since` and `since_etag`: any ETag a read gave is a starting point (`from` is null when it is no version). 410 `history_gone` when the starting point was thinned: read /json/{boardId} again. The whole list by default; with `limit`, pages of at most that many items and `next_cursor`, which `cursor` takes (it carries the starting point).',
      query: {
        since: versionQuery('a version'),
        since_etag: { type: 'string', description: 'an ETag the caller saw (from /json, wait or an op frame)' },
        cursor: { type: 'string', description: 'the next_cursor of the previous page' },
        limit: { type: 'integer', minimum: 1, maximum: MAX_PAGE_ITEMS, description: 'items per page' },
      },
      ok: { description: 'the changes', schema: json(GetChangesResult) },
      errors: [...BOARD_ERRORS, 410],
    },
  ],
  [
    '/json/{boardId}',
    'get',
    {
      tag: 'snapshots',
      summary: 'JSON snapshot (image payloads elided), ETag-aware',
      ok: { description: 'snapshot (304 when If-None-Match matches)', schema: json(JsonSnapshot), headers: etagHeader },
      errors: [401, 404, 429],
    },
  ],
  [
    '/json/{boardId}',
    'head',
    {
      tag: 'snapshots',
      summary: 'Headers of the JSON snapshot (ETag)',
      ok: { description: 'headers only', headers: etagHeader },
      errors: [401, 404, 429],
    },
  ],
  [
    '/json',
    'get',
    {
      tag: 'snapshots',
      summary: 'JSON snapshot of the board a URL or id names',
      query: {
        board: { type: 'string', description: 'a board URL ({base_url}/#<id>, ?embed=1#<id>, /json/<id>) or id' },
      },
      locked: true,
      ok: { description: 'snapshot', schema: json(JsonSnapshot), headers: etagHeader },
      errors: [401, 404, 429],
    },
  ],
  [
    '/svg-preview/{boardId}',
    'get',
    {
      tag: 'snapshots',
      summary: 'Schematic SVG preview, ETag-aware',
      ok: {
        description: 'SVG (304 when If-None-Match matches)',
        schema: { type: 'string' },
        contentType: 'image/svg+xml',
        headers: etagHeader,
      },
      errors: [401, 404, 429],
    },
  ],
  [
    `${boardPath}/tasks.csv`,
    'get',
    {
      tag: 'exports',
      summary: 'Tasks as CSV (RFC 4180; header only on draw boards)',
      query: { download: { type: 'string', enum: ['1'], description: '1 makes it an attachment' } },
      ok: {
        description: 'lane,column,name,priority,assignee,due_date,done,description',
        schema: { type: 'string' },
        contentType: 'text/csv',
      },
      errors: [401, 404, 429],
    },
  ],
  [
    `${boardPath}/tasks.md`,
    'get',
    {
      tag: 'exports',
      summary: 'Tasks as a Markdown checklist grouped by column',
      query: { download: { type: 'string', enum: ['1'], description: '1 makes it an attachment' } },
      ok: { description: 'Markdown', schema: { type: 'string' }, contentType: 'text/markdown' },
      errors: [401, 404, 429],
    },
  ],
  ...operationRoutes(),
  [
    `${boardPath}/lock`,
    'post',
    {
      tag: 'locks',
      summary: 'Lock a board (key returned once) or change the mode of its lock',
      body: LockInput,
      ok: {
        description: '{mode, key?}',
        schema: json(z.object({ mode: z.enum(['write', 'all']), key: z.string().optional() })),
      },
      errors: [400, 401, 403, 404, 409, 413, 415, 429],
    },
  ],
  [
    `${boardPath}/unlock`,
    'post',
    {
      tag: 'locks',
      summary: 'Unlock a board with its key',
      ok: { description: 'unlocked', schema: json(z.object({ mode: z.null() })) },
      errors: [403, 404, 409, 429],
    },
  ],
  [
    `${boardPath}/verify-key`,
    'post',
    {
      tag: 'locks',
      summary: 'Check a key; changes nothing',
      body: VerifyKeyInput,
      locked: false,
      ok: { description: '{ok}', schema: json(z.object({ ok: z.boolean() })) },
      errors: [400, 404, 413, 415, 429],
    },
  ],
  [
    '/mcp',
    'post',
    {
      tag: 'mcp',
      summary:
        'MCP JSON-RPC 2.0 (Streamable HTTP): 2026-07-28 stateless (a _meta envelope on every request), or a 2025 session (initialize returns Mcp-Session-Id)',
      description:
        "See /.well-known/mcp.json and docs/mcp.md. A model passes a locked board's key as the `access_key` tool argument; a client program may send X-Board-Key instead (a 2026-07-28 subscriptions/listen on a locked board needs it).",
      locked: true,
      token: true,
      ok: {
        description: 'a JSON-RPC response, or an event stream for subscriptions/listen',
        schema: { type: 'object' },
        headers: { 'Mcp-Session-Id': { type: 'string' } },
      },
      errors: [400, 403, 404, 413],
    },
  ],
  [
    '/mcp',
    'get',
    {
      tag: 'mcp',
      summary: 'A 2025 session notification stream (Accept: text/event-stream, Mcp-Session-Id)',
      ok: { description: 'server-sent events', schema: { type: 'string' }, contentType: 'text/event-stream' },
      errors: [403, 404, 405],
    },
  ],
  [
    '/mcp',
    'delete',
    { tag: 'mcp', summary: 'End a 2025 MCP session', ok: { description: 'ended' }, errors: [403, 404, 405] },
  ],
  [
    '/mcp/icons/{name}',
    'get',
    {
      tag: 'mcp',
      summary: 'The icons of the MCP server and its tools (board, draw, todo, history .svg)',
      ok: { description: 'an SVG icon', schema: { type: 'string' }, contentType: 'image/svg+xml' },
      errors: [404],
    },
  ],
  [
    '/collab',
    'get',
    {
      tag: 'realtime',
      summary: 'WebSocket: Yjs sync (Hocuspocus); document name = board id, token = access key',
      description:
        'See docs/realtime.md. The key travels inside the Yjs protocol (the token), so no HTTP scheme describes it: a refused token closes the socket (4401).',
      ok: { status: 101, description: 'switching protocols' },
      errors: [404, 429],
    },
  ],
  [
    '/ws/{boardId}',
    'get',
    {
      tag: 'realtime',
      summary: 'WebSocket: the JSON frame channel; key as subprotocol svc-key.<key>',
      description: 'See docs/realtime.md.',
      keyAsSubprotocol: true,
      ok: { status: 101, description: 'switching protocols' },
      errors: [401, 404, 429],
    },
  ],
  [
    '/quotas.json',
    'get',
    {
      tag: 'discovery',
      summary: 'Every limit, machine-readable',
      ok: { description: 'limits', schema: { type: 'object' } },
      errors: [],
    },
  ],
  [
    '/llms.txt',
    'get',
    {
      tag: 'discovery',
      summary: 'A guide for language models (llmstxt.org format)',
      ok: { description: 'Markdown', schema: { type: 'string' }, contentType: 'text/plain' },
      errors: [],
    },
  ],
  [
    '/.well-known/mcp.json',
    'get',
    {
      tag: 'discovery',
      summary: 'MCP server card',
      ok: { description: 'server card', schema: { type: 'object' } },
      errors: [],
    },
  ],
  [
    '/.well-known/mcp/server-card',
    'get',
    {
      tag: 'discovery',
      summary: 'MCP server card (same document)',
      ok: { description: 'server card', schema: { type: 'object' } },
      errors: [],
    },
  ],
  [
    '/healthz',
    'get',
    {
      tag: 'discovery',
      summary: 'Liveness: 200 {status: "ok"} while the process serves HTTP (load figures are on /metrics)',
      ok: { description: '{status: "ok"}', schema: { type: 'object' } },
      errors: [],
    },
  ],
  [
    '/readyz',
    'get',
    {
      tag: 'discovery',
      summary:
        'Readiness: 200 {status: "ready"} when the store answers and the instance is not draining; 200 {status: "ready", degraded: ["redis"]} while it serves without Redis (shared setup)',
      description:
        'Otherwise 503 {status: "not_ready", code: "not_ready", reasons: [...]} (reasons: draining, store_unavailable), with `degraded` too when Redis is away. /healthz is liveness. See docs/operations.md.',
      ok: { description: '{status: "ready"}, or {status: "ready", degraded: ["redis"]}', schema: { type: 'object' } },
      errors: [],
    },
  ],
  [
    '/metrics',
    'get',
    {
      tag: 'discovery',
      summary:
        'Prometheus metrics for operators (text exposition format); described only when served on this port (not METRICS_PORT)',
      description:
        'No CORS header. With METRICS_TOKEN set, send Authorization: Bearer <token> (401 `metrics_unauthorized` otherwise). See docs/operations.md.',
      ok: { description: 'Prometheus text format 0.0.4', schema: { type: 'string' }, contentType: 'text/plain' },
      errors: [],
    },
  ],
  [
    '/openapi.json',
    'get',
    {
      tag: 'discovery',
      summary: 'This document',
      ok: { description: 'OpenAPI 3.1.0', schema: { type: 'object' } },
      errors: [],
    },
  ],
  [
    '/docs',
    'get',
    {
      tag: 'discovery',
      summary: 'This document as a readable page (Redoc, served from here)',
      ok: { description: 'HTML', schema: { type: 'string' }, contentType: 'text/html' },
      errors: [],
    },
  ],
  [
    '/docs/redoc.standalone.js',
    'get',
    {
      tag: 'discovery',
      summary: 'The Redoc script the /docs page loads',
      ok: { description: 'JavaScript', schema: { type: 'string' }, contentType: 'text/javascript' },
      errors: [],
    },
  ],
  [
    '/',
    'get',
    {
      tag: 'app',
      summary: 'The browser app; a board is at /#<boardId>, read-only embeds at /?embed=1#<boardId>',
      ok: { description: 'HTML', schema: { type: 'string' }, contentType: 'text/html' },
      errors: [],
    },
  ],
];

/** The groups of operations, in the order a reader meets them. */
const TAGS: Record<string, string> = {
  boards: 'Create, read, title and erase boards; long-poll for edits',
  snapshots: 'Read a whole board as JSON or as a schematic SVG',
  history: 'Versions of a board, what changed since one, and restoring one',
  exports: 'The tasks of a todo board as CSV or Markdown',
  draw: 'Texts, strokes, images and links on a draw board',
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
