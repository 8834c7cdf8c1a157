/**
 * Hostile input on every surface, property-based with fast-check (fixed seed:
 * a failure prints its counterexample and path, and a re-run replays it).
 * Every REST route comes from Fastify's route table, every MCP tool from
 * tools/list, every frame type from MUTATION_FRAME_TYPES, so none is missed.
 *
 * Invariants: never a 5xx, an MCP -32603 or an `internal_error` frame; the
 * server keeps answering GET /quotas.json; a rejected request leaves every
 * board as it was (same ETag from GET /json/{id}); nothing pollutes
 * Object.prototype. Raw Yjs messages never crash the server nor leave a
 * document that /json or other clients see differently.
 */

import http from 'node:http';
import fc from 'fast-check';
import * as encoding from 'lib0/encoding';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { messageYjsSyncStep2, messageYjsUpdate } from 'y-protocols/sync';
import * as Y from 'yjs';
import { boardMaps } from '../board/model/document-model.js';
import { MUTATION_FRAME_TYPES } from '../board/operations/operations.js';
import { MAX_COLLAB_MESSAGE_BYTES, MAX_WS_FRAME_BYTES, StoredLink, StoredStroke, StoredText } from '../schema/index.js';
import {
  hostileContentType,
  hostileHeaderValue,
  hostileJsonText,
  hostileScalar,
  hostileSegment,
  hostileValue,
  invalidUtf8Body,
  mutated,
  objectOf,
  resolveTokens,
} from './helpers/hostile.js';
import { client, PNG_1PX } from './helpers/http.js';
import { connectRawMcp, type RawMcp, type RpcAnswer } from './helpers/mcp-raw.js';
import { connectJson, connectYjs, eventually, type JsonClient, openJson, type YjsClient } from './helpers/realtime.js';
import { startServer, useServer } from './helpers/server.js';
import { framed, openRawCollab, syncMessage } from './helpers/yjs-raw.js';

const t = useServer();

/** One seed for the whole file: the same inputs on every run, so a failure reproduces. */
const SEED = 0x5eed_b0a7;
const runs = (numRuns: number) => ({ seed: SEED, numRuns });
const LONG_TEST_MS = 120_000;

// ---------------------------------------------------------------------------
// Fixtures: three boards whose ids, items and key the arbitraries name as tokens.

type Fixtures = { tokens: Record<string, string>; boards: { id: string; key?: string }[] };
let fx: Fixtures;

async function buildFixtures(): Promise<Fixtures> {
  const draw = await t.api.post('/api/boards', {
    mode: 'draw',
    content: {
      texts: [
        { x: 0, y: 0, content: 'text' },
        { kind: 'link', x: 0, y: 60, url: 'https://a.test/' },
      ],
      lines: [{ points: [0, 0, 20, 20] }],
      images: [{ x: 40, y: 40, width: 4, height: 4, dataUrl: PNG_1PX }],
    },
  });
  const todo = await t.api.post('/api/boards', {
    mode: 'todo',
    content: { columns: [{ title: 'A' }, { title: 'B' }], tasks: [{ columnIndex: 0, name: 'task' }] },
  });
  const locked = await t.api.post('/api/boards', {
    mode: 'draw',
    lock: 'all',
    content: { texts: [{ x: 0, y: 0, content: 'locked' }] },
  });
  for (const res of [draw, todo, locked]) expect(res.status).toBe(200);
  const tokens = {
    $draw: draw.body.id,
    $DRAW: draw.body.id.toUpperCase(),
    $todo: todo.body.id,
    $locked: locked.body.id,
    $key: locked.body.access_key,
    $text: draw.body.ids.texts[0],
    $link: draw.body.ids.texts[1],
    $stroke: draw.body.ids.lines[0],
    $image: draw.body.ids.images[0],
    $column: todo.body.ids.columns[0],
    $column2: todo.body.ids.columns[1],
    $task: todo.body.ids.tasks[0],
  };
  return {
    tokens,
    boards: [{ id: draw.body.id }, { id: todo.body.id }, { id: locked.body.id, key: locked.body.access_key }],
  };
}

/** Substitutes `$token`s inside a string (paths, query strings, header values). */
const inString = (text: string) => text.replace(/\$[A-Za-z]\w*/g, (token) => fx.tokens[token] ?? token);

/** ETags of the fixture boards from GET /json, or null when one no longer answers 200 (erased, locked anew). */
async function etags(): Promise<string[] | null> {
  const answers = await Promise.all(
    fx.boards.map(({ id, key }) => t.api.get(`/json/${id}`, key ? { 'x-board-key': key } : {})),
  );
  if (answers.some((res) => res.status !== 200)) return null;
  return answers.map((res) => res.headers.get('etag')!);
}

/** The ETags before a request; fixtures an earlier accepted request broke (erase, lock) are rebuilt first. */
async function etagsBefore(): Promise<string[]> {
  const found = await etags();
  if (found) return found;
  fx = await buildFixtures();
  return (await etags())!;
}

const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype).sort();

/** After every run: the server answers, and nothing was written onto Object.prototype of this (the server's) process. */
async function expectHealthy(): Promise<void> {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_NAMES);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  const health = await t.api.get('/quotas.json');
  expect(health.status).toBe(200);
}

// ---------------------------------------------------------------------------
// REST

/** Valid bodies per route, which the arbitraries then mutate; a route without one gets random JSON. */
const BODY_TEMPLATES: Record<string, Record<string, unknown>> = {
  'POST /api/boards': {
    mode: 'draw',
    template: 'kanban',
    content: {
      texts: [{ x: 0, y: 0, content: 'imported', sourceId: 's' }],
      lines: [{ points: [0, 0, 1, 1], anchors: { start: { kind: 'text', id: 's', dx: 0, dy: 0 } } }],
    },
    autolayout: false,
    author: 'ai:fuzz',
  },
  'POST /api/boards/:boardId/texts': {
    id: '$text',
    x: 10,
    y: 10,
    content: 'hello',
    color: 'red',
    width: 200,
    postit: true,
    author: 'ai:fuzz',
  },
  'POST /api/boards/:boardId/strokes': {
    id: '$stroke',
    points: [
      [0, 0],
      [10, 10],
    ],
    color: 'blue',
    anchors: { start: { kind: 'text', id: '$text', dx: 0, dy: 0 } },
  },
  'POST /api/boards/:boardId/lines': { points: '[0,0,5,5]', color: 'RED' },
  'POST /api/boards/:boardId/images': {
    id: '$image',
    x: 1,
    y: 1,
    width: 5,
    height: 5,
    dataUrl: PNG_1PX,
    thumbDataUrl: PNG_1PX,
  },
  'POST /api/boards/:boardId/links': { id: '$link', x: 1, y: 1, url: 'https://example.test/a' },
  'POST /api/boards/:boardId/:kind/:itemId/move': { x: 1, y: 2 },
  'POST /api/boards/:boardId/mode': { mode: 'todo', template: 'sprint' },
  'POST /api/boards/:boardId/column-width': { width: 300 },
  'POST /api/boards/:boardId/title': { title: 'Named' },
  'POST /api/boards/:boardId/lanes': { lane: 1, title: 'Row', author: 'ai:fuzz' },
  'POST /api/boards/:boardId/columns': { id: '$column', title: 'Col', sort: 1, lane: 0, color: 'red' },
  'POST /api/boards/:boardId/tasks': {
    id: '$task',
    column_id: '$column',
    name: 'Task',
    description: 'd',
    due_date: '2026-01-01',
    priority: 'h',
    assignee: 'me',
    sort: 0,
    done: false,
    color: 'blue',
    content: '{"boards":[]}',
  },
  'POST /api/boards/:boardId/tasks/:itemId/move': { column_id: '$column2', sort: 2 },
  'POST /api/boards/:boardId/lock': { mode: 'write' },
  'POST /api/boards/:boardId/verify-key': { key: '$key' },
  'POST /mcp': {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
  },
};

type Body = { json: unknown } | { text: string } | { bytes: Uint8Array } | undefined;
type Plan = {
  params: Record<string, string>;
  query: string;
  headers: { contentType?: string; key?: string; importToken?: string; ifNoneMatch?: string; accept?: string };
  body: Body;
};

const boardIdArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('$draw', '$todo', '$locked', '$DRAW') },
  { weight: 3, arbitrary: hostileSegment },
);
const itemIdArb = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom('$text', '$link', '$stroke', '$image', '$column', '$task') },
  { weight: 3, arbitrary: hostileSegment },
);
const kindArb = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom('texts', 'links', 'strokes', 'lines', 'images') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'columns',
      'tasks',
      'lanes',
      'meta',
      '__proto__',
      'constructor',
      'hasOwnProperty',
      'TEXTS',
    ),
  },
  { weight: 2, arbitrary: hostileSegment },
);
/** A version of a history path: some that exist (the fixtures' first settled burst), then hostile ones. */
const versionArb = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom('1', '2', '0', '-1', '1.5', '1e3', '0x1', '99999999999999999999') },
  { weight: 3, arbitrary: hostileSegment },
);
/** Names the routes read (often repeated within one query, which makes an array of the value), and random ones. */
const queryName = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'timeout_ms',
      'board',
      'download',
      'template',
      'seed',
      'key',
      'client',
      'access_key',
      '__proto__',
      'constructor',
    ),
  },
  { weight: 2, arbitrary: fc.constantFrom('since', 'since_etag', 'before', 'limit') },
  { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
);
const queryValue = fc.oneof(
  fc.constantFrom(
    '$draw',
    '$key',
    '1',
    '0',
    '-1',
    '1e999',
    'NaN',
    '55001',
    '999',
    'sprint',
    'mermaid-mindmap',
    'toString',
    '1.5',
    '99999999999999999999',
    '101',
    '"abc"',
    'W/"abc"',
  ),
  fc.string({ unit: 'binary', maxLength: 20 }),
);
const queryArb = fc.oneof(
  { weight: 3, arbitrary: fc.constant('') },
  {
    weight: 3,
    arbitrary: fc
      .array(fc.tuple(queryName, queryValue, fc.boolean()), { minLength: 1, maxLength: 6 })
      .map(
        (pairs) =>
          '?' +
          pairs
            .map(([name, value, encode]) =>
              encode ? `${encodeURIComponent(name)}=${encodeURIComponent(value)}` : `${name}=${value}`,
            )
            .join('&'),
      ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '?',
      '?%',
      '?a=%zz',
      '?&&&',
      '?key=a&key=b',
      '?key=$key&key=$key',
      '?board=$draw&board=$todo',
      '?board=$draw',
      '?board=%E2%80%AE$draw',
      '?timeout_ms=1e999',
      '?timeout_ms=NaN',
      '?timeout_ms=-1',
      '?timeout_ms=Infinity',
      '?timeout_ms=0x10',
      '?timeout_ms=1000&timeout_ms=2000',
      '?download=1',
      '?download=1&download=1',
      '?template=__proto__',
      '?seed=constructor',
      '?seed=mermaid-flowchart',
      '?template=sprint',
      '?client=__proto__',
      '?%6Bey=$key',
      '?__proto__[x]=1',
      '?constructor[prototype][x]=1',
      '?since=1',
      '?since=1&since_etag=%22x%22',
      '?since=1&since=2',
      '?since_etag=',
      '?limit=101',
      '?limit=0',
      '?before=-1',
      '?before=1&limit=1',
    ),
  },
);
const rarely = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 8, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });
const headersArb = fc.record({
  contentType: hostileContentType,
  key: fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    { weight: 2, arbitrary: fc.constantFrom('$key', 'zzzzzzzz') },
    { weight: 1, arbitrary: hostileHeaderValue },
  ),
  importToken: rarely(hostileHeaderValue),
  ifNoneMatch: rarely(fc.oneof(fc.constant('*'), hostileHeaderValue)),
  accept: rarely(
    fc.constantFrom('application/json', 'text/event-stream', '*/*', 'text/html', 'application/json, text/event-stream'),
  ),
});

function bodyArb(template: Record<string, unknown> | undefined): fc.Arbitrary<Body> {
  const prefix = `${template ? `${JSON.stringify(template).slice(0, -1)},` : '{'}"zz":"`;
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant<Body>(undefined) },
    { weight: 6, arbitrary: (template ? mutated(template) : hostileValue).map<Body>((json) => ({ json })) },
    { weight: 2, arbitrary: hostileValue.map<Body>((json) => ({ json })) },
    { weight: 2, arbitrary: hostileJsonText.map<Body>((text) => ({ text })) },
    { weight: 1, arbitrary: invalidUtf8Body(prefix).map<Body>((bytes) => ({ bytes })) },
  );
}

function planArb(method: string, url: string): fc.Arbitrary<Plan> {
  const withBody = !['GET', 'HEAD'].includes(method);
  return fc.record({
    params: fc.record({
      boardId: boardIdArb,
      itemId: itemIdArb,
      kind: kindArb,
      version: versionArb,
      wildcard: fc.array(hostileSegment, { maxLength: 3 }).map((s) => s.join('/')),
    }),
    query: queryArb,
    headers: headersArb,
    body: withBody ? bodyArb(BODY_TEMPLATES[`${method} ${url}`]) : fc.constant<Body>(undefined),
  });
}

/**
 * The same routes aimed at the credential channels: a real board (locked or
 * not), a valid body, and the key in every shape a client could send it (in
 * the header, as `?key=` once, twice or percent-encoded, empty, hostile).
 */
function credentialPlanArb(method: string, url: string): fc.Arbitrary<Plan> {
  const template = BODY_TEMPLATES[`${method} ${url}`];
  const keyValue = fc.oneof(
    fc.constantFrom('$key', 'zzzzzzzz', '', '%00', '$key%00', 'abc123'),
    hostileHeaderValue.map(encodeURIComponent),
  );
  const keyQuery = fc.oneof(
    fc.constant(''),
    fc
      .array(
        fc.tuple(fc.constantFrom('key', 'key', 'KEY', '%6Bey', 'key[]', 'access_key', 'token', 'client'), keyValue),
        { minLength: 1, maxLength: 3 },
      )
      .map((pairs) => `?${pairs.map(([name, value]) => `${name}=${value}`).join('&')}`),
  );
  return fc.record({
    params: fc.record({
      boardId: fc.constantFrom('$locked', '$locked', '$draw', '$todo'),
      itemId: itemIdArb,
      kind: fc.constantFrom('texts', 'links', 'strokes', 'lines', 'images'),
      version: fc.constant('1'),
      wildcard: fc.constant(''),
    }),
    query: keyQuery,
    headers: fc.record({
      contentType: fc.constant('application/json'),
      key: fc.oneof(
        fc.constant(undefined),
        keyValue.map(decodeURIComponent).filter((value) => /^[\x20-\x7e]*$/.test(value)),
      ),
      importToken: fc.constant(undefined),
      ifNoneMatch: fc.constant(undefined),
      accept: fc.constant(undefined),
    }),
    body:
      template && !['GET', 'HEAD'].includes(method)
        ? fc.constant<Body>({ json: template })
        : fc.constant<Body>(undefined),
  });
}

/** The concrete path of a route pattern: `:param`s filled, `*` expanded. */
function pathOf(url: string, params: Record<string, string>): string {
  const path =
    url === '*'
      ? `/${params.wildcard}`
      : url.replace('*', params.wildcard).replace(/:(\w+)/g, (_m, name: string) => params[name] ?? params.itemId);
  return inString(path);
}

function bodyBytes(body: Body): string | Uint8Array<ArrayBuffer> | undefined {
  if (!body) return undefined;
  if ('json' in body) return JSON.stringify(resolveTokens(body.json, fx.tokens)) ?? 'null';
  if ('text' in body) return inString(body.text);
  return new Uint8Array(body.bytes);
}

/** Long polls answer only after a settled edit burst or their timeout: they are cut short, and that is no failure. */
const isLongPoll = (url: string) => url.endsWith('/wait');

function parsedOrUndefined(text: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

async function sendPlan(
  method: string,
  url: string,
  plan: Plan,
): Promise<{ status: number; text: string } | 'cut short'> {
  const headers: Record<string, string> = {};
  const h = plan.headers;
  if (h.contentType !== undefined) headers['content-type'] = h.contentType;
  if (h.key !== undefined) headers['x-board-key'] = inString(h.key);
  if (h.importToken !== undefined) headers['x-import-token'] = h.importToken;
  if (h.ifNoneMatch !== undefined) headers['if-none-match'] = h.ifNoneMatch;
  if (h.accept !== undefined) headers.accept = h.accept;
  const target = `${t.server.url}${pathOf(url, plan.params)}${inString(plan.query)}`;
  try {
    const response = await fetch(target, {
      method,
      headers,
      body: bodyBytes(plan.body),
      redirect: 'manual',
      signal: AbortSignal.timeout(isLongPoll(url) ? 200 : 15_000),
    });
    return { status: response.status, text: await response.text() };
  } catch (error) {
    if (isLongPoll(url) && (error as Error).name === 'TimeoutError') return 'cut short';
    throw new Error(
      `${method} ${target} failed on the client side: ${(error as Error).message} (${String((error as { cause?: unknown }).cause)})`,
    );
  }
}

/** Accepted requests to these routes change locks or erase boards: the fixtures are rebuilt after them. */
const CHANGES_FIXTURES = /\/(lock|unlock|mode)$|^DELETE \/api\/boards\/:boardId$/;

describe('REST: every route of the route table, hostile params, queries, headers and bodies', () => {
  beforeAll(async () => {
    fx = await buildFixtures();
  });

  it(
    'never answers 5xx; errors are JSON {error, code}; a rejected request changes no board',
    async () => {
      const routes = t.server.server.routes;
      expect(routes.length).toBeGreaterThan(40);
      for (const { method, url } of routes) {
        const numRuns = isLongPoll(url) ? 8 : 50;
        const plans = fc.oneof(
          { weight: 3, arbitrary: planArb(method, url) },
          { weight: 2, arbitrary: credentialPlanArb(method, url) },
        );
        await fc.assert(
          fc.asyncProperty(plans, async (plan) => {
            const before = await etagsBefore();
            const answer = await sendPlan(method, url, plan);
            const label = `${method} ${url}`;
            if (answer !== 'cut short') {
              expect(answer.status, `${label} answered ${answer.status}: ${answer.text.slice(0, 300)}`).toBeLessThan(
                500,
              );
              if (answer.status >= 400 && method !== 'HEAD' && url !== '/mcp' && answer.text !== '') {
                const body = parsedOrUndefined(answer.text);
                expect(typeof body?.code, `${label}: error body ${answer.text.slice(0, 200)}`).toBe('string');
                expect(typeof body?.error, `${label}: error body ${answer.text.slice(0, 200)}`).toBe('string');
              }
            }
            if (answer === 'cut short' || answer.status >= 400)
              expect(await etags(), `${label} was refused but changed a board`).toEqual(before);
            else if (CHANGES_FIXTURES.test(label) || CHANGES_FIXTURES.test(url)) fx = await buildFixtures();
            await expectHealthy();
          }),
          runs(numRuns),
        );
      }
    },
    LONG_TEST_MS,
  );
});

describe('REST: plain requests to the WebSocket routes', () => {
  it('take no WebSocket slot, however many share one keep-alive connection', async () => {
    const server = await startServer({ MAX_SOCKETS_PER_IP: '2' });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const board = (await client(server.url).post('/api/boards')).body.id;
      const get = (path: string) =>
        new Promise<number>((resolve, reject) => {
          http
            .get(`${server.url}${path}`, { agent }, (res) => res.resume().on('end', () => resolve(res.statusCode!)))
            .on('error', reject);
        });
      for (let i = 0; i < 3; i++) {
        expect(await get('/collab')).toBeLessThan(500);
        expect(await get(`/ws/${board}`)).toBeLessThan(500);
      }
      const socket = await connectJson(server.url, board);
      expect(await socket.next((f) => f.type === 'hello')).toMatchObject({ boardId: board });
      socket.close();
    } finally {
      agent.destroy();
      await server.close();
    }
  });
});

// ---------------------------------------------------------------------------
// MCP

/** Valid arguments per tool, which the arbitraries mutate; a tool without one gets a board id and random fields. */
const TOOL_TEMPLATES: Record<string, Record<string, unknown>> = {
  create_board: {
    mode: 'todo',
    template: 'bugs',
    content: { columns: [{ title: 'c' }], tasks: [{ columnIndex: 0, name: 't' }] },
    author: 'ai:fuzz',
  },
  open_board: { board: 'http://x.test/#$draw', access_key: '$key' },
  get_board: { board_id: '$draw' },
  get_preview: { board_id: '$locked', access_key: '$key' },
  add_text: { board_id: '$draw', id: '$text', x: 1, y: 2, content: 'c', postit: true, color: 'red', width: 200 },
  add_link: { board_id: '$draw', id: '$link', x: 1, y: 2, url: 'https://b.test/' },
  add_image: { board_id: '$draw', id: '$image', x: 1, y: 2, width: 3, height: 3, dataUrl: PNG_1PX },
  draw_stroke: { board_id: '$draw', id: '$stroke', points: '[[0,0],[5,5]]', color: 'teal' },
  move: { board_id: '$draw', id: '$text', kind: 'texts', x: 5, y: 5 },
  erase: { board_id: '$draw', id: '$stroke', kind: 'strokes' },
  wait_for_update: { board_id: '$draw', timeout_ms: 1000 },
  set_board_mode: { board_id: '$draw', mode: 'todo', template: 'kanban' },
  set_board_title: { board_id: '$draw', title: ' Named ' },
  create_column: { board_id: '$todo', title: 'New', sort: 3, lane: 1, color: 'green' },
  update_column: { board_id: '$todo', id: '$column', title: 'Renamed', sort: 0 },
  delete_column: { board_id: '$todo', id: '$column2' },
  create_task: { board_id: '$todo', column_id: '$column', name: 'n', due_date: '2026-05-01', priority: 'm' },
  update_task: { board_id: '$todo', id: '$task', done: true, assignee: 'a' },
  move_task: { board_id: '$todo', id: '$task', column_id: '$column2', sort: 1 },
  delete_task: { board_id: '$todo', id: '$task' },
  set_lane: { board_id: '$todo', lane: 2, title: 'Lane' },
  set_column_width: { board_id: '$todo', width: 1e9 },
  create_tasks: {
    board_id: '$todo',
    tasks: [
      { column_id: '$column', name: 'a' },
      { column_id: '$column', name: 'b' },
    ],
  },
  batch: {
    board_id: '$draw',
    ops: [
      { type: 'add_text', ref: 'made', x: 1, y: 2, content: 'c' },
      { type: 'draw_stroke', points: [0, 0, 5, 5], anchors: { end: { kind: 'text', id: '$made', dx: 0, dy: 0 } } },
      { type: 'move', id: '$text', x: 3, y: 4 },
    ],
  },
  query_tasks: {
    board_id: '$todo',
    assignee: 'a',
    priority: 'H',
    done: false,
    overdue: true,
    due_before: '2030-01-01',
    due_after: '2000-01-01',
    color: 'red',
  },
  export_tasks: { board_id: '$todo', format: 'csv' },
  list_tasks: { board_id: '$todo' },
  list_versions: { board_id: '$draw', before: 2, limit: 10 },
  get_changes: { board_id: '$draw', since: 1 },
  restore_version: { board_id: '$draw', version: 1, author: 'ai:fuzz' },
};

function argsArb(tool: string): fc.Arbitrary<unknown> {
  const template = TOOL_TEMPLATES[tool] ?? { board_id: '$draw' };
  const board = fc.option(fc.constantFrom('$draw', '$todo', '$locked', '$DRAW'), { nil: undefined });
  return fc.oneof(
    {
      weight: 8,
      arbitrary: fc
        .tuple(mutated(template), board)
        .map(([args, id]) =>
          id && Object.hasOwn(args, 'board_id') ? objectOf([...Object.entries(args), ['board_id', id]]) : args,
        ),
    },
    { weight: 1, arbitrary: hostileValue },
  );
}

/** No JSON-RPC answer (or batch of answers) carries an internal error. */
function expectNoInternalError(answer: RpcAnswer, label: string): void {
  expect(answer.status, `${label}: HTTP ${answer.status} ${answer.text.slice(0, 300)}`).toBeLessThan(500);
  for (const message of [answer.body].flat()) {
    if (message && typeof message === 'object' && message.error)
      expect(message.error.code, `${label}: ${answer.text.slice(0, 300)}`).not.toBe(-32603);
  }
}

const rejected = (answer: RpcAnswer) => answer.status >= 400 || !!answer.body?.error || !!answer.body?.result?.isError;

describe('MCP: every tool with hostile arguments, and hostile JSON-RPC envelopes', () => {
  let mcp: RawMcp;
  beforeAll(async () => {
    fx = await buildFixtures();
    mcp = await connectRawMcp(t.server.url);
  });
  afterAll(() => mcp?.close());

  it(
    'tools/call never answers -32603; a rejected call changes no board',
    async () => {
      const listed = await mcp.send({ jsonrpc: '2.0', id: 'list', method: 'tools/list' });
      const tools: string[] = listed.body.result.tools.map((tool: { name: string }) => tool.name);
      expect(tools.length).toBeGreaterThanOrEqual(25);
      for (const tool of tools) {
        const longPoll = tool === 'wait_for_update';
        await fc.assert(
          fc.asyncProperty(argsArb(tool), async (args) => {
            const before = await etagsBefore();
            let answer: RpcAnswer | 'cut short';
            try {
              answer = await mcp.call(
                tool,
                resolveTokens(args, fx.tokens),
                AbortSignal.timeout(longPoll ? 200 : 15_000),
              );
            } catch (error) {
              if (!longPoll || (error as Error).name !== 'TimeoutError') throw error;
              answer = 'cut short';
            }
            if (answer !== 'cut short') expectNoInternalError(answer, tool);
            if (answer === 'cut short' || rejected(answer))
              expect(await etags(), `${tool} was refused but changed a board`).toEqual(before);
            await expectHealthy();
          }),
          runs(longPoll ? 8 : 30),
        );
      }
    },
    LONG_TEST_MS,
  );

  it('hostile JSON-RPC envelopes, resource URIs and bodies never answer -32603 or 5xx', async () => {
    const methods = [
      'tools/call',
      'tools/list',
      'resources/read',
      'resources/subscribe',
      'resources/unsubscribe',
      'resources/list',
      'resources/templates/list',
      'prompts/list',
      'ping',
      'initialize',
      'logging/setLevel',
      'completion/complete',
      'notifications/initialized',
      'notifications/cancelled',
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
    ];
    const names = Object.keys(TOOL_TEMPLATES).filter((name) => name !== 'wait_for_update'); // a valid long poll would only wait
    const uri = fc.oneof(
      fc.constantFrom(
        'svc://board/$draw/state.json',
        'svc://board/$todo/tasks.json',
        'svc://board/$locked/preview.svg',
        'svc://board/$locked/state.json',
        'svc://board/$DRAW/tasks.json',
        'svc://board/$draw/other',
        'svc://board//state.json',
        'svc://board/__proto__/state.json',
        'http://x/',
        '',
      ),
      hostileValue,
    );
    const params = fc.oneof(
      hostileValue,
      fc.record(
        {
          name: fc.oneof(fc.constantFrom(...names), hostileScalar),
          arguments: fc.oneof(hostileValue, fc.constant({ board_id: '$draw' })),
          uri,
          level: hostileScalar,
        },
        { requiredKeys: [] },
      ),
    );
    const envelope = fc.record(
      {
        jsonrpc: fc.oneof(fc.constant('2.0'), hostileScalar),
        id: fc.oneof(fc.integer(), fc.string(), hostileScalar),
        method: fc.oneof(fc.constantFrom(...methods), hostileScalar),
        params,
      },
      { requiredKeys: ['method'] },
    );
    const message = fc.oneof(
      { weight: 6, arbitrary: envelope.map<Body>((json) => ({ json })) },
      { weight: 1, arbitrary: fc.array(envelope, { minLength: 1, maxLength: 3 }).map<Body>((json) => ({ json })) },
      { weight: 2, arbitrary: hostileJsonText.map<Body>((text) => ({ text })) },
      {
        weight: 1,
        arbitrary: invalidUtf8Body(
          '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_board","arguments":{"board_id":"',
        ).map<Body>((bytes) => ({ bytes })),
      },
    );
    await fc.assert(
      fc.asyncProperty(message, hostileContentType, async (body, contentType) => {
        const before = await etagsBefore();
        const answer = await mcp.send(bodyBytes(body)!, { contentType: contentType ?? 'application/json' });
        expectNoInternalError(answer, 'envelope');
        const accepted = [answer.body].flat().some((m) => m && typeof m === 'object' && m.result && !m.result.isError);
        if (!accepted) expect(await etags()).toEqual(before);
        await expectHealthy();
      }),
      runs(150),
    );
  });
});

// ---------------------------------------------------------------------------
// The JSON frame channel

/** Valid arguments per frame type, which the arbitraries mutate. */
const FRAME_TEMPLATES: Record<string, Record<string, unknown>> = {
  add_text: { x: 1, y: 1, content: 'f', postit: false, color: 'sky' },
  add_link: { x: 1, y: 1, url: 'https://frame.test/' },
  add_image: { x: 1, y: 1, width: 2, height: 2, dataUrl: PNG_1PX },
  draw_stroke: {
    points: [
      [0, 0],
      [1, 1],
    ],
    color: 'pink',
  },
  move: { id: '$text', kind: 'texts', x: 3, y: 3 },
  erase: { id: '$link' },
  create_column: { title: 'F', sort: 9, lane: 0 },
  update_column: { id: '$column', title: 'G', color: '' },
  delete_column: { id: '$column2' },
  create_task: { column_id: '$column', name: 'ft', done: true },
  update_task: { id: '$task', name: 'renamed', priority: '' },
  move_task: { id: '$task', column_id: '$column', sort: 5 },
  delete_task: { id: '$task' },
  set_column_width: { width: 250 },
  lane_upsert: { lane: 0, title: 'L' },
  set_board_title: { title: 'T' },
  recolor: { ids: ['$text', '$stroke'], color: 'red' },
};

function frameArgsArb(type: string): fc.Arbitrary<Record<string, unknown>> {
  if (type !== 'batch') return mutated(FRAME_TEMPLATES[type] ?? {});
  const op = fc
    .constantFrom(...MUTATION_FRAME_TYPES)
    .chain((opType) =>
      fc.oneof(
        { weight: 4, arbitrary: mutated({ type: opType, ...FRAME_TEMPLATES[opType] }) },
        { weight: 1, arbitrary: hostileValue },
      ),
    );
  return mutated({ ops: [], more: false }).chain((frame) =>
    fc.oneof(
      fc.constant(frame),
      fc.array(op, { maxLength: 4 }).map((ops) => objectOf([...Object.entries(frame), ['ops', ops]])),
    ),
  );
}

describe('JSON channel: every frame type with hostile arguments, and hostile frames', () => {
  const clients: Record<'draw' | 'todo', JsonClient> = {} as never;
  let counter = 0;
  beforeAll(async () => {
    fx = await buildFixtures();
    clients.draw = await openJson(t.server.url, fx.tokens.$draw);
    clients.todo = await openJson(t.server.url, fx.tokens.$todo);
  });
  afterAll(() => {
    for (const client of Object.values(clients)) client.close();
  });

  /** Sends a frame, then a sentinel whose error marks the end of the frame's replies (frames are handled in order). */
  async function exchange(client: JsonClient, send: () => void): Promise<Record<string, any>[]> {
    const from = client.frames.length;
    send();
    const sentinel = `sentinel-${counter++}`;
    client.send({ type: 'erase', ref: sentinel, id: '__sentinel__' });
    const end = await client.next((f) => f.ref === sentinel, 5_000, from);
    return client.frames.slice(from, client.frames.indexOf(end));
  }

  it(
    'no frame is answered internal_error; a refused frame changes no board; the socket stays open',
    async () => {
      for (const type of [...MUTATION_FRAME_TYPES, 'batch']) {
        await fc.assert(
          fc.asyncProperty(
            fc.constantFrom<'draw' | 'todo'>('draw', 'todo'),
            frameArgsArb(type),
            async (board, args) => {
              const before = await etags();
              expect(before).not.toBeNull();
              const ref = `f-${counter++}`;
              const client = clients[board];
              const frame = objectOf([
                ...Object.entries(resolveTokens(args, fx.tokens) as object),
                ['type', type],
                ['ref', ref],
              ]);
              const replies = await exchange(client, () => client.send(frame));
              expect(
                replies.filter((f) => f.type === 'error' && f.code === 'internal_error'),
                type,
              ).toEqual([]);
              if (!replies.some((f) => f.type === 'ack' && f.ref === ref))
                expect(await etags(), `${type} was refused but changed a board`).toEqual(before);
              expect(client.socket.readyState).toBe(WebSocket.OPEN);
              await expectHealthy();
            },
          ),
          runs(30),
        );
      }
    },
    LONG_TEST_MS,
  );

  it('malformed JSON, non-object frames, binary frames and hostile envelopes are refused with an error frame', async () => {
    const types = fc.oneof(
      fc.constantFrom(
        ...MUTATION_FRAME_TYPES,
        'batch',
        'hello',
        'snapshot',
        'ack',
        'error',
        'op',
        '__proto__',
        'constructor',
        'toString',
        'hasOwnProperty',
      ),
      hostileScalar,
    );
    const raw = fc.oneof(
      hostileJsonText.map((text) => ({ text })),
      hostileValue.map((value) => ({ text: JSON.stringify(value) ?? 'null' })),
      fc.record({ type: types, ref: hostileValue }).chain(({ type, ref }) =>
        hostileValue.map((extra) => ({
          text: JSON.stringify(
            objectOf([
              ['type', type],
              ['ref', ref],
              ['x', extra],
              ['__proto__', extra],
            ]),
          ),
        })),
      ),
      fc.uint8Array({ maxLength: 256 }).map((bytes) => ({ binary: bytes })),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom<'draw' | 'todo'>('draw', 'todo'), raw, async (board, frame) => {
        const before = await etags();
        const client = clients[board];
        const replies = await exchange(client, () =>
          'binary' in frame
            ? client.socket.send(frame.binary, { binary: true })
            : client.socket.send(inString(frame.text)),
        );
        expect(replies.filter((f) => f.type === 'error' && f.code === 'internal_error')).toEqual([]);
        if (!replies.some((f) => f.type === 'ack')) expect(await etags()).toEqual(before);
        expect(client.socket.readyState).toBe(WebSocket.OPEN);
        await expectHealthy();
      }),
      runs(150),
    );
    for (const client of Object.values(clients))
      expect(client.frames.filter((f) => f.type === 'error' && f.code === 'internal_error')).toEqual([]);
  });

  it('a text frame that is not UTF-8 closes that socket with 1007 and nothing else', async () => {
    const before = await etags();
    const client = await openJson(t.server.url, fx.tokens.$draw);
    client.socket.send(
      Buffer.concat([
        Buffer.from('{"type":"add_text","x":0,"y":0,"content":"'),
        Buffer.from([0xed, 0xa0, 0x80, 0xff]),
        Buffer.from('"}'),
      ]),
      { binary: false },
    );
    expect((await client.closed).code).toBe(1007);
    expect(await etags()).toEqual(before);
    expect(clients.draw.socket.readyState).toBe(WebSocket.OPEN);
    await expectHealthy();
  });

  it(`a frame over ${MAX_WS_FRAME_BYTES} bytes closes the socket with 1009; one of exactly that size is answered`, async () => {
    const before = await etags();
    const client = await openJson(t.server.url, fx.tokens.$draw);
    const head = '{"type":"add_text","ref":"big","x":0,"y":0,"content":"';
    const exact = `${head + 'a'.repeat(MAX_WS_FRAME_BYTES - head.length - 2)}"}`;
    expect(Buffer.byteLength(exact)).toBe(MAX_WS_FRAME_BYTES);
    client.socket.send(exact);
    expect(await client.next((f) => f.ref === 'big', 10_000)).toMatchObject({
      type: 'error',
      code: 'quota_exceeded',
      kind: 'text_chars',
    });
    client.socket.send(`${exact} `);
    expect(await client.closed).toMatchObject({ code: 1009 });
    expect(await etags()).toEqual(before);
    await expectHealthy();
  });
});

// ---------------------------------------------------------------------------
// Yjs sync (/collab), spoken by hand

describe('Yjs: malformed messages and bogus updates over /collab', () => {
  let watcher: YjsClient;
  let board: string;
  /** A fresh draw board with content, watched by a Yjs client: each test starts from a sound document. */
  async function freshBoard(): Promise<void> {
    watcher?.destroy();
    fx = await buildFixtures();
    board = fx.tokens.$draw;
    watcher = connectYjs(t.server.url, board);
    await watcher.synced;
  }

  beforeAll(async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {}); // Hocuspocus logs every message it cannot decode
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    await freshBoard();
  });
  afterAll(() => {
    watcher?.destroy();
    vi.restoreAllMocks();
  });

  /** /json answers, every item in it is well formed, and the watching client holds exactly what /json shows. */
  async function expectIntactAndConverged(): Promise<void> {
    await eventually(async () => {
      const res = await t.api.get(`/json/${board}`);
      expect(res.status).toBe(200);
      for (const text of res.body.texts)
        expect(
          (text.kind === 'link' ? StoredLink : StoredText).safeParse(text).error?.issues ?? [],
          JSON.stringify(text),
        ).toEqual([]);
      for (const line of res.body.lines)
        expect(StoredStroke.safeParse(line).error?.issues ?? [], JSON.stringify(line)).toEqual([]);
      const byId = (items: { id: string }[]) => JSON.stringify([...items].sort((a, b) => a.id.localeCompare(b.id)));
      expect(byId([...boardMaps(watcher.doc).texts.values()])).toBe(byId(res.body.texts));
      expect(byId([...boardMaps(watcher.doc).lines.values()])).toBe(byId(res.body.lines));
      expect([...watcher.doc.getMap<any>('images').keys()].sort()).toEqual(
        res.body.images.map((i: { id: string }) => i.id).sort(),
      );
    });
  }

  /** Another client still syncs: a REST write reaches the watcher, and a new client sees what /json shows. */
  async function expectOthersStillSync(): Promise<void> {
    const written = await t.api.post(`/api/boards/${board}/texts`, {
      x: 0,
      y: 0,
      content: `still syncing ${Date.now()}`,
    });
    expect(written.status).toBe(200);
    await eventually(() => expect(watcher.doc.getMap('texts').has(written.body.id)).toBe(true));
    const fresh = connectYjs(t.server.url, board);
    try {
      await fresh.synced;
      const json = (await t.api.get(`/json/${board}`)).body;
      await eventually(() =>
        expect([...fresh.doc.getMap<any>('texts').keys()].sort()).toEqual(
          json.texts.map((x: { id: string }) => x.id).sort(),
        ),
      );
    } finally {
      fresh.destroy();
    }
  }

  /** A valid update that adds one well-formed text, from a fresh client id. */
  function validUpdate(content: string): Uint8Array {
    const doc = new Y.Doc();
    const id = `raw-${Math.random().toString(36).slice(2)}`;
    doc
      .getMap('texts')
      .set(id, { id, x: 1, y: 1, content, author: 'user:raw', last_updated: new Date().toISOString() });
    return Y.encodeStateAsUpdate(doc);
  }

  const settle = (client: { closed: Promise<unknown> }, ms = 40) =>
    Promise.race([client.closed, new Promise((resolve) => setTimeout(resolve, ms))]);

  it(
    'random bytes, random and truncated sync messages never crash the server or corrupt the document',
    async () => {
      const docName = fc.constantFrom(
        '$draw',
        '$locked',
        '00000000-0000-4000-8000-000000000000',
        '',
        '__proto__',
        '\u0000',
      );
      const update = validUpdate('truncated');
      const message = fc.oneof(
        fc.uint8Array({ maxLength: 512 }),
        fc
          .tuple(docName, fc.integer({ min: 0, max: 12 }), fc.uint8Array({ maxLength: 256 }))
          .map(([name, type, rest]) => framed(inString(name), type, rest)),
        fc
          .tuple(fc.integer({ min: 0, max: 4 }), fc.uint8Array({ maxLength: 256 }))
          .map(([step, payload]) => syncMessage(board, step, payload)),
        fc
          .integer({ min: 1, max: update.length - 1 })
          .map((cut) => syncMessage(board, messageYjsUpdate, update.slice(0, cut))),
        fc
          .integer({ min: 1, max: update.length + 8 })
          .map((cut) => syncMessage(board, messageYjsUpdate, update).slice(0, cut)),
        fc.tuple(fc.nat({ max: update.length - 1 }), fc.integer({ min: 0, max: 255 })).map(([at, byte]) => {
          const flipped = update.slice();
          flipped[at] = byte;
          return syncMessage(board, messageYjsUpdate, flipped);
        }),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.boolean(),
          fc.array(message, { minLength: 1, maxLength: 3 }),
          async (authenticate, messages) => {
            const raw = await openRawCollab(t.server.url, authenticate ? board : undefined);
            if (authenticate) await raw.auth;
            for (const bytes of messages) raw.send(bytes);
            await settle(raw);
            raw.close();
            await expectHealthy();
          },
        ),
        runs(60),
      );
      await expectIntactAndConverged();
      await expectOthersStillSync();
    },
    LONG_TEST_MS,
  );

  /** Updates that decode fine but break the board's rules or Yjs' expectations, and the item keys that must not survive them. */
  const BOGUS: [name: string, make: () => Uint8Array, gone: string[]][] = [
    [
      'an array where the board keeps a map',
      () => {
        const doc = new Y.Doc();
        doc.getArray('texts').insert(0, [1, 'two', { three: 3 }]);
        return Y.encodeStateAsUpdate(doc);
      },
      [],
    ],
    [
      'a shared type as an item',
      () => {
        const doc = new Y.Doc();
        doc.getMap('texts').set('nested', new Y.Map());
        return Y.encodeStateAsUpdate(doc);
      },
      ['nested'],
    ],
    [
      'an item whose fields hide in its __proto__',
      () => {
        const doc = new Y.Doc();
        doc
          .getMap('texts')
          .set(
            'proto',
            JSON.parse(
              '{"id":"proto","author":"user:x","last_updated":"2026-01-01T00:00:00.000Z","__proto__":{"x":1,"y":2,"content":"hidden"}}',
            ),
          );
        return Y.encodeStateAsUpdate(doc);
      },
      ['proto'],
    ],
    [
      'a valid item with a hidden extra field in its __proto__',
      () => {
        const doc = new Y.Doc();
        doc
          .getMap('texts')
          .set(
            'proto2',
            JSON.parse(
              '{"id":"proto2","x":1,"y":2,"content":"c","author":"user:x","last_updated":"2026-01-01T00:00:00.000Z","__proto__":{"postit":true}}',
            ),
          );
        return Y.encodeStateAsUpdate(doc);
      },
      ['proto2'],
    ],
    [
      'a stroke whose anchor hides in a __proto__',
      () => {
        const doc = new Y.Doc();
        doc
          .getMap('lines')
          .set(
            'proto3',
            JSON.parse(
              '{"id":"proto3","points":[[0,0],[1,1]],"color":"auto","width":3,"author":"user:x","last_updated":"2026-01-01T00:00:00.000Z","anchors":{"start":{"__proto__":{"kind":"text","id":"x","dx":0,"dy":0}}}}',
            ),
          );
        return Y.encodeStateAsUpdate(doc);
      },
      ['proto3'],
    ],
    [
      'an invalid item and an item keyed under another id',
      () => {
        const doc = new Y.Doc();
        doc.getMap('texts').set('bad', { id: 'bad', x: 'left', y: Infinity, content: 42 });
        doc
          .getMap('texts')
          .set('key', { id: 'other', x: 0, y: 0, content: 'c', author: 'user:x', last_updated: 'now' });
        return Y.encodeStateAsUpdate(doc);
      },
      ['bad', 'key', 'other'],
    ],
    [
      'the board mode flipped and todo items on a draw board',
      () => {
        const doc = new Y.Doc();
        doc.getMap('meta').set('mode', 'todo');
        doc.getMap('lanes').set('0', { lane: 0, title: 'x', author: 'user:x', last_updated: 'now' });
        return Y.encodeStateAsUpdate(doc);
      },
      [],
    ],
    [
      'a struct that depends on one nobody sent (pending forever)',
      () => {
        const a = new Y.Doc();
        a.getArray('junk').insert(0, ['a']);
        const b = new Y.Doc();
        Y.applyUpdate(b, Y.encodeStateAsUpdate(a));
        const before = Y.encodeStateVector(b);
        b.getArray('junk').insert(1, ['b']);
        return Y.encodeStateAsUpdate(b, before);
      },
      [],
    ],
    [
      'a struct at a huge clock',
      () => {
        const encoder = encoding.createEncoder();
        encoding.writeVarUint(encoder, 1); // one client
        encoding.writeVarUint(encoder, 1); // one struct
        encoding.writeVarUint(encoder, 4242); // client id
        encoding.writeVarUint(encoder, 2 ** 40); // clock
        encoding.writeUint8(encoder, 0); // a GC struct
        encoding.writeVarUint(encoder, 2 ** 40); // of huge length
        encoding.writeVarUint(encoder, 0); // empty delete set
        return encoding.toUint8Array(encoder);
      },
      [],
    ],
    [
      'a delete set over a huge range of an unknown client',
      () => {
        const encoder = encoding.createEncoder();
        encoding.writeVarUint(encoder, 0); // no structs
        encoding.writeVarUint(encoder, 1); // one client in the delete set
        encoding.writeVarUint(encoder, 999);
        encoding.writeVarUint(encoder, 1);
        encoding.writeVarUint(encoder, 0);
        encoding.writeVarUint(encoder, 2 ** 50);
        return encoding.toUint8Array(encoder);
      },
      [],
    ],
  ];

  it.each(BOGUS)(
    'a syntactically valid but bogus update (%s) is repaired or refused; /json and other clients agree',
    async (_name, make, gone) => {
      await freshBoard();
      for (const step of [messageYjsUpdate, messageYjsSyncStep2]) {
        const raw = await openRawCollab(t.server.url, board);
        expect(await raw.auth).toMatchObject({ ok: true });
        raw.send(syncMessage(board, step, make()));
        await settle(raw, 300);
        raw.close();
        await expectHealthy();
        await expectIntactAndConverged();
        const json = (await t.api.get(`/json/${board}`)).body;
        expect(json.mode).toBe('draw');
        for (const kind of ['texts', 'lines', 'images'] as const) {
          expect(
            json[kind].map((item: { id: string }) => item.id).filter((id: string) => gone.includes(id)),
            kind,
          ).toEqual([]);
          expect(
            [...watcher.doc.getMap(kind).keys()].filter((key) => gone.includes(key)),
            kind,
          ).toEqual([]);
        }
      }
      await expectOthersStillSync();
    },
  );

  it(`a /collab message over ${MAX_COLLAB_MESSAGE_BYTES} bytes closes the socket with 1009`, async () => {
    await freshBoard();
    const raw = await openRawCollab(t.server.url, board);
    await raw.auth;
    raw.send(new Uint8Array(MAX_COLLAB_MESSAGE_BYTES + 1));
    expect((await raw.closed).code).toBe(1009);
    await expectHealthy();
    await expectIntactAndConverged();
  });
});
