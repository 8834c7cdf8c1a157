import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { DESCRIBED_ROUTES } from '../adapters/rest/openapi.js';
import { client } from './helpers/http.js';
import { connectMcp } from './helpers/mcp.js';
import { startServer, useServer } from './helpers/server.js';

const t = useServer();

function expectDiscoveryHeaders(res: { headers: Headers }) {
  expect(res.headers.get('access-control-allow-origin')).toBe('*');
  expect(res.headers.get('cache-control')).toBe('public, max-age=300');
}

describe('GET /llms.txt', () => {
  it('follows the llms.txt format and points to the other documents with absolute URLs', async () => {
    const res = await t.api.get('/llms.txt', { origin: 'https://agent.test' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expectDiscoveryHeaders(res);
    const lines = res.text.split('\n');
    expect(lines[0]).toMatch(/^# \S/);
    expect(lines.find((line: string) => line.startsWith('> '))).toBeDefined();
    const sections = lines.filter((line: string) => line.startsWith('## ')).map((line: string) => line.slice(3));
    expect(sections).toEqual(expect.arrayContaining(['Start', 'Limits', 'Optional']));
    const links = [...res.text.matchAll(/\[[^\]]+\]\(([^)]+)\)/g)].map((match) => match[1]);
    for (const path of ['/openapi.json', '/.well-known/mcp.json', '/quotas.json', '/.well-known/mcp/server-card'])
      expect(links).toContain(`${t.server.url}${path}`);
    expect(res.text).toContain(`${t.server.url}/mcp`);
    expect(res.text).toContain('POST');
    expect(res.text).toContain('2000 strokes');
  });

  it('tells a client of either era how to connect, and a model to pass a key as access_key', async () => {
    const { text } = await t.api.get('/llms.txt');
    for (const version of ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26']) expect(text).toContain(version);
    expect(text).toContain('server/discover');
    expect(text).toContain('subscriptions/listen');
    expect(text).toContain('initialize');
    expect(text).toContain('Mcp-Session-Id');
    expect(text).toMatch(/a model passes it as the MCP tool argument `access_key`/);
  });

  it('uses PUBLIC_URL when it is set', async () => {
    const other = await startServer({ PUBLIC_URL: 'https://boards.example.org' });
    try {
      const text = (await client(other.url).get('/llms.txt')).text;
      expect(text).toContain('https://boards.example.org/openapi.json');
      expect(text).toContain('wss://boards.example.org/collab');
      expect(text).not.toContain(other.url);
    } finally {
      await other.close();
    }
  });
});

describe('documents that name the base URL, behind a shared cache', () => {
  const NAMING = ['/llms.txt', '/.well-known/mcp.json', '/.well-known/mcp/server-card', '/openapi.json'];

  it("vary on Host when they name the request's own host, so a cache keeps one copy per host", async () => {
    for (const path of NAMING) {
      const res = await fetch(`${t.server.url}${path}`);
      expect(res.headers.get('vary') ?? '', path).toMatch(/(^|,\s*)Host(,|$)/);
      expect(res.headers.get('cache-control'), path).toBe('public, max-age=300');
    }
    // What names no host varies on none.
    expect((await fetch(`${t.server.url}/quotas.json`)).headers.get('vary') ?? '').not.toMatch(/Host/);
  });

  it('vary on the forwarded headers too when a proxy is trusted to set them', async () => {
    const proxied = await startServer({ TRUST_PROXY: 'true' });
    try {
      const res = await fetch(`${proxied.url}/llms.txt`, {
        headers: { 'x-forwarded-host': 'boards.attacker.test', 'x-forwarded-proto': 'https' },
      });
      expect(await res.text()).toContain('https://boards.attacker.test/mcp'); // what the Vary is for
      for (const header of ['Host', 'X-Forwarded-Host', 'X-Forwarded-Proto'])
        expect(res.headers.get('vary'), header).toContain(header);
    } finally {
      await proxied.close();
    }
  });

  it('with PUBLIC_URL, name it whatever the Host and vary on nothing', async () => {
    const other = await startServer({ PUBLIC_URL: 'https://boards.example.org' });
    try {
      for (const path of NAMING) {
        const res = await fetch(`${other.url}${path}`);
        expect(res.headers.get('vary') ?? '', path).not.toMatch(/Host/);
        expect(await res.text(), path).not.toContain(new URL(other.url).host);
      }
    } finally {
      await other.close();
    }
  });
});

describe('GET /healthz', () => {
  it('says the process is alive and nothing of its load to a stranger', async () => {
    const res = await t.api.get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});

describe('how an agent keeps its context small', () => {
  it('the server card and llms.txt say paging, the outline, find_items, batch and the sizes', async () => {
    const card = (await t.api.get('/.well-known/mcp.json')).body;
    const llms = (await t.api.get('/llms.txt')).text;
    for (const words of ['16 KB', 'next_cursor', 'outline', 'find_items', 'batch', '"$ref"', 'laid-out bbox']) {
      expect(card.usage, words).toContain(words);
      expect(llms, words).toContain(words);
    }
  });
});

describe('MCP server card', () => {
  it('is served at /.well-known/mcp.json and /.well-known/mcp/server-card with the tools exactly as tools/list gives them', async () => {
    const card = await t.api.get('/.well-known/mcp.json');
    expectDiscoveryHeaders(card);
    expect((await t.api.get('/.well-known/mcp/server-card')).body).toEqual(card.body);
    expect(card.body).toMatchObject({
      name: 'board-service',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      title: expect.any(String),
      description: expect.any(String),
      protocolVersion: '2026-07-28',
      remotes: [
        {
          type: 'streamable-http',
          url: `${t.server.url}/mcp`,
          supportedProtocolVersions: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'],
        },
      ],
      capabilities: { tools: expect.any(Object), resources: { subscribe: true }, completions: {} },
      connection: [
        { protocolVersions: ['2026-07-28'], stateless: true, description: expect.stringContaining('server/discover') },
        {
          protocolVersions: ['2025-11-25', '2025-06-18', '2025-03-26'],
          stateless: false,
          description: expect.stringContaining('initialize'),
        },
      ],
    });
    // A model cannot set headers: the card tells it to pass the key as an argument.
    expect(card.body.authentication.description).toMatch(/a model passes it as the access_key argument/);
    const mcp = await connectMcp(t.server.url);
    try {
      const { tools } = await mcp.client.listTools();
      // Icons included: tools/list gives each tool an icon URL at the server's base URL.
      expect(card.body.tools).toEqual(JSON.parse(JSON.stringify(tools)));
      expect(card.body.tools[0].icons).toEqual([{ src: `${t.server.url}/mcp/icons/board.svg` }]);
      const version = mcp.client.getServerVersion();
      expect(version).toMatchObject({ name: card.body.name, version: card.body.version });
    } finally {
      await mcp.close();
    }
  });
});

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1.0 document, version 1.0.0', async () => {
    const res = await t.api.get('/openapi.json');
    expectDiscoveryHeaders(res);
    expect(res.body).toMatchObject({ openapi: '3.1.0', info: { version: '1.0.0' }, servers: [{ url: t.server.url }] });
    const validator = new Validator();
    const result = await validator.validate(res.body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('describes every route Fastify serves, and nothing it does not', async () => {
    const served = new Set<string>();
    for (const { method, url } of t.server.server.routes) {
      if (method === 'OPTIONS') continue; // CORS preflight for every path
      if (method === 'HEAD' && url !== '/json/:boardId') continue; // Fastify answers HEAD for every GET
      const path = url === '/*' ? '/' : url.length > 1 ? url.replace(/\/$/, '') : url; // the static app and the /json/ alias
      served.add(`${method} ${path}`);
    }
    expect([...served].sort()).toEqual([...new Set(DESCRIBED_ROUTES)].sort());
  });

  it('takes its request bodies from the zod schemas', async () => {
    const { body } = await t.api.get('/openapi.json');
    const texts = body.paths['/api/boards/{boardId}/texts'].post;
    const schema = texts.requestBody.content['application/json'].schema;
    expect(schema.required).toEqual(expect.arrayContaining(['x', 'y', 'content']));
    expect(schema.properties.width).toMatchObject({ minimum: 160, maximum: 4096 });
    expect(texts.responses['413']).toEqual({ $ref: '#/components/responses/E413' });
    const lock = body.paths['/api/boards/{boardId}/lock'].post;
    expect(lock.requestBody.content['application/json'].schema.properties.mode.enum).toEqual(['write', 'all']);
    expect(body.paths['/api/boards'].post.parameters.map((p: any) => p.name)).toContain('X-Import-Token');
  });
});
