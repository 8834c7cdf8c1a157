import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_OPERATIONS } from '../host/operations/operations.js';
import { RATE_BOARD_STANDARD } from '../schema/index.js';
import { connectMcp, connectModernMcp, type McpClient, refusalOf, rpcError } from './helpers/mcp.js';
import { startServer, type TestServer } from './helpers/server.js';

/** The Inspector's launcher, the bin `npx @modelcontextprotocol/inspector` runs. */
const INSPECTOR = (() => {
  const manifest = createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector/package.json');
  return join(dirname(manifest), 'clients/launcher/build/index.js');
})();

let now = Date.parse('2026-03-01T00:00:00Z');
let server: TestServer;
let mcp: McpClient;

beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: 'on' }, { now: () => now });
  mcp = await connectMcp(server.url);
});
afterAll(async () => {
  await mcp.close();
  await server.close();
});

describe('MCP shares the REST limits', () => {
  it(`per board: ${RATE_BOARD_STANDARD} tool calls per 10 s, then -32000 rate_limited with retryAfterSeconds`, async () => {
    const { board_id } = await mcp.call('create_board', {});
    for (let i = 0; i < RATE_BOARD_STANDARD; i++) await mcp.call('get_board', { board_id });
    const error = await rpcError(mcp.call('add_text', { board_id, x: 0, y: 0, content: 'over' }));
    expect(error.code).toBe(-32000);
    expect(error.data).toEqual({ code: 'rate_limited', retryAfterSeconds: 10 });
    // REST and MCP count against the same board
    const rest = await fetch(`${server.url}/json/${board_id}`);
    expect(rest.status).toBe(429);
    now += 10_000;
    expect(await mcp.call('get_board', { board_id })).toMatchObject({ boardId: board_id });
  });

  it('on 2026-07-28 the same limit is an isError result with rate_limited, retryAfterSeconds and when to retry', async () => {
    now += 60_000;
    const modern = await connectModernMcp(server.url);
    try {
      const { board_id } = await modern.call('create_board', {});
      for (let i = 0; i < RATE_BOARD_STANDARD; i++) await modern.call('get_board', { board_id });
      const refused = await modern.raw('add_text', { board_id, x: 0, y: 0, content: 'over' });
      expect(refused.isError).toBe(true);
      expect(refusalOf(refused)).toMatchObject({ code: 'rate_limited', retryAfterSeconds: 10 });
      expect(refusalOf(refused).next).toContain('retry in 10 s');
      now += 10_000;
    } finally {
      await modern.close();
    }
  });

  it('board creation: create_board and open_board of an unknown id share the per-IP limit with REST', async () => {
    now += 60_000;
    await mcp.call('create_board', {});
    await mcp.call('open_board', { board: '6f1d7a52-8f0e-4c8e-9d0c-3a4b5c6d7e8f' });
    for (let i = 0; i < 3; i++) expect((await fetch(`${server.url}/api/boards`, { method: 'POST' })).status).toBe(200);
    const error = await rpcError(mcp.call('create_board', {}));
    expect(error.data).toMatchObject({ code: 'rate_limited' });
    const open = await rpcError(mcp.call('open_board', { board: '0b2c1d7e-5f6a-4b3c-8d9e-1f2a3b4c5d6e' }));
    expect(open.data).toMatchObject({ code: 'rate_limited' });
    now += 60_000;
  });

  it('an invalid import token is -32000 invalid_import_token', async () => {
    const other = await connectMcp(server.url, { 'X-Import-Token': 'guess' });
    try {
      const error = await rpcError(other.call('create_board', {}));
      expect(error).toMatchObject({ code: -32000, data: { code: 'invalid_import_token' } });
    } finally {
      await other.close();
    }
  });
});

describe('tombstones', () => {
  it('open_board reuses an id only once its tombstone is older than 30 days', async () => {
    now += 60_000;
    const { board_id } = await mcp.call('create_board', {});
    await mcp.call('add_text', { board_id, x: 0, y: 0, content: 'old life' });
    await fetch(`${server.url}/api/boards/${board_id}`, { method: 'DELETE' });
    now += 29 * 86_400_000;
    expect((await rpcError(mcp.call('open_board', { board: board_id }))).data).toMatchObject({ code: 'board_deleted' });
    now += 2 * 86_400_000;
    expect((await fetch(`${server.url}/api/boards/${board_id}`)).status).toBe(404);
    // REST never revives it
    expect(
      (
        await fetch(`${server.url}/api/boards/${board_id}/texts`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"x":0,"y":0,"content":"x"}',
        })
      ).status,
    ).toBe(404);
    expect(await mcp.call('open_board', { board: board_id })).toMatchObject({ board_id, created: true, mode: 'draw' });
    expect((await mcp.call('get_board', { board_id })).texts).toEqual([]);
  });
});

describe('an independent MCP client', () => {
  // The Inspector keeps a catalog and client settings under HOME: give it a home of its own.
  const home = mkdtempSync(join(tmpdir(), 'inspector-home-'));
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  /**
   * The MCP Inspector's CLI mode, from the npm registry, against the running server: its exit
   * code (0, or 5 for a tool's isError result) and the JSON result it prints.
   */
  function inspector(...args: string[]): Promise<{ exit: number | null; result: any }> {
    return new Promise((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [INSPECTOR, '--cli', '--server-url', `${server.url}/mcp`, '--transport', 'http', '--format', 'json', ...args],
        { env: { ...process.env, HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk) => (out += chunk));
      child.stderr.on('data', (chunk) => (err += chunk));
      child.on('exit', (exit) =>
        out ? resolve({ exit, result: JSON.parse(out).result }) : reject(new Error(`inspector exited ${exit}: ${err}`)),
      );
    });
  }

  it('lists the tools and calls one', async () => {
    now += 60_000;
    const listed = await inspector('--method', 'tools/list');
    expect(listed.exit).toBe(0);
    expect(listed.result.tools.map((tool: any) => tool.name)).toContain('create_board');
    expect(listed.result.tools).toHaveLength(Object.keys(TOOL_OPERATIONS).length);
    const called = await inspector('--method', 'tools/call', '--tool-name', 'create_board', '--tool-arg', 'mode=todo');
    expect(called.exit).toBe(0);
    expect(called.result.structuredContent).toMatchObject({ mode: 'todo', board_id: expect.any(String) });
    const { board_id } = called.result.structuredContent;
    expect((await (await fetch(`${server.url}/json/${board_id}`)).json()).columns).toHaveLength(3);
  });

  it('speaks the 2026-07-28 era too: the same tools, and a refusal as an isError result', async () => {
    const names = async (...era: string[]) =>
      (await inspector('--method', 'tools/list', ...era)).result.tools.map((tool: any) => tool.name);
    expect(await names('--protocol-era', 'modern')).toEqual(await names());
    const unknown = JSON.stringify({ board_id: '00000000-0000-4000-8000-000000000000' });
    const refused = await inspector(
      ...[
        '--method',
        'tools/call',
        '--tool-name',
        'get_board',
        '--tool-args-json',
        unknown,
        '--protocol-era',
        'modern',
      ],
    );
    expect(refused.exit).toBe(5);
    expect(refusalOf(refused.result)).toMatchObject({ code: 'board_not_found' });
  });
});
