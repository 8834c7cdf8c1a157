/**
 * An upsert says whether it made the item or updated the one its id named
 * (`created`), on REST (still 200, the contract's status), MCP in both eras
 * and in the JSON channel's acks, single frames and batches alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, connectModernMcp, type McpClient } from './helpers/mcp.js';
import { openJson } from './helpers/realtime.js';
import { useServer } from './helpers/server.js';

const t = useServer();
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
let legacy: McpClient;
let modern: McpClient;

beforeAll(async () => {
  [legacy, modern] = [await connectMcp(t.server.url), await connectModernMcp(t.server.url)];
});
afterAll(async () => {
  await Promise.all([legacy?.close(), modern?.close()]);
});

describe('upserts answer created: true when they make the item, false when they update it', () => {
  it('REST: texts, links, images, strokes, columns and tasks, 200 either way', async () => {
    const draw = (await t.api.post('/api/boards')).body.id;
    const bodies: [string, Record<string, unknown>][] = [
      ['texts', { x: 0, y: 0, content: 'hi' }],
      ['links', { x: 0, y: 0, url: 'https://example.test' }],
      ['images', { x: 0, y: 0, width: 1, height: 1, dataUrl: PNG }],
      ['strokes', { points: [0, 0, 5, 5] }],
    ];
    const todo = (await t.api.post('/api/boards', { mode: 'todo', template: 'kanban' })).body.id;
    for (const [board, path, body] of [
      ...bodies.map(([path, body]) => [draw, path, body] as const),
      [todo, 'columns', { title: 'Later', sort: 9 }] as const,
    ]) {
      const made = await t.api.post(`/api/boards/${board}/${path}`, body);
      expect([path, made.status, made.body.created]).toEqual([path, 200, true]);
      const again = await t.api.post(`/api/boards/${board}/${path}`, { ...body, id: made.body.id });
      expect([path, again.status, again.body.created, again.body.id]).toEqual([path, 200, false, made.body.id]);
    }
    const { columns } = (await t.api.get(`/json/${todo}`)).body;
    const task = await t.api.post(`/api/boards/${todo}/tasks`, { column_id: columns[0].id, name: 'Ship' });
    expect([task.status, task.body.created]).toEqual([200, true]);
    const renamed = await t.api.post(`/api/boards/${todo}/tasks`, {
      id: task.body.id,
      column_id: columns[0].id,
      name: 'Ship it',
    });
    expect([renamed.status, renamed.body.created, renamed.body.name]).toEqual([200, false, 'Ship it']);
    // An id that names nothing makes a new item, with an id of its own.
    const unknown = await t.api.post(`/api/boards/${draw}/texts`, {
      id: '7c1d7a52-8f0e-4c8e-9d0c-3a4b5c6d7e8f',
      x: 0,
      y: 0,
      content: 'new',
    });
    expect(unknown.body.created).toBe(true);
    expect(unknown.body.id).not.toBe('7c1d7a52-8f0e-4c8e-9d0c-3a4b5c6d7e8f');
  });

  it('MCP, both eras: add_text, add_link, add_image, draw_stroke; create_column and create_task always make one', async () => {
    for (const mcp of [legacy, modern]) {
      const { board_id } = await mcp.call('create_board', {});
      for (const [tool, args] of [
        ['add_text', { x: 0, y: 0, content: 'hi' }],
        ['add_link', { x: 0, y: 0, url: 'https://example.test' }],
        ['add_image', { x: 0, y: 0, width: 1, height: 1, dataUrl: PNG }],
        ['draw_stroke', { points: [0, 0, 5, 5] }],
      ] as const) {
        const made = await mcp.call(tool, { board_id, ...args });
        expect([tool, made.created]).toEqual([tool, true]);
        const again = await mcp.call(tool, { board_id, ...args, id: made.id });
        expect([tool, again.created, again.id]).toEqual([tool, false, made.id]);
      }
      const todo = await mcp.call('create_board', { mode: 'todo' });
      const column = await mcp.call('create_column', { board_id: todo.board_id, title: 'Later', sort: 9 });
      expect(column.created).toBe(true);
      const task = await mcp.call('create_task', { board_id: todo.board_id, column_id: column.id, name: 'Ship' });
      expect(task.created).toBe(true);
    }
  });

  it('the JSON channel: an ack of a single frame and of a batch says it per op', async () => {
    const id = (await t.api.post('/api/boards')).body.id;
    const socket = await openJson(t.server.url, id);
    try {
      socket.send({ type: 'add_text', ref: 'made', x: 0, y: 0, content: 'hi' });
      const made = await socket.next((f) => f.ref === 'made');
      expect(made).toMatchObject({ type: 'ack', result: { created: true } });
      socket.send({
        type: 'batch',
        ref: 'batch',
        ops: [
          { type: 'add_text', id: made.result.id, x: 5, y: 5, content: 'moved' },
          { type: 'draw_stroke', points: [0, 0, 1, 1] },
        ],
      });
      const batch = await socket.next((f) => f.ref === 'batch');
      expect(batch.result.map((result: { created: boolean }) => result.created)).toEqual([false, true]);
    } finally {
      socket.close();
    }
  });
});
