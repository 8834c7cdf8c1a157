/**
 * The MCP endpoint at /mcp (Streamable HTTP): POST carries JSON-RPC, GET holds
 * a session's notification stream, DELETE ends the session. Sessions live in
 * memory and expire when idle. Board changes reach subscribed sessions as one
 * `notifications/resources/updated` per settled burst.
 */
import type { IncomingMessage } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { BoardEvents } from '../../server/host/board-events.js';
import type { Boards } from '../../server/host/boards.js';
import { callerOf } from '../kit/caller.js';
import { toBoardError } from '../kit/http-errors.js';
import { toAuthInfo } from './context.js';
import { rpcIdOf, parseMcpBodies } from './body.js';
import { toMcpError } from './errors.js';
import { McpSession } from './session.js';

export type McpOptions = { baseUrl: (request: FastifyRequest) => string; sessionIdleMs: number };

/** How often idle sessions are looked for. */
const SESSION_SWEEP_INTERVAL_MS = 60_000;

/** A JSON-RPC error answered by the endpoint itself, with the request's id when it can be read. */
function jsonRpcError(request: FastifyRequest, reply: FastifyReply, status: number, error: { code: number; message: string; data?: unknown }) {
  return reply.status(status).type('application/json').send({ jsonrpc: '2.0', error, id: rpcIdOf(request) });
}

export class McpSessions {
  private readonly sessions = new Map<string, McpSession>();
  private readonly subscribers = new Map<string, Set<McpSession>>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly boards: Boards,
    events: BoardEvents,
    private readonly idleMs: number,
  ) {
    const notify = (boardId: string) => {
      for (const session of this.subscribers.get(boardId) ?? []) void session.notifyChanged(boardId).catch(() => {});
    };
    events.on('settled', notify);
    events.on('erased', notify);
    this.sweeper = setInterval(() => this.sweep(), SESSION_SWEEP_INTERVAL_MS).unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  get(id: string): McpSession | undefined {
    return this.sessions.get(id);
  }

  /** A new session; it is kept once its initialize succeeds. */
  create(): McpSession {
    const session = new McpSession(
      this.boards,
      {
        subscribed: (s, boardId) => {
          const set = this.subscribers.get(boardId) ?? new Set();
          set.add(s);
          this.subscribers.set(boardId, set);
        },
        unsubscribed: (s, boardId) => this.dropSubscriber(s, boardId),
        closed: (s) => {
          if (s.id) this.sessions.delete(s.id);
          for (const boardId of [...this.subscribers.keys()]) this.dropSubscriber(s, boardId);
        },
      },
      (s) => this.sessions.set(s.id!, s),
    );
    void session.server.connect(session.transport);
    return session;
  }

  private dropSubscriber(session: McpSession, boardId: string): void {
    const set = this.subscribers.get(boardId);
    set?.delete(session);
    if (set?.size === 0) this.subscribers.delete(boardId);
  }

  /** Closes sessions with no request and no open stream for longer than the idle limit. */
  sweep(now = Date.now()): void {
    for (const session of this.sessions.values()) {
      if (session.openStreams === 0 && now - session.lastSeen > this.idleMs) void session.close();
    }
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.sessions.values()].map((session) => session.close()));
  }
}

/**
 * Registers /mcp in its own Fastify scope, whose errors (body cap, bad JSON)
 * are answered as JSON-RPC errors, carrying the request's id wherever it can
 * be read (a body over the cap included: see body.ts).
 */
export async function registerMcp(app: FastifyInstance, sessions: McpSessions, options: McpOptions): Promise<void> {
  await app.register(async (scope) => {
    parseMcpBodies(scope);
    scope.setErrorHandler((error, request, reply) => {
      const boardError = toBoardError(error);
      const rpc = toMcpError(boardError);
      if (rpc.code === -32603) request.log.error({ err: error }, 'MCP request failed');
      // The rest of an oversized body is not read: the connection cannot carry another request.
      if (boardError.code === 'payload_too_large') reply.header('connection', 'close');
      return jsonRpcError(request, reply, boardError.status, { code: rpc.code, message: rpc.message, data: rpc.data });
    });
    mcpRoutes(scope, sessions, options);
  });
}

function mcpRoutes(app: FastifyInstance, sessions: McpSessions, options: McpOptions): void {
  /** Hands the request to the session's transport, outside Fastify's reply (which cannot stream SSE). */
  const handOver = async (session: McpSession, request: FastifyRequest, reply: FastifyReply) => {
    session.lastSeen = Date.now();
    const caller = callerOf(request);
    const raw = request.raw as IncomingMessage & { auth?: AuthInfo };
    raw.auth = toAuthInfo({ ip: caller.ip, key: caller.key, importToken: caller.importToken, baseUrl: options.baseUrl(request) });
    reply.hijack();
    // Headers set through Fastify (CORS) are lost after hijack() unless copied onto the raw response.
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
    await session.transport.handleRequest(raw, reply.raw, request.body);
  };

  const sessionOf = (request: FastifyRequest) => {
    const id = request.headers['mcp-session-id'];
    return typeof id === 'string' ? { id, session: sessions.get(id) } : { id: undefined, session: undefined };
  };

  app.post('/mcp', async (request, reply) => {
    const { id, session } = sessionOf(request);
    if (id !== undefined && !session) return jsonRpcError(request, reply, 404, { code: -32001, message: 'Session not found: it expired or was closed; initialize a new one' });
    if (session) return handOver(session, request, reply);
    if (!isInitializeRequest(request.body)) return jsonRpcError(request, reply, 400, { code: -32000, message: 'Bad Request: send initialize first, then the Mcp-Session-Id header it returns' });
    return handOver(sessions.create(), request, reply);
  });

  const withSession = async (request: FastifyRequest, reply: FastifyReply, stream: boolean) => {
    const { id, session } = sessionOf(request);
    if (!id) return jsonRpcError(request, reply, 400, { code: -32000, message: 'Bad Request: Mcp-Session-Id header is required' });
    if (!session) return jsonRpcError(request, reply, 404, { code: -32001, message: 'Session not found: it expired or was closed; initialize a new one' });
    if (stream) {
      session.openStreams += 1;
      reply.raw.once('close', () => {
        session.openStreams -= 1;
        session.lastSeen = Date.now();
      });
    }
    return handOver(session, request, reply);
  };

  app.get('/mcp', (request, reply) => withSession(request, reply, true));
  app.delete('/mcp', (request, reply) => withSession(request, reply, false));
}
