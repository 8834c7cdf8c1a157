/**
 * The 2025 revisions (2025-03-26, 2025-06-18, 2025-11-25): `initialize`
 * opens a session named by `Mcp-Session-Id`; the session holds the keys an
 * agent gave, its subscriptions and its GET notification stream. Sessions
 * live in this instance's memory and expire when idle, so a deployment of
 * several instances routes /mcp by client address (docs/deploy.md). Board
 * changes reach subscribed sessions as one `notifications/resources/updated`
 * per settled burst; a lock change that leaves a session without read access
 * ends its subscriptions to that board, and says so in one log message.
 */
import type { ServerResponse } from 'node:http';
import { type Server, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import type { KeyHolder } from '../../host/access/access.js';
import type { Boards } from '../../host/boards/boards.js';
import type { BoardEvents } from '../../host/events/board-events.js';
import { BoardListeners } from './board-listeners.js';
import { contextOf } from './context.js';
import { asBoardError, type ToolCalls, toMcpError } from './errors.js';
import { boardServer } from './handlers.js';
import { SessionMemory } from './memory.js';
import { parseUri } from './resources.js';
import { type NodeMcpHandler, type NodeMcpRequest, nodeHandler } from './web.js';

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
  /** The client address of the session's latest request: a re-check of its key spends that address's wrong-key budget. */
  private ip = 'unknown';

  constructor(
    boards: Boards,
    baseUrl: string,
    hooks: {
      subscribed(s: McpSession, boardId: string): void;
      unsubscribed(s: McpSession, boardId: string): void;
      closed(s: McpSession): void;
      initialized(s: McpSession, id: string): void;
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
      onsessioninitialized: (id) => hooks.initialized(this, id),
    });
    this.transport.onclose = () => hooks.closed(this);
    this.serve = nodeHandler((request, options) => this.transport.handleRequest(request, options));
    this.server = boardServer(boards, this.memory, 'legacy', baseUrl, calls);
  }

  get id(): string | undefined {
    return this.transport.sessionId;
  }

  /** The boards this session subscribes to. */
  subscribedBoards(): Set<string> {
    return new Set([...this.memory.subscriptions].map((uri) => parseUri(uri).boardId));
  }

  private subscriptionsTo(boardId: string): string[] {
    return [...this.memory.subscriptions].filter((uri) => parseUri(uri).boardId === boardId);
  }

  /** Sends `notifications/resources/updated` for this session's subscriptions to a board. */
  async notifyChanged(boardId: string): Promise<void> {
    for (const uri of this.subscriptionsTo(boardId)) await this.server.sendResourceUpdated({ uri });
  }

  /** The key this session holds for a board (the one it remembers), as a lock re-check needs it. */
  holderFor(boardId: string): KeyHolder {
    return { ip: this.ip, key: this.memory.keyFor(boardId, undefined) };
  }

  /**
   * Ends this session's subscriptions to a board it may no longer read. The
   * 2025 revisions have no message that ends a subscription, so the session
   * is told in a `warning` log message with the refusal's code and next step.
   */
  async endSubscriptions(boardId: string, error: unknown): Promise<void> {
    const uris = this.subscriptionsTo(boardId);
    for (const uri of uris) this.memory.unsubscribe(uri);
    const refusal = toMcpError(asBoardError(error), 'session');
    await this.server.sendLoggingMessage({
      level: 'warning',
      logger: 'subscriptions',
      data: { message: `No longer subscribed to ${uris.join(', ')}: ${refusal.message}`, uris, ...refusal.data },
    });
  }

  handle(request: NodeMcpRequest, response: ServerResponse, body: unknown): Promise<void> {
    this.lastSeen = Date.now();
    this.ip = contextOf(request.auth).ip;
    return this.serve(request, response, body);
  }

  async close(): Promise<void> {
    await this.transport.close();
  }
}

export class McpSessions {
  private readonly sessions = new Map<string, McpSession>();
  /** Per subscribed board, its sessions, told of its changes and checked again at its lock changes. */
  private readonly subscribers: BoardListeners<McpSession>;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly boards: Boards,
    events: BoardEvents,
    private readonly idleMs: number,
    private readonly calls?: ToolCalls,
  ) {
    this.subscribers = new BoardListeners(
      { boards, events },
      {
        holder: (session, boardId) => session.holderFor(boardId),
        changed: (boardId, sessions) => {
          for (const session of sessions) void session.notifyChanged(boardId).catch(() => {});
        },
        refused: (session, boardId, error) => void session.endSubscriptions(boardId, error).catch(() => {}),
      },
    );
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
        subscribed: (s, boardId) => this.subscribers.add(boardId, s),
        unsubscribed: (s, boardId) => this.subscribers.remove(boardId, s),
        closed: (s) => {
          if (s.id) this.sessions.delete(s.id);
          for (const boardId of s.subscribedBoards()) this.subscribers.remove(boardId, s);
        },
        initialized: (s, id) => this.sessions.set(id, s),
      },
      this.calls,
    );
    await session.server.connect(session.transport);
    return session;
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
