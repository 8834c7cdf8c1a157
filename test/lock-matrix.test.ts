/**
 * The lock bypass matrix: every route of Fastify's route table, every MCP tool
 * and resource, every JSON frame type and both WebSocket endpoints, under each
 * lock mode (none, write, all) with each kind of key (none, wrong, right,
 * legacy 6-character), against the table in docs/security.md. The test holds
 * the same table, checks that the doc agrees with it and that nothing the
 * server serves is missing from it, then measures every cell. Then: keys never
 * appear in logs, error bodies, snapshots or documents.
 */

import { randomUUID } from 'node:crypto';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBSCRIBABLE } from '../adapters/mcp/resources.js';
import { MUTATION_FRAME_TYPES } from '../board/operations/operations.js';
import { hashKey } from '../host/access/keys.js';
import { KEY_BACKOFF_FIRST_MS, KEY_FREE_FAILURES } from '../schema/index.js';
import { DATABASE_FILE } from '../store/sqlite/database.js';
import { client, PNG_1PX, type Response } from './helpers/http.js';
import { startLoggedChildServer } from './helpers/logged-child-server.js';
import { connectRawMcp, type RawMcp, type RpcAnswer } from './helpers/mcp-raw.js';
import { connectJson, connectYjs, type Frame, type JsonClient, openJson } from './helpers/realtime.js';
import { startServer, tempDataDir, useServer } from './helpers/server.js';
import { writeBeside } from './helpers/sqlite-beside.js';

const t = useServer();

// ---------------------------------------------------------------------------
// The table (docs/security.md, "The lock table")

const MODES = ['none', 'write', 'all'] as const;
const KEYS = ['none', 'wrong', 'right', 'legacy'] as const;
type Mode = (typeof MODES)[number];
type KeyKind = (typeof KEYS)[number];
type Case = { mode: Mode; key: KeyKind };
const CASES: Case[] = MODES.flatMap((mode) => KEYS.map((key) => ({ mode, key })));
const COLUMNS = CASES.map(({ mode, key }) => `${mode} / ${key}`);

const row = (cells: string) => cells.trim().split(/\s+/);
const OUTCOMES = {
  'rest-public': row('ok ok ok ok   ok ok ok ok   ok ok ok ok'),
  'rest-read': row('ok ok ok ok   ok ok ok ok   401 401 ok ok'),
  'rest-write': row('ok ok ok ok   401 401 ok ok   401 401 ok ok'),
  'rest-lock': row('ok ok ok ok   403 403 ok ok   403 403 ok ok'),
  'rest-verify': row('400 400 400 400   400 false true true   400 false true true'),
  'mcp-transport': row('ok ok ok ok   ok ok ok ok   ok ok ok ok'),
  'mcp-public': row('ok ok ok ok   ok ok ok ok   ok ok ok ok'),
  'mcp-read': row('ok ok ok ok   ok ok ok ok   -32001 -32001 ok ok'),
  'mcp-write': row('ok ok ok ok   -32001 -32001 ok ok   -32001 -32001 ok ok'),
  'ws-upgrade': row('ok ok ok ok   read-only read-only ok ok   401 401 ok ok'),
  'ws-frame': row('ok ok ok ok   board_locked board_locked ok ok   401 401 ok ok'),
  yjs: row('ok ok ok ok   read-only read-only ok ok   refused refused ok ok'),
} as const;
type Class = keyof typeof OUTCOMES;

const WRONG_KEY = 'zzzzzzzz';
const LEGACY_KEY = 'lgcy42';
/** On an open board there is no key: "right" and "legacy" are just some keys of those lengths. */
const KEYS_FOR_OPEN_BOARDS = { right: 'abcd1234', legacy: 'abc123' } as const;

// ---------------------------------------------------------------------------
// Boards: a fresh one per cell, locked as the cell says, with items to act on.

/**
 * A draw board with a text, a stroke and an image; a todo board with two columns and a task; an empty draw board (mode
 * switches need one); a draw board whose content is already version 1 (history routes need one).
 */
type BoardKind = 'draw' | 'todo' | 'empty' | 'versioned';
type Board = {
  id: string;
  /** The key the request presents (undefined: none). */
  presented?: string;
  /** The board's real key, to read it back whatever the cell. */
  realKey?: string;
  ids: { text: string; stroke: string; image: string; column: string; column2: string; task: string; viewLink: string };
};

let db: Database.Database;

function presentedKey({ mode, key }: Case, realKey: string | undefined): string | undefined {
  if (key === 'none') return undefined;
  if (key === 'wrong') return WRONG_KEY;
  return mode === 'none' ? KEYS_FOR_OPEN_BOARDS[key] : realKey;
}

async function makeBoard(kind: BoardKind, cell: Case): Promise<Board> {
  const content = {
    draw: {
      texts: [{ x: 0, y: 0, content: 'text' }],
      lines: [{ points: [0, 0, 9, 9] }],
      images: [{ x: 0, y: 0, width: 4, height: 4, dataUrl: PNG_1PX }],
    },
    todo: { columns: [{ title: 'A' }, { title: 'B' }], tasks: [{ columnIndex: 0, name: 'task' }] },
    empty: undefined,
    versioned: { texts: [{ x: 0, y: 0, content: 'text' }] },
  }[kind];
  const res = await t.api.post('/api/boards', {
    mode: kind === 'todo' ? 'todo' : 'draw',
    content,
    ...(cell.mode !== 'none' && { lock: cell.mode }),
  });
  expect(res.status, res.text).toBe(200);
  let realKey: string | undefined = res.body.access_key;
  if (cell.mode !== 'none' && cell.key === 'legacy') {
    // A board locked before keys had 8 characters: its stored hash is that of a 6-character key.
    await writeBeside(db, 'UPDATE boards SET key_hash = ? WHERE id = ?', hashKey(LEGACY_KEY), res.body.id);
    realKey = LEGACY_KEY;
  }
  // What the settle of its creation would record, now rather than in three seconds.
  if (kind === 'versioned') await t.server.server.events.settling!(res.body.id);
  const ids = res.body.ids ?? { texts: [], lines: [], images: [], columns: [], tasks: [] };
  // A view link to revoke, stored as making one stores it.
  const viewLink = randomUUID();
  const link = { id: viewLink, boardId: res.body.id, label: null, createdAt: '2026-01-01 00:00:00' };
  await t.server.server.store.viewLinks.add(link, randomUUID(), 20);
  return {
    id: res.body.id,
    presented: presentedKey(cell, realKey),
    realKey,
    ids: {
      text: ids.texts[0],
      stroke: ids.lines[0],
      image: ids.images[0],
      column: ids.columns[0],
      column2: ids.columns[1],
      task: ids.tasks[0],
      viewLink,
    },
  };
}

/** The board's ETag and lock mode, read with its real key: what a refused request must leave as it was. */
async function stateOf(board: Board): Promise<string> {
  const headers: Record<string, string> = board.realKey ? { 'x-board-key': board.realKey } : {};
  const [json, meta] = await Promise.all([
    t.api.get(`/json/${board.id}`, headers),
    t.api.get(`/api/boards/${board.id}/meta`, headers),
  ]);
  return `${json.status} ${json.headers.get('etag')} ${meta.body.lockMode}`;
}

/** A refusal must change nothing: the outcome, or a note that the refused request changed the board anyway. */
async function unchangedIfRefused(
  outcome: string,
  board: Board | undefined,
  before: string | undefined,
): Promise<string> {
  if (!board || !['401', '403', '-32001', 'board_locked'].includes(outcome)) return outcome;
  const after = await stateOf(board);
  return after === before ? outcome : `${outcome}, but the board changed (${before} -> ${after})`;
}

/** The key a cell presents where there is no board (public routes and tools): any key of the cell's kind. */
const keyWithoutBoard = (cell: Case) => presentedKey({ mode: 'none', key: cell.key }, undefined);

/** Runs `work` over `items`, at most `limit` at a time. */
async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

/** Observed outcomes, one row per route/tool/frame, in the shape of the expected table. */
class Matrix {
  readonly observed: Record<string, string[]> = {};
  readonly expected: Record<string, string[]> = {};
  set(name: string, cls: Class, index: number, outcome: string): void {
    (this.observed[name] ??= Array(CASES.length).fill('(not run)'))[index] = outcome;
    this.expected[name] ??= [...OUTCOMES[cls]];
  }
}

// ---------------------------------------------------------------------------
// REST routes, with a request that succeeds on a fresh board when the lock lets it through

type RestRequest = { path: string; body?: unknown };
type RestSpec = { class: Class; board?: BoardKind; request?: (b: Board) => RestRequest };
const on = (b: Board) => `/api/boards/${b.id}`;

const REST: Record<string, RestSpec> = {
  'POST /api/boards': { class: 'rest-public', request: () => ({ path: '/api/boards', body: { mode: 'draw' } }) },
  'GET /todo': { class: 'rest-public', request: () => ({ path: '/todo' }) },
  'GET /draw': { class: 'rest-public', request: () => ({ path: '/draw' }) },
  'GET /api/boards/:boardId/wait': {
    class: 'rest-read',
    board: 'draw',
    request: (b) => ({ path: `${on(b)}/wait?timeout_ms=1000` }),
  },
  'GET /api/boards/:boardId/meta': { class: 'rest-read', board: 'draw', request: (b) => ({ path: `${on(b)}/meta` }) },
  'GET /api/boards/:boardId/images/:itemId': {
    class: 'rest-read',
    board: 'draw',
    request: (b) => ({ path: `${on(b)}/images/${b.ids.image}` }),
  },
  'GET /api/boards/:boardId': { class: 'rest-read', board: 'draw', request: (b) => ({ path: on(b) }) },
  'DELETE /api/boards/:boardId': { class: 'rest-write', board: 'draw', request: (b) => ({ path: on(b) }) },
  'GET /json/:boardId': { class: 'rest-read', board: 'draw', request: (b) => ({ path: `/json/${b.id}` }) },
  'GET /json': { class: 'rest-read', board: 'draw', request: (b) => ({ path: `/json?board=${b.id}` }) },
  'GET /json/': {
    class: 'rest-read',
    board: 'draw',
    request: (b) => ({ path: `/json/?board=${encodeURIComponent(`https://x.test/#${b.id}`)}` }),
  },
  'GET /api/boards/:boardId/tasks.csv': {
    class: 'rest-read',
    board: 'todo',
    request: (b) => ({ path: `${on(b)}/tasks.csv` }),
  },
  'GET /api/boards/:boardId/tasks.md': {
    class: 'rest-read',
    board: 'todo',
    request: (b) => ({ path: `${on(b)}/tasks.md` }),
  },
  'POST /api/boards/:boardId/texts': {
    class: 'rest-write',
    board: 'draw',
    request: (b) => ({ path: `${on(b)}/texts`, body: { x: 1, y: 1, content: 'new' } }),
  },
  'POST /api/boards/:boardId/strokes': {
    class: 'rest-write',
    board: 'draw',
    request: (b) => ({ path: `${on(b)}/strokes`, body: { points: [0, 0, 5, 5] } }),
  },
  'POST /api/boards/:boardId/lines': {
    class: 'rest-write',
    board: 'draw',
    request: (b) => ({
      path: `${on(b)}/lines`,
      body: {
        points: [
          [0, 0],
          [5, 5],
        ],
      },
    }),
  },
  'POST /api/boards/:boardId/shapes': {
    class: 'rest-write',
    board: 'draw',
    request: (b) => ({ path: `${on(b)}/shapes`, body: { shape: 'rectangle', x: 0, y: 0, width: 10, height: 10 } }),
  },
  'POST /api/boards/:boardId/frames': {
    class: 'rest-write',
    board: 'draw',
    request: (b) => ({ path: `${on(b)}/frames`, body: { x: 0, y: 0, width: 100, height: 100 } }),
  },
  'POST /api/boards/:boardId/images': {
    class: 'rest-write',
    board: 'draw',
    request: (b) => ({ path: `${on(b)}/images`, body: { x: 0, y: 0, width: 2, height: 2, dataUrl: PNG_1PX } }),
  },
  'POST /api/boards/:boardId/links': {
    class: 'rest-write',
    board: 'draw',
    request: (b) => ({ path: `${on(b)}/links`, body: { x: 0, y: 0, url: 'https://l.test/' } }),
  },
  'POST /api/boards/:boardId/:kind/:itemId/move': {
    class: 'rest-write',
    board: 'draw',
    request: (b) => ({ path: `${on(b)}/texts/${b.ids.text}/move`, body: { x: 9, y: 9 } }),
  },
  'DELETE /api/boards/:boardId/:kind/:itemId': {
    class: 'rest-write',
    board: 'draw',
    request: (b) => ({ path: `${on(b)}/strokes/${b.ids.stroke}` }),
  },
  'POST /api/boards/:boardId/mode': {
    class: 'rest-write',
    board: 'empty',
    request: (b) => ({ path: `${on(b)}/mode`, body: { mode: 'todo' } }),
  },
  'POST /api/boards/:boardId/title': {
    class: 'rest-write',
    board: 'draw',
    request: (b) => ({ path: `${on(b)}/title`, body: { title: 'Named' } }),
  },
  'POST /api/boards/:boardId/batch': {
    class: 'rest-write',
    board: 'draw',
    request: (b) => ({ path: `${on(b)}/batch`, body: { ops: [{ type: 'move', id: b.ids.text, x: 3, y: 3 }] } }),
  },
  'POST /api/boards/:boardId/column-width': {
    class: 'rest-write',
    board: 'todo',
    request: (b) => ({ path: `${on(b)}/column-width`, body: { width: 300 } }),
  },
  'POST /api/boards/:boardId/lanes': {
    class: 'rest-write',
    board: 'todo',
    request: (b) => ({ path: `${on(b)}/lanes`, body: { lane: 1, title: 'Row' } }),
  },
  'POST /api/boards/:boardId/columns': {
    class: 'rest-write',
    board: 'todo',
    request: (b) => ({ path: `${on(b)}/columns`, body: { title: 'C', sort: 5 } }),
  },
  'POST /api/boards/:boardId/tasks': {
    class: 'rest-write',
    board: 'todo',
    request: (b) => ({ path: `${on(b)}/tasks`, body: { column_id: b.ids.column, name: 'n' } }),
  },
  'POST /api/boards/:boardId/tasks/:itemId/move': {
    class: 'rest-write',
    board: 'todo',
    request: (b) => ({ path: `${on(b)}/tasks/${b.ids.task}/move`, body: { column_id: b.ids.column2, sort: 0 } }),
  },
  'DELETE /api/boards/:boardId/columns/:itemId': {
    class: 'rest-write',
    board: 'todo',
    request: (b) => ({ path: `${on(b)}/columns/${b.ids.column2}` }),
  },
  'DELETE /api/boards/:boardId/tasks/:itemId': {
    class: 'rest-write',
    board: 'todo',
    request: (b) => ({ path: `${on(b)}/tasks/${b.ids.task}` }),
  },
  'POST /api/boards/:boardId/lock': {
    class: 'rest-lock',
    board: 'draw',
    request: (b) => ({ path: `${on(b)}/lock`, body: { mode: 'all' } }),
  },
  'POST /api/boards/:boardId/unlock': {
    class: 'rest-lock',
    board: 'draw',
    request: (b) => ({ path: `${on(b)}/unlock` }),
  },
  // The key to verify travels in the body, not in X-Board-Key.
  'POST /api/boards/:boardId/verify-key': {
    class: 'rest-verify',
    board: 'draw',
    request: (b) => ({ path: `${on(b)}/verify-key`, body: b.presented === undefined ? {} : { key: b.presented } }),
  },
  'GET /svg-preview/:boardId': {
    class: 'rest-read',
    board: 'draw',
    request: (b) => ({ path: `/svg-preview/${b.id}` }),
  },
  'GET /api/boards/:boardId/versions': {
    class: 'rest-read',
    board: 'versioned',
    request: (b) => ({ path: `${on(b)}/versions` }),
  },
  'GET /api/boards/:boardId/versions/:version': {
    class: 'rest-read',
    board: 'versioned',
    request: (b) => ({ path: `${on(b)}/versions/1` }),
  },
  'GET /api/boards/:boardId/versions/:version/svg-preview': {
    class: 'rest-read',
    board: 'versioned',
    request: (b) => ({ path: `${on(b)}/versions/1/svg-preview` }),
  },
  'GET /api/boards/:boardId/items': {
    class: 'rest-read',
    board: 'todo',
    request: (b) => ({ path: `${on(b)}/items?text=a` }),
  },
  'GET /api/boards/:boardId/changes': {
    class: 'rest-read',
    board: 'versioned',
    request: (b) => ({ path: `${on(b)}/changes?since=1` }),
  },
  'POST /api/boards/:boardId/view-links': {
    class: 'rest-write',
    board: 'draw',
    request: (b) => ({ path: `${on(b)}/view-links`, body: { label: 'matrix' } }),
  },
  'GET /api/boards/:boardId/view-links': {
    class: 'rest-read',
    board: 'draw',
    request: (b) => ({ path: `${on(b)}/view-links` }),
  },
  'DELETE /api/boards/:boardId/view-links/:itemId': {
    class: 'rest-write',
    board: 'draw',
    request: (b) => ({ path: `${on(b)}/view-links/${b.ids.viewLink}` }),
  },
  'POST /api/boards/:boardId/versions/:version/restore': {
    class: 'rest-write',
    board: 'versioned',
    request: (b) => ({ path: `${on(b)}/versions/1/restore` }),
  },
  'GET /healthz': { class: 'rest-public', request: () => ({ path: '/healthz' }) },
  'GET /readyz': { class: 'rest-public', request: () => ({ path: '/readyz' }) },
  'GET /metrics': { class: 'rest-public', request: () => ({ path: '/metrics' }) },
  'GET /quotas.json': { class: 'rest-public', request: () => ({ path: '/quotas.json' }) },
  'GET /llms.txt': { class: 'rest-public', request: () => ({ path: '/llms.txt' }) },
  'GET /.well-known/mcp.json': { class: 'rest-public', request: () => ({ path: '/.well-known/mcp.json' }) },
  'GET /.well-known/mcp/server-card': {
    class: 'rest-public',
    request: () => ({ path: '/.well-known/mcp/server-card' }),
  },
  'GET /openapi.json': { class: 'rest-public', request: () => ({ path: '/openapi.json' }) },
  'GET /docs': { class: 'rest-public', request: () => ({ path: '/docs' }) },
  'GET /docs/redoc.standalone.js': { class: 'rest-public', request: () => ({ path: '/docs/redoc.standalone.js' }) },
  'GET /mcp/icons/:name': { class: 'rest-public', request: () => ({ path: '/mcp/icons/board.svg' }) },
  'GET /*': { class: 'rest-public', request: () => ({ path: '/' }) },
  // Measured below, each by its own protocol.
  'GET /collab': { class: 'yjs' },
  'GET /ws/:boardId': { class: 'ws-upgrade' },
  'POST /mcp': { class: 'mcp-transport' },
  'GET /mcp': { class: 'mcp-transport' },
  'DELETE /mcp': { class: 'mcp-transport' },
};

function restOutcome(cls: Class, res: Response, lockMode: Mode): string {
  const bearer = /^Bearer /.test(res.headers.get('www-authenticate') ?? '');
  const code = typeof res.body === 'object' ? res.body?.code : undefined;
  const lockedBody =
    res.text === '' /* HEAD */ ||
    (code === 'board_locked' && res.body.locked === true && res.body.lockMode === lockMode);
  if (res.status === 401 && bearer && lockedBody) return '401';
  if (res.status === 403 && code === 'invalid_key') return '403';
  if (cls === 'rest-verify' && res.status === 200) return String(res.body.ok);
  if (cls === 'rest-verify' && res.status === 400 && ['board_not_locked', 'invalid_payload'].includes(code))
    return '400';
  if (cls === 'rest-public')
    return res.status < 500 && res.status !== 401 && res.status !== 403 ? 'ok' : `HTTP ${res.status}`;
  if (res.status >= 200 && res.status < 400) return 'ok';
  return `HTTP ${res.status} ${code ?? res.text.slice(0, 80)}`;
}

// ---------------------------------------------------------------------------
// MCP tools and resources, with arguments that succeed on a fresh board

type McpSpec = { class: Class; board?: BoardKind; args?: (b: Board) => Record<string, unknown> };
const TOOLS: Record<string, McpSpec> = {
  create_board: { class: 'mcp-public', args: () => ({ mode: 'draw' }) },
  open_board: { class: 'mcp-read', board: 'draw', args: (b) => ({ board: `https://x.test/#${b.id}` }) },
  get_board: { class: 'mcp-read', board: 'draw' },
  get_preview: { class: 'mcp-read', board: 'draw' },
  add_text: { class: 'mcp-write', board: 'draw', args: () => ({ x: 0, y: 0, content: 'mcp' }) },
  add_link: { class: 'mcp-write', board: 'draw', args: () => ({ x: 0, y: 0, url: 'https://m.test/' }) },
  add_image: { class: 'mcp-write', board: 'draw', args: () => ({ x: 0, y: 0, width: 2, height: 2, dataUrl: PNG_1PX }) },
  draw_stroke: { class: 'mcp-write', board: 'draw', args: () => ({ points: [0, 0, 3, 3] }) },
  add_shape: {
    class: 'mcp-write',
    board: 'draw',
    args: () => ({ shape: 'diamond', x: 0, y: 0, width: 10, height: 10 }),
  },
  add_frame: { class: 'mcp-write', board: 'draw', args: () => ({ x: 0, y: 0, width: 100, height: 100 }) },
  move: { class: 'mcp-write', board: 'draw', args: (b) => ({ id: b.ids.text, x: 4, y: 4 }) },
  erase: { class: 'mcp-write', board: 'draw', args: (b) => ({ id: b.ids.stroke }) },
  wait_for_update: { class: 'mcp-read', board: 'draw', args: () => ({ timeout_ms: 1000 }) },
  set_board_mode: { class: 'mcp-write', board: 'empty', args: () => ({ mode: 'todo', template: 'bugs' }) },
  set_board_title: { class: 'mcp-write', board: 'draw', args: () => ({ title: 'Named' }) },
  create_column: { class: 'mcp-write', board: 'todo', args: () => ({ title: 'C', sort: 5 }) },
  update_column: { class: 'mcp-write', board: 'todo', args: (b) => ({ id: b.ids.column, title: 'A2' }) },
  delete_column: { class: 'mcp-write', board: 'todo', args: (b) => ({ id: b.ids.column2 }) },
  create_task: { class: 'mcp-write', board: 'todo', args: (b) => ({ column_id: b.ids.column, name: 'n' }) },
  update_task: { class: 'mcp-write', board: 'todo', args: (b) => ({ id: b.ids.task, name: 'renamed' }) },
  move_task: {
    class: 'mcp-write',
    board: 'todo',
    args: (b) => ({ id: b.ids.task, column_id: b.ids.column2, sort: 0 }),
  },
  delete_task: { class: 'mcp-write', board: 'todo', args: (b) => ({ id: b.ids.task }) },
  set_lane: { class: 'mcp-write', board: 'todo', args: () => ({ lane: 1, title: 'Row' }) },
  set_column_width: { class: 'mcp-write', board: 'todo', args: () => ({ width: 300 }) },
  create_tasks: {
    class: 'mcp-write',
    board: 'todo',
    args: (b) => ({ tasks: [{ column_id: b.ids.column, name: 'a' }] }),
  },
  batch: {
    class: 'mcp-write',
    board: 'draw',
    args: () => ({
      ops: [
        { type: 'add_text', ref: 't', x: 0, y: 0, content: 'b' },
        { type: 'move', id: '$t', x: 1, y: 1 },
      ],
    }),
  },
  query_tasks: { class: 'mcp-read', board: 'todo', args: () => ({ done: false }) },
  export_tasks: { class: 'mcp-read', board: 'todo', args: () => ({ format: 'markdown' }) },
  list_tasks: { class: 'mcp-read', board: 'todo' },
  find_items: { class: 'mcp-read', board: 'todo', args: () => ({ text: 'a' }) },
  list_versions: { class: 'mcp-read', board: 'versioned', args: () => ({ limit: 10 }) },
  get_changes: { class: 'mcp-read', board: 'versioned', args: () => ({ since: 1 }) },
  restore_version: { class: 'mcp-write', board: 'versioned', args: () => ({ version: 1 }) },
  view_links: { class: 'mcp-write', board: 'draw', args: () => ({ action: 'create' }) },
};

type ResourceSpec = {
  class: Class;
  board: BoardKind;
  method: 'resources/read' | 'resources/subscribe';
  template: string;
};
const RESOURCES: Record<string, ResourceSpec> = {
  'read svc://board/{id}/state.json': {
    class: 'mcp-read',
    board: 'draw',
    method: 'resources/read',
    template: 'svc://board/{id}/state.json',
  },
  'read svc://board/{id}/preview.svg': {
    class: 'mcp-read',
    board: 'draw',
    method: 'resources/read',
    template: 'svc://board/{id}/preview.svg',
  },
  'read svc://board/{id}/tasks.json': {
    class: 'mcp-read',
    board: 'todo',
    method: 'resources/read',
    template: 'svc://board/{id}/tasks.json',
  },
  'subscribe svc://board/{id}/state.json': {
    class: 'mcp-read',
    board: 'draw',
    method: 'resources/subscribe',
    template: 'svc://board/{id}/state.json',
  },
  'subscribe svc://board/{id}/tasks.json': {
    class: 'mcp-read',
    board: 'todo',
    method: 'resources/subscribe',
    template: 'svc://board/{id}/tasks.json',
  },
  'read svc://board/{id}/versions/{version}/state.json': {
    class: 'mcp-read',
    board: 'versioned',
    method: 'resources/read',
    template: 'svc://board/{id}/versions/{version}/state.json',
  },
};

function mcpOutcome(answer: RpcAnswer, lockMode: Mode): string {
  const error = answer.body?.error;
  if (error?.code === -32001 && error.data?.code === 'board_locked' && error.data?.lockMode === lockMode)
    return '-32001';
  if (error) return `error ${error.code} ${JSON.stringify(error.data ?? error.message)}`;
  const result = answer.body?.result;
  if (result && !result.isError) return 'ok';
  return `isError ${String(result?.content?.[0]?.text ?? answer.text).slice(0, 120)}`;
}

// ---------------------------------------------------------------------------
// JSON frames, in an order in which each succeeds on a fresh board when allowed

type FrameSpec = [type: string, args: (b: Board) => Record<string, unknown>];
const DRAW_FRAMES: FrameSpec[] = [
  ['add_text', () => ({ x: 0, y: 0, content: 'frame' })],
  ['add_link', () => ({ x: 0, y: 0, url: 'https://f.test/' })],
  ['add_image', () => ({ x: 0, y: 0, width: 2, height: 2, dataUrl: PNG_1PX })],
  ['draw_stroke', () => ({ points: [0, 0, 1, 1] })],
  ['add_shape', () => ({ shape: 'ellipse', x: 0, y: 0, width: 10, height: 10 })],
  ['add_frame', () => ({ x: 0, y: 0, width: 100, height: 100 })],
  ['move', (b) => ({ id: b.ids.text, x: 5, y: 5 })],
  ['recolor', (b) => ({ ids: [b.ids.text], color: 'red' })],
  ['erase', (b) => ({ id: b.ids.stroke })],
  ['set_board_title', () => ({ title: 'Framed' })],
  ['batch', () => ({ ops: [{ type: 'add_text', x: 1, y: 1, content: 'batched' }] })],
];
const TODO_FRAMES: FrameSpec[] = [
  ['create_column', () => ({ title: 'C', sort: 5 })],
  ['update_column', (b) => ({ id: b.ids.column, title: 'A2' })],
  ['create_task', (b) => ({ column_id: b.ids.column, name: 'n' })],
  ['update_task', (b) => ({ id: b.ids.task, name: 'renamed' })],
  ['move_task', (b) => ({ id: b.ids.task, column_id: b.ids.column2, sort: 0 })],
  ['delete_task', (b) => ({ id: b.ids.task })],
  ['lane_upsert', () => ({ lane: 1, title: 'Row' })],
  ['set_column_width', () => ({ width: 300 })],
  ['delete_column', (b) => ({ id: b.ids.column2 })],
];
const FRAMES: Record<'draw' | 'todo', FrameSpec[]> = { draw: DRAW_FRAMES, todo: TODO_FRAMES };

/** The class of every row, keyed as docs/security.md names them (`Surface: name`). */
const CLASS_OF: Record<string, Class> = {
  ...Object.fromEntries(Object.entries(REST).map(([route, spec]) => [`REST: ${route}`, spec.class])),
  ...Object.fromEntries(Object.entries(TOOLS).map(([tool, spec]) => [`MCP tool: ${tool}`, spec.class])),
  ...Object.fromEntries(Object.entries(RESOURCES).map(([name, spec]) => [`MCP resource: ${name}`, spec.class])),
  ...Object.fromEntries([...DRAW_FRAMES, ...TODO_FRAMES].map(([type]) => [`JSON frame: ${type}`, 'ws-frame' as Class])),
};

// ---------------------------------------------------------------------------

/** The rows of the first Markdown table after a heading, cells trimmed and unquoted. */
function tableAfter(markdown: string, heading: string): string[][] {
  const lines = markdown.split('\n');
  const start = lines.indexOf(heading);
  expect(start, `docs/security.md has no "${heading}"`).toBeGreaterThan(-1);
  const first = lines.findIndex((line, i) => i > start && line.startsWith('|'));
  const table: string[][] = [];
  for (let i = first; i < lines.length && lines[i].startsWith('|'); i++) {
    table.push(
      lines[i]
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim().replace(/^`(.*)`$/, '$1')),
    );
  }
  return table;
}

beforeAll(() => {
  db = new Database(join(t.server.dataDir, DATABASE_FILE));
});
afterAll(() => db?.close());

describe('the lock table', () => {
  it('docs/security.md holds exactly the table this test asserts', async () => {
    const doc = await readFile(fileURLToPath(new URL('../docs/security.md', import.meta.url)), 'utf8');
    const byClass = tableAfter(doc, '### Outcome by class');
    expect(byClass[0]).toEqual(['Class', ...COLUMNS]);
    expect(Object.fromEntries(byClass.slice(2).map(([cls, ...cells]) => [cls, cells]))).toEqual(OUTCOMES);
    const classes = tableAfter(doc, '### Class of every route, tool, resource and frame');
    expect(classes[0]).toEqual(['Surface', 'Name', 'Class']);
    expect(Object.fromEntries(classes.slice(2).map(([surface, name, cls]) => [`${surface}: ${name}`, cls]))).toEqual(
      CLASS_OF,
    );
  });

  it('classifies every route of the route table, every tool, resource and frame type (a new one fails here)', async () => {
    const served = new Set<string>();
    const routes = t.server.server.routes;
    for (const { method, url } of routes) {
      if (method === 'OPTIONS' && url === '*') continue; // the CORS preflight of every path
      if (method === 'HEAD' && routes.some((r) => r.method === 'GET' && r.url === url)) continue; // answers as its GET (checked below)
      served.add(`${method} ${url}`);
    }
    expect([...served].sort()).toEqual(Object.keys(REST).sort());
    const mcp = await connectRawMcp(t.server.url);
    try {
      const tools = (await mcp.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).body.result.tools.map(
        (tool: { name: string }) => tool.name,
      );
      expect([...tools].sort()).toEqual(Object.keys(TOOLS).sort());
      const templates: string[] = (
        await mcp.send({ jsonrpc: '2.0', id: 2, method: 'resources/templates/list' })
      ).body.result.resourceTemplates.map((r: { uriTemplate: string }) => r.uriTemplate);
      const subscribable = templates.filter((uri) => SUBSCRIBABLE.has(uri.replace('svc://board/{id}/', '') as never));
      expect(Object.keys(RESOURCES).sort()).toEqual(
        [...templates.map((uri) => `read ${uri}`), ...subscribable.map((uri) => `subscribe ${uri}`)].sort(),
      );
    } finally {
      await mcp.close();
    }
    expect([...DRAW_FRAMES, ...TODO_FRAMES].map(([type]) => type).sort()).toEqual(
      [...MUTATION_FRAME_TYPES, 'batch'].sort(),
    );
  });
});

/** Each matrix makes hundreds of real calls: alone the MCP one takes about 20 s, beside a browser test on 2 cores past 30. */
const MATRIX_MS = 120_000;

describe('the lock matrix', () => {
  it(
    'REST: every route under every lock mode and key (HEAD answers as GET)',
    async () => {
      const matrix = new Matrix();
      const work = Object.entries(REST)
        .filter(([, spec]) => spec.request)
        .flatMap(([route, spec]) => CASES.map((cell, index) => ({ route, spec, cell, index })));
      await pool(work, 12, async ({ route, spec, cell, index }) => {
        const method = route.split(' ')[0];
        const board = spec.board ? await makeBoard(spec.board, cell) : undefined;
        const presented = board ? board.presented : keyWithoutBoard(cell);
        const { path, body } = spec.request!(board ?? ({} as Board));
        const headers: Record<string, string> = {};
        if (presented !== undefined && spec.class !== 'rest-verify') headers['x-board-key'] = presented;
        if (body !== undefined) headers['content-type'] = 'application/json';
        const send = (verb: string) =>
          t.api.request(verb, path, {
            body: body === undefined || verb === 'HEAD' ? undefined : JSON.stringify(body),
            headers,
          });
        const before = board && (await stateOf(board));
        const [res, head] = await Promise.all([send(method), spec.class === 'rest-read' ? send('HEAD') : undefined]);
        matrix.set(
          `REST: ${route}`,
          spec.class,
          index,
          await unchangedIfRefused(restOutcome(spec.class, res, cell.mode), board, before),
        );
        if (head)
          matrix.set(`REST: HEAD ${route.slice(4)}`, spec.class, index, restOutcome(spec.class, head, cell.mode));
      });
      expect(matrix.observed).toEqual(matrix.expected);
    },
    MATRIX_MS,
  );

  it(
    'MCP: every tool (key as access_key or X-Board-Key), every resource read and subscription',
    async () => {
      const matrix = new Matrix();
      const sessions = CASES.flatMap((cell, index) =>
        (['argument', 'header'] as const).map((channel) => ({ cell, index, channel })),
      );
      await pool(sessions, 6, async ({ cell, index, channel }) => {
        const sessionKey = keyWithoutBoard(cell);
        let mcp: RawMcp | undefined;
        const open = async (board?: Board) => {
          if (channel === 'argument') return (mcp ??= await connectRawMcp(t.server.url));
          // The header channel: one session per board, its X-Board-Key the key this cell presents.
          const key = board ? board.presented : sessionKey;
          return connectRawMcp(t.server.url, key === undefined ? {} : { 'x-board-key': key });
        };
        for (const [tool, spec] of Object.entries(TOOLS)) {
          const board = spec.board ? await makeBoard(spec.board, cell) : undefined;
          const session = await open(board);
          // open_board names its board by `board` and takes no board_id (an unknown argument is refused).
          const own = spec.args?.(board!) ?? {};
          const args = {
            ...(board && !('board' in own) && { board_id: board.id }),
            ...own,
            ...(channel === 'argument' && board?.presented !== undefined && { access_key: board.presented }),
          };
          const before = board && (await stateOf(board));
          const outcome = mcpOutcome(await session.call(tool, args), cell.mode);
          matrix.set(
            `MCP tool: ${tool} (${channel})`,
            spec.class,
            index,
            await unchangedIfRefused(outcome, board, before),
          );
          if (channel === 'header') await session.close();
        }
        for (const [name, spec] of Object.entries(RESOURCES)) {
          const board = await makeBoard(spec.board, cell);
          const session = await open(board);
          // Without a header, a session uses the key that opened the board in an earlier call.
          if (channel === 'argument' && board.presented !== undefined)
            await session.call('get_board', { board_id: board.id, access_key: board.presented });
          const uri = spec.template.replace('{id}', board.id).replace('{version}', '1'); // a versioned board's content is version 1
          const answer = await session.send({ jsonrpc: '2.0', id: `r-${name}`, method: spec.method, params: { uri } });
          matrix.set(`MCP resource: ${name} (${channel})`, spec.class, index, mcpOutcome(answer, cell.mode));
          if (channel === 'header') await session.close();
        }
        await mcp?.close();
      });
      expect(matrix.observed).toEqual(matrix.expected);
    },
    MATRIX_MS,
  );

  it('MCP transport: initialize, the notification stream and DELETE are open whatever key is sent', async () => {
    const matrix = new Matrix();
    await pool(
      CASES.map((cell, index) => ({ cell, index })),
      6,
      async ({ cell, index }) => {
        const key = keyWithoutBoard(cell);
        const headers: Record<string, string> = key === undefined ? {} : { 'x-board-key': key };
        let session: RawMcp | undefined;
        try {
          session = await connectRawMcp(t.server.url, headers);
          matrix.set('REST: POST /mcp', 'mcp-transport', index, 'ok');
        } catch (error) {
          matrix.set('REST: POST /mcp', 'mcp-transport', index, (error as Error).message.slice(0, 80));
          return;
        }
        const stream = await fetch(`${t.server.url}/mcp`, {
          headers: {
            ...headers,
            accept: 'text/event-stream',
            'mcp-session-id': session.sessionId,
            'mcp-protocol-version': '2025-06-18',
          },
          signal: AbortSignal.timeout(5_000),
        });
        matrix.set(
          'REST: GET /mcp',
          'mcp-transport',
          index,
          stream.status === 200 && (stream.headers.get('content-type') ?? '').startsWith('text/event-stream')
            ? 'ok'
            : `HTTP ${stream.status}`,
        );
        await stream.body?.cancel();
        const end = await fetch(`${t.server.url}/mcp`, {
          method: 'DELETE',
          headers: { ...headers, 'mcp-session-id': session.sessionId, 'mcp-protocol-version': '2025-06-18' },
        });
        matrix.set('REST: DELETE /mcp', 'mcp-transport', index, end.status === 200 ? 'ok' : `HTTP ${end.status}`);
      },
    );
    expect(matrix.observed).toEqual(matrix.expected);
  });

  it(
    '/ws/{boardId}: the upgrade and every frame type (key as svc-key.<key> subprotocol or deprecated ?key=)',
    async () => {
      const matrix = new Matrix();
      const work = CASES.flatMap((cell, index) =>
        (['subprotocol', 'query'] as const).flatMap((channel) =>
          (['draw', 'todo'] as const).map((kind) => ({ cell, index, channel, kind })),
        ),
      );
      await pool(work, 8, async ({ cell, index, channel, kind }) => {
        const board = await makeBoard(kind, cell);
        const key = board.presented;
        const frames = FRAMES[kind];
        const row = `REST: GET /ws/:boardId (${channel}, ${kind} board)`;
        let socket: JsonClient;
        try {
          socket = await connectJson(
            t.server.url,
            board.id,
            channel === 'subprotocol' ? { key } : { query: key === undefined ? '' : `?key=${key}` },
          );
        } catch (error) {
          const status = (error as { status?: number }).status;
          matrix.set(
            row,
            'ws-upgrade',
            index,
            status === 401 ? '401' : `refused ${status ?? (error as Error).message}`,
          );
          for (const [type] of frames)
            matrix.set(
              `JSON frame: ${type} (${channel})`,
              'ws-frame',
              index,
              status === 401 ? '401' : `refused ${status}`,
            );
          return;
        }
        try {
          const before = await stateOf(board);
          const hello = await socket.next((f) => f.type === 'hello');
          const echoed =
            channel === 'subprotocol' && key !== undefined ? socket.socket.protocol === `svc-key.${key}` : true;
          matrix.set(
            row,
            'ws-upgrade',
            index,
            !echoed ? `subprotocol not echoed: ${socket.socket.protocol}` : hello.readOnly ? 'read-only' : 'ok',
          );
          for (const [type, args] of frames) {
            socket.send({ ...args(board), type, ref: type });
            const reply: Frame = await socket.next((f) => f.ref === type);
            const outcome =
              reply.type === 'ack'
                ? 'ok'
                : reply.code === 'board_locked'
                  ? 'board_locked'
                  : `error ${reply.code}: ${reply.message}`;
            matrix.set(
              `JSON frame: ${type} (${channel})`,
              'ws-frame',
              index,
              await unchangedIfRefused(outcome, board, before),
            );
          }
        } finally {
          socket.close();
        }
      });
      expect(matrix.observed).toEqual(matrix.expected);
    },
    MATRIX_MS,
  );

  it(
    '/collab: authentication and whether an update is kept (key as the Hocuspocus token)',
    async () => {
      const matrix = new Matrix();
      await pool(
        CASES.map((cell, index) => ({ cell, index })),
        12,
        async ({ cell, index }) => {
          const board = await makeBoard('draw', cell);
          const yjs = connectYjs(t.server.url, board.id, { token: board.presented });
          try {
            try {
              await yjs.synced;
            } catch (error) {
              matrix.set(
                'REST: GET /collab',
                'yjs',
                index,
                /board_locked/.test((error as Error).message) ? 'refused' : (error as Error).message,
              );
              return;
            }
            const id = `yjs-${cell.mode}-${cell.key}`;
            yjs.doc.getMap('texts').set(id, {
              id,
              x: 0,
              y: 0,
              content: 'from yjs',
              author: 'user:matrix',
              last_updated: new Date().toISOString(),
            });
            const kept = await keptWithin(board, id, 2_000);
            const scope = yjs.provider.authorizedScope;
            const outcome =
              kept && scope === 'read-write'
                ? 'ok'
                : !kept && scope === 'readonly'
                  ? 'read-only'
                  : `kept=${kept} scope=${scope}`;
            matrix.set('REST: GET /collab', 'yjs', index, outcome);
          } finally {
            yjs.destroy();
          }
        },
      );
      expect(matrix.observed).toEqual(matrix.expected);
    },
    MATRIX_MS,
  );
});

/** Whether a text with this id shows up in the board's /json within `ms`. */
async function keptWithin(board: Board, id: string, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    const res = await t.api.get(`/json/${board.id}`, board.realKey ? { 'x-board-key': board.realKey } : {});
    if (res.body.texts?.some((text: { id: string }) => text.id === id)) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// ---------------------------------------------------------------------------

describe('the wrong-key budget (rate limits on)', () => {
  it(`is one per client and board across surfaces: after ${KEY_FREE_FAILURES + 1} wrong keys anywhere, the client's right key waits everywhere`, async () => {
    // One client (every request comes from this machine); other clients are test/key-guessing.test.ts's business.
    const server = await startServer({ RATE_LIMITS: 'on' }, { now: () => Date.parse('2026-04-01T00:00:00Z') });
    const api = client(server.url);
    const mcp = await connectRawMcp(server.url);
    try {
      const { id, access_key: key } = (await api.post('/api/boards', { lock: 'all' })).body;
      let presented = 0;
      const wrong = () => `wrong${String(presented++).padStart(3, '0')}`; // a new guess each time: a repeated one is not counted
      const guesses: (() => Promise<string>)[] = [
        async () => String((await api.get(`/json/${id}`, { 'x-board-key': wrong() })).status),
        async () => mcpOutcome(await mcp.call('get_board', { board_id: id, access_key: wrong() }), 'all'),
        async () =>
          connectJson(server.url, id, { key: wrong() }).then(
            () => 'opened',
            (error) => String(error.status),
          ),
        async () => {
          const yjs = connectYjs(server.url, id, { token: wrong() });
          try {
            return await yjs.synced.then(
              () => 'synced',
              (error: Error) => (/board_locked/.test(error.message) ? 'refused' : error.message),
            );
          } finally {
            yjs.destroy();
          }
        },
        async () => String((await api.post(`/api/boards/${id}/verify-key`, { key: wrong() })).body.ok),
      ];
      const answers: string[] = [];
      const failures = KEY_FREE_FAILURES + 1;
      for (let i = 0; i < failures; i++) answers.push(await guesses[i % guesses.length]());
      const refusals = ['401', '-32001', '401', 'refused', 'false']; // REST, MCP, /ws, /collab, verify-key: each refuses the wrong key
      expect(answers).toEqual(Array.from({ length: failures }, (_, i) => refusals[i % refusals.length]));
      const wait = KEY_BACKOFF_FIRST_MS / 1000;
      const rest = await api.get(`/json/${id}`, { 'x-board-key': key });
      expect([rest.status, rest.body.retryAfterSeconds, rest.headers.get('retry-after')]).toEqual([
        429,
        wait,
        String(wait),
      ]);
      expect((await mcp.call('get_board', { board_id: id, access_key: key })).body.error).toMatchObject({
        code: -32000,
        data: { code: 'rate_limited', retryAfterSeconds: wait },
      });
      await expect(connectJson(server.url, id, { key })).rejects.toMatchObject({
        status: 429,
        body: { code: 'rate_limited', retryAfterSeconds: wait },
      });
      const yjs = connectYjs(server.url, id, { token: key });
      await expect(yjs.synced).rejects.toThrow(`rate_limited; retryAfterSeconds=${wait}`);
      yjs.destroy();
    } finally {
      await mcp.close();
      await server.close();
    }
  });
});

// ---------------------------------------------------------------------------

describe('keys stay secret', () => {
  it('a key never appears in logs (header, ?key=, subprotocol, token, access_key), error bodies, snapshots or documents', async () => {
    const dataDir = await tempDataDir();
    const child = await startLoggedChildServer(dataDir, { LOG_LEVEL: 'info' });
    const api = client(child.url);
    const seen: string[] = []; // every answer that carried no key of its own: error bodies, snapshots, frames
    const key = (
      await api.post('/api/boards', {
        mode: 'draw',
        lock: 'all',
        content: { texts: [{ x: 0, y: 0, content: 'secret board' }] },
      })
    ).body;
    const other = (await api.post('/api/boards', { mode: 'todo', lock: 'write' })).body;
    const open = (await api.post('/api/boards')).body;
    const { id, access_key: secret } = key;
    expect(secret).toMatch(/^[a-z0-9]{8}$/);
    const withKey = { 'x-board-key': secret };
    try {
      // REST: the header on reads, writes and lock calls; the key presented where it is wrong too
      for (const path of [
        `/json/${id}`,
        `/api/boards/${id}`,
        `/svg-preview/${id}`,
        `/api/boards/${id}/tasks.md`,
        `/api/boards/${id}/meta`,
        `/json/${id}?key=${secret}`,
      ]) {
        seen.push((await api.get(path, withKey)).text);
      }
      seen.push((await api.post(`/api/boards/${id}/texts`, { x: 1, y: 1, content: 'with key' }, withKey)).text);
      seen.push((await api.post(`/api/boards/${id}/lock`, { mode: 'all' }, withKey)).text);
      seen.push((await api.post(`/api/boards/${id}/verify-key`, { key: secret })).text);
      seen.push((await api.post(`/api/boards/${id}/verify-key`, { key: secret.toUpperCase() })).text);
      seen.push((await api.post(`/api/boards/${other.id}/texts`, { x: 0, y: 0, content: 'x' }, withKey)).text);
      seen.push((await api.post(`/api/boards/${other.id}/lock`, { mode: 'all' }, withKey)).text);
      seen.push((await api.post(`/api/boards/${open.id}/verify-key`, { key: secret })).text);
      seen.push((await api.get(`/json/${id}`, { 'x-board-key': `${secret}x` })).text);
      // WebSocket: the subprotocol, and the deprecated ?key= however its name is spelled
      for (const options of [
        { key: secret },
        { query: `?key=${secret}` },
        { query: `?%6Bey=${secret}` },
        { query: `?ke%79=${secret}&key=${secret}` },
        { query: `?client=x&key=${secret}` },
      ]) {
        const socket = await openJson(child.url, id, options);
        seen.push(JSON.stringify(socket.snapshot));
        socket.close();
      }
      const reader = await connectJson(child.url, other.id, { key: secret }); // a wrong key: read-only
      reader.send({ type: 'add_text', ref: 'r', x: 0, y: 0, content: 'x' });
      seen.push(JSON.stringify(await reader.next((f) => f.ref === 'r')));
      reader.close();
      await expect(
        connectJson(child.url, '00000000-0000-4000-8000-000000000000', { key: secret }),
      ).rejects.toMatchObject({ status: 404 });
      // Yjs: the token
      const yjs = connectYjs(child.url, id, { token: secret });
      await yjs.synced;
      seen.push(JSON.stringify(yjs.doc.toJSON()));
      yjs.destroy();
      // MCP: the access_key argument and the X-Board-Key header
      const byArgument = await connectRawMcp(child.url);
      seen.push((await byArgument.call('get_board', { board_id: id, access_key: secret })).text);
      seen.push(
        (await byArgument.call('add_text', { board_id: other.id, access_key: secret, x: 0, y: 0, content: 'x' })).text,
      );
      seen.push((await byArgument.call('get_board', { board_id: id, access_key: secret.toUpperCase() })).text);
      seen.push(
        (
          await byArgument.send({
            jsonrpc: '2.0',
            id: 'res',
            method: 'resources/read',
            params: { uri: `svc://board/${id}/state.json` },
          })
        ).text,
      );
      await byArgument.close();
      const byHeader = await connectRawMcp(child.url, withKey);
      seen.push((await byHeader.call('list_tasks', { board_id: id })).text);
      seen.push((await byHeader.call('export_tasks', { board_id: id, format: 'csv' })).text);
      await byHeader.close();

      // Logging was on and the credential channels were seen, so a clean log means something.
      const log = child.output();
      expect(log).toContain('"msg":"request"');
      expect(log).toContain('[redacted]');
      expect(log).toContain('deprecated ?key=');
      expect(log.includes(secret), 'the key is in the server log').toBe(false);
      expect(
        seen.filter((text) => text.includes(secret)),
        'an answer repeats the key',
      ).toEqual([]);
    } finally {
      await child.stop();
    }
    // Nothing on disk holds it: documents, journal and registry (which keeps only its hash).
    for (const file of await readdir(dataDir))
      expect((await readFile(join(dataDir, file))).includes(secret), file).toBe(false);
    await rm(dataDir, { recursive: true, force: true });
  });
});
