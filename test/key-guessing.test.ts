/**
 * Guessing a board's key. Wrong keys are budgeted per
 * client and board, with a backoff that doubles, so that a stranger's guesses
 * never lock the owner out, and every refusal says how long it really lasts.
 * The server's clock is the test's; clients speak from addresses of their own
 * through X-Forwarded-For behind a trusted proxy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  KEY_BACKOFF_FIRST_MS,
  KEY_BACKOFF_MAX_MS,
  KEY_BOARD_ALERT_FAILURES,
  KEY_BOARD_ALERT_WINDOW_MS,
  KEY_CLIENT_FAILURES,
  KEY_CLIENT_WINDOW_MS,
  KEY_FAILURE_MEMORY_MS,
  KEY_FREE_FAILURES,
  KEY_FREE_FAILURES_ON_ALERT,
} from '../schema/index.js';
import { type Client, client } from './helpers/http.js';
import { connectMcp, type McpClient, rpcError } from './helpers/mcp.js';
import { connectJson, connectYjs } from './helpers/realtime.js';
import { startServer, type TestServer } from './helpers/server.js';

let now = Date.parse('2026-04-01T00:00:00Z');
let server: TestServer;
let api: Client;
const mcpClients = new Map<string, McpClient>();

beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: 'on', TRUST_PROXY: 'true' }, { now: () => now });
  api = client(server.url);
});
afterAll(async () => {
  for (const mcp of mcpClients.values()) await mcp.close();
  await server.close();
});

let addresses = 0;
/** A client address no test has used yet. */
function newAddress(): string {
  addresses += 1;
  return `10.${(addresses >> 16) & 255}.${(addresses >> 8) & 255}.${addresses & 255}`;
}
const from = (ip: string, headers: Record<string, string> = {}) => ({ 'x-forwarded-for': ip, ...headers });

let guesses = 0;
/** A wrong key never presented before, of the keys' own form (8 characters of [a-z0-9]). */
const freshGuess = () => `g${(guesses++).toString(36).padStart(7, '0')}`;

/** The wait after a client's n-th wrong key on a board (off alert), in seconds. */
const backoffSeconds = (n: number) =>
  n <= KEY_FREE_FAILURES
    ? 0
    : Math.min(KEY_BACKOFF_FIRST_MS * 2 ** (n - KEY_FREE_FAILURES - 1), KEY_BACKOFF_MAX_MS) / 1000;

type Board = { id: string; key: string };

async function lockedBoard(mode: 'write' | 'all' = 'all'): Promise<Board> {
  const res = await api.post('/api/boards', { lock: mode }, from(newAddress()));
  expect(res.status).toBe(200);
  return { id: res.body.id, key: res.body.access_key };
}

/** How a key was answered: checked (the surface's answer to a wrong or right key), or refused unchecked for so many seconds. */
type Answer = { checked: string } | { refusedFor: number };

const SURFACES = ['rest', 'mcp', 'ws', 'yjs', 'verify'] as const;
type Surface = (typeof SURFACES)[number];
/** Each surface's answer to a wrong key and to the right one, on an `all`-locked board. */
const WRONG: Record<Surface, string> = { rest: '401', mcp: '-32001', ws: '401', yjs: 'board_locked', verify: 'false' };
const RIGHT: Record<Surface, string> = { rest: '200', mcp: 'ok', ws: 'ok', yjs: 'ok', verify: 'true' };

/** The MCP session of a client address (one each, kept for the file). */
async function mcpOf(ip: string): Promise<McpClient> {
  let mcp = mcpClients.get(ip);
  if (!mcp) mcpClients.set(ip, (mcp = await connectMcp(server.url, from(ip))));
  return mcp;
}

/** Presents `key` to the board from `ip` on one surface. A refusal must say the same wait everywhere it is written. */
const present: Record<Surface, (board: Board, ip: string, key: string) => Promise<Answer>> = {
  async rest(board, ip, key) {
    const res = await api.get(`/json/${board.id}`, from(ip, { 'x-board-key': key }));
    if (res.status !== 429) return { checked: String(res.status) };
    expect(res.body.code).toBe('rate_limited');
    expect(res.headers.get('retry-after')).toBe(String(res.body.retryAfterSeconds));
    return { refusedFor: res.body.retryAfterSeconds };
  },
  async mcp(board, ip, key) {
    const call = (await mcpOf(ip)).call('get_board', { board_id: board.id, access_key: key });
    const outcome = await call.then(
      () => null,
      () => rpcError(call),
    );
    if (!outcome) return { checked: 'ok' };
    if (outcome.code !== -32000) return { checked: String(outcome.code) };
    expect(outcome.data.code).toBe('rate_limited');
    return { refusedFor: outcome.data.retryAfterSeconds };
  },
  async ws(board, ip, key) {
    try {
      const socket = await connectJson(server.url, board.id, { key, headers: from(ip) });
      const hello = await socket.next((frame) => frame.type === 'hello');
      socket.close();
      return { checked: hello.readOnly ? 'read-only' : 'ok' };
    } catch (error: any) {
      if (error.status !== 429) return { checked: String(error.status) };
      expect(error.body.code).toBe('rate_limited');
      expect(error.headers['retry-after']).toBe(String(error.body.retryAfterSeconds));
      return { refusedFor: error.body.retryAfterSeconds };
    }
  },
  async yjs(board, ip, key) {
    const yjs = connectYjs(server.url, board.id, { token: key, headers: from(ip) });
    try {
      await yjs.synced;
      return { checked: yjs.provider.authorizedScope === 'readonly' ? 'read-only' : 'ok' };
    } catch {
      const limited = /^rate_limited; retryAfterSeconds=(\d+)$/.exec(yjs.refusals[0]);
      return limited ? { refusedFor: Number(limited[1]) } : { checked: yjs.refusals[0] };
    } finally {
      yjs.destroy();
    }
  },
  async verify(board, ip, key) {
    const res = await api.post(`/api/boards/${board.id}/verify-key`, { key }, from(ip));
    if (res.status !== 429) return { checked: String(res.body.ok) };
    expect(res.headers.get('retry-after')).toBe(String(res.body.retryAfterSeconds));
    return { refusedFor: res.body.retryAfterSeconds };
  },
};

/**
 * A stranger at `ip` who guesses on one surface until `failures` of its
 * guesses were checked and wrong, waiting out every refusal exactly as long as
 * it was told, and then guesses on until it is refused again.
 */
async function patientGuesser(
  board: Board,
  surface: Surface,
  ip: string,
  failures: number,
): Promise<{ refusedFor: number }> {
  for (let wrong = 0; ; ) {
    const answer = await present[surface](board, ip, freshGuess());
    if ('checked' in answer) {
      expect(answer.checked).toBe(WRONG[surface]);
      wrong += 1;
    } else if (wrong >= failures) {
      return answer;
    } else {
      now += answer.refusedFor * 1000;
    }
  }
}

/** The owner, at an address of its own, gets in at once with the right key: every surface, every channel of the key. */
async function ownerGetsIn(board: Board): Promise<void> {
  const ip = newAddress();
  for (const surface of SURFACES)
    expect(await present[surface](board, ip, board.key), surface).toEqual({ checked: RIGHT[surface] });
  expect(
    (
      await api.post(
        `/api/boards/${board.id}/texts`,
        { x: 0, y: 0, content: 'mine' },
        from(ip, { 'x-board-key': board.key }),
      )
    ).status,
  ).toBe(200);
  const withHeader = await connectMcp(server.url, from(ip, { 'x-board-key': board.key }));
  try {
    expect((await withHeader.call('get_board', { board_id: board.id })).texts).toHaveLength(1);
  } finally {
    await withHeader.close();
  }
}

describe('wrong keys from a stranger never lock the owner out', () => {
  for (const surface of SURFACES) {
    it(`however patiently the stranger guesses on ${surface}`, async () => {
      const board = await lockedBoard();
      await patientGuesser(board, surface, newAddress(), 25);
      await ownerGetsIn(board);
    });
  }

  it('nor do many strangers at once: the board goes on alert, newcomers get less, the owner still gets in at once', async () => {
    const board = await lockedBoard();
    let failures = 0;
    for (let strangers = 0; strangers < 100 && failures < KEY_BOARD_ALERT_FAILURES + 10; strangers++) {
      const ip = newAddress();
      while ('checked' in (await present.ws(board, ip, freshGuess()))) failures += 1;
    }
    expect(failures).toBeGreaterThanOrEqual(KEY_BOARD_ALERT_FAILURES + 10);
    await ownerGetsIn(board);
    // On alert a newcomer is still checked, but its free wrong keys are fewer and its backoff starts sooner.
    const newcomer = newAddress();
    for (let i = 0; i <= KEY_FREE_FAILURES_ON_ALERT; i++)
      expect(await present.ws(board, newcomer, freshGuess())).toEqual({ checked: '401' });
    expect(await present.ws(board, newcomer, freshGuess())).toEqual({ refusedFor: KEY_BACKOFF_FIRST_MS / 1000 });
    // A quiet window later the alert is over.
    now += KEY_BOARD_ALERT_WINDOW_MS;
    const later = newAddress();
    for (let i = 0; i < KEY_FREE_FAILURES; i++)
      expect(await present.ws(board, later, freshGuess())).toEqual({ checked: '401' });
  });
});

describe('retryAfterSeconds is the truth', () => {
  for (const surface of ['rest', 'mcp', 'ws', 'yjs'] as const) {
    it(`on ${surface}: one second short of it is still refused, the whole of it and the key is checked`, async () => {
      const board = await lockedBoard();
      const ip = newAddress();
      const told: number[] = [];
      for (let failures = 0; failures < KEY_FREE_FAILURES + 5; ) {
        const answer = await present[surface](board, ip, freshGuess());
        if ('checked' in answer) {
          failures += 1;
        } else {
          told.push(answer.refusedFor);
          now += answer.refusedFor * 1000;
        }
      }
      // The free wrong keys are answered at once; after each further one the wait doubles.
      expect(told).toEqual([6, 7, 8, 9].map(backoffSeconds));
      const wait = backoffSeconds(KEY_FREE_FAILURES + 5);
      now += 500;
      // Rounded up, and the right key is not checked either while the client waits: no answer leaks.
      expect(await present[surface](board, ip, board.key)).toEqual({ refusedFor: wait });
      now += (wait - 1) * 1000;
      expect(await present[surface](board, ip, board.key)).toEqual({ refusedFor: 1 });
      now += 1000;
      expect(await present[surface](board, ip, board.key)).toEqual({ checked: RIGHT[surface] });
    });
  }

  it('the wait doubles up to its cap; refusals do not lengthen it', async () => {
    const board = await lockedBoard();
    const ip = newAddress();
    const refusal = await patientGuesser(board, 'ws', ip, 40);
    expect(refusal.refusedFor).toBe(KEY_BACKOFF_MAX_MS / 1000);
    for (let i = 0; i < 5; i++) expect(await present.ws(board, ip, freshGuess())).toEqual(refusal);
    now += KEY_BACKOFF_MAX_MS;
    expect(await present.ws(board, ip, freshGuess())).toEqual({ checked: '401' });
  });
});

describe('the budget', () => {
  it('verify-key spends the same budget as every other surface', async () => {
    const board = await lockedBoard();
    const ip = newAddress();
    for (let i = 0; i < KEY_FREE_FAILURES; i++)
      expect(await present.verify(board, ip, freshGuess())).toEqual({ checked: 'false' });
    expect(await present.rest(board, ip, freshGuess())).toEqual({ checked: '401' });
    expect(await present.rest(board, ip, board.key)).toEqual({ refusedFor: backoffSeconds(KEY_FREE_FAILURES + 1) });
  });

  it('presenting the same wrong key again is no new guess: a stale key never locks its holder out', async () => {
    const board = await lockedBoard('write');
    const ip = newAddress();
    const stale = freshGuess();
    for (let i = 0; i < 3 * KEY_FREE_FAILURES; i++) {
      expect(await present.ws(board, ip, stale)).toEqual({ checked: 'read-only' });
      expect(await present.yjs(board, ip, stale)).toEqual({ checked: 'read-only' });
      expect(
        (
          await api.post(
            `/api/boards/${board.id}/texts`,
            { x: 0, y: 0, content: 'x' },
            from(ip, { 'x-board-key': stale }),
          )
        ).status,
      ).toBe(401);
    }
    // It counted once: the rest of the free wrong keys are still there.
    for (let i = 1; i < KEY_FREE_FAILURES; i++)
      expect(await present.ws(board, ip, freshGuess())).toEqual({ checked: 'read-only' });
    expect(await present.ws(board, ip, freshGuess())).toEqual({ checked: 'read-only' });
    expect(await present.ws(board, ip, freshGuess())).toMatchObject({ refusedFor: expect.any(Number) });
  });

  it(`a client has ${KEY_CLIENT_FAILURES} wrong keys an hour over all boards together`, async () => {
    const ip = newAddress();
    const start = now;
    let failures = 0;
    let board = await lockedBoard();
    while (failures < KEY_CLIENT_FAILURES) {
      const answer = await present.ws(board, ip, freshGuess());
      if ('checked' in answer) failures += 1;
      else board = await lockedBoard();
    }
    const untouched = await lockedBoard();
    expect(await present.ws(untouched, ip, freshGuess())).toEqual({ refusedFor: KEY_CLIENT_WINDOW_MS / 1000 });
    await ownerGetsIn(untouched);
    now = start + KEY_CLIENT_WINDOW_MS - 1_000;
    expect(await present.ws(untouched, ip, untouched.key)).toEqual({ refusedFor: 1 });
    now = start + KEY_CLIENT_WINDOW_MS;
    expect(await present.ws(untouched, ip, untouched.key)).toEqual({ checked: 'ok' });
  });

  it('an IPv6 client is its /64: its addresses share one budget', async () => {
    const board = await lockedBoard();
    const [first, sibling, neighbour] = ['2001:db8:1:2::1', '2001:db8:1:2:ffff::5', '2001:db8:1:3::1'];
    for (let i = 0; i <= KEY_FREE_FAILURES; i++)
      expect(await present.rest(board, first, freshGuess())).toEqual({ checked: '401' });
    const refusal = { refusedFor: backoffSeconds(KEY_FREE_FAILURES + 1) };
    expect(await present.rest(board, first, board.key)).toEqual(refusal);
    expect(await present.rest(board, sibling, board.key)).toEqual(refusal);
    expect(await present.rest(board, neighbour, board.key)).toEqual({ checked: '200' });
  });

  it('the right key forgets a client’s wrong ones; so does a day without one, and the records are swept', async () => {
    const board = await lockedBoard();
    const [owner, stranger] = [newAddress(), newAddress()];
    for (let i = 0; i < KEY_FREE_FAILURES; i++)
      expect(await present.ws(board, owner, freshGuess())).toEqual({ checked: '401' });
    expect(await present.ws(board, owner, board.key)).toEqual({ checked: 'ok' });
    for (let i = 0; i < KEY_FREE_FAILURES; i++)
      expect(await present.ws(board, owner, freshGuess())).toEqual({ checked: '401' });

    await patientGuesser(board, 'ws', stranger, 12);
    now += KEY_FAILURE_MEMORY_MS;
    for (let i = 0; i <= KEY_FREE_FAILURES; i++)
      expect(await present.ws(board, stranger, freshGuess())).toEqual({ checked: '401' });
    expect(await present.ws(board, stranger, freshGuess())).toEqual({
      refusedFor: backoffSeconds(KEY_FREE_FAILURES + 1),
    });

    const budget = server.server.keyBudget;
    expect(budget.size).toBeGreaterThan(0);
    now += KEY_FAILURE_MEMORY_MS;
    budget.sweep();
    expect(budget.size).toBe(0);
  });
});
