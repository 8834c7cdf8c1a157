/**
 * Every tool lists an outputSchema, and every tool's result matches it: each
 * tool is run on both eras by an SDK client that has read tools/list, so the
 * client itself checks each result against the listed JSON Schema (the v1
 * client as a 2025 session, the v2 client pinned to 2026-07-28), and the test
 * helpers check it against the row's zod schema. A refused call carries no
 * result to check, and the clients let it through as the isError it is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PNG_1PX } from './helpers/http.js';
import { connectMcp, connectModernMcp, type McpClient, refusalOf } from './helpers/mcp.js';
import { useServer } from './helpers/server.js';

const t = useServer();
let legacy: McpClient;
let modern: McpClient;
let toolNames: string[];

beforeAll(async () => {
  legacy = await connectMcp(t.server.url);
  modern = await connectModernMcp(t.server.url);
  // Read first, so that each client checks the results of the tools it has read.
  const { tools } = await legacy.client.listTools();
  await modern.client.listTools();
  toolNames = tools.map((tool) => tool.name);
});
afterAll(async () => {
  await legacy?.close();
  await modern?.close();
});

/** Runs every tool once through `mcp`, on a draw board and a todo board; answers the names it called. */
async function everyTool(mcp: McpClient): Promise<Set<string>> {
  const called = new Set<string>();
  const call = async (name: string, args: Record<string, unknown>) => {
    called.add(name);
    return mcp.call(name, args);
  };

  const draw = await call('create_board', {
    mode: 'draw',
    title: 'Outputs',
    content: {
      texts: [
        { sourceId: 'a', x: 0, y: 0, content: 'A' },
        { x: 0, y: 100, url: 'https://example.org/' },
      ],
      lines: [{ points: [0, 0, 40, 40], anchors: { start: { kind: 'text', id: 'a', dx: 0, dy: 0 } } }],
    },
  });
  const board_id = draw.board_id;
  expect(draw.imported).toMatchObject({ texts: 2, lines: 1 });
  await t.server.server.events.settling!(board_id);
  await call('open_board', { board: draw.url });
  const text = await call('add_text', { board_id, x: 10, y: 200, content: 'red?', color: '#ff0000' });
  expect(text.color).toBe('auto');
  const link = await call('add_link', { board_id, x: 10, y: 300, url: 'https://example.com/' });
  await call('add_image', { board_id, x: 200, y: 0, width: 10, height: 10, dataUrl: PNG_1PX, thumbDataUrl: PNG_1PX });
  await call('draw_stroke', {
    board_id,
    points: [
      [0, 0],
      [5, 5],
    ],
    color: 'magenta',
  });
  await call('move', { board_id, id: text.id, x: 20, y: 220 });
  await call('add_shape', { board_id, shape: 'ellipse', x: 0, y: 500, width: 80, height: 40, label: 'shape' });
  await call('add_frame', { board_id, x: -20, y: 480, width: 200, height: 100, title: 'frame' });
  const { etag } = await call('get_board', { board_id });
  await call('get_preview', { board_id });
  await call('get_board', { board_id, detail: 'outline' });
  await call('find_items', { board_id, text: 'red' });
  await call('batch', {
    board_id,
    ops: [
      { type: 'add_text', ref: 'b', x: 0, y: 400, content: 'in a batch' },
      {
        type: 'draw_stroke',
        points: [
          [0, 0],
          [9, 9],
        ],
        anchors: { end: { kind: 'text', id: '$b', dx: 0, dy: 0 } },
      },
    ],
  });
  await call('erase', { board_id, id: link.id });
  expect(await call('wait_for_update', { board_id, since_etag: etag })).toMatchObject({ updated: true });
  await call('set_board_title', { board_id, title: 'Outputs, renamed' });
  await t.server.server.events.settling!(board_id);
  const { versions } = await call('list_versions', { board_id });
  const first = versions.at(-1).version;
  expect((await call('get_changes', { board_id, since: first })).added.length).toBeGreaterThan(0);
  await call('restore_version', { board_id, version: first });
  const made = await call('view_links', { board_id, action: 'create', label: 'outputs' });
  await call('view_links', { board_id, action: 'list' });
  await call('view_links', { board_id, action: 'revoke', id: made.id });

  const todo = (await call('create_board', {})).board_id;
  const { columns } = await call('set_board_mode', { board_id: todo, mode: 'todo', template: 'sprint' });
  const column = await call('create_column', { board_id: todo, title: 'Later', sort: 9, lane: 1 });
  await call('update_column', { board_id: todo, id: column.id, color: 'blue' });
  const task = await call('create_task', {
    board_id: todo,
    column_id: columns[0].id,
    name: 'Ship',
    priority: 'h',
    due_date: '2030-01-02',
    assignee: 'Ada',
  });
  await call('update_task', { board_id: todo, id: task.id, done: true, color: 'green' });
  await call('move_task', { board_id: todo, id: task.id, column_id: column.id, sort: 1 });
  await call('create_tasks', { board_id: todo, tasks: [{ column_id: column.id, name: 'Two' }] });
  await call('set_lane', { board_id: todo, lane: 1, title: 'Later' });
  await call('set_column_width', { board_id: todo, width: 300 });
  expect(await call('query_tasks', { board_id: todo, assignee: 'ada' })).toMatchObject({ count: 1 });
  await call('export_tasks', { board_id: todo, format: 'markdown' });
  await call('list_tasks', { board_id: todo });
  expect((await call('get_board', { board_id: todo })).tasks).toHaveLength(2);
  await call('delete_task', { board_id: todo, id: task.id });
  await call('delete_column', { board_id: todo, id: column.id });
  return called;
}

describe('output schemas', () => {
  it('every tool lists one, an object schema', async () => {
    const { tools } = await legacy.client.listTools();
    const without = tools.filter((tool) => tool.outputSchema?.type !== 'object').map((tool) => tool.name);
    expect(without).toEqual([]);
  });

  for (const era of ['2025 session (v1 client)', '2026-07-28 (v2 client)'] as const) {
    it(`every tool's result matches it: ${era}`, async () => {
      const called = await everyTool(era.startsWith('2025') ? legacy : modern);
      expect([...called].sort()).toEqual([...toolNames].sort());
    });
  }

  it('a refused call is an isError result on both eras, carrying no structuredContent a client would check', async () => {
    const { board_id } = await legacy.call('create_board', {});
    for (const mcp of [legacy, modern]) {
      const refused = await mcp.raw('erase', { board_id, id: 'no-such-item' });
      expect(refused.structuredContent).toBeUndefined();
      expect(refusalOf(refused)).toMatchObject({ code: 'item_not_found', next: expect.any(String) });
    }
  });
});
