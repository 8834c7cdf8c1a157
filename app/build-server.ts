/**
 * Assembles the service from a Config: the database, the registry, Hocuspocus
 * with durable persistence, the board domain and the adapters on one Fastify
 * instance. Returns it not yet listening; `close()` is idempotent and stores
 * every loaded document before the database closes.
 */
import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import type { Hocuspocus } from '@hocuspocus/server';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { baseUrlOf, MAX_PATH_PARAM_CHARS, sendError } from '../adapters/kit/http-errors.js';
import { capConnections, socketCounter } from '../adapters/kit/socket-limits.js';
import { allowedHosts } from '../adapters/mcp/hosts.js';
import { McpSessions, ModernMcp, registerMcp } from '../adapters/mcp/index.js';
import { MCP_DESCRIPTION } from '../adapters/mcp/tool-list.js';
import { registerRest } from '../adapters/rest/index.js';
import { pickSubprotocol, registerJsonChannel } from '../adapters/ws/index.js';
import { collabExtension, registerCollab } from '../adapters/yjs/index.js';
import { JournalCatchUp } from '../cluster/journal-catch-up.js';
import { Access, localCounter } from '../host/access/access.js';
import { KeyBudget } from '../host/access/key-budget.js';
import { RateLimiter } from '../host/access/rate-limiter.js';
import { SocketAccess } from '../host/access/socket-access.js';
import { Boards } from '../host/boards/boards.js';
import { IDEMPOTENCY_SWEEP_INTERVAL_MS } from '../host/boards/idempotency.js';
import { BoardHocuspocus } from '../host/documents/board-hocuspocus.js';
import { DocumentHost } from '../host/documents/document-host.js';
import { JournalledDatabase } from '../host/documents/persistence.js';
import { BoardEvents } from '../host/events/board-events.js';
import { BoardRooms } from '../host/events/board-room.js';
import { HistoryRecorder } from '../host/history/history-recorder.js';
import { FaultLog, type FaultReport } from '../host/operator/fault-log.js';
import { PreviewPool } from '../host/previews/preview-pool.js';
import { MAX_BODY_BYTES, MAX_COLLAB_MESSAGE_BYTES } from '../schema/index.js';
import type { BoardStore, DocumentJournal } from '../store/board-store.js';
import { SqliteStore } from '../store/sqlite/store.js';
import type { Config } from './config.js';
import { Operator } from './operator.js';
import { logRequests, redactUrl, requestId, requestLogger } from './request-log.js';

/** How often ended rate-limit windows are dropped. */
const RATE_SWEEP_INTERVAL_MS = 60_000;

export type BoardServer = {
  app: FastifyInstance;
  /** The embedded SQLite store, or PostgreSQL's in the shared setup (tests reach into either). */
  store: BoardStore;
  boards: Boards;
  events: BoardEvents;
  limiter: RateLimiter;
  keyBudget: KeyBudget;
  mcpSessions: McpSessions;
  /** Every route Fastify serves (method and URL pattern). */
  routes: { method: string; url: string }[];
  hocuspocus: Hocuspocus;
  documents: DocumentJournal;
  /** Readiness, metrics and the metrics port (app/operator.ts). */
  operator: Operator;
  /** Errors of Redis, PostgreSQL and Hocuspocus, as rate-limited JSON lines (host/operator/fault-log.ts). */
  faults: FaultReport;
  /** Starts listening; resolves to the address it listens on. */
  listen(): Promise<string>;
  /** Starts draining: /readyz answers 503 from now on, while requests are still served. */
  drain(): void;
  close(): Promise<void>;
};

export type BuildOptions = { now?: () => number };

function trustHops(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}

/** The shared setup's modules, loaded only when configured: an embedded server need not carry their clients in its heap. */
async function loadShared(shared: NonNullable<Config['shared']>) {
  const [{ PgStore }, { RedisCluster }] = await Promise.all([
    import('../store/pg/store.js'),
    import('../cluster/redis.js'),
  ]);
  return { config: shared, PgStore, RedisCluster };
}

export async function buildServer(config: Config, options: BuildOptions = {}): Promise<BoardServer> {
  const now = options.now ?? Date.now;
  // The shared setup when configured: PostgreSQL holds the boards, Redis links the instances.
  const shared = config.shared && (await loadShared(config.shared));
  const store: BoardStore = shared
    ? await shared.PgStore.open(shared.config.databaseUrl, shared.config.poolSize, now)
    : new SqliteStore(config.dataDir, now);
  const { registry, documents, blobs } = store;
  const operator = new Operator(config, store, () => hocuspocus.getDocumentsCount());
  const { metrics } = operator;
  // The logger comes with the Fastify app below; faults before it (none expected) go nowhere.
  let faultLog: FaultLog | undefined;
  const faults: FaultReport = (kind, error, context) => faultLog?.report(kind, error, context);
  const cluster =
    shared &&
    new shared.RedisCluster(
      shared.config.redisUrl,
      shared.config.redisPrefix,
      (boardId) => documents.pending(boardId),
      {
        relayed: (direction, kind) => metrics.relayed(direction, kind),
        publishFailed: (kind) => metrics.publishFailed(kind),
        decidedLocally: (reason) => metrics.decidedLocally(reason),
        fault: faults,
      },
      now,
      config.clocks.heartbeatMs,
    );
  const events = new BoardEvents(config.clocks.settleMs, config.clocks.settleMaxWaitMs);
  const limiter = new RateLimiter(now);
  const keyBudget = new KeyBudget(now);
  const access = new Access(
    { importToken: config.importToken, rateLimits: config.rateLimits },
    {
      local: limiter,
      keys: keyBudget,
      creations: cluster ? cluster.eventualLimiter(limiter, now) : limiter,
      sockets: cluster ? cluster.counter(limiter) : localCounter(limiter),
    },
    (limit, tier) => metrics.refused(limit, tier),
  );
  const hocuspocus = new BoardHocuspocus(
    {
      quiet: true,
      debounce: config.storeDebounceMs,
      maxDebounce: config.storeMaxDebounceMs,
    },
    config.keepLoaded,
  );
  const host = new DocumentHost(hocuspocus);
  // Versions are recorded when a burst settles, before `settled` wakes anyone (host/history/history-recorder.ts).
  let logError = (error: unknown, boardId: string) => console.error('history: recording failed', boardId, error);
  const recorder = new HistoryRecorder({
    store,
    host,
    events,
    now,
    logError: (error, boardId) => logError(error, boardId),
  });
  if (!config.history) {
    events.settling = undefined; // HISTORY=off (benchmarks): settled bursts record nothing; restores still do
    recorder.notesHandedOut = false;
  }
  const previews = new PreviewPool(config.previews);
  const boards = new Boards({ store, host, access, events, recorder, previews, now });
  const socketAccess = new SocketAccess({ boards, events });
  const rooms = new BoardRooms({
    host,
    events,
    socketAccess,
    blobs,
    journal: documents,
    figures: { opsComputed: (count) => metrics.opsComputed(count) },
    states: recorder,
  });
  metrics.countRooms(() => rooms.size);
  const persistence = new JournalledDatabase(store, config.journal, {
    committed: (seconds, ok) => metrics.journalCommitted(seconds, ok),
    compacted: (seconds) => metrics.compacted(seconds),
  });
  hocuspocus.configure({
    extensions: [
      hocuspocus.lifecycle,
      ...(cluster ? [cluster.extension] : []),
      persistence,
      events.extension(),
      rooms.extension(),
      collabExtension({ boards, access, registry, blobs, events, host, now }),
    ],
  });
  // While the relay is down, the instance catches up from PostgreSQL instead (docs/reliability.md).
  let catchUp: JournalCatchUp | undefined;
  if (cluster && shared && store instanceof shared.PgStore) {
    store.pool.on('error', (error) => faults('pg_pool', error));
    await cluster.attach({ events, host, registry: store.registry });
    operator.watchShared({ cluster, store });
    store.recordChanged = (boardId) => cluster.recordChanged(boardId);
    catchUp = new JournalCatchUp({
      feed: store.committed,
      // Down while this instance's Redis is (a closed or a hung connection), or another instance's heartbeats stop (cut off from Redis).
      relay: { up: () => cluster.health.up() && cluster.peers.allHeard() },
      host,
      events,
      registry: store.registry,
      clocks: { intervalMs: config.clocks.catchUpIntervalMs, handOverMs: config.clocks.handOverMs },
    });
    catchUp.start();
  }
  // An answer past its retention goes; a storage that cannot take the sweep now is swept at the next one.
  const answerSweeper = setInterval(
    () => void boards.idempotent.sweep().catch(() => {}),
    IDEMPOTENCY_SWEEP_INTERVAL_MS,
  ).unref();
  const sweeper = setInterval(() => {
    limiter.sweep();
    keyBudget.sweep();
  }, RATE_SWEEP_INTERVAL_MS).unref();

  const app = Fastify({
    bodyLimit: MAX_BODY_BYTES,
    routerOptions: { maxParamLength: MAX_PATH_PARAM_CHARS },
    // Errors the router answers before any route (a bad URL, an over-long segment) get the JSON error body too.
    frameworkErrors: (error, request, reply) => sendError(request, reply, error),
    // One line per request from logRequests (request-log.ts) instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    requestIdHeader: false,
    genReqId: requestId,
    childLoggerFactory: requestLogger,
    logger: {
      level: config.logLevel,
      serializers: {
        req: (request) => ({ method: request.method, url: redactUrl(request.url), remoteAddress: request.ip }),
      },
    },
    return503OnClosing: true,
    // A client that dribbles its headers or body (slowloris) is cut off; Node checks every second.
    requestTimeout: config.requestTimeoutMs,
    http: { headersTimeout: config.headersTimeoutMs, connectionsCheckingInterval: 1_000 },
    // A hop count becomes a function: Fastify's types take booleans, address lists and functions.
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
  });
  capConnections(app.server, config.trustProxy !== false, config.maxConnectionsPerIp);
  operator.observe(app);
  logRequests(app);
  faultLog = new FaultLog(app.log);
  cluster?.health.onChange(() => {
    const { up, since, reason } = cluster.health.state();
    if (up) app.log.info({ since }, 'redis: up again; the relay carries changes between instances');
    else app.log.warn({ since, reason }, 'redis: down; rate counts are decided here and nothing is relayed');
  });
  logError = (error, boardId) =>
    app.log.error({ err: error, boardId }, 'history: recording a version failed; retried at the next settle');
  if (!config.rateLimits) app.log.warn('RATE_LIMITS=off: every rate limit is switched off');
  if (!config.journal) app.log.warn('UNSAFE_NO_JOURNAL=1: acknowledged writes can be lost (benchmarks only)');
  if (!config.history) app.log.warn('HISTORY=off: settled bursts record no versions (benchmarks only)');
  // Every route, as registered: the OpenAPI coverage test and the lock bypass matrix read it.
  const routes: { method: string; url: string }[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  });
  // Before any route, so that WebSocket routes can take over their upgrades.
  await app.register(fastifyWebsocket, {
    options: { maxPayload: MAX_COLLAB_MESSAGE_BYTES, handleProtocols: pickSubprotocol },
  });
  const toolCalled = (era: string, tool: string, outcome: string) => metrics.toolCalled(era, tool, outcome);
  const mcpSessions = new McpSessions(boards, events, config.mcpSessionIdleMs, toolCalled);
  metrics.countMcpSessions(() => mcpSessions.size);
  await registerRest(app, boards, {
    publicUrl: config.publicUrl,
    trustProxy: config.trustProxy !== false,
    rateLimits: config.rateLimits,
    mcp: MCP_DESCRIPTION,
  });
  const sockets = socketCounter(config.maxSocketsPerIp);
  operator.routes(app);
  registerCollab(
    app,
    hocuspocus,
    sockets,
    async (token) => {
      const link = await boards.viewLinks.find(token);
      return link && { boardId: link.boardId, linkId: link.id };
    },
    (boardId) => documents.pending(boardId),
    () => metrics.opened('collab'),
  );
  registerJsonChannel(app, { boards, access, rooms, socketAccess, sockets, opened: () => metrics.opened('ws') });
  const modernMcp = new ModernMcp(boards, events, toolCalled);
  const mcpStream = { session: 'mcp_session_stream', listen: 'mcp_listen' } as const;
  await registerMcp(
    app,
    { sessions: mcpSessions, modern: modernMcp },
    {
      baseUrl: baseUrlOf(config.publicUrl),
      allowedHosts: allowedHosts(config.publicUrl, config.allowedHosts),
      opened: (stream) => metrics.opened(mcpStream[stream]),
    },
  );
  // The built browser app; unknown paths fall through to the JSON 404.
  await app.register(fastifyStatic, { root: config.publicDir, wildcard: true });

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      clearInterval(sweeper);
      clearInterval(answerSweeper);
      const caughtUp = catchUp?.close();
      const stopping = app.close(); // stops accepting; in-flight requests finish
      await operator.close();
      events.close(); // long polls among them answer now instead of holding shutdown
      await Promise.all([mcpSessions.close(), modernMcp.close()]); // and MCP notification and listen streams end
      await stopping;
      await caughtUp;
      await host.flushAll();
      persistence.close();
      hocuspocus.stopKeeping();
      await cluster?.close();
      await store.close();
      await previews.close();
      faultLog?.flush();
    })();
    return closing;
  };

  const listen = async () => {
    const address = await app.listen({ port: config.port, host: config.host });
    await operator.listen();
    return address.replace('://[::1]', '://localhost');
  };
  const drain = () => {
    operator.draining = true;
  };

  return {
    app,
    store,
    boards,
    events,
    limiter,
    keyBudget,
    mcpSessions,
    routes,
    hocuspocus,
    documents,
    operator,
    faults,
    listen,
    drain,
    close,
  };
}
