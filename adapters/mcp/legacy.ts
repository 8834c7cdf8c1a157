/**
 * The 2025 revisions (2025-03-26, 2025-06-18, 2025-11-25): `initialize`
 * opens a session named by `Mcp-Session-Id`; the session holds the keys an
 * agent gave, its subscriptions and its GET notification stream. Sessions
 * live in this instance's memory and expire when idle, so a deployment of
 * several instances routes /mcp by client address (docs/deploy.md). Board
 * changes reach subscribed sessions as one `notifications/resources/updated`
 * per settled burst.
 */
import type { ServerResponse } from 'node:http';
import { WebStandardStreamableHTTPServerTransport, type Server } from '@modelcontextprotocol/server';
import { type BoardEvents, contentChanged } from '../../server/host/board-events.js';
import type { Boards } from '../../server/host/boards.js';
import type { ToolCalls } from './errors.js';
import { boardServer } from './handlers.js';
import { SessionMemory } from './memory.js';
import { parseUri } from './resources.js';
import { nodeHandler, type NodeMcpHandler, type NodeMcpRequest } from './web.js';

/** How often idle sessions are looked for. */
const SESSION_SWEEP_INTERVAL_MS = 60_000;

/** One 2025 session: its SDK server and transport, and its memory. */
export class McpSession {
  readonly server: Server;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  private readonly serve: NodeMcpHandler;
  readonly memory: SessionMemory;
  lastSeen = Date.now();
  openStreams = 0;

  constructor(
    boards: Boards,
    baseUrl: string,
    hooks: {
      subscribed(s: McpSession, boardId: string): void;
      unsubscribed(s: McpSession, boardId: string): void;
      closed(s: McpSession): void;
      initialized(s: McpSession): void;
    },
    calls?: ToolCalls,
  ) {
    this.memory = new SessionMemory({
      subscribed: (boardId) => hooks.subscribed(this, boardId),
      unsubscribed: (boardId) => hooks.unsubscribed(this, boardId),
    });
    this.transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      enableJsonResponse: true, // answers are plain JSON; notifications use the GET stream
      onsessioninitialized: () => hooks.initialized(this),
    });
    this.transport.onclose = () => hooks.closed(this);
    this.serve = nodeHandler((request, options) => this.transport.handleRequest(request, options));
    this.server = boardServer(boards, this.memory, 'legacy', baseUrl, calls);
  }

  get id(): string | undefined {
    return this.transport.sessionId;
  }

  /** Sends `notifications/resources/updated` for this session's subscriptions to a board. */
  async notifyChanged(boardId: string): Promise<void> {
    for (const uri of this.memory.subscriptions) {
      if (parseUri(uri).boardId === boardId) await this.server.sendResourceUpdated({ uri });
    }
  }

  handle(request: NodeMcpRequest, response: ServerResponse, body: unknown): Promise<void> {
    this.lastSeen = Date.now();
    return this.serve(request, response, body);
  }

  async close(): Promise<void> {
    await this.transport.close();
  }
}

export class McpSessions {
  private readonly sessions = new Map<string, McpSession>();
  /** Per subscribed board, its sessions and the watch on that board that notifies them. */
  private readonly subscribers = new Map<string, { sessions: Set<McpSession>; unwatch: () => void }>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly boards: Boards,
    private readonly events: BoardEvents,
    private readonly idleMs: number,
    private readonly calls?: ToolCalls,
  ) {
    this.sweeper = setInterval(() => this.sweep(), SESSION_SWEEP_INTERVAL_MS).unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  get(id: string): McpSession | undefined {
    return this.sessions.get(id);
  }

  /** A new session; it is kept once its initialize succeeds. */
  async create(baseUrl: string): Promise<McpSession> {
    const session = new McpSession(
      this.boards,
      baseUrl,
      {
        subscribed: (s, boardId) => this.addSubscriber(s, boardId),
        unsubscribed: (s, boardId) => this.dropSubscriber(s, boardId),
        closed: (s) => {
          if (s.id) this.sessions.delete(s.id);
          for (const boardId of [...this.subscribers.keys()]) this.dropSubscriber(s, boardId);
        },
        initialized: (s) => this.sessions.set(s.id!, s),
      },
      this.calls,
    );
    await session.server.connect(session.transport);
    return session;
  }

  private addSubscriber(session: McpSession, boardId: string): void {
    let subscription = this.subscribers.get(boardId);
    if (!subscription) {
      const sessions = new Set<McpSession>();
      const unwatch = this.events.watch(boardId, (signal) => {
        if (!contentChanged(signal)) return;
        for (const subscriber of sessions) void subscriber.notifyChanged(boardId).catch(() => {});
      });
      this.subscribers.set(boardId, (subscription = { sessions, unwatch }));
    }
    subscription.sessions.add(session);
  }

  private dropSubscriber(session: McpSession, boardId: string): void {
    const subscription = this.subscribers.get(boardId);
    if (!subscription?.sessions.delete(session) || subscription.sessions.size > 0) return;
    subscription.unwatch();
    this.subscribers.delete(boardId);
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
