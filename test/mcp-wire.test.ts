/**
 * How /mcp answers on the wire: a JSON answer of either era is
 * written whole with its Content-Length, not pumped in chunks; a 2025
 * session's GET stream is still an event stream; and the requests the
 * benchmark sends by hand (bench/lib/mcp-wire.ts) are the SDK clients' own,
 * answered and durable like theirs.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeHandler } from '../adapters/mcp/web.js';
import { sessionCalls, statelessCalls } from '../bench/lib/mcp-wire.js';
import { client } from './helpers/http.js';
import { connectMcp, type McpClient } from './helpers/mcp.js';
import { connectRawMcp, statelessRequest } from './helpers/mcp-raw.js';
import { useServer } from './helpers/server.js';

const t = useServer();
let legacy: McpClient;
let boardId: string;

beforeAll(async () => {
  legacy = await connectMcp(t.server.url);
  boardId = (await legacy.call('create_board', {})).board_id;
});
afterAll(() => legacy.close());

/** Records the raw answers to tools/call add_text that a fetch-based caller gets. */
function recording(): { fetch: typeof fetch; answers: Response[] } {
  const answers: Response[] = [];
  return {
    answers,
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      if (String(init?.body).includes('"tools/call"')) answers.push(response.clone());
      return response;
    },
  };
}

describe('JSON answers are written whole', () => {
  it('a 2026-07-28 tools/call answer has its Content-Length, no chunked encoding', async () => {
    const wire = recording();
    const { connectModernMcp } = await import('./helpers/mcp.js');
    const modern = await connectModernMcp(t.server.url, { fetch: wire.fetch });
    try {
      expect(await modern.call('add_text', { board_id: boardId, x: 1, y: 2, content: 'whole ✓ é' })).toMatchObject({
        content: 'whole ✓ é',
      });
    } finally {
      await modern.close();
    }
    const [answer] = wire.answers;
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.headers.get('transfer-encoding')).toBeNull();
    const bytes = Buffer.from(await answer.arrayBuffer());
    expect(Number(answer.headers.get('content-length'))).toBe(bytes.length);
    expect(JSON.parse(bytes.toString('utf8')).result.structuredContent.content).toBe('whole ✓ é');
  });

  it('a 2025 session answer has its Content-Length and the session header', async () => {
    const { sessionId, protocolVersion } = legacy.transport;
    const response = await fetch(`${t.server.url}/mcp`, {
      method: 'POST',
      headers: {
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        'mcp-session-id': sessionId!,
        'mcp-protocol-version': protocolVersion!,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'get_board', arguments: { board_id: boardId } },
      }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBe(sessionId);
    expect(response.headers.get('transfer-encoding')).toBeNull();
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(Number(response.headers.get('content-length'))).toBe(bytes.length);
    expect(JSON.parse(bytes.toString('utf8'))).toMatchObject({ id: 3, result: { structuredContent: { boardId } } });
  });

  it("a 2025 session's GET stream is still an event stream, open until the client leaves", async () => {
    // A session opened by hand: the SDK client opens its own GET stream, and a session has one.
    const headers = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
    const init = await fetch(`${t.server.url}/mcp`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    });
    expect(init.headers.get('content-length')).not.toBeNull();
    const session = { 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' };
    expect((await init.json()).result.protocolVersion).toBe('2025-11-25');
    const initialized = await fetch(`${t.server.url}/mcp`, {
      method: 'POST',
      headers: { ...headers, ...session },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    expect(initialized.status).toBe(202);
    const abort = new AbortController();
    const asked = performance.now();
    const stream = await fetch(`${t.server.url}/mcp`, {
      headers: { accept: 'text/event-stream', ...session },
      signal: abort.signal,
    });
    // The headers come at once, not with the first event (a keep-alive 15 s later on a quiet board).
    expect(performance.now() - asked).toBeLessThan(3_000);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.headers.get('content-length')).toBeNull();
    abort.abort();
  });
});

describe('the Request the SDK gets', () => {
  it('its signal aborts when the client goes away before the answer, and not after one', async () => {
    const seen: AbortSignal[] = [];
    let answerNow = false;
    const serve = nodeHandler(async (request) => {
      seen.push(request.signal);
      if (answerNow) return Response.json({ jsonrpc: '2.0', id: 1, result: {} });
      await new Promise((resolve) => request.signal.addEventListener('abort', resolve, { once: true }));
      return new Response(null, { status: 499 });
    });
    const server = createServer((request, response) => void serve(request, response, undefined));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    try {
      const abort = new AbortController();
      const pending = fetch(url, { method: 'POST', signal: abort.signal }).catch(() => undefined);
      await expect.poll(() => seen.length).toBe(1);
      abort.abort();
      await pending;
      await expect.poll(() => seen[0].aborted).toBe(true);
      answerNow = true;
      expect((await fetch(url, { method: 'POST' })).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(seen[1].aborted).toBe(false);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("the benchmark's hand-sent requests", () => {
  it('a session call and a stateless call write like the SDK clients, durably, and refusals throw', async () => {
    const viaSession = sessionCalls(t.server.url, legacy.transport.sessionId!, legacy.transport.protocolVersion!);
    const viaStateless = statelessCalls(t.server.url);
    const a = await viaSession('add_text', { board_id: boardId, x: 5, y: 5, content: 'from a session' });
    const b = await viaStateless('add_text', { board_id: boardId, x: 6, y: 6, content: 'stateless' });
    const board = (await client(t.server.url).get(`/api/boards/${boardId}`)).body as {
      texts: { id: string; content: string }[];
    };
    expect(board.texts).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: a.id, content: 'from a session' }),
        expect.objectContaining({ id: b.id, content: 'stateless' }),
      ]),
    );
    await expect(viaStateless('add_text', { board_id: boardId, x: 'left', y: 0, content: 'bad' })).rejects.toThrow(
      /add_text failed/,
    );
    await expect(
      sessionCalls(
        t.server.url,
        'no-such-session',
        legacy.transport.protocolVersion!,
      )('get_board', { board_id: boardId }),
    ).rejects.toThrow(/HTTP 404/);
  });
});

describe("a request its method's schema refuses (BoardServer's wrapper over the SDK's _wrapHandler)", () => {
  const refused = [
    { method: 'resources/read', params: { uri: 42 } },
    { method: 'resources/unsubscribe', params: undefined },
  ];

  it('is -32602 Invalid params naming the method and the field on a 2025 session, not -32603', async () => {
    const raw = await connectRawMcp(t.server.url);
    try {
      for (const [i, { method, params }] of refused.entries()) {
        const answer = await raw.send({ jsonrpc: '2.0', id: 100 + i, method, ...(params && { params }) });
        expect(answer.body.error, method).toMatchObject({ code: -32602 });
        expect(answer.body.error.message, method).toMatch(new RegExp(`^invalid ${method} request: `));
      }
    } finally {
      await raw.close();
    }
  });

  it('is -32602 on a 2026-07-28 request too', async () => {
    const { method, params } = refused[0];
    const response = await statelessRequest(t.server.url, method, params);
    const body = await response.json();
    expect(body.error).toMatchObject({ code: -32602 });
    expect(body.error.message).toMatch(/^invalid resources\/read request: params\.uri: /);
  });
});
