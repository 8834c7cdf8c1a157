/**
 * The patches carried on the MCP SDK (patches/, docs/upstream-patches.md,
 * issue 22): each is pinned to the SDK version it was written against, and
 * each behaviour it adds is checked here on the SDK itself, so this file
 * fails when a patch is missing or when an SDK upgrade changes the code a
 * patch rewrites (then re-check the patches against the new release: drop
 * those upstream took, remake the others).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import {
  classifyInboundRequest,
  createMcpHandler,
  isInitializeRequest,
  isInitializedNotification,
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResponse,
  isJSONRPCResultResponse,
  Server,
  specTypeSchemas,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MODERN_REVISION } from '../adapters/mcp/handlers.js';

const SDK = '@modelcontextprotocol/server';
/** The release the patches were made for. */
const PATCHED_VERSION = '2.4.0';
const PATCHES = [
  'guards',
  'settled-handlers',
  'given-classification',
  'tools-call-parsed-once',
  'json-body',
  'exchange-handles',
];

const root = join(import.meta.dirname, '..');
const sdkDir = join(root, 'node_modules', SDK);

describe('the SDK patches are applied to the release they were made for', () => {
  it(`the installed ${SDK} is ${PATCHED_VERSION}, with a patch file for each change`, () => {
    const { version } = JSON.parse(readFileSync(join(sdkDir, 'package.json'), 'utf8')) as { version: string };
    expect(version, 'a new SDK release: re-check each patch against it (docs/upstream-patches.md)').toBe(
      PATCHED_VERSION,
    );
    const files = readdirSync(join(root, 'patches'));
    for (const name of PATCHES) {
      expect(
        files.some(
          (file) =>
            file.startsWith(`@modelcontextprotocol+server+${PATCHED_VERSION}+`) && file.endsWith(`+${name}.patch`),
        ),
        name,
      ).toBe(true);
    }
  });

  it('both builds (ESM and CommonJS) carry every patch', () => {
    const dist = join(sdkDir, 'dist');
    const patched = (pattern: RegExp) =>
      readdirSync(dist).filter(
        (file) => /\.(mjs|cjs)$/.test(file) && pattern.test(readFileSync(join(dist, file), 'utf8')),
      );
    expect(patched(/const hasMember = /)).toHaveLength(2);
    expect(patched(/const handlerSettled = /)).toHaveLength(2);
    expect(
      patched(/responseHandlers\.size > 0 \|\| requestHandlerAbortControllers\.size > 0 \? new SdkError/),
    ).toHaveLength(2);
    expect(patched(/const given = requestOptions\?\.classification;/)).toHaveLength(2);
    expect(patched(/const prevalidated = this\._validatedRequests\?\.get\(request\);/)).toHaveLength(2);
    expect(patched(/\(this\._validatedRequests \?\?= /)).toHaveLength(2);
    // The per-request transport (mcp chunk) and the session transport (index) keep their JSON text, in both builds.
    expect(patched(/const JSON_BODY = Symbol\.for\("mcp\.jsonBody"\);/)).toHaveLength(4);
    expect(patched(/const exchange = \{ server \};/)).toHaveLength(2);
    // The CommonJS build answers like the ESM one.
    const cjs = createRequire(import.meta.url)(SDK) as { isJSONRPCRequest: (value: unknown) => boolean };
    expect(cjs.isJSONRPCRequest({ jsonrpc: '2.0', id: 1, method: 'ping' })).toBe(true);
    expect(cjs.isJSONRPCRequest({ jsonrpc: '2.0', id: 1, result: {} })).toBe(false);
  });
});

const meta = {
  'io.modelcontextprotocol/protocolVersion': MODERN_REVISION,
  'io.modelcontextprotocol/clientInfo': { name: 'patch-test', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const toolsCall = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', arguments: {}, _meta: meta } };
const headers = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-method': 'tools/call',
  'mcp-name': 'echo',
  'mcp-protocol-version': MODERN_REVISION,
};

/** Messages of every kind, valid and broken, for the guards. */
const MESSAGES: unknown[] = [
  toolsCall,
  { jsonrpc: '2.0', id: 'a', method: 'ping' },
  { jsonrpc: '2.0', id: 1.5, method: 'ping' },
  { jsonrpc: '1.0', id: 1, method: 'ping' },
  { jsonrpc: '2.0', id: 1, method: 'ping', extra: true },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', method: 'notifications/initialized', id: undefined },
  { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } },
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
  },
  { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} },
  { jsonrpc: '2.0', id: 1, result: {} },
  { jsonrpc: '2.0', id: 1, result: { content: [] }, method: 'x' },
  { jsonrpc: '2.0', id: 1, result: null },
  { jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'no' } },
  { jsonrpc: '2.0', error: { code: -32700, message: 'parse' } },
  { jsonrpc: '2.0', id: 1, error: { code: 'x', message: 'no' } },
  { jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: 'both' } },
  { jsonrpc: '2.0', id: null, method: 'ping' },
  { method: 5 },
  [{ jsonrpc: '2.0', id: 1, method: 'ping' }],
  {},
  null,
  undefined,
  'ping',
  42,
];

/** The SDK's spec schemas are typed as Standard Schemas; they are zod schemas, whose `safeParse` the guards call. */
type ZodSchema = { safeParse(value: unknown): { success: boolean } };
const zod = (schema: unknown) => schema as ZodSchema;

const GUARDS = [
  ['isJSONRPCRequest', isJSONRPCRequest, zod(specTypeSchemas.JSONRPCRequest)],
  ['isJSONRPCNotification', isJSONRPCNotification, zod(specTypeSchemas.JSONRPCNotification)],
  ['isJSONRPCResultResponse', isJSONRPCResultResponse, zod(specTypeSchemas.JSONRPCResultResponse)],
  ['isJSONRPCErrorResponse', isJSONRPCErrorResponse, zod(specTypeSchemas.JSONRPCErrorResponse)],
  ['isJSONRPCResponse', isJSONRPCResponse, zod(specTypeSchemas.JSONRPCResponse)],
  ['isInitializeRequest', isInitializeRequest, zod(specTypeSchemas.InitializeRequest)],
  ['isInitializedNotification', isInitializedNotification, zod(specTypeSchemas.InitializedNotification)],
] as const satisfies readonly (readonly [string, (value: unknown) => boolean, ZodSchema])[];

describe('guards: a message of another kind is told apart before any zod parse', () => {
  afterEach(() => vi.restoreAllMocks());

  it.each(GUARDS)('%s answers exactly as its schema does', (_name, guard, schema) => {
    for (const message of MESSAGES)
      expect(guard(message), JSON.stringify(message)).toBe(schema.safeParse(message).success);
  });

  it('a request is not parsed as a response, nor a response as a request or a notification', () => {
    const parses = GUARDS.map(([name, , schema]) => [name, vi.spyOn(schema, 'safeParse')] as const);
    const count = () => Object.fromEntries(parses.map(([name, spy]) => [name, spy.mock.calls.length]));
    expect(
      isJSONRPCResultResponse(toolsCall) ||
        isJSONRPCErrorResponse(toolsCall) ||
        isJSONRPCNotification(toolsCall) ||
        isInitializeRequest(toolsCall),
    ).toBe(false);
    const response = { jsonrpc: '2.0', id: 7, result: { content: [] } };
    expect(isJSONRPCRequest(response) || isJSONRPCNotification(response) || isJSONRPCErrorResponse(response)).toBe(
      false,
    );
    expect(count()).toEqual(Object.fromEntries(GUARDS.map(([name]) => [name, 0])));
    // What passes the cheap check is still parsed whole.
    expect(isJSONRPCRequest(toolsCall)).toBe(true);
    expect(count().isJSONRPCRequest).toBe(1);
  });
});

/** A stateless 2026-07-28 endpoint with one tool, `echo`, that keeps the signal each call was given. */
function echoEndpoint() {
  const signals: AbortSignal[] = [];
  const handler = createMcpHandler(
    () => {
      const server = new Server(
        { name: 'patch-test', version: '1' },
        { capabilities: { tools: {} }, supportedProtocolVersions: [MODERN_REVISION, '2025-11-25'] },
      );
      server.setRequestHandler('tools/call', (_request, ctx) => {
        signals.push(ctx.mcpReq.signal);
        return { content: [{ type: 'text', text: 'echo' }] };
      });
      return server;
    },
    { legacy: 'reject' },
  );
  const post = (body: unknown, options: { classification?: ReturnType<typeof classifyInboundRequest> } = {}) =>
    handler.fetch(new Request('http://localhost/mcp', { method: 'POST', headers }), { parsedBody: body, ...options });
  return { handler, signals, post };
}

describe('a per-request server closes without aborting the handler that already answered', () => {
  it("the tools/call handler's signal is not aborted once its answer is sent", async () => {
    const { handler, signals, post } = echoEndpoint();
    const response = await post(toolsCall);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { result: { content: unknown[] } }).result.content).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(signals).toHaveLength(1);
    // Unpatched, the exchange's close aborts it with a fresh SdkError (ConnectionClosed) and its stack.
    expect(signals[0].aborted).toBe(false);
    await handler.close();
  });
});

describe('createMcpHandler takes the classification its caller already made', () => {
  const classify = (body: unknown) =>
    classifyInboundRequest({
      httpMethod: 'POST',
      protocolVersionHeader: headers['mcp-protocol-version'],
      mcpMethodHeader: headers['mcp-method'],
      mcpNameHeader: headers['mcp-name'],
      body,
    });

  it('the given outcome is used as is, not made again from the body', async () => {
    const { handler, post } = echoEndpoint();
    // The outcome of another body (no JSON-RPC message): a handler that classified again would answer the call.
    const rejection = classify({ not: 'json-rpc' });
    expect(rejection.kind).toBe('reject');
    const refused = await post(toolsCall, { classification: rejection });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
      /not a valid JSON-RPC message/,
    );
    // The body's own outcome serves it.
    const route = classify(toolsCall);
    expect(route.kind).toBe('modern');
    const served = await post(toolsCall, { classification: route });
    expect(served.status).toBe(200);
    await handler.close();
  });

  it('without a parsed body the classification is ignored and the body read as before', async () => {
    const { handler } = echoEndpoint();
    const request = new Request('http://localhost/mcp', { method: 'POST', headers, body: JSON.stringify(toolsCall) });
    const response = await handler.fetch(request, { classification: classify({ not: 'json-rpc' }) });
    expect(response.status).toBe(200);
    await handler.close();
  });
});

describe('a tools/call request is parsed once by the Server', () => {
  it('the handler gets the parsed request without a second parse of the same message', async () => {
    const server = new Server({ name: 'patch-test', version: '1' }, { capabilities: { tools: {} } });
    let seen: unknown;
    server.setRequestHandler('tools/call', (request) => {
      seen = request;
      return { content: [] };
    });
    // Each parse of the message reads its params once: unpatched, the Server's tools/call check and the registration's own parse read them twice.
    let reads = 0;
    const params = { name: 'echo', arguments: { a: 1 } };
    const request = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      get params() {
        reads += 1;
        return params;
      },
    };
    const wrapped = (
      server as unknown as { _requestHandlers: Map<string, (request: unknown, ctx: unknown) => Promise<unknown>> }
    )._requestHandlers.get('tools/call')!;
    const ctx = { mcpReq: { id: 1, requestState: () => undefined, signal: new AbortController().signal } };
    expect(await wrapped(request, ctx)).toMatchObject({ content: [] });
    expect(reads).toBe(1);
    expect(seen).toEqual({ method: 'tools/call', params });
  });

  it("a malformed tools/call is still refused by the Server's check, as Invalid params", async () => {
    const server = new Server({ name: 'patch-test', version: '1' }, { capabilities: { tools: {} } });
    const handler = vi.fn(() => ({ content: [] }));
    server.setRequestHandler('tools/call', handler);
    const wrapped = (
      server as unknown as { _requestHandlers: Map<string, (request: unknown, ctx: unknown) => Promise<unknown>> }
    )._requestHandlers.get('tools/call')!;
    const ctx = { mcpReq: { id: 1, requestState: () => undefined, signal: new AbortController().signal } };
    await expect(
      wrapped({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 5 } }, ctx),
    ).rejects.toMatchObject({ code: -32602 });
    expect(handler).not.toHaveBeenCalled();
  });
});

describe('a JSON answer keeps its text for a server adapter', () => {
  const JSON_BODY = Symbol.for('mcp.jsonBody');

  it("the stateless entry's answer carries the text its body holds", async () => {
    const { handler, post } = echoEndpoint();
    const response = await post(toolsCall);
    const kept = (response as Response & { [JSON_BODY]?: unknown })[JSON_BODY];
    expect(typeof kept).toBe('string');
    expect(await response.text()).toBe(kept);
    expect(JSON.parse(kept as string)).toMatchObject({
      jsonrpc: '2.0',
      id: 7,
      result: { content: [{ type: 'text', text: 'echo' }] },
    });
    expect(response.headers.get('content-type')).toBe('application/json');
    await handler.close();
  });

  it("so does a session transport's JSON answer", async () => {
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => 'session-1',
      enableJsonResponse: true,
    });
    const server = new Server({ name: 'patch-test', version: '1' }, { capabilities: {} });
    await server.connect(transport);
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
    };
    const response = await transport.handleRequest(
      new Request('http://localhost/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      }),
      { parsedBody: initialize },
    );
    const kept = (response as Response & { [JSON_BODY]?: unknown })[JSON_BODY];
    expect(typeof kept).toBe('string');
    expect(await response.text()).toBe(kept);
    expect(response.headers.get('mcp-session-id')).toBe('session-1');
    await transport.close();
  });
});

describe('the stateless entry lets go of a per-request server when its exchange ends', () => {
  it('handler.close() still closes the server of an exchange in flight', async () => {
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const signals: AbortSignal[] = [];
    const handler = createMcpHandler(
      () => {
        const server = new Server(
          { name: 'patch-test', version: '1' },
          { capabilities: { tools: {} }, supportedProtocolVersions: [MODERN_REVISION] },
        );
        server.setRequestHandler('tools/call', (_request, ctx) => {
          signals.push(ctx.mcpReq.signal);
          entered();
          return new Promise(() => {}); // never answers: the exchange stays in flight
        });
        return server;
      },
      { legacy: 'reject' },
    );
    const pending = handler.fetch(new Request('http://localhost/mcp', { method: 'POST', headers }), {
      parsedBody: toolsCall,
    });
    await inside;
    await handler.close();
    expect(signals[0].aborted).toBe(true);
    // The exchange's transport closed before it answered: the entry's "client went away" status.
    expect((await pending).status).toBe(499);
  });

  it('the servers of ended exchanges do not outlive young-generation collections', () => {
    // 40 000 exchanges after 20 000 of warm-up (before that, unoptimised code keeps more alive either way).
    const calls = 40_000;
    const trace = execFileSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--no-allocation-site-pretenuring',
        '--trace-gc-nvp',
        join(root, 'test/helpers/exchange-survival.ts'),
        String(calls),
      ],
      { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    const between = trace.slice(trace.indexOf('MARK-START'), trace.indexOf('MARK-END'));
    const scavenges = between
      .split('\n')
      .filter((line) => line.includes('"gc":"s"'))
      .map((line) => JSON.parse(line.slice(line.indexOf('{'))) as { new_space_survived: number; allocated: number });
    expect(scavenges.length).toBeGreaterThan(10);
    const survivedPerCall = scavenges.reduce((sum, scavenge) => sum + scavenge.new_space_survived, 0) / calls;
    // Unpatched, a server held in the entry's set of exchanges kept about 9 KB a call alive through them (0.3 KB patched).
    expect(survivedPerCall).toBeLessThan(3 * 1024);
  }, 60_000);
});

it('patch-package is what applies the patches on install', () => {
  const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  expect(scripts.postinstall).toMatch(/patch-package/);
  expect(existsSync(join(root, 'node_modules', 'patch-package'))).toBe(true);
});
