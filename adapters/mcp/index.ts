/**
 * The MCP endpoint at /mcp (Streamable HTTP), both eras on one URL. Each
 * request is routed as the 2026-07-28 versioning rules say (the SDK's own
 * classifier): a request that claims the per-request `_meta` envelope goes to
 * the stateless 2026-07-28 path (modern.ts), anything else (initialize, a
 * session's requests, its GET stream and DELETE) to the 2025 sessions
 * (legacy.ts). Both eras share the body cap, the Host check and the handlers.
 */
import { type AuthInfo, classifyInboundRequest, isInitializeRequest } from '@modelcontextprotocol/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '../../board/model/errors.js';
import { callerOf } from '../kit/caller.js';
import { toBoardError } from '../kit/http-errors.js';
import { MODERN_REVISION } from '../kit/mcp-revisions.js';
import { settleRefusedBody } from '../kit/refused-body.js';
import { parseMcpBodies, rpcIdOf } from './body.js';
import { contextOf, toAuthInfo } from './context.js';
import { RpcError, toMcpError } from './errors.js';
import { type AllowedHosts, hostAllowed } from './hosts.js';
import { TOOL_ICON_SVGS } from './icons.js';
import type { McpSession, McpSessions } from './legacy.js';
import type { ListenStream } from './listen-stream.js';
import type { ModernMcp } from './modern.js';
import type { NodeMcpRequest } from './web.js';

export { McpSessions } from './legacy.js';
export { ModernMcp } from './modern.js';

export type McpOptions = {
  baseUrl: (request: FastifyRequest) => string;
  allowedHosts: AllowedHosts;
  /** Counts an open stream (a 2025 session's GET stream, a 2026-07-28 listen) in; returns what to call when it ends. */
  opened?: (stream: 'session' | 'listen') => () => void;
};

/** A JSON-RPC error answered by the endpoint itself, with the request's id when it can be read. */
function jsonRpcError(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  error: { code: number; message: string; data?: unknown },
) {
  return reply
    .status(status)
    .type('application/json')
    .send({ jsonrpc: '2.0', error, id: rpcIdOf(request) });
}

const header = (request: FastifyRequest, name: string) => {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
};

/**
 * Registers /mcp in its own Fastify scope, whose errors (body cap, bad JSON)
 * are answered as JSON-RPC errors, carrying the request's id wherever it can
 * be read (a body over the cap included: see body.ts).
 */
export async function registerMcp(
  app: FastifyInstance,
  eras: { sessions: McpSessions; modern: ModernMcp },
  options: McpOptions,
): Promise<void> {
  await app.register(async (scope) => {
    parseMcpBodies(scope);
    scope.setErrorHandler(async (error, request, reply) => {
      const boardError = toBoardError(error);
      const rpc = toMcpError(boardError);
      if (rpc.code === -32603) request.log.error({ err: error }, 'MCP request failed');
      if (boardError.code === 'payload_too_large') await settleRefusedBody(request, reply);
      return jsonRpcError(request, reply, boardError.status, { code: rpc.code, message: rpc.message, data: rpc.data });
    });
    // DNS rebinding: a page on another name that resolves to this server must not reach /mcp (docs/mcp.md, "Host check").
    scope.addHook('onRequest', async (request, reply) => {
      if (!request.url.startsWith('/mcp') || hostAllowed(request.headers.host, options.allowedHosts)) return;
      const refused = errors.hostNotAllowed(request.headers.host ?? '');
      return jsonRpcError(request, reply, refused.status, {
        code: -32000,
        message: refused.message,
        data: { code: refused.code },
      });
    });
    mcpRoutes(scope, eras, options);
  });
}

function mcpRoutes(
  app: FastifyInstance,
  { sessions, modern }: { sessions: McpSessions; modern: ModernMcp },
  options: McpOptions,
): void {
  /** What a request carries besides its message (client address, keys, base URL), as the SDK's `auth` channel holds it. */
  const authOf = (request: FastifyRequest): AuthInfo => {
    const caller = callerOf(request);
    return toAuthInfo({
      ip: caller.ip,
      key: caller.key,
      importToken: caller.importToken,
      baseUrl: options.baseUrl(request),
    });
  };

  /** The request as the SDK's handlers see it: its context rides on `auth`. */
  const rawWithContext = (request: FastifyRequest, reply: FastifyReply, auth = authOf(request)) => {
    const raw = request.raw as NodeMcpRequest;
    raw.auth = auth;
    reply.hijack();
    // Headers set through Fastify (CORS, security, the request id) are lost after hijack() unless the answer carries them.
    raw.answerHeaders = reply.getHeaders();
    return raw;
  };

  const toSession = (session: McpSession, request: FastifyRequest, reply: FastifyReply) =>
    session.handle(rawWithContext(request, reply), reply.raw, request.body);

  const sessionOf = (request: FastifyRequest) => {
    const id = header(request, 'mcp-session-id');
    return { id, session: id === undefined ? undefined : sessions.get(id) };
  };
  const sessionGone = (request: FastifyRequest, reply: FastifyReply) =>
    jsonRpcError(request, reply, 404, {
      code: -32001,
      message: 'Session not found: it expired or was closed; initialize a new one',
    });

  app.post('/mcp', async (request, reply) => {
    const route = classifyInboundRequest({
      httpMethod: 'POST',
      protocolVersionHeader: header(request, 'mcp-protocol-version'),
      mcpMethodHeader: header(request, 'mcp-method'),
      mcpNameHeader: header(request, 'mcp-name'),
      body: request.body,
    });
    if (route.kind === 'reject') {
      // The classifier's own answer to a body that is no JSON-RPC message, or a malformed envelope or header.
      return jsonRpcError(request, reply, route.httpStatus, {
        code: route.code,
        message: route.message,
        ...(route.data !== undefined && { data: route.data }),
      });
    }
    if (route.kind === 'modern') {
      // The 2026-07-28 path, its validation ladder included (the SDK answers a malformed envelope or header).
      const auth = authOf(request);
      let body = request.body;
      let listen: ListenStream | undefined;
      try {
        body = await modern.checkListen(body, auth);
        listen = modern.admitListen(body, contextOf(auth));
      } catch (error) {
        if (!(error instanceof RpcError)) throw error;
        return reply
          .status(200)
          .type('application/json')
          .send({
            jsonrpc: '2.0',
            id: rpcIdOf(request),
            error: { code: error.code, message: error.message, data: error.data },
          });
      }
      if (listen) {
        const stream = listen;
        const closed = options.opened?.('listen');
        reply.raw.once('close', () => {
          stream.release();
          closed?.();
        });
      }
      return modern.serve(rawWithContext(request, reply, auth), reply.raw, body, listen);
    }
    const { id, session } = sessionOf(request);
    if (id !== undefined && !session) return sessionGone(request, reply);
    if (session) return toSession(session, request, reply);
    if (!isInitializeRequest(request.body)) {
      return jsonRpcError(request, reply, 400, {
        code: -32000,
        message: `Bad Request: start a 2025 session with initialize and send the Mcp-Session-Id header it returns, or speak ${MODERN_REVISION} (server/discover, then a _meta envelope on every request)`,
      });
    }
    return toSession(await sessions.create(options.baseUrl(request)), request, reply);
  });

  const withSession = async (request: FastifyRequest, reply: FastifyReply, stream: boolean) => {
    const { id, session } = sessionOf(request);
    if (!id) {
      // 2026-07-28 has no GET stream and no session to end (subscriptions/listen replaces the stream).
      return jsonRpcError(request, reply, 405, {
        code: -32000,
        message: `Method not allowed: GET and DELETE /mcp belong to a 2025 session (Mcp-Session-Id); on ${MODERN_REVISION} use subscriptions/listen`,
      });
    }
    if (!session) return sessionGone(request, reply);
    if (stream) {
      session.openStreams += 1;
      const closed = options.opened?.('session');
      reply.raw.once('close', () => {
        closed?.();
        session.openStreams -= 1;
        session.lastSeen = Date.now();
      });
    }
    return toSession(session, request, reply);
  };

  app.get('/mcp', (request, reply) => withSession(request, reply, true));
  app.delete('/mcp', (request, reply) => withSession(request, reply, false));

  app.get<{ Params: { name: string } }>('/mcp/icons/:name', (request, reply) => {
    const name = request.params.name.replace(/\.svg$/, '');
    if (!Object.hasOwn(TOOL_ICON_SVGS, name)) return reply.callNotFound();
    return reply
      .type('image/svg+xml')
      .header('cache-control', 'public, max-age=86400')
      .send(TOOL_ICON_SVGS[name as keyof typeof TOOL_ICON_SVGS]);
  });
}
