/**
 * Colours on every surface. An ink colour (texts, strokes) is one of the ink
 * names, and any other value becomes `auto`, as the contract says; every
 * schema that takes one says so, on REST (OpenAPI) and MCP (tools/list). A
 * card colour (columns, tasks) outside red, blue and green is refused, naming
 * them, on REST, MCP, the JSON channel and import alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectModernMcp, type McpClient, refusalOf } from './helpers/mcp.js';
import { openJson } from './helpers/realtime.js';
import { useServer } from './helpers/server.js';

const t = useServer();
let mcp: McpClient;

beforeAll(async () => {
  mcp = await connectModernMcp(t.server.url);
});
afterAll(() => mcp.close());

const board = async (mode: 'draw' | 'todo' = 'draw') => (await t.api.post('/api/boards', { mode })).body.id as string;

describe('an ink colour it does not know', () => {
  it('becomes auto on REST, MCP, the JSON channel and import', async () => {
    const id = await board();
    expect(
      (await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'a', color: '#ff0000' })).body,
    ).toMatchObject({ color: 'auto' });
    expect(
      (await t.api.post(`/api/boards/${id}/strokes`, { points: [0, 0, 1, 1], color: 'magenta' })).body,
    ).toMatchObject({ color: 'auto' });
    expect(await mcp.call('add_text', { board_id: id, x: 0, y: 0, content: 'b', color: 'magenta' })).toMatchObject({
      color: 'auto',
    });
    expect(await mcp.call('draw_stroke', { board_id: id, points: [0, 0, 1, 1], color: '#ff0000' })).toMatchObject({
      color: 'auto',
    });
    const client = await openJson(t.server.url, id);
    client.send({ type: 'add_text', ref: 1, x: 0, y: 0, content: 'c', color: 'magenta' });
    expect(await client.next((frame) => frame.ref === 1)).toMatchObject({ type: 'ack', result: { color: 'auto' } });
    client.close();

    const imported = await t.api.post('/api/boards', {
      content: {
        texts: [{ x: 0, y: 0, content: 'd', color: 'magenta' }],
        lines: [{ points: [0, 0, 1, 1], color: '#ff0000' }],
      },
    });
    const snapshot = (await t.api.get(`/json/${imported.body.id}`)).body;
    expect([snapshot.texts[0].color, snapshot.lines[0].color]).toEqual(['auto', 'auto']);
  });

  it('is said to become auto by every schema that takes one: OpenAPI and tools/list', async () => {
    const openapi = (await t.api.get('/openapi.json')).body;
    const colorOf = (path: string) =>
      openapi.paths[`/api/boards/{boardId}${path}`].post.requestBody.content['application/json'].schema.properties
        .color;
    for (const path of ['/texts', '/strokes']) {
      expect(colorOf(path).enum, path).toEqual(expect.arrayContaining(['auto', 'red', 'lavender']));
      expect(colorOf(path).description, path).toMatch(/other values: auto/i);
    }
    const { tools } = await mcp.client.listTools();
    for (const name of ['add_text', 'draw_stroke'])
      expect(tools.find((tool) => tool.name === name)!.inputSchema.properties!.color).toMatchObject({
        description: expect.stringMatching(/other values: auto/i),
      });
  });
});

describe('a card colour it does not know', () => {
  const NAMED = /red, blue, green/;

  it('is refused naming red, blue and green on REST, MCP, the JSON channel and import, and changes nothing', async () => {
    const id = await board('todo');
    const column = (await t.api.get(`/json/${id}`)).body.columns[0];
    const refusedColumn = await t.api.post(`/api/boards/${id}/columns`, { title: 'X', sort: 9, color: 'magenta' });
    expect(refusedColumn.status).toBe(400);
    expect(refusedColumn.body).toMatchObject({
      code: 'invalid_payload',
      field: 'color',
      reason: expect.stringMatching(NAMED),
    });
    const refusedTask = await t.api.post(`/api/boards/${id}/tasks`, {
      column_id: column.id,
      name: 'x',
      color: '#ff0000',
    });
    expect(refusedTask.body).toMatchObject({
      code: 'invalid_payload',
      field: 'color',
      reason: expect.stringMatching(NAMED),
    });

    for (const [tool, args] of [
      ['create_column', { title: 'X', sort: 9, color: 'magenta' }],
      ['update_column', { id: column.id, color: 'magenta' }],
      ['create_task', { column_id: column.id, name: 'x', color: 'magenta' }],
      ['query_tasks', { color: 'magenta' }],
    ] as const) {
      const refused = await mcp.raw(tool, { board_id: id, ...args });
      expect(refusalOf(refused), tool).toMatchObject({ field: 'color', reason: expect.stringMatching(NAMED) });
    }

    const client = await openJson(t.server.url, id);
    client.send({ type: 'update_column', ref: 1, id: column.id, color: 'magenta' });
    expect(await client.next((frame) => frame.ref === 1)).toMatchObject({ type: 'error', field: 'color' });
    client.send({ type: 'recolor', ref: 2, ids: [column.id], color: 'magenta' });
    expect(await client.next((frame) => frame.ref === 2)).toMatchObject({
      type: 'error',
      message: expect.stringMatching(/red, blue, green/),
    });
    client.close();
    const after = (await t.api.get(`/json/${id}`)).body;
    expect(after.columns.map((c: { color?: string }) => c.color)).toEqual(after.columns.map(() => undefined));
    expect(after.tasks).toEqual([]);

    const imported = await t.api.post('/api/boards', {
      mode: 'todo',
      content: { columns: [{ title: 'A', color: 'magenta' }] },
    });
    expect(imported.status).toBe(400);
    expect(imported.body).toMatchObject({
      code: 'invalid_item',
      kind: 'columns',
      index: 0,
      reason: expect.stringMatching(NAMED),
    });
  });
});
