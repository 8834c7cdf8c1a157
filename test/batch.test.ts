/**
 * `batch`: many edits in one call, on MCP (both eras), REST and the /ws
 * channel, with one validator: ops named like the tools, at most
 * MAX_BATCH_OPS, all or none, a refused op named by its index with the same
 * code on every surface, compact results, and `"$ref"` naming an item an
 * earlier op of the batch made (an arrow anchored to post-its drawn with it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BATCH_OPS, MAX_BODY_BYTES, RATE_BOARD_STANDARD } from '../schema/index.js';
import { centreOf, expectOnEdge } from './helpers/edges.js';
import { client } from './helpers/http.js';
import { connectMcp, connectModernMcp, type McpClient, refusalOf } from './helpers/mcp.js';
import { openJson } from './helpers/realtime.js';
import { startServer, useServer } from './helpers/server.js';

const t = useServer();
let modern: McpClient;
let legacy: McpClient;

beforeAll(async () => {
  [modern, legacy] = await Promise.all([connectModernMcp(t.server.url), connectMcp(t.server.url)]);
});
afterAll(() => Promise.all([modern.close(), legacy.close()]));

const ERAS = [
  ['2026-07-28', () => modern],
  ['2025 session', () => legacy],
] as const;

const newBoard = async (mode: 'draw' | 'todo' = 'draw', headers: Record<string, string> = {}) =>
  (await t.api.post('/api/boards', { mode, template: 'kanban' }, headers)).body as { id: string; mode: string };
const snapshotOf = async (id: string, headers: Record<string, string> = {}) =>
  (await t.api.get(`/json/${id}`, headers)).body;

/** A refused tool call's code and details, whether it came as an isError result or a JSON-RPC error (2025, non-400s). */
async function mcpRefusal(mcp: McpClient, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  try {
    const result = await mcp.raw('batch', args);
    expect(result.isError, JSON.stringify(result)).toBe(true);
    return result.structuredContent ?? JSON.parse(result.content[0].text);
  } catch (error) {
    const { data } = error as { data?: Record<string, unknown> };
    if (!data) throw error;
    return data;
  }
}

/** Task B of issue "agents on real boards": post-its, a Mermaid diagram, arrows anchored between them and links. */
const architecture = [
  { type: 'add_text', ref: 'web', x: 0, y: 0, content: 'Web app', postit: true, width: 200 },
  { type: 'add_text', ref: 'api', x: 400, y: 0, content: 'API', postit: true, width: 200 },
  { type: 'add_text', ref: 'db', x: 800, y: 0, content: 'Database', postit: true, width: 200 },
  {
    type: 'add_text',
    ref: 'flow',
    x: 0,
    y: 300,
    content: '```mermaid\nflowchart LR\n  Web-->API\n  API-->|SQL|DB[(Postgres)]\n```',
  },
  ...[
    ['web', 'api'],
    ['api', 'db'],
  ].map(([from, to], i) => ({
    type: 'draw_stroke',
    ref: `arrow${i}`,
    points: [200 + 400 * i, 40, 400 + 400 * i, 40],
    color: 'blue',
    anchors: {
      start: { kind: 'text', id: `$${from}`, dx: 200, dy: 40 },
      end: { kind: 'text', id: `$${to}`, dx: 0, dy: 40 },
    },
  })),
  { type: 'add_link', x: 0, y: 600, url: 'https://docs.example.test/architecture' },
  { type: 'add_link', x: 300, y: 600, url: 'https://status.example.test/' },
  { type: 'set_board_title', title: 'Web-app architecture' },
];

describe('MCP batch', () => {
  it.each(ERAS)(
    'on %s: Task B in one call, anchored arrows between the post-its it makes, compact results',
    async (_era, mcp) => {
      const { board_id } = await mcp().call('create_board', { mode: 'draw' });
      const answer = await mcp().call('batch', { board_id, ops: architecture, author: 'ai:alpha' });
      expect(answer.ok).toBe(true);
      expect(answer.results).toHaveLength(architecture.length);
      const [web, api, db, flow, arrow0, arrow1, link] = answer.results;
      for (const result of [web, api, db, flow, arrow0, arrow1, link]) expect(result.id).toEqual(expect.any(String));
      // No echo of what was sent: no text, no URL, no stamps; what was made, and where.
      for (const result of answer.results) {
        for (const echo of ['content', 'points', 'url', 'author', 'last_updated'])
          expect(result).not.toHaveProperty(echo);
      }
      // A boxed result is its id and box: its place and looks were what the op sent.
      expect(web).toEqual({
        id: expect.any(String),
        created: true,
        bbox: { x: 0, y: 0, width: 200, height: expect.any(Number) },
      });
      // Routed edge to edge: from the right edge of Web app to the left edge of API, level with their centres.
      expect(arrow0).toMatchObject({ pointCount: 2, bbox: { x: 200, y: Math.floor(web.bbox.height / 2), width: 200 } });
      expect(link).toMatchObject({ kind: 'link', bbox: { x: 0, y: 600 } });
      expect(answer.results.at(-1)).toEqual({ ok: true, title: 'Web-app architecture' });
      expect(JSON.stringify(answer).length).toBeLessThan(2_000);

      const board = await mcp().call('get_board', { board_id });
      expect(board.title).toBe('Web-app architecture');
      expect(board.texts.map((text: { id: string }) => text.id).sort()).toEqual(
        [web.id, api.id, db.id, flow.id, link.id, answer.results[7].id].sort(),
      );
      expect(board.texts.find((text: { id: string }) => text.id === flow.id).content).toContain('flowchart LR');
      expect(board.texts.every((text: { author: string }) => text.author === 'ai:alpha')).toBe(true);
      const strokes = new Map(board.lines.map((line: { id: string }) => [line.id, line]));
      const middle = web.bbox.height / 2;
      expect((strokes.get(arrow0.id) as any).anchors).toEqual({
        start: { kind: 'text', id: web.id, dx: 200, dy: middle },
        end: { kind: 'text', id: api.id, dx: 0, dy: middle },
      });
      expect((strokes.get(arrow1.id) as any).anchors.end.id).toBe(db.id);
      // Anchored for real: moving the post-it re-routes the arrow edge to edge.
      await mcp().call('move', { board_id, id: api.id, x: 500, y: 100 });
      const moved = (await mcp().call('get_board', { board_id, include_points: true })).lines.find(
        (line: { id: string }) => line.id === arrow0.id,
      );
      const [from, to] = [web.bbox, { ...api.bbox, x: 500, y: 100 }];
      const [start, end] = moved.points.map(([x, y]: number[]) => ({ x, y }));
      expectOnEdge(start, from, centreOf(to), 0.2, 'start');
      expectOnEdge(end, to, centreOf(from), 0.2, 'end');
    },
  );

  it.each(ERAS)('on %s: a refused op names its index, and nothing of the batch is applied', async (_era, mcp) => {
    const { board_id } = await mcp().call('create_board', { mode: 'draw' });
    const before = await snapshotOf(board_id);
    const refusal = await mcpRefusal(mcp(), {
      board_id,
      ops: [
        { type: 'add_text', x: 0, y: 0, content: 'kept?' },
        { type: 'erase', id: 'no-such-item' },
      ],
    });
    expect(refusal).toMatchObject({ code: 'item_not_found', index: 1 });
    expect((await snapshotOf(board_id)).etag).toBe(before.etag);
  });

  it('todo: columns and their tasks in one call, a task naming the column made before it', async () => {
    const { board_id } = await modern.call('create_board', { mode: 'todo' });
    const answer = await modern.call('batch', {
      board_id,
      ops: [
        { type: 'create_column', ref: 'launch', title: 'Launch', sort: 10 },
        { type: 'set_lane', lane: 0, title: 'Marketing' },
        { type: 'lane_upsert', lane: 1, title: 'Engineering' },
        ...Array.from({ length: 15 }, (_, i) => ({
          type: 'create_task',
          column_id: '$launch',
          name: `Task ${i}`,
          description: 'x'.repeat(500),
          assignee: i % 2 ? 'ann' : 'bob',
        })),
      ],
    });
    const column = answer.results[0].id;
    expect(answer.results[1]).toEqual({ ok: true, lane: 0, title: 'Marketing' });
    expect(answer.results.slice(3).every((task: { column_id: string }) => task.column_id === column)).toBe(true);
    // A task's name and description are not echoed.
    expect(JSON.stringify(answer)).not.toContain('xxxx');
    const tasks = await modern.call('query_tasks', { board_id, assignee: 'ann' });
    expect(tasks.count).toBe(7);
    // The /ws batch takes the tools' names and refs alike, and acks the whole results.
    const ws = await openJson(t.server.url, board_id);
    ws.send({
      type: 'batch',
      ref: 'w',
      ops: [
        { type: 'set_lane', lane: 2, title: 'Ops' },
        { type: 'create_column', ref: 1, title: 'Runbooks', sort: 0, lane: 2 },
        { type: 'create_task', column_id: '$1', name: 'Pager rota' },
      ],
    });
    const ack = await ws.next((f) => f.ref === 'w');
    ws.close();
    expect(ack.result[0]).toEqual({ ok: true, lane: 2, title: 'Ops' });
    expect(ack.result[2]).toMatchObject({ column_id: ack.result[1].id, name: 'Pager rota' });
  });

  it('create_tasks answers the ids and their count, not the tasks; a refused task names its index', async () => {
    const { board_id } = await modern.call('create_board', { mode: 'todo' });
    const column = (await modern.call('list_tasks', { board_id })).columns[0].id;
    const tasks = Array.from({ length: 300 }, (_, i) => ({ column_id: column, name: `Task ${i}`, description: 'd' }));
    const answer = await modern.call('create_tasks', { board_id, tasks });
    expect(Object.keys(answer).sort()).toEqual(['count', 'ids', 'ok']);
    expect(answer.count).toBe(300);
    expect(new Set(answer.ids).size).toBe(300);
    expect(JSON.stringify(answer).length).toBeLessThan(300 * 45);
    const refused = await modern.raw('create_tasks', {
      board_id,
      tasks: [
        { column_id: column, name: 'fine' },
        { column_id: 'missing', name: 'bad' },
      ],
    });
    expect(refusalOf(refused)).toMatchObject({ field: 'column_id', index: 1 });
  });
});

describe('one validator: the same refused op, the same code and index on /ws, MCP and REST', () => {
  const cases: [string, Record<string, unknown>[], Record<string, unknown>][] = [
    [
      'an argument of the wrong type',
      [
        { type: 'add_text', x: 0, y: 0, content: 'a' },
        { type: 'add_text', x: 'left', y: 0, content: 'b' },
      ],
      { code: 'invalid_payload', index: 1, field: 'x' },
    ],
    [
      'an unknown key, named with the one meant',
      [{ type: 'draw_stroke', points: [0, 0, 1, 1], colour: 'red' }],
      { code: 'invalid_payload', index: 0, field: 'colour' },
    ],
    [
      'an unknown op type',
      [
        { type: 'add_text', x: 0, y: 0, content: 'a' },
        { type: 'add_texts', x: 0, y: 0, content: 'b' },
      ],
      { code: 'invalid_payload', index: 1, field: 'type' },
    ],
    [
      'a domain refusal',
      [
        { type: 'add_text', x: 0, y: 0, content: 'a' },
        { type: 'draw_stroke', points: [0, 0, 1, 1] },
        { type: 'move', id: 'missing', x: 1, y: 1 },
      ],
      { code: 'item_not_found', index: 2 },
    ],
    ['a todo op on a draw board', [{ type: 'create_column', title: 'C', sort: 0 }], { code: 'wrong_mode', index: 0 }],
    [
      'a "$ref" no earlier op has',
      [
        { type: 'add_text', ref: 'a', x: 0, y: 0, content: 'a' },
        { type: 'move', id: '$b', x: 1, y: 1 },
      ],
      { code: 'invalid_payload', index: 1, field: 'id' },
    ],
    [
      'a ref given twice',
      [
        { type: 'add_text', ref: 'a', x: 0, y: 0, content: 'a' },
        { type: 'add_text', ref: 'a', x: 0, y: 0, content: 'b' },
      ],
      { code: 'invalid_payload', index: 1, field: 'ref' },
    ],
  ];

  it.each(cases)('%s', async (_name, ops, expected) => {
    const { id } = await newBoard('draw');
    const before = await snapshotOf(id);
    const ws = await openJson(t.server.url, id);
    try {
      ws.send({ type: 'batch', ref: 'r', ops });
      const frame = await ws.next((f) => f.ref === 'r');
      expect(frame).toMatchObject({ type: 'error', ...expected });
      const rest = await t.api.post(`/api/boards/${id}/batch`, { ops });
      expect(rest.body).toMatchObject(expected);
      expect(rest.status).toBe(expected.code === 'item_not_found' ? 404 : 400);
      for (const [, mcp] of ERAS) expect(await mcpRefusal(mcp(), { board_id: id, ops })).toMatchObject(expected);
    } finally {
      ws.close();
    }
    expect((await snapshotOf(id)).etag).toBe(before.etag);
  });

  it(`refuses more than ${MAX_BATCH_OPS} ops on every surface, applying none`, async () => {
    const { id } = await newBoard('draw');
    const before = await snapshotOf(id);
    const ops = Array.from({ length: MAX_BATCH_OPS + 1 }, (_, i) => ({ type: 'draw_stroke', points: [i, 0, i, 1] }));
    const expected = { code: 'invalid_payload', field: 'ops' };
    const rest = await t.api.post(`/api/boards/${id}/batch`, { ops });
    expect([rest.status, rest.body]).toMatchObject([400, expected]);
    for (const [, mcp] of ERAS) expect(await mcpRefusal(mcp(), { board_id: id, ops })).toMatchObject(expected);
    const ws = await openJson(t.server.url, id);
    ws.send({ type: 'batch', ref: 'big', ops });
    expect(await ws.next((f) => f.ref === 'big')).toMatchObject({ type: 'error', ...expected });
    ws.close();
    expect((await snapshotOf(id)).etag).toBe(before.etag);
  });
});

describe('REST batch', () => {
  it(`applies ${MAX_BATCH_OPS} ops of a full-size body in one write, one result each`, async () => {
    const { id } = await newBoard('draw');
    // Each op near the largest a body of MAX_BATCH_OPS ops can hold: the batch fits under the body limit.
    const content = 'x'.repeat(Math.floor(MAX_BODY_BYTES / MAX_BATCH_OPS) - 200);
    const ops = Array.from({ length: MAX_BATCH_OPS }, (_, i) => ({ type: 'add_text', x: i, y: 0, content }));
    expect(JSON.stringify({ ops }).length).toBeLessThan(MAX_BODY_BYTES);
    const res = await t.api.post(`/api/boards/${id}/batch`, { ops, author: 'ai:bulk' });
    expect(res.status).toBe(200);
    expect(res.body.results).toHaveLength(MAX_BATCH_OPS);
    expect(res.text.length).toBeLessThan(MAX_BATCH_OPS * 120);
    const board = await snapshotOf(id);
    expect(board.texts).toHaveLength(MAX_BATCH_OPS);
    expect(new Set(board.texts.map((text: { author: string }) => text.author))).toEqual(new Set(['ai:bulk']));
  });

  it('a write lock needs the key; with it the batch applies', async () => {
    const { id } = await newBoard('draw');
    const { key } = (await t.api.post(`/api/boards/${id}/lock`, { mode: 'write' })).body;
    const ops = [{ type: 'add_text', x: 0, y: 0, content: 'locked' }];
    const refused = await t.api.post(`/api/boards/${id}/batch`, { ops });
    expect([refused.status, refused.body.code]).toEqual([401, 'board_locked']);
    expect(await mcpRefusal(modern, { board_id: id, ops })).toMatchObject({ code: 'board_locked' });
    expect((await snapshotOf(id)).texts).toEqual([]);
    const accepted = await t.api.post(`/api/boards/${id}/batch`, { ops }, { 'x-board-key': key });
    expect(accepted.status).toBe(200);
    expect((await modern.call('batch', { board_id: id, access_key: key, ops })).results).toHaveLength(1);
    expect((await snapshotOf(id)).texts).toHaveLength(2);
  });
});

describe('rate limit', () => {
  it('a batch counts as one request against its board, whatever its number of ops', async () => {
    const limited = await startServer({ RATE_LIMITS: 'on' }, { now: () => Date.parse('2026-06-01T00:00:00Z') });
    try {
      const api = client(limited.url);
      const { id } = (await api.post('/api/boards', { mode: 'draw' })).body;
      const ops = Array.from({ length: MAX_BATCH_OPS }, (_, i) => ({ type: 'draw_stroke', points: [i, 0, i, 1] }));
      expect((await api.post(`/api/boards/${id}/batch`, { ops })).status).toBe(200);
      for (let i = 1; i < RATE_BOARD_STANDARD; i++) expect((await api.get(`/json/${id}`)).status, `${i}`).toBe(200);
      expect((await api.get(`/json/${id}`)).status).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
