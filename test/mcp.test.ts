import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadingRpcId } from '../adapters/mcp/body.js';
import { MAX_BODY_BYTES } from '../schema/index.js';
import { PNG_1PX } from './helpers/http.js';
import { connectMcp, type McpClient, rpcError } from './helpers/mcp.js';
import { useServer } from './helpers/server.js';

const t = useServer();
let mcp: McpClient;

beforeAll(async () => {
  mcp = await connectMcp(t.server.url);
});
afterAll(() => mcp.close());

const EXPECTED_TOOLS = [
  'create_board',
  'open_board',
  'view_links',
  'get_board',
  'get_preview',
  'add_text',
  'add_link',
  'add_image',
  'draw_stroke',
  'add_shape',
  'add_frame',
  'move',
  'erase',
  'wait_for_update',
  'set_board_mode',
  'set_board_title',
  'create_column',
  'update_column',
  'delete_column',
  'create_task',
  'update_task',
  'move_task',
  'delete_task',
  'set_lane',
  'set_column_width',
  'create_tasks',
  'batch',
  'query_tasks',
  'export_tasks',
  'list_tasks',
  'find_items',
  'list_versions',
  'get_changes',
  'restore_version',
];

describe('transport', () => {
  it.each(['2025-03-26', '2025-06-18', '2025-11-25'])(
    'initialize negotiates %s and answers with Mcp-Session-Id',
    async (version) => {
      const res = await fetch(`${t.server.url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          origin: 'https://agent.test',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
        }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('mcp-session-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-expose-headers')).toContain('Mcp-Session-Id');
      const body = await res.json();
      expect(body.result.protocolVersion).toBe(version);
      expect(body.result.capabilities.resources).toMatchObject({ subscribe: true });
      expect(body.result.serverInfo.name).toBe('board-service');
    },
  );

  it('requests without a session are refused; an unknown session is 404; DELETE ends a session', async () => {
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const none = await fetch(`${t.server.url}/mcp`, { method: 'POST', headers, body: JSON.stringify(list) });
    expect(none.status).toBe(400);
    const unknown = await fetch(`${t.server.url}/mcp`, {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': 'nope' },
      body: JSON.stringify(list),
    });
    expect(unknown.status).toBe(404);

    const other = await connectMcp(t.server.url);
    const id = other.transport.sessionId!;
    expect(t.server.server.mcpSessions.get(id)).toBeDefined();
    await other.transport.terminateSession();
    expect(t.server.server.mcpSessions.get(id)).toBeUndefined();
    await other.close();
  });

  it('idle sessions expire', async () => {
    const other = await connectMcp(t.server.url);
    const id = other.transport.sessionId!;
    await other.close(); // closes the client's stream but leaves the session on the server
    await new Promise((resolve) => setTimeout(resolve, 50));
    t.server.server.mcpSessions.sweep(Date.now() + 31 * 60_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(t.server.server.mcpSessions.get(id)).toBeUndefined();
  });

  it('the 5 MiB body cap applies, answered as a JSON-RPC error', async () => {
    const res = await fetch(`${t.server.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': mcp.transport.sessionId!,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'add_text', arguments: { content: 'x'.repeat(5_300_000) } },
      }),
    });
    expect(res.status).toBe(413);
    const body = await res.json();
    expect(body.error).toMatchObject({ code: -32000, data: { code: 'payload_too_large' } });
  });

  it('a body over the cap is answered with its request id, whether Content-Length says so or it streams in', async () => {
    const sessionId = mcp.transport.sessionId!;
    const head = (id: string) =>
      `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"add_text","arguments":{"content":"`;
    const tooLarge = {
      code: -32000,
      message: expect.any(String),
      data: { code: 'payload_too_large', limitBytes: MAX_BODY_BYTES },
    };

    const declared = await fetch(`${t.server.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId,
      },
      body: `${head('7')}${'x'.repeat(MAX_BODY_BYTES)}"}}}`,
    });
    expect(declared.status).toBe(413);
    expect(await declared.json()).toEqual({ jsonrpc: '2.0', id: 7, error: tooLarge });

    const streamed = await streamedPost(
      `${t.server.url}/mcp`,
      sessionId,
      head('"call-8"'),
      MAX_BODY_BYTES + 256 * 1024,
    );
    expect(streamed.status).toBe(413);
    expect(streamed.body).toEqual({ jsonrpc: '2.0', id: 'call-8', error: tooLarge });

    // An id after the oversized params (the order the SDK's client writes) cannot be read: null, as JSON-RPC says.
    const late = await streamedPost(
      `${t.server.url}/mcp`,
      sessionId,
      '{"method":"tools/call","params":{"arguments":{"content":"',
      MAX_BODY_BYTES + 1024,
    );
    expect(late.body).toEqual({ jsonrpc: '2.0', id: null, error: tooLarge });
  });
});

describe('the id of a body too large to parse', () => {
  it('is read from its first bytes wherever the members before it end there, else null', () => {
    expect(leadingRpcId('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"arguments":{"content":"xxx')).toBe(7);
    expect(leadingRpcId(' { "id" : "a\\"b" , "params": [')).toBe('a"b');
    expect(leadingRpcId('{"method":"x","params":{"s":"}{\\"]","n":[1,{"id":3}]},"id":-2.5e3,"more":"')).toBe(-2500);
    expect(leadingRpcId('{"\\u0069d":12,')).toBe(12);
    expect(leadingRpcId('{"jsonrpc":"2.0","id":12')).toBeNull(); // the number may go on
    expect(leadingRpcId('{"params":{"content":"xxxxx')).toBeNull();
    expect(leadingRpcId('[{"id":1}')).toBeNull(); // a batch has no one id
    expect(leadingRpcId('{"id":{"x":1},')).toBeNull();
    expect(leadingRpcId('{"id":null,')).toBeNull();
    expect(leadingRpcId('not json')).toBeNull();
  });
});

/** POSTs a body that starts with `head` and is padded to `totalBytes`, with chunked transfer encoding (no Content-Length). */
function streamedPost(
  url: string,
  sessionId: string,
  head: string,
  totalBytes: number,
): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '2025-06-18',
        'transfer-encoding': 'chunked',
      },
    });
    let answered = false;
    request.on('response', (response) => {
      answered = true;
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(text) }));
    });
    request.on('error', (error) => !answered && reject(error));
    const chunk = Buffer.alloc(64 * 1024, 'x');
    request.write(head);
    let sent = head.length;
    const pump = () => {
      while (sent < totalBytes && !answered) {
        sent += chunk.length;
        if (!request.write(chunk)) return request.once('drain', pump);
      }
      request.end('"}}}');
    };
    pump();
  });
}

describe('tools/list', () => {
  it('lists every tool with its input schema, a description and annotations (hints at their protocol defaults left out)', async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...EXPECTED_TOOLS].sort());
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.description!.length, tool.name).toBeGreaterThan(10);
      expect(tool.annotations?.openWorldHint, tool.name).toBe(false);
    }
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(byName.add_text.inputSchema.required).toEqual(expect.arrayContaining(['board_id', 'x', 'y', 'content']));
    expect((byName.add_text.inputSchema.properties as any).color.enum).toContain('lavender');
    expect(byName.get_board.annotations?.readOnlyHint).toBe(true);
    expect(byName.erase.annotations?.destructiveHint ?? true).toBe(true);
    expect(byName.add_text.annotations?.destructiveHint).toBe(false);
    expect(byName.move.annotations?.idempotentHint).toBe(true);
  });
});

describe('draw tools', () => {
  it('create_board, add_*, draw_stroke, move, erase, get_board and get_preview', async () => {
    const board = await mcp.call('create_board', { mode: 'draw' });
    expect(board).toEqual({
      board_id: expect.any(String),
      url: `${t.server.url}/#${board.board_id}`,
      embed_url: `${t.server.url}/?embed=1#${board.board_id}`,
      mode: 'draw',
    });
    const id = board.board_id;
    const text = await mcp.call('add_text', {
      board_id: id,
      x: 10,
      y: 20,
      content: '# Plan\n- [ ] one',
      postit: true,
      color: 'Teal',
    });
    expect(text).toMatchObject({ x: 10, y: 20, postit: true, color: 'teal', author: 'ai:mcp' });
    const updated = await mcp.call('add_text', {
      board_id: id,
      id: text.id,
      x: 10,
      y: 20,
      content: 'edited',
      author: 'ai:other',
    });
    expect(updated).toMatchObject({ id: text.id, content: 'edited', author: 'ai:mcp' });
    const link = await mcp.call('add_link', { board_id: id, x: 0, y: 100, url: 'https://example.org/x' });
    expect(link).toMatchObject({ kind: 'link', url: 'https://example.org/x' });
    const image = await mcp.call('add_image', {
      board_id: id,
      x: 0,
      y: 200,
      width: 32,
      height: 32,
      dataUrl: PNG_1PX,
      thumbDataUrl: PNG_1PX,
      author: 'ai:painter',
    });
    expect(image).toMatchObject({ hasThumbDataUrl: true, author: 'ai:painter' });
    const stroke = await mcp.call('draw_stroke', { board_id: id, points: [0, 0, 30, 10], color: '#ff00ff' });
    expect(stroke).toMatchObject({ pointCount: 2, color: 'auto', bbox: { x: 0, y: 0, width: 30, height: 10 } });
    expect(await mcp.call('move', { board_id: id, id: stroke.id, x: 50, y: 50 })).toEqual({
      id: stroke.id,
      x: 50,
      y: 50,
    });
    expect(await mcp.call('move', { board_id: id, id: link.id, kind: 'links', x: 5, y: 5 })).toEqual({
      id: link.id,
      x: 5,
      y: 5,
    });
    expect(await mcp.call('erase', { board_id: id, id: image.id })).toMatchObject({
      ok: true,
      id: image.id,
      kind: 'images',
    });

    const snapshot = await mcp.call('get_board', { board_id: id });
    expect(snapshot).toMatchObject({ boardId: id, mode: 'draw', etag: expect.any(String), images: [] });
    expect(snapshot.texts.map((item: any) => item.id).sort()).toEqual([text.id, link.id].sort());
    // A stroke comes as its box and point count; its points when asked for.
    expect(snapshot.lines[0]).toMatchObject({ pointCount: 2, bbox: { x: 50, y: 50, width: 30, height: 10 } });
    expect(snapshot.lines[0].points).toBeUndefined();
    const whole = await mcp.call('get_board', { board_id: id, include_points: true });
    expect(whole.lines[0].points).toEqual([
      [50, 50],
      [80, 60],
    ]);
    // REST sees the same board
    expect((await t.api.get(`/json/${id}`)).body).toEqual(whole);

    const preview = await mcp.call('get_preview', { board_id: id });
    expect(preview).toMatchObject({ board_id: id, mimeType: 'image/svg+xml' });
    expect(preview.svg).toContain('<svg');
    expect(preview.svg).toContain('example.org');
  });

  it('argument errors are tool errors a model can read, naming the field', async () => {
    const { board_id } = await mcp.call('create_board', {});
    const bad = await mcp.raw('add_text', { board_id, x: 'left', y: 0, content: 'x' });
    expect(bad.isError).toBe(true);
    expect(JSON.parse(bad.content[0].text)).toMatchObject({ code: 'invalid_payload', field: 'x' });
    const missing = await mcp.raw('draw_stroke', { board_id });
    expect(JSON.parse(missing.content[0].text)).toMatchObject({ field: 'points', reason: 'is required' });
    const wrongMode = await mcp.raw('create_column', { board_id, title: 'x', sort: 0 });
    expect(JSON.parse(wrongMode.content[0].text)).toMatchObject({ code: 'wrong_mode' });
    const noItem = await mcp.raw('erase', { board_id, id: 'nope' });
    expect(JSON.parse(noItem.content[0].text)).toMatchObject({ code: 'item_not_found' });
  });

  it('an unknown board is a JSON-RPC error', async () => {
    const error = await rpcError(mcp.call('get_board', { board_id: '00000000-0000-4000-8000-000000000000' }));
    expect(error.code).toBe(-32602);
    expect(error.data).toMatchObject({ code: 'board_not_found' });
  });

  it('a board_id that is not a UUID is invalid params, on reads and writes alike', async () => {
    for (const [tool, args] of [
      ['get_board', {}],
      ['add_text', { x: 0, y: 0, content: 'x' }],
    ] as const) {
      const error = await rpcError(mcp.call(tool, { board_id: 'not-a-uuid', ...args }));
      expect(error.code, tool).toBe(-32602);
      expect(error.data, tool).toMatchObject({ code: 'invalid_board_id' });
    }
  });

  it('a quota is JSON-RPC error -32000 with data.code quota_exceeded', async () => {
    const { board_id } = await mcp.call('create_board', {});
    const error = await rpcError(mcp.call('add_text', { board_id, x: 0, y: 0, content: 'x'.repeat(100_001) }));
    expect(error).toMatchObject({ code: -32000, data: { code: 'quota_exceeded', kind: 'text_chars' } });
  });
});

describe('todo tools', () => {
  it('set_board_mode, columns, tasks, lanes, width, bulk create, query, export and list', async () => {
    const { board_id } = await mcp.call('create_board', {});
    const mode = await mcp.call('set_board_mode', { board_id, mode: 'todo', template: 'bugs' });
    expect(mode.columns.map((c: any) => c.title)).toEqual(['Triage', 'Confirmed', 'In progress', 'Fixed']);
    const column = await mcp.call('create_column', { board_id, title: 'Later', sort: 10, lane: 1, color: 'blue' });
    expect(column).toMatchObject({ title: 'Later', lane: 1, color: 'blue', author: 'ai:mcp' });
    expect(await mcp.call('update_column', { board_id, id: column.id, title: 'Someday' })).toMatchObject({
      id: column.id,
      title: 'Someday',
      sort: 10,
      lane: 1,
      color: 'blue',
    });
    const triage = mode.columns[0].id;
    const task = await mcp.call('create_task', {
      board_id,
      column_id: triage,
      name: 'Crash on save',
      priority: 'h',
      assignee: 'Ann',
      due_date: '2020-01-01',
    });
    expect(task).toMatchObject({ column_id: triage, priority: 'H', done: false, sort: 0 });
    expect(await mcp.call('update_task', { board_id, id: task.id, description: 'stack trace attached' })).toMatchObject(
      { name: 'Crash on save', description: 'stack trace attached', priority: 'H' },
    );
    const bulk = await mcp.call('create_tasks', {
      board_id,
      tasks: [
        { column_id: triage, name: 'second', assignee: 'bob' },
        { column_id: column.id, name: 'dream', due_date: '2999-01-01', done: true },
      ],
    });
    expect(bulk.ids).toHaveLength(2);
    expect(await mcp.call('move_task', { board_id, id: bulk.ids[0], column_id: mode.columns[1].id, sort: 3 })).toEqual({
      id: bulk.ids[0],
      column_id: mode.columns[1].id,
      sort: 3,
    });
    expect(await mcp.call('set_lane', { board_id, lane: 1, title: 'Backburner' })).toEqual({
      ok: true,
      lane: 1,
      title: 'Backburner',
    });
    expect(await mcp.call('set_column_width', { board_id, width: 100 })).toEqual({ ok: true, width: 200 });

    const overdue = await mcp.call('query_tasks', { board_id, overdue: true });
    expect(overdue.tasks.map((x: any) => x.id)).toEqual([task.id]);
    expect((await mcp.call('query_tasks', { board_id, assignee: 'ANN' })).count).toBe(1);
    expect((await mcp.call('query_tasks', { board_id, done: true })).tasks.map((x: any) => x.name)).toEqual(['dream']);
    expect((await mcp.call('query_tasks', { board_id, priority: 'H', done: false })).count).toBe(1);
    expect(
      (await mcp.call('query_tasks', { board_id, due_after: '2500-01-01' })).tasks.map((x: any) => x.name),
    ).toEqual(['dream']);
    expect(
      (await mcp.call('query_tasks', { board_id, due_before: '2500-01-01' })).tasks.map((x: any) => x.name),
    ).toEqual(['Crash on save']);

    const csv = await mcp.call('export_tasks', { board_id, format: 'csv' });
    expect(csv.content).toBe((await t.api.get(`/api/boards/${board_id}/tasks.csv`)).text);
    const md = await mcp.call('export_tasks', { board_id, format: 'markdown' });
    expect(md.content).toBe((await t.api.get(`/api/boards/${board_id}/tasks.md`)).text);

    const list = await mcp.call('list_tasks', { board_id });
    expect(Object.keys(list).sort()).toEqual(['colWidth', 'columns', 'lanes', 'mode', 'tasks']);
    expect(list).toMatchObject({ mode: 'todo', colWidth: 200, lanes: [{ lane: 1, title: 'Backburner' }] });
    expect(list.tasks).toHaveLength(3);

    expect(await mcp.call('delete_task', { board_id, id: task.id })).toEqual({ ok: true, id: task.id });
    expect(await mcp.call('delete_column', { board_id, id: column.id })).toEqual({ ok: true, id: column.id });
    expect((await mcp.call('list_tasks', { board_id })).tasks.map((x: any) => x.name)).toEqual(['second']);
  });

  it('names, assignees and titles are trimmed on every surface, so query_tasks finds " Alice " as "alice"', async () => {
    const { board_id } = await mcp.call('create_board', {
      mode: 'todo',
      content: { columns: [{ title: '  Imported  ' }], lanes: [{ lane: 0, title: ' Row ' }] },
    });
    const list = await mcp.call('list_tasks', { board_id });
    expect(list.columns[0].title).toBe('Imported');
    expect(list.lanes[0].title).toBe('Row');
    const column = list.columns[0].id;
    const rest = await t.api.post(`/api/boards/${board_id}/tasks`, {
      column_id: column,
      name: '  Fix the build ',
      assignee: ' Alice ',
    });
    expect(rest.body).toMatchObject({ name: 'Fix the build', assignee: 'Alice' });
    const viaMcp = await mcp.call('create_task', { board_id, column_id: column, name: '\tShip\n', assignee: 'BOB  ' });
    expect(viaMcp).toMatchObject({ name: 'Ship', assignee: 'BOB' });
    expect(await mcp.call('update_column', { board_id, id: column, title: ' Doing ' })).toMatchObject({
      title: 'Doing',
    });
    expect(await mcp.call('set_lane', { board_id, lane: 0, title: '  Team A ' })).toMatchObject({ title: 'Team A' });
    expect((await t.api.post(`/api/boards/${board_id}/columns`, { title: ' Done ', sort: 9 })).body.title).toBe('Done');

    expect((await mcp.call('query_tasks', { board_id, assignee: 'alice' })).tasks.map((task: any) => task.id)).toEqual([
      rest.body.id,
    ]);
    expect((await mcp.call('query_tasks', { board_id, assignee: '  bob ' })).tasks.map((task: any) => task.id)).toEqual(
      [viaMcp.id],
    );
    // A name of spaces only is an empty name, as "" is (docs/choices.md); the limit counts the trimmed name.
    expect((await mcp.call('update_task', { board_id, id: viaMcp.id, name: '   ' })).name).toBe('');
    expect(
      (await mcp.call('update_task', { board_id, id: viaMcp.id, name: ` ${'x'.repeat(500)} ` })).name,
    ).toHaveLength(500);
  });

  it("query_tasks on a draw board is wrong_mode like every todo tool, not count 0; exports and list_tasks answer as the spec's tasks.csv does", async () => {
    const { board_id } = await mcp.call('create_board', { mode: 'draw' });
    const query = await mcp.raw('query_tasks', { board_id, assignee: 'alice' });
    expect(query.isError).toBe(true);
    expect(JSON.parse(query.content[0].text)).toMatchObject({ code: 'wrong_mode' });
    expect(
      JSON.parse((await mcp.raw('create_task', { board_id, column_id: 'c', name: 'x' })).content[0].text),
    ).toMatchObject({ code: 'wrong_mode' });
    // tasks.csv and tasks.md answer 200 with only their heading on a draw board (the spec), and export_tasks gives exactly them.
    const csv = await t.api.get(`/api/boards/${board_id}/tasks.csv`);
    expect(csv.status).toBe(200);
    expect((await mcp.call('export_tasks', { board_id, format: 'csv' })).content).toBe(csv.text);
    expect((await mcp.call('export_tasks', { board_id, format: 'markdown' })).content).toBe(
      (await t.api.get(`/api/boards/${board_id}/tasks.md`)).text,
    );
    // list_tasks says which mode the board is in, so its empty lists cannot be mistaken for an empty kanban.
    expect(await mcp.call('list_tasks', { board_id })).toMatchObject({ mode: 'draw', columns: [], tasks: [] });
  });

  it('create_tasks is atomic: one bad task creates none', async () => {
    const { board_id } = await mcp.call('create_board', { mode: 'todo' });
    const column = (await mcp.call('list_tasks', { board_id })).columns[0].id;
    const etag = (await mcp.call('get_board', { board_id })).etag;
    const result = await mcp.raw('create_tasks', {
      board_id,
      tasks: [
        { column_id: column, name: 'fine' },
        { column_id: 'missing', name: 'bad' },
      ],
    });
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content[0].text)).toMatchObject({ field: 'column_id' });
    const after = await mcp.call('get_board', { board_id });
    expect(after.tasks).toEqual([]);
    expect(after.etag).toBe(etag);
  });
});

describe('open_board', () => {
  it('resolves URLs and ids, creates a board only for an unknown UUID', async () => {
    const { board_id } = await mcp.call('create_board', { mode: 'todo' });
    for (const ref of [
      board_id,
      `${t.server.url}/#${board_id}`,
      `${t.server.url}/?embed=1#${board_id}`,
      `${t.server.url}/json/${board_id}`,
    ]) {
      expect(await mcp.call('open_board', { board: ref })).toMatchObject({
        board_id,
        mode: 'todo',
        created: false,
        locked: false,
        lock_mode: null,
      });
    }
    const fresh = '7d7bd1c2-1d5e-4a8b-9f43-2d8f3b0b9c11';
    expect((await t.api.get(`/json/${fresh}`)).status).toBe(404);
    expect(await mcp.call('open_board', { board: `https://anywhere.test/#${fresh}` })).toMatchObject({
      board_id: fresh,
      created: true,
      mode: 'draw',
    });
    expect((await t.api.get(`/json/${fresh}`)).status).toBe(200);
    const bad = await mcp.raw('open_board', { board: 'no id here' });
    expect(JSON.parse(bad.content[0].text)).toMatchObject({ field: 'board' });
  });

  it('an erased board stays erased for 30 days', async () => {
    const { board_id } = await mcp.call('create_board', {});
    await t.api.del(`/api/boards/${board_id}`);
    const error = await rpcError(mcp.call('open_board', { board: board_id }));
    expect(error.data).toMatchObject({ code: 'board_deleted' });
  });
});

describe('locked boards', () => {
  it('-32001 without the key; the access_key argument or the X-Board-Key header opens it', async () => {
    const board = await mcp.call('create_board', { lock: 'all' });
    expect(board.access_key).toMatch(/^[a-z0-9]{8}$/);
    expect(board).not.toHaveProperty('embed_url');
    // The session that created the board remembers its key; another agent's session does not have it.
    expect(await mcp.call('get_board', { board_id: board.board_id })).toMatchObject({ boardId: board.board_id });
    const stranger = await connectMcp(t.server.url);
    const error = await rpcError(stranger.call('get_board', { board_id: board.board_id }));
    expect(error).toMatchObject({ code: -32001, data: { code: 'board_locked', lockMode: 'all' } });
    expect(error.message).toContain('call again with access_key');
    const wrong = await rpcError(
      stranger.call('add_text', { board_id: board.board_id, access_key: 'zzzzzzzz', x: 0, y: 0, content: 'x' }),
    );
    expect(wrong.code).toBe(-32001);

    expect(
      await stranger.call('add_text', {
        board_id: board.board_id,
        access_key: board.access_key,
        x: 0,
        y: 0,
        content: 'by argument',
      }),
    ).toMatchObject({ content: 'by argument' });
    // Given once, the key is remembered for the rest of the session.
    expect((await stranger.call('list_tasks', { board_id: board.board_id })).mode).toBe('draw');
    await stranger.close();
    const withHeader = await connectMcp(t.server.url, { 'X-Board-Key': board.access_key });
    try {
      expect(
        await withHeader.call('add_text', { board_id: board.board_id, x: 0, y: 0, content: 'by header' }),
      ).toMatchObject({ content: 'by header' });
      expect((await withHeader.call('get_board', { board_id: board.board_id })).texts).toHaveLength(2);
    } finally {
      await withHeader.close();
    }
  });
});

describe('resources', () => {
  it('lists the templates and reads state.json, tasks.json and preview.svg', async () => {
    const { resourceTemplates } = await mcp.client.listResourceTemplates();
    expect(resourceTemplates.map((r) => r.uriTemplate)).toEqual([
      'svc://board/{id}/state.json',
      'svc://board/{id}/preview.svg',
      'svc://board/{id}/tasks.json',
      'svc://board/{id}/versions/{version}/state.json',
    ]);
    const { board_id } = await mcp.call('create_board', { mode: 'todo' });
    const state = await mcp.client.readResource({ uri: `svc://board/${board_id}/state.json` });
    expect(JSON.parse((state.contents[0] as any).text)).toMatchObject({ boardId: board_id, mode: 'todo' });
    const tasks = await mcp.client.readResource({ uri: `svc://board/${board_id}/tasks.json` });
    expect(Object.keys(JSON.parse((tasks.contents[0] as any).text)).sort()).toEqual([
      'colWidth',
      'columns',
      'lanes',
      'mode',
      'tasks',
    ]);
    const svg = await mcp.client.readResource({ uri: `svc://board/${board_id}/preview.svg` });
    expect(svg.contents[0]).toMatchObject({ mimeType: 'image/svg+xml' });
    expect((svg.contents[0] as any).text).toBe((await mcp.call('get_preview', { board_id })).svg);
    const { resources } = await mcp.client.listResources();
    expect(resources.map((r) => r.uri)).toContain(`svc://board/${board_id}/state.json`);
    const missing = await rpcError(
      mcp.client.readResource({ uri: 'svc://board/00000000-0000-4000-8000-000000000000/state.json' }),
    );
    expect(missing.data).toMatchObject({ code: 'board_not_found' });
  });

  it('get_preview of a large board gives the picture and names the SVG resource instead of inlining it', async () => {
    const content = Array.from({ length: 200 }, (_, i) => ({
      x: (i % 20) * 200,
      y: Math.floor(i / 20) * 120,
      content: `note ${i} ${'words '.repeat(20)}`,
    }));
    const { board_id } = await mcp.call('create_board', { content: { texts: content } });
    const preview = await mcp.raw('get_preview', { board_id });
    const text = preview.content.find((block: any) => block.type === 'text').text as string;
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(16_384);
    expect(preview.structuredContent).toMatchObject({ board_id, svg_uri: `svc://board/${board_id}/preview.svg` });
    expect(preview.structuredContent.svg).toBeUndefined();
    expect(preview.content.map((block: any) => block.type)).toEqual(['text', 'image', 'resource_link']);
    const svg = await mcp.client.readResource({ uri: preview.structuredContent.svg_uri });
    expect(Buffer.byteLength((svg.contents[0] as any).text)).toBe(preview.structuredContent.svg_bytes);
  });
});
