/**
 * GET /metrics (docs/operations.md): the figures move with real traffic over
 * REST, the sockets and MCP (both eras), a rate limit's refusal counts, the
 * endpoint stays off the public CORS surface, METRICS_TOKEN and METRICS_PORT
 * work, and no label ever holds a board id.
 */
import { describe, expect, it } from 'vitest';
import { RATE_BOARD_STANDARD } from '../schema/index.js';
import { connectMcp, connectModernMcp } from './helpers/mcp.js';
import { type Scrape, scrape } from './helpers/metrics.js';
import { connectYjs, eventually, openJson } from './helpers/realtime.js';
import { useServer } from './helpers/server.js';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

// Quick compaction, so that a written board is stored whole within the test.
const t = useServer({ STORE_DEBOUNCE_MS: '50', STORE_MAX_DEBOUNCE_MS: '200' });
const metrics = (headers: Record<string, string> = {}) => scrape(`${t.server.url}/metrics`, headers);

/** Every board id this file made: none may appear in a label. */
const boardIds: string[] = [];
async function newBoard(mode: 'draw' | 'todo' = 'draw'): Promise<string> {
  const res = await t.api.post('/api/boards', { mode });
  expect(res.status).toBe(200);
  boardIds.push(res.body.id);
  return res.body.id;
}

const TEXTS_ROUTE = { method: 'POST', route: '/api/boards/:boardId/texts', status: '200' };

describe('GET /metrics', () => {
  it('counts REST writes by route pattern, with latency, journal commits and a compaction, and keeps the process defaults', async () => {
    const before = await metrics();
    expect(before.status).toBe(200);
    expect(before.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const id = await newBoard();
    for (let i = 0; i < 3; i++)
      expect((await t.api.post(`/api/boards/${id}/texts`, { x: i, y: 0, content: `t${i}` })).status).toBe(200);
    const after = await metrics();
    expect(
      after.value('board_http_requests_total', TEXTS_ROUTE) - before.value('board_http_requests_total', TEXTS_ROUTE),
    ).toBe(3);
    const latency = { method: 'POST', route: '/api/boards/:boardId/texts' };
    expect(
      after.value('board_http_request_duration_seconds_count', latency) -
        before.value('board_http_request_duration_seconds_count', latency),
    ).toBe(3);
    // The histogram's buckets are cumulative, as Prometheus reads them: +Inf holds every request, no bucket more than the next.
    const bucket = (scrape: typeof after, le: string) =>
      scrape.value('board_http_request_duration_seconds_bucket', { ...latency, le });
    expect(bucket(after, '+Inf') - bucket(before, '+Inf')).toBe(3);
    const bounds = [
      '0.001',
      '0.005',
      '0.01',
      '0.025',
      '0.05',
      '0.1',
      '0.25',
      '0.5',
      '1',
      '2.5',
      '5',
      '10',
      '30',
      '60',
      '+Inf',
    ];
    const counts = bounds.map((le) => bucket(after, le));
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(counts.at(-1)).toBe(after.value('board_http_request_duration_seconds_count', latency));
    expect(after.value('board_http_request_duration_seconds_sum', latency)).toBeGreaterThan(
      before.value('board_http_request_duration_seconds_sum', latency),
    );
    expect(
      after.value('board_journal_commits_total', { outcome: 'ok' }) -
        before.value('board_journal_commits_total', { outcome: 'ok' }),
    ).toBeGreaterThanOrEqual(3);
    expect(after.value('board_journal_commit_duration_seconds_count')).toBeGreaterThan(
      before.value('board_journal_commit_duration_seconds_count'),
    );
    expect(after.value('board_loaded_boards')).toBeGreaterThanOrEqual(1);
    await eventually(
      async () =>
        expect((await metrics()).value('board_compactions_total')).toBeGreaterThan(
          before.value('board_compactions_total'),
        ),
      5_000,
    );
    for (const name of [
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
      'process_resident_memory_bytes',
    ]) {
      expect(after.families.map((family) => family.name)).toContain(name);
    }
  });

  it('labels a request no route matches `unmatched`, never with its URL', async () => {
    const id = await newBoard();
    expect((await t.api.get(`/api/boards/${id}/no-such-thing`)).status).toBe(404);
    const after = await metrics();
    expect(after.value('board_http_requests_total', { route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(after.text).not.toContain(id);
  });

  it('counts open JSON-channel and Yjs sockets while they are open', async () => {
    const id = await newBoard();
    const before = await metrics();
    const json = await openJson(t.server.url, id);
    const yjs = connectYjs(t.server.url, id);
    await yjs.synced;
    try {
      await eventually(async () => {
        const now = await metrics();
        expect(now.value('board_open_connections', { channel: 'ws' })).toBe(
          before.value('board_open_connections', { channel: 'ws' }) + 1,
        );
        expect(now.value('board_open_connections', { channel: 'collab' })).toBe(
          before.value('board_open_connections', { channel: 'collab' }) + 1,
        );
      });
    } finally {
      json.close();
      yjs.destroy();
    }
    await eventually(async () => {
      const now = await metrics();
      expect(now.value('board_open_connections', { channel: 'ws' })).toBe(
        before.value('board_open_connections', { channel: 'ws' }),
      );
      expect(now.value('board_open_connections', { channel: 'collab' })).toBe(
        before.value('board_open_connections', { channel: 'collab' }),
      );
    });
  });

  it('counts MCP tool calls by era, tool and outcome, and the open streams of both eras', async () => {
    const calls = (s: Scrape, era: string, tool: string, outcome: string) =>
      s.value('board_mcp_tool_calls_total', { era, tool, outcome });
    const before = await metrics();
    const legacy = await connectMcp(t.server.url);
    const modern = await connectModernMcp(t.server.url);
    try {
      const { board_id } = await legacy.call('create_board', {});
      boardIds.push(board_id);
      expect((await legacy.raw('add_text', { board_id, x: 0, y: 0 })).isError).toBe(true); // no content: the caller's fault
      expect(await modern.call('add_text', { board_id, x: 0, y: 0, content: 'hi' })).toMatchObject({ content: 'hi' });
      expect((await modern.raw('get_board', { board_id: '6f1d7a52-8f0e-4c8e-9d0c-3a4b5c6d7e8f' })).isError).toBe(true);
      await expect(modern.raw('no_such_tool', {})).rejects.toBeTruthy();
      const listen = await modern.modern.listen({ resourceSubscriptions: [`svc://board/${board_id}/state.json`] });
      try {
        const now = await metrics();
        expect(calls(now, 'legacy', 'create_board', 'ok') - calls(before, 'legacy', 'create_board', 'ok')).toBe(1);
        expect(calls(now, 'legacy', 'add_text', 'refused') - calls(before, 'legacy', 'add_text', 'refused')).toBe(1);
        expect(calls(now, 'modern', 'add_text', 'ok') - calls(before, 'modern', 'add_text', 'ok')).toBe(1);
        expect(calls(now, 'modern', 'get_board', 'refused') - calls(before, 'modern', 'get_board', 'refused')).toBe(1);
        expect(calls(now, 'modern', 'unknown', 'refused') - calls(before, 'modern', 'unknown', 'refused')).toBe(1);
        expect(now.value('board_open_connections', { channel: 'mcp_listen' })).toBe(
          before.value('board_open_connections', { channel: 'mcp_listen' }) + 1,
        );
        // The 2025 client holds a session; the 2026-07-28 one none.
        expect(now.value('board_mcp_sessions')).toBe(before.value('board_mcp_sessions') + 1);
        // The 2025 client holds its session's GET stream open.
        await eventually(async () =>
          expect((await metrics()).value('board_open_connections', { channel: 'mcp_session_stream' })).toBe(1),
        );
      } finally {
        await listen.close();
      }
      await eventually(async () =>
        expect((await metrics()).value('board_open_connections', { channel: 'mcp_listen' })).toBe(
          before.value('board_open_connections', { channel: 'mcp_listen' }),
        ),
      );
    } finally {
      await legacy.close();
      await modern.close();
    }
    await eventually(async () =>
      expect((await metrics()).value('board_open_connections', { channel: 'mcp_session_stream' })).toBe(0),
    );
  });

  it('sends no Access-Control-Allow-Origin, where the public endpoints do', async () => {
    const origin = { origin: 'https://elsewhere.example' };
    const res = await metrics(origin);
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect((await t.api.get('/healthz', origin)).headers.get('access-control-allow-origin')).toBe('*');
  });

  it('is described in /openapi.json when served on the main port', async () => {
    const { body } = await t.api.get('/openapi.json');
    expect(Object.keys(body.paths)).toEqual(expect.arrayContaining(['/metrics', '/readyz']));
  });

  it('holds no board id in any label', async () => {
    expect(boardIds.length).toBeGreaterThan(3);
    const labels = (await metrics()).labelValues();
    expect(labels.length).toBeGreaterThan(0);
    expect(labels.filter((value) => UUID.test(value))).toEqual([]);
  });
});

describe('rate-limit refusals', () => {
  const own = useServer({ RATE_LIMITS: 'on' });

  it('count by limit and tier', async () => {
    const { server, api } = own;
    const id = (await api.post('/api/boards')).body.id;
    for (let i = 0; i < RATE_BOARD_STANDARD; i++) expect((await api.get(`/json/${id}`)).status).toBe(200);
    expect((await api.get(`/json/${id}`)).status).toBe(429);
    const after = await scrape(`${server.url}/metrics`);
    expect(after.value('board_rate_limit_refusals_total', { limit: 'board', tier: 'standard' })).toBe(1);
    expect(after.value('board_http_requests_total', { route: '/json/:boardId', status: '429' })).toBe(1);
  });
});

describe('METRICS_TOKEN', () => {
  const own = useServer({ METRICS_TOKEN: 'scrape-secret' });

  it('asks for Authorization: Bearer <token>, 401 with a JSON code otherwise', async () => {
    const { server } = own;
    const url = `${server.url}/metrics`;
    const refused: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong-secret' },
      { authorization: 'Basic scrape-secret' },
    ];
    for (const headers of refused) {
      const res = await fetch(url, { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect(await res.json()).toMatchObject({ code: 'metrics_unauthorized', error: expect.any(String) });
    }
    const ok = await scrape(url, { authorization: 'Bearer scrape-secret' });
    expect(ok.status).toBe(200);
    expect(ok.families.length).toBeGreaterThan(0);
  });
});

describe('METRICS_PORT', () => {
  const own = useServer({ METRICS_PORT: '0' });

  it('serves /metrics on its own port only, and /openapi.json no longer describes it', async () => {
    const { server, api } = own;
    const metricsUrl = server.server.operator.metricsUrl!;
    expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect(new URL(metricsUrl).port).not.toBe(new URL(server.url).port);
    expect((await api.post('/api/boards')).status).toBe(200);
    const figures = await scrape(metricsUrl);
    expect(figures.status).toBe(200);
    expect(figures.value('board_http_requests_total', { method: 'POST', route: '/api/boards', status: '200' })).toBe(1);
    expect(figures.headers.get('access-control-allow-origin')).toBeNull();
    const main = await api.get('/metrics');
    expect(main.status).toBe(404);
    expect(main.body).toMatchObject({ code: 'route_not_found' });
    expect(Object.keys((await api.get('/openapi.json')).body.paths)).not.toContain('/metrics');
    expect((await api.get('/readyz')).status).toBe(200);
  });
});
