/**
 * MCP reads stay within a context window on boards at their quotas: every
 * read tool answers at most READ_PAGE_MAX_BYTES of JSON text by default, on
 * both eras; lists page with `cursor` / `next_cursor` and the pages together
 * are the whole, each item once; strokes come as bbox and pointCount unless
 * points are asked for; the outline stays within OUTLINE_MAX_BYTES;
 * find_items finds; REST pages where it lists.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpToolOutputs } from '../host/operations/operations.js';
import {
  MAX_STROKE_POINTS,
  MAX_STROKES,
  MAX_TASKS,
  MAX_TEXT_CHARS,
  MAX_TEXT_NODES,
  OUTLINE_MAX_BYTES,
  READ_PAGE_MAX_BYTES,
} from '../schema/index.js';
import { connectMcp, connectModernMcp, type McpClient, refusalOf } from './helpers/mcp.js';
import { useServer } from './helpers/server.js';

const t = useServer({ RATE_LIMITS: 'off' });
let modern: McpClient;
let legacy: McpClient;
let draw: { id: string; texts: string[]; lines: string[]; big: string; long: string };
let todo: { id: string; tasks: string[]; columns: string[] };

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');
/** A tool's answer: its JSON text, its size, and the parsed result. */
async function read(client: McpClient, name: string, args: Record<string, unknown>) {
  const result = await client.raw(name, args);
  if (result.isError) throw new Error(`${name}: ${result.content[0].text}`);
  const text: string = result.content[0].text;
  const body = JSON.parse(text);
  // Each answer is what the tool's result schema promises.
  McpToolOutputs[name as keyof typeof McpToolOutputs].parse(body);
  return { text, size: bytes(text), body };
}

/** Every page of a read, following next_cursor; each page within the budget. */
async function pages(client: McpClient, name: string, args: Record<string, unknown>) {
  const all: any[] = [];
  let cursor: string | undefined;
  do {
    const { size, body } = await read(client, name, { ...args, ...(cursor && { cursor }) });
    expect(size, `${name} page ${all.length}`).toBeLessThanOrEqual(READ_PAGE_MAX_BYTES);
    all.push(body);
    cursor = body.next_cursor;
  } while (cursor && all.length < 2000);
  return all;
}

const ids = (items: { id: string }[]) => items.map((item) => item.id);
const expectOnce = (seen: string[], whole: string[]) => {
  expect(new Set(seen).size, 'no item twice').toBe(seen.length);
  expect([...seen].sort()).toEqual([...whole].sort());
};

beforeAll(async () => {
  [modern, legacy] = await Promise.all([connectModernMcp(t.server.url), connectMcp(t.server.url)]);
  // A draw board at its quotas: 500 texts of 2 000 characters, 2000 strokes (one of 10 000 points).
  const texts = Array.from({ length: MAX_TEXT_NODES }, (_, i) => ({
    x: (i % 25) * 300,
    y: Math.floor(i / 25) * 300,
    content: `Note ${i} ${i === 7 ? 'needle in the haystack ' : ''}${'lorem ipsum é '.repeat(140)}`,
  }));
  const lines = Array.from({ length: MAX_STROKES }, (_, i) => ({
    points:
      i === 0
        ? Array.from({ length: MAX_STROKE_POINTS }, (_, p) => [p, p % 100])
        : [
            [i, 0],
            [i + 10, 20],
            [i + 20, 5],
          ],
  }));
  const created = await t.api.post('/api/boards', { mode: 'draw', title: 'Full board', content: { texts, lines } });
  expect(created.status).toBe(200);
  const id = created.body.id;
  // Two texts at the content limit, one of them escape-heavy.
  const big = created.body.ids.texts[1];
  const long = created.body.ids.texts[2];
  await t.api.post(`/api/boards/${id}/texts`, { id: big, x: 0, y: 0, content: 'x'.repeat(MAX_TEXT_CHARS) });
  await t.api.post(`/api/boards/${id}/texts`, { id: long, x: 0, y: 0, content: '"\n'.repeat(MAX_TEXT_CHARS / 2) });
  draw = { id, texts: created.body.ids.texts, lines: created.body.ids.lines, big, long };
  // Once that is a version, 100 texts change: get_changes since it has pages to give.
  while (!(await t.api.get(`/api/boards/${id}/versions`)).body.versions.length)
    await new Promise((resolve) => setTimeout(resolve, 200));
  for (const [i, text] of draw.texts.slice(100, 200).entries())
    await t.api.post(`/api/boards/${id}/texts`, { id: text, x: i, y: 0, content: 'changed '.repeat(250) });

  // A todo board at its quotas: 200 columns in 10 lanes, 1000 tasks with long descriptions.
  const columns = Array.from({ length: 200 }, (_, i) => ({ title: `Column ${i} ${'c'.repeat(150)}`, lane: i % 10 }));
  const tasks = Array.from({ length: MAX_TASKS }, (_, i) => ({
    columnIndex: i % 200,
    name: `Task ${i}${i === 42 ? ' launch checklist' : ''}`,
    // One task at the field limits, the rest with descriptions a few lines long.
    description: 'd'.repeat(i === 3 ? 20_000 : 500),
    ...(i === 3 && { content: JSON.stringify({ note: 'n'.repeat(19_000) }) }),
    assignee: i % 2 ? 'Alice' : 'Bob',
  }));
  const lanes = Array.from({ length: 10 }, (_, lane) => ({ lane, title: `Lane ${lane} ${'l'.repeat(190)}` }));
  const todoBoard = await t.api.post('/api/boards', { mode: 'todo', content: { columns, tasks, lanes } });
  expect(todoBoard.status).toBe(200);
  todo = { id: todoBoard.body.id, tasks: todoBoard.body.ids.tasks, columns: todoBoard.body.ids.columns };
}, 60_000);
afterAll(() => Promise.all([modern?.close(), legacy?.close()]));

describe('every read tool answers at most 16 KB by default on a board at its quotas', () => {
  it.each([
    ['2026-07-28', () => modern],
    ['2025 session', () => legacy],
  ])('%s', async (_era, client) => {
    const reads: [string, Record<string, unknown>][] = [
      ['get_board', { board_id: draw.id }],
      ['get_board', { board_id: todo.id }],
      ['get_board', { board_id: draw.id, detail: 'outline' }],
      ['get_board', { board_id: todo.id, detail: 'outline' }],
      ['list_tasks', { board_id: todo.id }],
      ['query_tasks', { board_id: todo.id, assignee: 'alice' }],
      ['export_tasks', { board_id: todo.id, format: 'csv' }],
      ['export_tasks', { board_id: todo.id, format: 'markdown' }],
      ['list_versions', { board_id: draw.id }],
      ['get_changes', { board_id: draw.id, since: 1 }],
      ['find_items', { board_id: draw.id, text: 'lorem' }],
      ['find_items', { board_id: todo.id, assignee: 'bob' }],
      ['get_preview', { board_id: draw.id }],
      ['get_preview', { board_id: todo.id }],
    ];
    for (const [name, args] of reads) {
      const { size, body } = await read(client(), name, args);
      expect(size, `${name} ${JSON.stringify(args)}`).toBeLessThanOrEqual(READ_PAGE_MAX_BYTES);
      if (args.detail === 'outline') expect(size).toBeLessThanOrEqual(OUTLINE_MAX_BYTES);
      else if (!['list_versions', 'get_preview'].includes(name))
        expect(body.next_cursor, name).toEqual(expect.any(String));
    }
  });
});

describe('paging reaches every item exactly once', () => {
  it('get_board on a draw board: every text, stroke and image, strokes as bbox and pointCount', async () => {
    const all = await pages(modern, 'get_board', { board_id: draw.id });
    expect(all.length).toBeGreaterThan(10);
    for (const page of all) expect(page).toMatchObject({ boardId: draw.id, mode: 'draw', title: 'Full board' });
    expectOnce(
      all.flatMap((page) => ids(page.texts)),
      draw.texts,
    );
    expectOnce(
      all.flatMap((page) => ids(page.lines)),
      draw.lines,
    );
    const strokes = all.flatMap((page) => page.lines);
    expect(strokes.every((stroke) => stroke.points === undefined)).toBe(true);
    expect(strokes.find((stroke) => stroke.id === draw.lines[0])).toMatchObject({
      pointCount: MAX_STROKE_POINTS,
      bbox: { x: 0, y: 0, width: MAX_STROKE_POINTS - 1, height: 99 },
    });
    // A text over the budget alone comes cut, marked, and whole when named.
    const texts = all.flatMap((page) => page.texts);
    for (const id of [draw.big, draw.long]) {
      const cut = texts.find((text) => text.id === id);
      expect(cut.truncated).toBe(true);
      expect(cut.content.length).toBeLessThan(MAX_TEXT_CHARS);
    }
    const whole = await read(modern, 'get_board', {
      board_id: draw.id,
      ids: [draw.long, draw.lines[0]],
      include_points: true,
    });
    expect(whole.body.texts).toHaveLength(1);
    expect(whole.body.texts[0].content).toBe('"\n'.repeat(MAX_TEXT_CHARS / 2));
    expect(whole.body.texts[0].truncated).toBeUndefined();
    const named = [
      ...whole.body.lines,
      ...(
        await read(modern, 'get_board', {
          board_id: draw.id,
          ids: [draw.long, draw.lines[0]],
          include_points: true,
          cursor: whole.body.next_cursor,
        })
      ).body.lines,
    ];
    expect(named[0].points).toHaveLength(MAX_STROKE_POINTS);
  });

  it('get_board on a small board is the whole snapshot, byte for byte what /json gives but for strokes', async () => {
    const created = await t.api.post('/api/boards', {
      mode: 'draw',
      content: {
        texts: [{ x: 1, y: 2, content: 'hi' }],
        lines: [
          {
            points: [
              [0, 0],
              [3, 4],
            ],
          },
        ],
      },
    });
    const { text, body } = await read(modern, 'get_board', { board_id: created.body.id });
    const snapshot = (await t.api.get(`/json/${created.body.id}`)).body;
    const { points: _points, ...stroke } = snapshot.lines[0];
    expect(text).toBe(
      JSON.stringify({ ...snapshot, lines: [{ ...stroke, pointCount: 2, bbox: { x: 0, y: 0, width: 3, height: 4 } }] }),
    );
    expect(body.next_cursor).toBeUndefined();
  });

  it('get_board, list_tasks and query_tasks on a todo board: every column, lane and task once, in board order', async () => {
    const board = await pages(modern, 'get_board', { board_id: todo.id });
    const large = board.flatMap((page) => page.tasks).find((task) => task.id === todo.tasks[3]);
    expect(large).toMatchObject({ truncated: true, name: 'Task 3' });
    expectOnce(
      board.flatMap((page) => ids(page.tasks)),
      todo.tasks,
    );
    expectOnce(
      board.flatMap((page) => ids(page.columns)),
      todo.columns,
    );
    const listed = await pages(modern, 'list_tasks', { board_id: todo.id });
    const tasks = listed.flatMap((page) => page.tasks);
    expectOnce(ids(tasks), todo.tasks);
    expect(listed.flatMap((page) => page.lanes)).toHaveLength(10);
    expect(listed[0]).toMatchObject({ mode: 'todo', colWidth: 280 });
    // Board order: by the column's lane and place, then the task's.
    const columns = listed.flatMap((page) => page.columns);
    expect(ids(columns)).toEqual(ids((await t.api.get(`/json/${todo.id}`)).body.columns));
    const place = new Map(columns.map((column: { id: string }, index: number) => [column.id, index]));
    const order = tasks.map((task: any) => place.get(task.column_id)! * 10_000 + task.sort);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    const alice = await pages(modern, 'query_tasks', { board_id: todo.id, assignee: 'Alice' });
    expectOnce(
      alice.flatMap((page) => ids(page.tasks)),
      todo.tasks.filter((_, i) => i % 2),
    );
    expect(alice[0].count).toBe(500);
  });

  it('export_tasks pages join into the whole export; get_preview of a full board names its SVG beside the whole PNG', async () => {
    const parts = await pages(modern, 'export_tasks', { board_id: todo.id, format: 'csv' });
    const whole = await t.api.get(`/api/boards/${todo.id}/tasks.csv`);
    expect(parts.map((part) => part.content).join('')).toBe(whole.text);
    const preview = await modern.raw('get_preview', { board_id: draw.id });
    expect(preview.content.map((block: { type: string }) => block.type)).toEqual(['text', 'image', 'resource_link']);
    const svg = (await t.api.get(`/svg-preview/${draw.id}`)).text;
    expect(preview.structuredContent).toMatchObject({
      svg_uri: `svc://board/${draw.id}/preview.svg`,
      svg_bytes: Buffer.byteLength(svg),
    });
  });

  it('get_changes pages its lists; list_versions keeps before/next and says next_cursor', async () => {
    const changes = await pages(modern, 'get_changes', { board_id: draw.id, since: 1 });
    expect(changes.length).toBeGreaterThan(5);
    expect(changes.every((page) => page.from === 1)).toBe(true);
    expectOnce(
      changes.flatMap((page) => ids(page.updated)),
      draw.texts.slice(100, 200),
    );
    const versions = await pages(modern, 'list_versions', { board_id: draw.id, limit: 1 });
    expect(versions.flatMap((page) => page.versions).length).toBeGreaterThanOrEqual(1);
    const first = versions[0];
    if (first.next !== null) expect(first.next_cursor).toEqual(expect.any(String));
  });

  it('a cursor of another tool or board is refused as invalid_cursor', async () => {
    const { body } = await read(modern, 'list_tasks', { board_id: todo.id });
    const other = await modern.raw('get_board', { board_id: todo.id, cursor: body.next_cursor });
    expect(other.isError).toBe(true);
    expect(refusalOf(other)).toMatchObject({ code: 'invalid_cursor' });
    const forged = await modern.raw('list_tasks', { board_id: draw.id, cursor: body.next_cursor });
    expect(refusalOf(forged)).toMatchObject({ code: 'invalid_cursor' });
    const junk = await modern.raw('list_tasks', { board_id: todo.id, cursor: 'not-a-cursor' });
    expect(refusalOf(junk)).toMatchObject({ code: 'invalid_cursor' });
  });
});

describe('changes from an ETag no version holds', () => {
  it('page through every change since a read, each page from that ETag', async () => {
    // A fresh board: the ETag its first read hands out has not settled into a version.
    const created = await modern.call('create_board', {
      mode: 'todo',
      template: 'none',
      content: { columns: [{ title: 'Todo' }] },
    });
    const { etag } = await modern.call('get_board', { board_id: created.board_id, detail: 'outline' });
    const column = created.ids.columns[0];
    const ops = Array.from({ length: 300 }, (_, i) => ({
      type: 'create_task',
      column_id: column,
      name: `Task ${i} ${'t'.repeat(100)}`,
    }));
    const made = await modern.call('batch', { board_id: created.board_id, ops });
    const changes = await pages(modern, 'get_changes', { board_id: created.board_id, since_etag: etag });
    expect(changes.length).toBeGreaterThan(1);
    expect(changes.every((page) => page.from === null)).toBe(true);
    expectOnce(
      changes.flatMap((page) => ids(page.added)),
      ids(made.results),
    );
  });
});

describe('the outline', () => {
  it('counts, lanes and columns with task counts, versions, the newest edit and the first items in one line each', async () => {
    const { size, body } = await read(modern, 'get_board', { board_id: todo.id, detail: 'outline' });
    expect(size).toBeLessThanOrEqual(OUTLINE_MAX_BYTES);
    expect(body).toMatchObject({
      boardId: todo.id,
      mode: 'todo',
      counts: { columns: 200, lanes: 10, tasks: MAX_TASKS },
      versions: expect.any(Number),
      last_edit: { at: expect.any(String), author: 'ai:import' },
    });
    expect(body.lanes).toHaveLength(10);
    expect(body.lanes[0]).toMatchObject({ lane: 0, columns: 20, tasks: 100 });
    expect(body.columns[0]).toMatchObject({ id: expect.any(String), lane: 0, tasks: 5 });
    expect(body.items[0]).toMatch(/^task \S+ \[Column 0 c+…?\]: Task 0$/);
    expect(body.more.columns + body.columns.length).toBe(200);
    expect(body.more.items + body.items.length).toBe(MAX_TASKS);
    const drawn = await read(modern, 'get_board', { board_id: draw.id, detail: 'outline' });
    expect(drawn.size).toBeLessThanOrEqual(OUTLINE_MAX_BYTES);
    expect(drawn.body).toMatchObject({
      title: 'Full board',
      counts: { texts: 500, links: 0, strokes: 2000, images: 0 },
    });
    expect(drawn.body.items[0]).toMatch(/^text \S+ @0,0: Note 0 lorem/);
  });
});

describe('find_items', () => {
  it('finds texts by a substring in any case, tasks by text, column, lane and assignee, compact', async () => {
    const needle = await read(modern, 'find_items', { board_id: draw.id, text: 'NEEDLE in' });
    expect(needle.body).toMatchObject({ count: 1, items: [{ id: draw.texts[7], kind: 'texts', x: 2100, y: 0 }] });
    expect(needle.body.items[0].excerpt).toMatch(/needle in the haystack/);
    expect(needle.body.items[0].width).toEqual(expect.any(Number));
    const inBox = await pages(modern, 'find_items', { board_id: draw.id, bbox: { x: 0, y: 0, width: 10, height: 10 } });
    expect(inBox.flatMap((page) => ids(page.items))).toContain(draw.texts[0]);
    expect(inBox.flatMap((page) => ids(page.items))).not.toContain(draw.texts[499]);
    const launch = await read(modern, 'find_items', { board_id: todo.id, text: 'launch' });
    expect(launch.body).toMatchObject({
      count: 1,
      items: [
        { id: todo.tasks[42], kind: 'tasks', column_id: todo.columns[42], lane: 2, name: 'Task 42 launch checklist' },
      ],
    });
    const lane = await pages(modern, 'find_items', { board_id: todo.id, lane: 3, assignee: 'bob' });
    const found = lane.flatMap((page) => page.items);
    expect(found.length).toBe(lane[0].count);
    expect(found.every((item: any) => item.lane === 3 && item.assignee === 'Bob')).toBe(true);
    expectOnce(
      ids(found),
      todo.tasks.filter((_, i) => (i % 200) % 10 === 3 && i % 2 === 0),
    );
    const column = await read(modern, 'find_items', { board_id: todo.id, column_id: todo.columns[5], kind: 'tasks' });
    expect(column.body.count).toBe(5);
  });
});

describe('REST', () => {
  it('GET /api/boards/{id}/items finds as find_items does, in pages of `limit`', async () => {
    const first = await t.api.get(`/api/boards/${todo.id}/items?assignee=alice&limit=100`);
    expect(first.status).toBe(200);
    // At most `limit` items, and at most 16 KB, as on MCP.
    expect(first.body.items.length).toBeLessThanOrEqual(100);
    expect(first.body.items.length).toBeGreaterThan(50);
    expect(first.body.count).toBe(500);
    const seen = [...ids(first.body.items)];
    let cursor = first.body.next_cursor;
    while (cursor) {
      const next = await t.api.get(`/api/boards/${todo.id}/items?assignee=alice&limit=100&cursor=${cursor}`);
      seen.push(...ids(next.body.items));
      cursor = next.body.next_cursor;
    }
    expectOnce(
      seen,
      todo.tasks.filter((_, i) => i % 2),
    );
    const box = await t.api.get(`/api/boards/${draw.id}/items?bbox=2100,0,10,10&text=needle`);
    expect(ids(box.body.items)).toEqual([draw.texts[7]]);
    const bad = await t.api.get(`/api/boards/${draw.id}/items?kind=strokes`);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'invalid_payload', field: 'kind' });
  });

  it('GET /changes is whole by default, and pages by `limit` with next_cursor', async () => {
    const whole = await t.api.get(`/api/boards/${draw.id}/changes?since=1`);
    expect(whole.status).toBe(200);
    expect(whole.body.next_cursor).toBeUndefined();
    const all = [...whole.body.added, ...whole.body.updated, ...whole.body.removed].map((item) => item.id);
    const seen: string[] = [];
    let query = 'since=1&limit=500';
    for (;;) {
      const page = await t.api.get(`/api/boards/${draw.id}/changes?${query}`);
      expect(page.status).toBe(200);
      seen.push(...[...page.body.added, ...page.body.updated, ...page.body.removed].map((item) => item.id));
      if (!page.body.next_cursor) break;
      query = `cursor=${page.body.next_cursor}&limit=500`;
    }
    expectOnce(seen, all);
  });
});
