/**
 * /mcp speaks both eras: an SDK v2 client pinned to 2026-07-28
 * (stateless, `_meta` on every request, subscriptions/listen) and the v1 SDK
 * client on a 2025 session each run a whole board workflow with
 * notifications; refusals reach a 2026 agent as isError results it can act
 * on; a session remembers the key it was given; the Host check holds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boardServer, SERVES_ALL, type Serves } from '../adapters/mcp/handlers.js';
import { RequestMemory } from '../adapters/mcp/memory.js';
import { MAX_TEXT_NODES } from '../schema/index.js';
import { MAX_LISTENS_PER_IP } from '../schema/limits.js';
import { connectMcp, connectModernMcp, type McpClient, refusalOf } from './helpers/mcp.js';
import { statelessRequest } from './helpers/mcp-raw.js';
import { eventually } from './helpers/realtime.js';
import { useServer } from './helpers/server.js';

const t = useServer();
let modern: Awaited<ReturnType<typeof connectModernMcp>>;
let legacy: McpClient;

beforeAll(async () => {
  [modern, legacy] = await Promise.all([connectModernMcp(t.server.url), connectMcp(t.server.url)]);
});
afterAll(() => Promise.all([modern.close(), legacy.close()]));

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${t.server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

const modernRequest = (method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  statelessRequest(t.server.url, method, params, headers);

describe('2026-07-28, stateless', () => {
  it('server/discover names the revision, the server and the capabilities; no session header is ever given', async () => {
    const res = await modernRequest('server/discover');
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    const body = await res.json();
    expect(body.id).toBe(7);
    // The 2025 revisions are reached by initialize, not negotiated here: discover advertises the stateless ones.
    expect(body.result.supportedVersions).toEqual(['2026-07-28']);
    expect(body.result._meta['io.modelcontextprotocol/serverInfo']).toMatchObject({
      name: 'board-service',
      icons: [{ mimeType: 'image/svg+xml' }],
    });
    expect(body.result.capabilities).toMatchObject({ tools: {}, resources: { subscribe: true }, completions: {} });
    expect(body.result.ttlMs).toBeGreaterThan(0);
  });

  it('a whole draw and todo workflow, with resource links, a PNG preview and a listen stream notified of an edit made over REST', async () => {
    const created = await modern.raw('create_board', {});
    const board = created.structuredContent;
    expect(
      created.content.filter((block: any) => block.type === 'resource_link').map((block: any) => block.uri),
    ).toEqual([
      `svc://board/${board.board_id}/state.json`,
      `svc://board/${board.board_id}/preview.svg`,
      `svc://board/${board.board_id}/tasks.json`,
    ]);
    expect(await modern.call('add_text', { board_id: board.board_id, x: 10, y: 20, content: '# Plan' })).toMatchObject({
      content: '# Plan',
    });
    await modern.call('draw_stroke', {
      board_id: board.board_id,
      points: [
        [0, 0],
        [40, 40],
      ],
    });
    expect((await modern.call('get_board', { board_id: board.board_id })).texts).toHaveLength(1);
    const preview = await modern.raw('get_preview', { board_id: board.board_id });
    expect(preview.content.find((block: any) => block.type === 'image')).toMatchObject({ mimeType: 'image/png' });

    const subscription = await modern.modern.listen({
      resourceSubscriptions: [`svc://board/${board.board_id}/state.json`],
    });
    expect(subscription.honoredFilter.resourceSubscriptions).toEqual([`svc://board/${board.board_id}/state.json`]);
    expect((await post(`/api/boards/${board.board_id}/texts`, { x: 0, y: 0, content: 'from REST' })).status).toBe(200);
    await eventually(() => expect(modern.updates).toContain(`svc://board/${board.board_id}/state.json`), 10_000);
    await subscription.close();

    const todo = await modern.call('create_board', { mode: 'todo' });
    const { columns } = await modern.call('list_tasks', { board_id: todo.board_id });
    await modern.call('create_task', {
      board_id: todo.board_id,
      column_id: columns[0].id,
      name: 'Ship',
      priority: 'H',
    });
    expect(await modern.call('query_tasks', { board_id: todo.board_id, priority: 'H' })).toMatchObject({ count: 1 });
    expect((await modern.call('list_versions', { board_id: todo.board_id })).versions.length).toBeGreaterThanOrEqual(0);
  });

  it('refusals are isError results with a code and a next step: unknown board, locked board, quota, bad arguments', async () => {
    const unknown = await modern.raw('get_board', { board_id: '6f1d7a52-8f0e-4c8e-9d0c-3a4b5c6d7e8f' });
    expect(unknown.isError).toBe(true);
    expect(unknown.structuredContent).toBeUndefined(); // clients check any they get against the outputSchema
    expect(refusalOf(unknown)).toMatchObject({ code: 'board_not_found' });
    expect(refusalOf(unknown).next).toMatch(/create_board|open_board/);

    const locked = await modern.call('create_board', { lock: 'write' });
    const refused = await modern.raw('add_text', { board_id: locked.board_id, x: 0, y: 0, content: 'x' });
    expect(refused.isError).toBe(true);
    expect(refusalOf(refused)).toMatchObject({ code: 'board_locked', lockMode: 'write' });
    expect(refusalOf(refused).next).toContain('access_key');
    expect(refusalOf(refused).error + refusalOf(refused).next).not.toMatch(/header/i); // a model cannot set one
    // Stateless: the key travels with each request that needs it.
    expect(
      await modern.call('add_text', {
        board_id: locked.board_id,
        access_key: locked.access_key,
        x: 0,
        y: 0,
        content: 'ok',
      }),
    ).toMatchObject({ content: 'ok' });
    expect((await modern.raw('add_text', { board_id: locked.board_id, x: 0, y: 0, content: 'again' })).isError).toBe(
      true,
    );

    const full = await modern.call('create_board', {
      content: { texts: Array.from({ length: MAX_TEXT_NODES }, (_, i) => ({ x: i, y: 0, content: `t${i}` })) },
    });
    const quota = await modern.raw('add_text', { board_id: full.board_id, x: 0, y: 0, content: 'one more' });
    expect(refusalOf(quota)).toMatchObject({ code: 'quota_exceeded' });

    const typo = await modern.raw('add_text', { board_id: full.board_id, x: 0, y: 0, content: 'x', colour: 'red' });
    expect(refusalOf(typo).reason).toContain('color');
  });

  it('a listen for a board locked against reading needs its key in X-Board-Key', async () => {
    const locked = await modern.call('create_board', { lock: 'all' });
    const uri = `svc://board/${locked.board_id}/state.json`;
    await expect(modern.modern.listen({ resourceSubscriptions: [uri] })).rejects.toMatchObject({ code: -32001 });
    const keyed = await connectModernMcp(t.server.url, { headers: { 'X-Board-Key': locked.access_key } });
    try {
      const subscription = await keyed.modern.listen({ resourceSubscriptions: [uri] });
      expect(subscription.honoredFilter.resourceSubscriptions).toEqual([uri]);
      await subscription.close();
    } finally {
      await keyed.close();
    }
  });

  it(`one client holds at most ${MAX_LISTENS_PER_IP} listen streams; closing one frees its place`, async () => {
    const { board_id } = await modern.call('create_board', {});
    const uri = `svc://board/${board_id}/tasks.json`;
    const open = [];
    for (let i = 0; i < MAX_LISTENS_PER_IP; i++)
      open.push(await modern.modern.listen({ resourceSubscriptions: [uri] }));
    await expect(modern.modern.listen({ resourceSubscriptions: [uri] })).rejects.toMatchObject({ code: -32000 });
    await open.pop()!.close();
    await eventually(async () => {
      const again = await modern.modern.listen({ resourceSubscriptions: [uri] });
      open.push(again);
    });
    await Promise.all(open.map((subscription) => subscription.close()));
  });

  it('GET and DELETE without a session are 405: the 2026 revision has no stream to hold and no session to end', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${t.server.url}/mcp`, { method, headers: { accept: 'text/event-stream' } });
      expect(res.status, method).toBe(405);
    }
  });
});

describe('the server a 2026-07-28 request gets', () => {
  const handlers = (serves?: Serves) => [
    ...(
      boardServer({} as never, new RequestMemory(), 'modern', 'http://localhost', undefined, serves) as unknown as {
        _requestHandlers: Map<string, unknown>;
      }
    )._requestHandlers.keys(),
  ];
  const OURS = [
    'tools/list',
    'tools/call',
    'resources/templates/list',
    'resources/list',
    'resources/read',
    'completion/complete',
  ];

  it('has the handler of the method it serves and none of the others (a whole set of them was built for every call)', () => {
    expect(handlers((method) => method === 'tools/call').filter((method) => OURS.includes(method))).toEqual([
      'tools/call',
    ]);
    expect(handlers((method) => method === 'resources/read').filter((method) => OURS.includes(method))).toEqual([
      'resources/read',
    ]);
    expect(
      handlers(SERVES_ALL)
        .filter((method) => OURS.includes(method))
        .sort(),
    ).toEqual([...OURS].sort());
  });

  it('each method is still answered on the wire, its header naming it', async () => {
    const board = (await modern.raw('create_board', {})).structuredContent as { board_id: string };
    const answers = await Promise.all([
      modernRequest('tools/list'),
      modernRequest('resources/templates/list'),
      modernRequest(
        'resources/read',
        { uri: `svc://board/${board.board_id}/state.json` },
        { 'mcp-name': `svc://board/${board.board_id}/state.json` },
      ),
      modernRequest('completion/complete', {
        ref: { type: 'ref/resource', uri: 'svc://board/{id}/state.json' },
        argument: { name: 'id', value: '' },
      }),
    ]);
    for (const answer of answers) {
      const body = await answer.json();
      expect(answer.status, JSON.stringify(body)).toBe(200);
      expect(body.error, JSON.stringify(body.error)).toBeUndefined();
      expect(body.result).toBeDefined();
    }
  });
});

describe('2025 sessions', () => {
  it('a whole workflow on the v1 client: open_board subscribes, an edit made elsewhere is notified on the GET stream', async () => {
    const { board_id } = await legacy.call('create_board', {});
    await legacy.call('open_board', { board: `${t.server.url}/#${board_id}` });
    await legacy.call('add_text', { board_id, x: 0, y: 0, content: 'mine' });
    expect((await post(`/api/boards/${board_id}/texts`, { x: 5, y: 5, content: 'theirs' })).status).toBe(200);
    await eventually(() => expect(legacy.updates).toContain(`svc://board/${board_id}/state.json`), 10_000);
    expect((await legacy.call('get_board', { board_id })).texts).toHaveLength(2);
  });

  it('a key given once is remembered for the session: open_board {access_key} then list_tasks', async () => {
    const owner = await connectMcp(t.server.url);
    const board = await owner.call('create_board', { mode: 'todo', lock: 'all' });
    await owner.close();
    const agent = await connectMcp(t.server.url);
    try {
      await agent.call('open_board', { board: board.board_id, access_key: board.access_key });
      expect(await agent.call('list_tasks', { board_id: board.board_id })).toMatchObject({ mode: 'todo' });
      expect(
        (await agent.client.readResource({ uri: `svc://board/${board.board_id}/tasks.json` })).contents,
      ).toHaveLength(1);
    } finally {
      await agent.close();
    }
  });

  it('completes a board id in a resource template from the boards the session used', async () => {
    const { board_id } = await legacy.call('create_board', {});
    const completion = await legacy.client.complete({
      ref: { type: 'ref/resource', uri: 'svc://board/{id}/state.json' },
      argument: { name: 'id', value: board_id.slice(0, 6) },
    });
    expect(completion.completion.values).toContain(board_id);
  });
});

describe('the Host check (DNS rebinding)', () => {
  it('refuses a Host that is not this server, on both eras; IP addresses and localhost are this server', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
    const { port } = new URL(t.server.url);
    const send = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const body = JSON.stringify(initialize);
        import('node:http').then(({ request }) => {
          const req = request(
            {
              host: '127.0.0.1',
              port,
              path: '/mcp',
              method: 'POST',
              headers: {
                host,
                'content-type': 'application/json',
                accept: 'application/json, text/event-stream',
                'content-length': Buffer.byteLength(body),
              },
            },
            (res) => {
              res.resume();
              resolve(res.statusCode!);
            },
          );
          req.on('error', reject);
          req.end(body);
        }, reject);
      });
    expect(await send('evil.example.com')).toBe(403);
    expect(await send(`evil.example.com:${port}`)).toBe(403);
    expect(await send(`127.0.0.1:${port}`)).toBe(200);
    expect(await send(`localhost:${port}`)).toBe(200);
    expect(await send(`[::1]:${port}`)).toBe(200);
    expect((await modernRequest('server/discover', {}, {})).status).toBe(200);
  });
});
