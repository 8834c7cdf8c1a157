/**
 * Adding an operation is adding a row: a scratch row, put among the draw rows
 * before the server's modules load (the table is assembled when they do), is
 * on every surface it declares with no line written anywhere else: its MCP
 * tool listed and called, its REST route served and described in OpenAPI and
 * llms.txt, its /ws frame, its batch op, and its refusals alike on each.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { upsertText } from '../board/mutations/draw.js';
import { DRAW_ROWS } from '../board/operations/draw-rows.js';
import { mutation, post } from '../board/operations/row.js';
import { TextInput } from '../schema/index.js';

const StampArgs = z.strictObject({ label: z.string().min(1, { error: 'must not be empty' }) });

// The one row: its schemas, its words, its REST route and its mutation.
Object.assign(DRAW_ROWS, {
  add_stamp: mutation({
    args: StampArgs,
    result: z.object({ ok: z.literal(true), id: z.string() }),
    group: 'draw',
    effect: 'add',
    rest: [post('/stamps', StampArgs, 'Stamp a label on the board', 'the stamp')],
    tool: { title: 'Stamp', description: 'Stamps a label at the origin.' },
    mutate: (w, args) => ({
      ok: true as const,
      id: upsertText(w, TextInput.parse({ x: 0, y: 0, content: args.label })).id,
    }),
  }),
});

const { startServer } = await import('./helpers/server.js');
const { client } = await import('./helpers/http.js');
const { connectRawMcp } = await import('./helpers/mcp-raw.js');
const { openJson } = await import('./helpers/realtime.js');
const { refusalOf } = await import('./helpers/mcp.js');

type Started = Awaited<ReturnType<typeof startServer>>;
let server: Started;
let api: ReturnType<typeof client>;
beforeAll(async () => {
  server = await startServer();
  api = client(server.url);
});
afterAll(() => server?.close());

describe('a scratch operation added by one row', () => {
  it('is described: tools/list, OpenAPI and llms.txt', async () => {
    const mcp = await connectRawMcp(server.url);
    const { body } = await mcp.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    await mcp.close();
    const tool = body.result.tools.find((listed: { name: string }) => listed.name === 'add_stamp');
    expect(tool).toMatchObject({ title: 'Stamp', description: 'Stamps a label at the origin.' });
    expect(Object.keys(tool.inputSchema.properties)).toEqual(['label', 'board_id', 'access_key']);

    const { body: openapi } = await api.get('/openapi.json');
    expect(openapi.paths['/api/boards/{boardId}/stamps'].post).toMatchObject({
      summary: 'Stamp a label on the board',
      tags: ['draw'],
    });
    const { text: llms } = await api.get('/llms.txt');
    expect(llms).toContain('`POST /api/boards/<id>/stamps` `{label}`');
  });

  it('runs on MCP, REST, /ws and in a batch, each stamp on the board', async () => {
    const { body: board } = await api.post('/api/boards', { mode: 'draw' });
    const mcp = await connectRawMcp(server.url);
    const called = await mcp.call('add_stamp', { board_id: board.id, label: 'by MCP' });
    expect(called.body.result.structuredContent).toMatchObject({ ok: true, id: expect.any(String) });
    await mcp.close();

    const rest = await api.post(`/api/boards/${board.id}/stamps`, { label: 'by REST' });
    expect(rest.status).toBe(200);

    const ws = await openJson(server.url, board.id);
    try {
      ws.send({ type: 'add_stamp', ref: 'a', label: 'by frame' });
      expect(await ws.next((frame) => frame.ref === 'a')).toMatchObject({ type: 'ack', result: { ok: true } });
    } finally {
      ws.close();
    }

    const batch = await api.post(`/api/boards/${board.id}/batch`, { ops: [{ type: 'add_stamp', label: 'by batch' }] });
    expect(batch.status).toBe(200);

    const { body: snapshot } = await api.get(`/json/${board.id}`);
    expect(snapshot.texts.map((text: { content: string }) => text.content).sort()).toEqual(
      ['by MCP', 'by REST', 'by batch', 'by frame'].sort(),
    );
  });

  it('is refused alike on every surface by its one schema, and changes nothing', async () => {
    const { body: board } = await api.post('/api/boards', { mode: 'draw' });
    const rest = await api.post(`/api/boards/${board.id}/stamps`, { label: '' });
    expect(rest.status).toBe(400);
    expect(rest.body).toMatchObject({ code: 'invalid_payload', field: 'label' });

    const mcp = await connectRawMcp(server.url);
    const called = await mcp.call('add_stamp', { board_id: board.id, label: '' });
    await mcp.close();
    expect(refusalOf(called.body.result)).toMatchObject({ code: 'invalid_payload', field: 'label' });

    const ws = await openJson(server.url, board.id);
    try {
      ws.send({ type: 'add_stamp', ref: 'bad', label: '' });
      expect(await ws.next((frame) => frame.ref === 'bad')).toMatchObject({ type: 'error', code: 'invalid_payload' });
    } finally {
      ws.close();
    }
    const { body: snapshot } = await api.get(`/json/${board.id}`);
    expect(snapshot.texts).toEqual([]);
  });
});
