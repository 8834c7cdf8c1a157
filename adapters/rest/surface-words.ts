/**
 * What OpenAPI says of the routes the other adapters serve on this port: the
 * MCP endpoint and its icons, and the two WebSockets. Their handlers are in
 * adapters/mcp, adapters/yjs and adapters/ws, which this adapter may not
 * import; their words are here, where the description is built.
 */
import type { RouteWords } from './route-words.js';

/** What OpenAPI says of these routes. */
export const SURFACE_ROUTE_WORDS: RouteWords[] = [
  [
    '/mcp',
    'post',
    {
      tag: 'mcp',
      summary:
        'MCP JSON-RPC 2.0 (Streamable HTTP): 2026-07-28 stateless (a _meta envelope on every request), or a 2025 session (initialize returns Mcp-Session-Id)',
      description:
        "See /.well-known/mcp.json and docs/mcp.md. A model passes a locked board's key as the `access_key` tool argument; a client program may send X-Board-Key instead (a 2026-07-28 subscriptions/listen on a locked board needs it).",
      locked: true,
      token: true,
      ok: {
        description: 'a JSON-RPC response, or an event stream for subscriptions/listen',
        schema: { type: 'object' },
        headers: { 'Mcp-Session-Id': { type: 'string' } },
      },
      errors: [400, 403, 404, 413],
    },
  ],
  [
    '/mcp',
    'get',
    {
      tag: 'mcp',
      summary: 'A 2025 session notification stream (Accept: text/event-stream, Mcp-Session-Id)',
      ok: { description: 'server-sent events', schema: { type: 'string' }, contentType: 'text/event-stream' },
      errors: [403, 404, 405],
    },
  ],
  [
    '/mcp',
    'delete',
    { tag: 'mcp', summary: 'End a 2025 MCP session', ok: { description: 'ended' }, errors: [403, 404, 405] },
  ],
  [
    '/mcp/icons/{name}',
    'get',
    {
      tag: 'mcp',
      summary: 'The icons of the MCP server and its tools (board, draw, todo, history .svg)',
      ok: { description: 'an SVG icon', schema: { type: 'string' }, contentType: 'image/svg+xml' },
      errors: [404],
    },
  ],
  [
    '/collab',
    'get',
    {
      tag: 'realtime',
      summary: 'WebSocket: Yjs sync (Hocuspocus); document name = board id, token = access key',
      description:
        'See docs/realtime.md. The key travels inside the Yjs protocol (the token), so no HTTP scheme describes it: a refused token closes the socket (4401).',
      ok: { status: 101, description: 'switching protocols' },
      errors: [404, 429],
    },
  ],
  [
    '/ws/{boardId}',
    'get',
    {
      tag: 'realtime',
      summary: 'WebSocket: the JSON frame channel; key as subprotocol svc-key.<key>',
      description: 'See docs/realtime.md.',
      keyAsSubprotocol: true,
      ok: { status: 101, description: 'switching protocols' },
      errors: [401, 404, 429],
    },
  ],
];
