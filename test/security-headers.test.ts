/**
 * Security headers: the app's Content-Security-Policy, the embed's
 * frame rule, nosniff and the referrer policy everywhere, cross-origin headers
 * that keep the CORS API and other sites' embeds working, HSTS only behind https.
 * test/browser/csp.test.ts runs the app under the policy.
 */

import { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { boardMaps, type ImageItem } from '../board/model/document-model.js';
import { connectYjs, eventually } from './helpers/realtime.js';
import { startServer, type TestServer } from './helpers/server.js';

/** The policy's directives by name. */
function directives(header: string | null): Map<string, string[]> {
  expect(header, 'no Content-Security-Policy').toBeTruthy();
  return new Map(
    header!
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values]),
  );
}

/** What an attacker uploaded: script in a handler and in an element. */
const HOSTILE_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" onload="document.title=\'ran\'">' +
  '<script>document.title="ran"</script><rect width="10" height="10" fill="red"/></svg>';

function expectEverywhere(headers: Headers): void {
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('referrer-policy')).toBe('same-origin');
  // Never same-origin: other sites load our previews and embeds, and the API answers CORS `*`.
  expect(headers.get('cross-origin-resource-policy')).toBe('cross-origin');
  expect(headers.get('cross-origin-embedder-policy')).toBeNull();
}

describe('security headers on a plain http server', () => {
  let server: TestServer;
  let boardId: string;
  beforeAll(async () => {
    server = await startServer();
    boardId = (await (await fetch(`${server.url}/api/boards`, { method: 'POST' })).json()).id;
  });
  afterAll(() => server.close());

  it('the app page: own scripts only, no inline script, images from data: and blob:, its own WebSocket, no framing by others', async () => {
    const response = await fetch(`${server.url}/`);
    expect(response.status).toBe(200);
    expectEverywhere(response.headers);
    const csp = directives(response.headers.get('content-security-policy'));
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('script-src-attr')).toEqual(["'none'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'self'"]);
    expect(csp.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
    expect(csp.get('connect-src')).toContain("'self'");
    expect(csp.get('connect-src')).toContain(`ws://${new URL(server.url).host}`);
    expect(csp.get('frame-ancestors')).toEqual(["'self'"]);
    expect(csp.has('upgrade-insecure-requests'), 'would break a plain http deployment').toBe(false);
    expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(response.headers.get('strict-transport-security')).toBeNull();
  });

  it('the embed page (?embed=1) may sit in any frame: frame-ancestors *, no X-Frame-Options', async () => {
    for (const path of ['/?embed=1', '/?lang=en&embed=1']) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status).toBe(200);
      expectEverywhere(response.headers);
      const csp = directives(response.headers.get('content-security-policy'));
      expect(csp.get('frame-ancestors'), path).toEqual(['*']);
      expect(csp.get('script-src')).toEqual(["'self'"]);
      expect(response.headers.get('x-frame-options'), path).toBeNull();
    }
    // The query decides, as the app reads it: anything else is the framed-by-us-only app.
    for (const path of ['/?embed=0', '/?embed=10', '/llms.txt?embed=1']) {
      const response = await fetch(`${server.url}${path}`);
      expect(directives(response.headers.get('content-security-policy')).get('frame-ancestors'), path).toEqual([
        "'self'",
      ]);
      expect(response.headers.get('x-frame-options'), path).toBe('SAMEORIGIN');
    }
  });

  it('an API JSON route keeps its CORS headers under the security headers', async () => {
    const response = await fetch(`${server.url}/json/${boardId}`, { headers: { origin: 'https://elsewhere.example' } });
    expect(response.status).toBe(200);
    expectEverywhere(response.headers);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-expose-headers')).toContain('X-Request-Id');
    const preflight = await fetch(`${server.url}/api/boards/${boardId}/texts`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://elsewhere.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-board-key',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    // A preview image is shown by other sites' <img>: no resource policy may keep it home.
    const preview = await fetch(`${server.url}/svg-preview/${boardId}`);
    expect(preview.status).toBe(200);
    expect(preview.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
  });

  it('an error answer carries the headers too', async () => {
    const response = await fetch(`${server.url}/api/boards/00000000-0000-4000-8000-000000000000`);
    expect(response.status).toBe(404);
    expectEverywhere(response.headers);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(directives(response.headers.get('content-security-policy')).get('default-src')).toEqual(["'none'"]);
    const unknown = await fetch(`${server.url}/no/such/route`);
    expect(unknown.status).toBe(404);
    expectEverywhere(unknown.headers);
    expect(directives(unknown.headers.get('content-security-policy')).get('script-src')).toEqual(["'self'"]);
  });

  it('a JSON answer (REST, /json, MCP) loads nothing and sits in no frame, without the page-only headers', async () => {
    const write = await fetch(`${server.url}/api/boards/${boardId}/texts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ x: 1, y: 2, content: 'headers' }),
    });
    expect(write.ok).toBe(true);
    const text = (await write.json()) as { id: string };
    const mcp = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    });
    expect(mcp.status).toBe(200);
    for (const [name, response] of [
      ['POST /texts', write],
      ['GET /json', await fetch(`${server.url}/json/${boardId}`)],
      ['GET /api/boards/{id}/texts/{id}', await fetch(`${server.url}/api/boards/${boardId}/texts/${text.id}`)],
      ['POST /mcp', mcp],
    ] as const) {
      expect(response.headers.get('content-type'), name).toMatch(/^application\/json/);
      expectEverywhere(response.headers);
      const csp = directives(response.headers.get('content-security-policy'));
      expect(csp.get('default-src'), name).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors'), name).toEqual(["'none'"]);
      expect(csp.has('script-src'), name).toBe(false);
      for (const pageOnly of [
        'x-frame-options',
        'cross-origin-opener-policy',
        'origin-agent-cluster',
        'x-xss-protection',
        'x-dns-prefetch-control',
      ]) {
        expect(response.headers.get(pageOnly), `${name}: ${pageOnly}`).toBeNull();
      }
    }
  });

  it('a JSON answer (REST, MCP) goes out in one writeHead: nothing is set on the raw response first', async () => {
    // One header set on Node's response before writeHead makes Node set every header of the answer again, one by one.
    const setHeader = vi.spyOn(ServerResponse.prototype, 'setHeader');
    try {
      const write = await fetch(`${server.url}/api/boards/${boardId}/texts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ x: 1, y: 2, content: 'one writeHead' }),
      });
      expect(write.ok).toBe(true);
      const envelope = {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': {},
      };
      const call = await fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'add_text',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: {
            name: 'add_text',
            arguments: { board_id: boardId, x: 3, y: 4, content: 'over MCP' },
            _meta: envelope,
          },
        }),
      });
      expect(call.status).toBe(200);
      expect(JSON.stringify(await call.json())).not.toContain('"isError":true');
      for (const response of [write, call]) {
        expect(response.headers.get('access-control-allow-origin')).toBe('*');
        expect(response.headers.get('x-request-id')).toBeTruthy();
        expectEverywhere(response.headers);
      }
      expect(setHeader.mock.calls.map(([name]) => name)).toEqual([]);
    } finally {
      setHeader.mockRestore();
    }
  });

  it("a user's image runs nothing when opened on its own: its own sandboxed policy, and an SVG is a download", async () => {
    const png =
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
    const svg = `data:image/svg+xml;base64,${Buffer.from(HOSTILE_SVG).toString('base64')}`;
    const served = async (dataUrl: string) => {
      const created = await fetch(`${server.url}/api/boards/${boardId}/images`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ x: 0, y: 0, width: 1, height: 1, dataUrl }),
      });
      expect(created.ok).toBe(true);
      const { id } = (await created.json()) as { id: string };
      const response = await fetch(`${server.url}/api/boards/${boardId}/images/${id}`);
      expect(response.status).toBe(200);
      expectEverywhere(response.headers);
      const csp = directives(response.headers.get('content-security-policy'));
      expect(Object.fromEntries(csp)).toEqual({
        'default-src': ["'none'"],
        'img-src': ['data:'],
        'style-src': ["'unsafe-inline'"],
        sandbox: [],
      });
      const again = await fetch(`${server.url}/api/boards/${boardId}/images/${id}`, {
        headers: { 'if-none-match': response.headers.get('etag')! },
      });
      expect(again.status).toBe(304);
      expect(again.headers.get('content-disposition')).toBe(response.headers.get('content-disposition'));
      return { id, response };
    };

    const raster = await served(png);
    expect(raster.response.headers.get('content-type')).toBe('image/png');
    expect(raster.response.headers.get('content-disposition')).toBe(`inline; filename="image-${raster.id}.png"`);

    const vector = await served(svg);
    expect(vector.response.headers.get('content-type')).toBe('image/svg+xml');
    expect(vector.response.headers.get('content-disposition')).toBe(`attachment; filename="image-${vector.id}.svg"`);
    expect(await vector.response.text()).toBe(HOSTILE_SVG); // byte for byte: the headers, not a rewrite, disarm it
  });

  it("an image's file name keeps only the safe characters of an id a /collab client chose", async () => {
    const png =
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
    const created = await fetch(`${server.url}/api/boards/${boardId}/images`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ x: 0, y: 0, width: 1, height: 1, dataUrl: png }),
    });
    const uploaded = ((await created.json()) as { id: string }).id;
    const id = 'a"b;c\\ d\u00e9';
    const client = connectYjs(server.url, boardId);
    try {
      await client.synced;
      const images = boardMaps(client.doc).images;
      const image = images.get(uploaded);
      client.doc.transact(() => images.set(id, { ...(image as ImageItem), id }));
      await eventually(async () =>
        expect((await fetch(`${server.url}/api/boards/${boardId}/images/${encodeURIComponent(id)}`)).status).toBe(200),
      );
    } finally {
      client.destroy();
    }
    const image = await fetch(`${server.url}/api/boards/${boardId}/images/${encodeURIComponent(id)}`);
    expect(image.headers.get('content-disposition')).toBe('inline; filename="image-a_b_c__d_.png"');
  });

  it('/docs has its own policy: Redoc styles inline, starts no worker, scripts still our own', async () => {
    const response = await fetch(`${server.url}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expectEverywhere(response.headers);
    const csp = directives(response.headers.get('content-security-policy'));
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('style-src')).toContain("'unsafe-inline'");
    expect(csp.get('worker-src')).toEqual(["'none'"]);
    const html = await response.text();
    expect(html).toContain('<redoc spec-url="/openapi.json" disable-telemetry="true"');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script
    expect(html).not.toMatch(/https?:\/\//); // nothing from a CDN
    const bundle = await fetch(`${server.url}/docs/redoc.standalone.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(bundle.headers.get('cache-control')).toMatch(/max-age=\d+/);
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
  });
});

describe('security headers behind https (PUBLIC_URL)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ PUBLIC_URL: 'https://boards.example.com' });
  });
  afterAll(() => server.close());

  it('sends HSTS, upgrades insecure requests and names the wss:// origin of PUBLIC_URL', async () => {
    for (const path of ['/', '/?embed=1', '/healthz', '/no/such/route']) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.headers.get('strict-transport-security'), path).toMatch(/^max-age=\d{7,}/);
      expectEverywhere(response.headers);
    }
    const csp = directives((await fetch(`${server.url}/`)).headers.get('content-security-policy'));
    expect(csp.get('connect-src')).toContain('wss://boards.example.com');
    expect(csp.get('connect-src')).not.toContain(`ws://${new URL(server.url).host}`);
    expect(csp.has('upgrade-insecure-requests')).toBe(true);
  });
});
