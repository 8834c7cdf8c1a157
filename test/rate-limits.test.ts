import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  KEY_BACKOFF_FIRST_MS,
  KEY_FREE_FAILURES,
  RATE_BOARD_STANDARD,
  RATE_BOARD_TOKEN,
  RATE_CREATE_TOKEN,
  RATE_WS_FRAMES,
} from '../schema/index.js';
import { type Client, client } from './helpers/http.js';
import { connectMcp, connectModernMcp, refusalOf, rpcError } from './helpers/mcp.js';
import { openJson } from './helpers/realtime.js';
import { startServer, type TestServer } from './helpers/server.js';

const TOKEN = 'operator-secret-token';
let now = Date.parse('2026-06-01T00:00:00Z');
let server: TestServer;
let api: Client;
let ipCounter = 0;

/** Each test speaks from its own client IP (X-Forwarded-For behind a trusted proxy), so per-IP buckets start fresh. */
function fromNewIp(): Record<string, string> {
  ipCounter += 1;
  return { 'x-forwarded-for': `198.51.100.${ipCounter}` };
}

beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: 'on', IMPORT_TOKEN: TOKEN, TRUST_PROXY: 'true' }, { now: () => now });
  api = client(server.url);
});
afterAll(() => server.close());

/** A board created from a fresh IP in the standard tier, so it spends no shared bucket. */
async function newBoard(headers: Record<string, string> = fromNewIp()): Promise<string> {
  const res = await api.post('/api/boards', undefined, headers);
  expect(res.status).toBe(200);
  return res.body.id;
}

function expectLimited(res: { status: number; body: any; headers: Headers }, maxSeconds: number) {
  expect(res.status).toBe(429);
  expect(res.body).toMatchObject({
    code: 'rate_limited',
    retryAfterSeconds: expect.any(Number),
    error: expect.any(String),
  });
  expect(res.body.retryAfterSeconds).toBeGreaterThan(0);
  expect(res.body.retryAfterSeconds).toBeLessThanOrEqual(maxSeconds);
  expect(res.headers.get('retry-after')).toBe(String(res.body.retryAfterSeconds));
}

describe('REST per board: 60 requests per 10 s', () => {
  it('the 60th request passes, the 61st is 429 with Retry-After: 10, other boards are unaffected, the window resets', async () => {
    const id = await newBoard();
    const other = await newBoard();
    for (let i = 0; i < RATE_BOARD_STANDARD; i++) {
      const res =
        i % 2
          ? await api.get(`/json/${id}`)
          : await api.post(`/api/boards/${id}/texts`, { x: i, y: 0, content: `${i}` });
      expect(res.status, `request ${i + 1}`).toBe(200);
    }
    const over = await api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'one too many' });
    expectLimited(over, 10);
    expect(over.body.retryAfterSeconds).toBe(10);
    expectLimited(await api.get(`/api/boards/${id}/tasks.csv`), 10);
    expect((await api.get(`/json/${other}`)).status).toBe(200);
    // the refused write changed nothing
    now += 10_000;
    expect((await api.get(`/json/${id}`)).body.texts).toHaveLength(RATE_BOARD_STANDARD / 2);
  });

  it('a valid import token raises the tier to 600', async () => {
    const id = await newBoard();
    const headers = { 'x-import-token': TOKEN };
    for (let i = 0; i < RATE_BOARD_TOKEN; i++) {
      const res = await api.get(`/json/${id}`, headers);
      if (res.status !== 200) throw new Error(`request ${i + 1} was ${res.status}`);
    }
    expectLimited(await api.get(`/json/${id}`, headers), 10);
    now += 10_000;
  });
});

describe('retryAfterSeconds is the time left in the window', () => {
  it('4.2 s into a 10 s window it says 6, 9.6 s into it 1: REST (body and Retry-After), MCP in both eras and /ws frames', async () => {
    now += 60_000;
    const id = await newBoard();
    const socket = await openJson(server.url, id);
    const [legacy, modern] = [await connectMcp(server.url), await connectModernMcp(server.url)];
    try {
      for (let i = 0; i < RATE_BOARD_STANDARD; i++) expect((await api.get(`/json/${id}`)).status).toBe(200);
      for (let i = 0; i < RATE_WS_FRAMES; i++) socket.send({ type: 'draw_stroke', ref: i, points: [i, 0, i, 1] });
      await socket.next((f) => f.ref === RATE_WS_FRAMES - 1);
      const told = async () => {
        const rest = await api.get(`/json/${id}`);
        expectLimited(rest, 10);
        socket.send({ type: 'draw_stroke', ref: `over-${now}`, points: [0, 0, 1, 1] });
        const frame = await socket.next((f) => f.ref === `over-${now}`);
        const refused = await modern.raw('get_board', { board_id: id });
        return {
          rest: rest.body.retryAfterSeconds,
          header: rest.headers.get('retry-after'),
          legacy: (await rpcError(legacy.call('get_board', { board_id: id }))).data.retryAfterSeconds,
          modern: refusalOf(refused).retryAfterSeconds,
          next: refusalOf(refused).next,
          frame: frame.retryAfterSeconds,
        };
      };
      now += 4_200;
      expect(await told()).toEqual({
        rest: 6,
        header: '6',
        legacy: 6,
        modern: 6,
        next: 'Too many calls: retry in 6 s.',
        frame: 6,
      });
      now += 5_400;
      expect(await told()).toEqual({
        rest: 1,
        header: '1',
        legacy: 1,
        modern: 1,
        next: 'Too many calls: retry in 1 s.',
        frame: 1,
      });
      now += 400;
      expect((await api.get(`/json/${id}`)).status).toBe(200);
    } finally {
      socket.close();
      await Promise.all([legacy.close(), modern.close()]);
    }
  });
});

describe('board creation: 5 per 60 s per client IP', () => {
  it('is shared by POST /api/boards, GET /todo and GET /draw', async () => {
    const ip = fromNewIp();
    const statuses = [
      (await api.post('/api/boards', undefined, ip)).status,
      (await api.get('/todo', ip)).status,
      (await api.get('/draw', ip)).status,
      (await api.request('GET', '/todo?template=bugs', { headers: ip })).status,
      (await api.post('/api/boards', { mode: 'todo' }, ip)).status,
    ];
    expect(statuses).toEqual([200, 302, 302, 302, 200]);
    for (const res of [
      await api.post('/api/boards', undefined, ip),
      await api.get('/draw', ip),
      await api.get('/todo', ip),
    ])
      expectLimited(res, 60);
    // another client is not affected; after the window the first may create again
    expect((await api.post('/api/boards', undefined, fromNewIp())).status).toBe(200);
    now += 60_000;
    expect((await api.post('/api/boards', undefined, ip)).status).toBe(200);
  });

  it('only created boards count: invalid content on REST and MCP create_board spends nothing, and a spent budget still refuses at once', async () => {
    now += 60_000;
    const ip = fromNewIp();
    const invalid = { mode: 'draw', content: { texts: [{ x: 0, y: 0, content: 42 }] } };
    for (let i = 0; i < 10; i++) expect((await api.post('/api/boards', invalid, ip)).body.code).toBe('invalid_item');
    const mcp = await connectMcp(server.url, ip);
    try {
      for (let i = 0; i < 10; i++)
        expect(JSON.parse((await mcp.raw('create_board', invalid)).content[0].text).code).toBe('invalid_item');
      // The whole budget is left, on both surfaces.
      for (let i = 0; i < 3; i++) expect((await api.post('/api/boards', undefined, ip)).status).toBe(200);
      await mcp.call('create_board', {});
      await mcp.call('create_board', {});
      // Spent, it refuses before the content is read: invalid content is 429 now, not 400.
      expectLimited(await api.post('/api/boards', invalid, ip), 60);
      expect((await rpcError(mcp.call('create_board', invalid))).data).toMatchObject({ code: 'rate_limited' });
    } finally {
      await mcp.close();
    }
    now += 60_000;
  });

  it('concurrent creations each take their own place: no more than 5 get through', async () => {
    now += 60_000;
    const ip = fromNewIp();
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        api.post('/api/boards', { content: { texts: [{ x: 0, y: 0, content: 'x' }] } }, ip),
      ),
    );
    expect(answers.filter((res) => res.status === 200)).toHaveLength(5);
    expect(answers.filter((res) => res.status === 429)).toHaveLength(7);
    now += 60_000;
  });

  it('with a valid token: 50 per 60 s in one bucket per token, whatever the IP', async () => {
    for (let i = 0; i < RATE_CREATE_TOKEN; i++) {
      const res = await api.post('/api/boards', undefined, { ...fromNewIp(), 'x-import-token': TOKEN });
      if (res.status !== 200) throw new Error(`creation ${i + 1} was ${res.status}`);
    }
    expectLimited(await api.post('/api/boards', undefined, { ...fromNewIp(), 'x-import-token': TOKEN }), 60);
    // the standard tier of a fresh IP is a different bucket
    expect((await api.post('/api/boards', undefined, fromNewIp())).status).toBe(200);
    now += 60_000;
  });

  it('X-Forwarded-For counts only behind a trusted proxy', async () => {
    const direct = await startServer({ RATE_LIMITS: 'on' }, { now: () => now });
    try {
      const api2 = client(direct.url);
      for (let i = 0; i < 5; i++) expect((await api2.post('/api/boards', undefined, fromNewIp())).status).toBe(200);
      expectLimited(await api2.post('/api/boards', undefined, fromNewIp()), 60);
    } finally {
      await direct.close();
    }
  });
});

describe('import token', () => {
  it('a token that does not match is 403 invalid_import_token on every route', async () => {
    const id = await newBoard();
    for (const res of [
      await api.post('/api/boards', undefined, { 'x-import-token': 'guess' }),
      await api.get(`/json/${id}`, { 'x-import-token': 'guess' }),
      await api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'x' }, { 'x-import-token': 'guess' }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'invalid_import_token', error: expect.any(String) });
    }
  });

  it('any token is 403 when no secret is configured', async () => {
    const bare = await startServer({ RATE_LIMITS: 'on' });
    try {
      const res = await client(bare.url).post('/api/boards', undefined, { 'x-import-token': TOKEN });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('invalid_import_token');
    } finally {
      await bare.close();
    }
  });

  it('never bypasses a lock, validation, quotas or the body cap', async () => {
    const headers = { ...fromNewIp(), 'x-import-token': TOKEN };
    const { id, access_key } = (await api.post('/api/boards', { lock: 'all' }, headers)).body;
    expect(access_key).toBeDefined();
    expect((await api.get(`/json/${id}`, { 'x-import-token': TOKEN })).status).toBe(401);
    expect(
      (await api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'x' }, { 'x-import-token': TOKEN })).status,
    ).toBe(401);
    const open = await newBoard();
    expect(
      (await api.post(`/api/boards/${open}/texts`, { x: 'no', y: 0, content: 'x' }, { 'x-import-token': TOKEN }))
        .status,
    ).toBe(400);
    expect(
      (
        await api.post(
          `/api/boards/${open}/texts`,
          { x: 0, y: 0, content: 'x'.repeat(100_001) },
          { 'x-import-token': TOKEN },
        )
      ).status,
    ).toBe(413);
    const huge = await api.request('POST', `/api/boards/${open}/texts`, {
      body: JSON.stringify({ x: 0, y: 0, content: 'x'.repeat(6_000_000) }),
      headers: { 'content-type': 'application/json', 'x-import-token': TOKEN },
    });
    expect(huge.status).toBe(413);
    expect(huge.body.code).toBe('payload_too_large');
    now += 10_000;
  });
});

describe('lock operations: 5 per 60 s per IP, token or not', () => {
  it('lock, unlock and verify-key share the budget', async () => {
    const ip = fromNewIp();
    const id = await newBoard();
    const key = (await api.post(`/api/boards/${id}/lock`, { mode: 'write' }, ip)).body.key;
    expect((await api.post(`/api/boards/${id}/verify-key`, { key }, ip)).body).toEqual({ ok: true });
    expect((await api.post(`/api/boards/${id}/lock`, { mode: 'all' }, { ...ip, 'x-board-key': key })).status).toBe(200);
    expect((await api.post(`/api/boards/${id}/unlock`, undefined, { ...ip, 'x-board-key': key })).status).toBe(200);
    expect((await api.post(`/api/boards/${id}/unlock`, undefined, ip)).status).toBe(200);
    expectLimited(await api.post(`/api/boards/${id}/verify-key`, { key }, { ...ip, 'x-import-token': TOKEN }), 60);
    expectLimited(await api.post(`/api/boards/${id}/lock`, { mode: 'write' }, ip), 60);
    now += 60_000;
    expect((await api.post(`/api/boards/${id}/lock`, { mode: 'write' }, ip)).status).toBe(200);
  });
});

describe('wrong keys', () => {
  it(`count per client and board: after ${KEY_FREE_FAILURES + 1} wrong keys the guesser's right one waits, nobody else's does`, async () => {
    const id = await newBoard();
    const key = (await api.post(`/api/boards/${id}/lock`, { mode: 'all' }, fromNewIp())).body.key;
    const guesser = fromNewIp();
    for (let i = 0; i <= KEY_FREE_FAILURES; i++) {
      const guess = { ...guesser, 'x-board-key': `wrong${String(i).padStart(3, '0')}` };
      const res =
        i % 2
          ? await api.get(`/json/${id}`, guess)
          : await api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'x' }, guess);
      expect(res.status).toBe(401);
    }
    const wait = KEY_BACKOFF_FIRST_MS / 1000;
    expectLimited(await api.get(`/json/${id}`, { ...guesser, 'x-board-key': key }), wait);
    // the cheap endpoint does not escape the budget either
    expectLimited(await api.post(`/api/boards/${id}/verify-key`, { key: 'aaaaaaaa' }, guesser), wait);
    expect((await api.get(`/json/${id}`, { ...fromNewIp(), 'x-board-key': key })).status).toBe(200);
    now += wait * 1000;
    expect((await api.get(`/json/${id}`, { ...guesser, 'x-board-key': key })).status).toBe(200);
  });
});

describe('the limiter does not grow without bound', () => {
  it('windows of idle keys are swept', async () => {
    for (let i = 0; i < 5; i++) await api.post('/api/boards', undefined, fromNewIp());
    expect(server.server.limiter.size).toBeGreaterThan(5);
    now += 120_000;
    server.server.limiter.sweep();
    expect(server.server.limiter.size).toBe(0);
  });
});

describe('GET /quotas.json', () => {
  it('lists every limit from the named constants, cacheable for at most 5 minutes, CORS open', async () => {
    const res = await api.get('/quotas.json', { origin: 'https://elsewhere.test' });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const q = res.body;
    expect(q.rateLimits).toMatchObject({
      enabled: true,
      retryAfterSeconds: 10,
      restAndMcpPerBoard: {
        standard: { requests: 60, windowSeconds: 10 },
        withImportToken: { requests: 600, windowSeconds: 10 },
      },
      boardCreation: {
        standard: { requests: 5, windowSeconds: 60 },
        withImportToken: { requests: 50, windowSeconds: 60 },
      },
      websocketFramesPerBoard: { standard: { requests: 60, windowSeconds: 10 } },
      yjsUpdatesPerBoard: { standard: { requests: 600, windowSeconds: 10 } },
      lockOperations: { standard: { requests: 5, windowSeconds: 60 } },
      wrongKeys: {
        freeFailures: 5,
        backoffSeconds: { first: 2, factor: 2, max: 900 },
        forgottenAfterQuietSeconds: 86400,
        repeatedWrongKeysNotCounted: 4,
        boardAlert: { failures: 30, windowSeconds: 600, freeFailures: 1, backoffMaxSeconds: 3600 },
        perClient: { failures: 100, windowSeconds: 3600 },
      },
    });
    expect(q.perBoard).toMatchObject({
      textNodes: 500,
      textChars: 100000,
      images: 50,
      imageBytes: 921600,
      imageBytesTotal: 10485760,
      strokes: 2000,
      columns: 200,
      columnsPerLane: 20,
      lanes: 10,
      tasks: 1000,
      taskContentChars: 20000,
    });
    expect(q.fields).toMatchObject({
      authorChars: 80,
      thumbnailBytes: 8000,
      textWidthPx: { min: 160, max: 4096 },
      columnWidthPx: { min: 200, max: 480, default: 280 },
      laneTitleChars: 200,
      columnTitleChars: 200,
      taskNameChars: 500,
      assigneeChars: 200,
      strokeWidthPx: 3,
    });
    expect(q.operations).toEqual({
      maxRecolorItems: 500,
      maxBatchOps: 500,
      websocketContinuation: { maxFrames: 500, idleMs: 500 },
    });
    expect(q.import).toEqual({
      maxItems: 2550,
      maxLaneTitles: 10,
      maxBatchStatements: 320,
      maxBoundParametersPerStatement: 100,
    });
    expect(q.request).toEqual({ maxBodyBytes: 5242880 });
    expect(q.timing).toMatchObject({
      tombstoneRetentionDays: 30,
      notificationDebounceMs: 3000,
      liveBroadcastTargetMs: 100,
    });
  });
});
