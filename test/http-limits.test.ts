import http from 'node:http';
import { Client as McpSdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES, REFUSED_BODY_DRAIN_BYTES, REFUSED_BODY_DRAIN_MS } from '../schema/index.js';
import { type Client, client } from './helpers/http.js';
import { connectModernMcp } from './helpers/mcp.js';
import { startServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let api: Client;
let boardId: string;

beforeAll(async () => {
  server = await startServer();
  api = client(server.url);
  boardId = (await api.post('/api/boards')).body.id;
});
afterAll(() => server.close());

/** A JSON text body padded with spaces to exactly `size` bytes. */
function paddedBody(size: number): string {
  const json = JSON.stringify({ x: 0, y: 0, content: 'padded' });
  return json + ' '.repeat(size - json.length);
}

/** Streams a body with chunked transfer encoding (no Content-Length) and collects the answer. */
function chunkedPost(path: string, totalBytes: number): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const request = http.request(server.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
    });
    request.on('response', (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(text) }));
    });
    request.on('error', reject);
    const chunk = Buffer.alloc(64 * 1024, ' ');
    request.write('{"x":0,"y":0,"content":"chunked"}');
    let sent = 0;
    const pump = () => {
      while (sent < totalBytes) {
        sent += chunk.length;
        if (!request.write(chunk)) return request.once('drain', pump);
      }
      request.end();
    };
    pump();
  });
}

describe('body cap of 5 MiB', () => {
  it('a body of exactly 5242880 bytes is accepted', async () => {
    const res = await api.request('POST', `/api/boards/${boardId}/texts`, {
      body: paddedBody(MAX_BODY_BYTES),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(200);
  });

  it('one byte more is 413 payload_too_large', async () => {
    const res = await api.request('POST', `/api/boards/${boardId}/texts`, {
      body: paddedBody(MAX_BODY_BYTES + 1),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('payload_too_large');
  });

  it('a chunked upload without Content-Length cannot get past it', async () => {
    const before = (await api.get(`/json/${boardId}`)).body.texts.length;
    const res = await chunkedPost(`/api/boards/${boardId}/texts`, MAX_BODY_BYTES + 256 * 1024);
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('payload_too_large');
    expect((await api.get(`/json/${boardId}`)).body.texts.length).toBe(before);
  });

  it('a small chunked upload is fine', async () => {
    const res = await chunkedPost(`/api/boards/${boardId}/texts`, 0);
    expect(res.status).toBe(200);
  });
});

/**
 * A fetch whose request bodies go out in slices with a pause between them, as
 * over a real network: a server that closes the connection before the body is
 * in makes the client's kernel reset it, and fetch fails without the answer.
 */
const slowFetch =
  (declareLength: boolean): typeof fetch =>
  (input, init) => {
    const body = typeof init?.body === 'string' ? Buffer.from(init.body) : undefined;
    if (!body) return fetch(input, init);
    const headers = new Headers(init?.headers);
    if (declareLength) headers.set('content-length', String(body.length));
    let at = 0;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        await new Promise((resolve) => setTimeout(resolve, 2));
        if (at >= body.length) return controller.close();
        controller.enqueue(body.subarray(at, (at += 512 * 1024)));
      },
    });
    return fetch(input, { ...init, headers, body: stream, duplex: 'half' } as RequestInit);
  };

const TRIES = 10;
const oversized = () => 'x'.repeat(MAX_BODY_BYTES + 1024);

describe('a body over the cap: the client reads the 413, not a reset', () => {
  it(`fetch, ${TRIES} times each: REST and /mcp, with and without Content-Length`, async () => {
    const outcomes: Record<string, string[]> = {};
    for (const [path, contentType] of [
      [`/api/boards/${boardId}/texts`, 'application/json'],
      ['/mcp', 'application/json'],
    ])
      for (const declareLength of [true, false]) {
        const seen = (outcomes[`${path} ${declareLength ? 'Content-Length' : 'chunked'}`] = [] as string[]);
        for (let i = 0; i < TRIES; i++) {
          const body = JSON.stringify({
            jsonrpc: '2.0',
            id: i,
            method: 'tools/call',
            params: { content: oversized() },
          });
          try {
            const res = await slowFetch(declareLength)(server.url + path, {
              method: 'POST',
              headers: { 'content-type': contentType, accept: 'application/json, text/event-stream' },
              body,
            });
            const answer = await res.json();
            seen.push(`${res.status} ${answer.code ?? answer.error?.data?.code}`);
          } catch (error) {
            seen.push(`${String(error)} ${(error as { cause?: { code?: string } }).cause?.code}`);
          }
        }
      }
    for (const [what, seen] of Object.entries(outcomes))
      expect([what, seen]).toEqual([what, Array(TRIES).fill('413 payload_too_large')]);
  });

  it(`the MCP SDK, ${TRIES} calls each: stateless 2026-07-28 and a 2025 session get a JSON-RPC error they can read`, async () => {
    const modern = await connectModernMcp(server.url, { fetch: slowFetch(true) });
    const legacy = new McpSdkClient({ name: 'board-tests', version: '1.0.0' });
    await legacy.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { fetch: slowFetch(true) as never }),
    );
    try {
      const seen: string[] = [];
      for (const [era, call] of [
        [
          '2026-07-28',
          () =>
            modern.modern.callTool({
              name: 'add_text',
              arguments: { board_id: boardId, x: 0, y: 0, content: oversized() },
            }),
        ],
        [
          '2025',
          () =>
            legacy.callTool({ name: 'add_text', arguments: { board_id: boardId, x: 0, y: 0, content: oversized() } }),
        ],
      ] as const)
        for (let i = 0; i < TRIES; i++) {
          try {
            await call();
            seen.push(`${era}: answered`);
          } catch (error) {
            seen.push(
              `${era}: ${/payload_too_large|larger than 5242880 bytes/.test(String(error)) ? 'too large' : String(error)}`,
            );
          }
        }
      expect(seen).toEqual([...Array(TRIES).fill('2026-07-28: too large'), ...Array(TRIES).fill('2025: too large')]);
    } finally {
      await Promise.all([modern.close(), legacy.close()]);
    }
  });

  it('a client that keeps sending is cut off past the drain bound, and one that declares gigabytes at once', async () => {
    // Chunked and endless: the server reads at most the drain bound past the cap, then answers and closes.
    const endless = await new Promise<{ sent: number; ms: number }>((resolve) => {
      const started = Date.now();
      const request = http.request(`${server.url}/api/boards/${boardId}/texts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      });
      const chunk = Buffer.alloc(256 * 1024, ' ');
      let sent = 0;
      let done = false;
      const stop = () => {
        if (done) return;
        done = true;
        resolve({ sent, ms: Date.now() - started });
      };
      request.on('error', stop);
      request.on('close', stop);
      request.on('response', (response) => response.resume().on('end', stop));
      request.write('{"x":0,"y":0,"content":"');
      const pump = () => {
        while (!done && sent < 20 * MAX_BODY_BYTES) {
          sent += chunk.length;
          if (!request.write(chunk)) return request.once('drain', pump);
        }
        if (!done) stop();
      };
      pump();
    });
    expect(endless.sent).toBeLessThan(20 * MAX_BODY_BYTES);
    expect(endless.ms).toBeLessThan(REFUSED_BODY_DRAIN_MS + 5_000);
    // Declared past what would be drained: answered at once, nothing waited for.
    const declared = await new Promise<{ status: number; code: string }>((resolve, reject) => {
      const request = http.request(`${server.url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': String(MAX_BODY_BYTES + REFUSED_BODY_DRAIN_BYTES + 1),
        },
      });
      request.on('response', (response) => {
        let text = '';
        response.on('data', (data) => (text += data));
        response.on('end', () => resolve({ status: response.statusCode!, code: JSON.parse(text).error.data.code }));
      });
      request.on('error', reject);
      request.write(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"${' '.repeat(64 * 1024)}`);
    });
    expect(declared).toEqual({ status: 413, code: 'payload_too_large' });
  });
});

describe('CORS', () => {
  it('public endpoints send Access-Control-Allow-Origin: *, errors included', async () => {
    for (const path of [
      `/json/${boardId}`,
      `/api/boards/${boardId}`,
      '/api/boards/00000000-0000-4000-8000-000000000000',
    ]) {
      const res = await api.get(path, { origin: 'https://elsewhere.test' });
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
    }
    const created = await api.post('/api/boards', undefined, { origin: 'https://elsewhere.test' });
    expect(created.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answers preflight with the allowed methods and headers, and not X-Import-Token', async () => {
    for (const path of [
      `/api/boards/${boardId}/texts`,
      '/api/boards',
      `/json/${boardId}`,
      '/mcp',
      `/svg-preview/${boardId}`,
    ]) {
      const res = await api.request('OPTIONS', path, {
        headers: {
          origin: 'https://elsewhere.test',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type,x-board-key,x-import-token',
        },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      const methods = res.headers.get('access-control-allow-methods')!.split(/,\s*/);
      expect(methods.sort()).toEqual(['DELETE', 'GET', 'OPTIONS', 'POST']);
      const headers = res.headers.get('access-control-allow-headers')!.toLowerCase().split(/,\s*/);
      // The contract's four, the headers an MCP client in a browser sends, and Idempotency-Key for safe retries.
      expect(headers.sort()).toEqual([
        'content-type',
        'idempotency-key',
        'if-none-match',
        'last-event-id',
        'mcp-method',
        'mcp-name',
        'mcp-protocol-version',
        'mcp-session-id',
        'x-board-key',
      ]);
      expect(headers).not.toContain('x-import-token');
    }
  });
});

describe('every error is JSON with a machine code', () => {
  it.each([
    ['GET', '/nowhere', undefined, 404],
    ['POST', `/api/boards/${'x'}/texts`, '{}', 400],
    ['POST', '/api/boards', '{bad', 400],
    ['DELETE', '/api/boards/00000000-0000-4000-8000-000000000000', undefined, 404],
  ])('%s %s', async (method, path, body, status) => {
    const res = await api.request(method, path, { body, headers: body ? { 'content-type': 'application/json' } : {} });
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.body).toMatchObject({ code: expect.stringMatching(/^[a-z_]+$/), error: expect.any(String) });
  });
});
