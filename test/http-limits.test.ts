import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../schema/index.js';
import { client, type Client } from './helpers/http.js';
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
      // The contract's four, and the headers an MCP client in a browser sends.
      expect(headers.sort()).toEqual([
        'content-type',
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
