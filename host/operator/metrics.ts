/**
 * The operator's figures, in the Prometheus text format (docs/operations.md
 * lists them). One Registry per server instance, never prom-client's global
 * one: tests run several servers in one process. Nothing else imports
 * prom-client: the host, the surfaces, the cluster and the store are handed
 * the small callbacks below by the composition root, and the board itself
 * knows nothing of them. No label ever holds a board id (an id is a
 * credential): routes are patterns, tools are names from a fixed list.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, type Metric, Registry } from 'prom-client';
import { HttpFigures } from './http-figures.js';

/** Open long-lived connections, by channel. */
export const CHANNELS = ['ws', 'collab', 'mcp_session_stream', 'mcp_listen'] as const;
export type Channel = (typeof CHANNELS)[number];

/** Where the figures of the shared setup come from, read at each scrape. */
export type SharedFigures = {
  redisConnected(): boolean;
  /** Redis answering its pings with every connection ready (cluster/redis-health.ts). */
  redisUp(): boolean;
  pool(): { total: number; idle: number; waiting: number };
};

/** Latency buckets in seconds: a journal commit is milliseconds, an HTTP long poll up to a minute. */
const FAST_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
const HTTP_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export class Metrics {
  readonly registry = new Registry();
  /** Told of every request: counted without prom-client's per-call label hashing (http-figures.ts). */
  private readonly http = new HttpFigures(HTTP_BUCKETS);
  private readonly connections: Gauge<'channel'>;
  private readonly journalCommits: Counter<'outcome'>;
  private readonly journalCommitsOk: Counter.Internal;
  private readonly journalCommitsRefused: Counter.Internal;
  private readonly journalDuration: Histogram;
  private readonly compactions: Counter;
  private readonly compactionDuration: Histogram;
  private readonly rateLimited: Counter<'limit' | 'tier'>;
  private readonly toolCalls: Counter<'era' | 'tool' | 'outcome'>;
  private readonly relayMessages: Counter<'direction' | 'kind'>;
  private readonly jsonOps: Counter;
  private readonly localDecisions: Counter<'reason'>;
  private readonly publishFailures: Counter<'kind'>;

  constructor(loadedBoards: () => number) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    // prom-client's Metric type names its own classes; its Registry reads only what a Scraped metric has.
    for (const metric of this.http.metrics()) this.registry.registerMetric(metric as unknown as Metric);
    this.readAtScrape('board_loaded_boards', 'Boards loaded in memory (Hocuspocus documents)', loadedBoards);
    this.connections = new Gauge({
      name: 'board_open_connections',
      help: 'Open long-lived connections, by channel',
      labelNames: ['channel'],
      registers,
    });
    for (const channel of CHANNELS) this.connections.set({ channel }, 0);
    this.journalCommits = new Counter({
      name: 'board_journal_commits_total',
      help: 'Journal appends made durable (ok) or refused by the storage (error)',
      labelNames: ['outcome'],
      registers,
    });
    this.journalCommitsOk = this.journalCommits.labels({ outcome: 'ok' });
    this.journalCommitsRefused = this.journalCommits.labels({ outcome: 'error' });
    this.journalDuration = new Histogram({
      name: 'board_journal_commit_duration_seconds',
      help: 'From a document update to its journal entry being durable',
      buckets: FAST_BUCKETS,
      registers,
    });
    this.compactions = new Counter({
      name: 'board_compactions_total',
      help: 'Journals folded into a stored whole document state',
      registers,
    });
    this.compactionDuration = new Histogram({
      name: 'board_compaction_duration_seconds',
      help: 'Time to store a whole document state',
      buckets: FAST_BUCKETS,
      registers,
    });
    this.rateLimited = new Counter({
      name: 'board_rate_limit_refusals_total',
      help: 'Requests, frames and updates refused by a rate limit, by limit and tier',
      labelNames: ['limit', 'tier'],
      registers,
    });
    this.toolCalls = new Counter({
      name: 'board_mcp_tool_calls_total',
      help: "MCP tool calls, by protocol era, tool and outcome (ok, refused: the caller's fault, error: ours)",
      labelNames: ['era', 'tool', 'outcome'],
      registers,
    });
    this.relayMessages = new Counter({
      name: 'board_redis_messages_total',
      help: 'Redis pub/sub messages, by direction (published, received) and kind (documents: the Yjs relay; events: board events)',
      labelNames: ['direction', 'kind'],
      registers,
    });
    this.localDecisions = new Counter({
      name: 'board_redis_local_decisions_total',
      help: 'Socket frames and Yjs updates whose shared rate count this instance decided by its own count, by reason (redis_down, no_answer)',
      labelNames: ['reason'],
      registers,
    });
    this.publishFailures = new Counter({
      name: 'board_redis_publish_failures_total',
      help: 'Redis publishes that reached no other instance (failed, or skipped while Redis is down), by kind',
      labelNames: ['kind'],
      registers,
    });
    this.jsonOps = new Counter({
      name: 'board_json_ops_total',
      help: 'Ops computed for the JSON channel: only boards with an open /ws socket on this instance have any',
      registers,
    });
  }

  /** The JSON channel's rooms open now (boards with an open `/ws` socket here), read at each scrape. */
  countRooms(rooms: () => number): void {
    this.readAtScrape(
      'board_json_rooms',
      'Boards with at least one open /ws socket on this instance (their rooms)',
      rooms,
    );
  }

  /** The 2025 MCP sessions held now (a 2026-07-28 request holds none), read at each scrape. */
  countMcpSessions(sessions: () => number): void {
    this.readAtScrape('board_mcp_sessions', 'MCP 2025 sessions held in memory on this instance', sessions);
  }

  /** The figures of the shared setup: Redis connection status and the PostgreSQL pool. */
  watchShared(figures: SharedFigures): void {
    this.readAtScrape(
      'board_redis_up',
      '1 while Redis answers its pings (within 1 s; down after 3 misses) and every connection is ready, else 0',
      () => (figures.redisUp() ? 1 : 0),
    );
    for (const reason of ['redis_down', 'no_answer']) this.localDecisions.inc({ reason }, 0);
    for (const kind of ['documents', 'events']) this.publishFailures.inc({ kind }, 0);
    this.readAtScrape('board_redis_connected', '1 when every Redis connection of this instance is ready, else 0', () =>
      figures.redisConnected() ? 1 : 0,
    );
    const pool = new Gauge({
      name: 'board_pg_pool_connections',
      help: 'PostgreSQL pool connections: total, idle, and requests waiting for one',
      labelNames: ['state'],
      registers: [this.registry],
      collect() {
        const { total, idle, waiting } = figures.pool();
        pool.set({ state: 'total' }, total);
        pool.set({ state: 'idle' }, idle);
        pool.set({ state: 'waiting' }, waiting);
      },
    });
  }

  /** A gauge without labels whose value `read` gives at each scrape. */
  private readAtScrape(name: string, help: string, read: () => number): void {
    new Gauge({
      name,
      help,
      registers: [this.registry],
      collect() {
        this.set(read());
      },
    });
  }

  requestServed(method: string, route: string, status: number, seconds: number): void {
    this.http.served(method, route, status, seconds);
  }

  /** Counts a connection of the channel open; returns its release (idempotent). */
  opened(channel: Channel): () => void {
    this.connections.inc({ channel });
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      this.connections.dec({ channel });
    };
  }

  journalCommitted(seconds: number, ok: boolean): void {
    // Told of every write: the labelled counters are looked up once, not by their labels on each call.
    (ok ? this.journalCommitsOk : this.journalCommitsRefused).inc();
    if (ok) this.journalDuration.observe(seconds);
  }

  compacted(seconds: number): void {
    this.compactions.inc();
    this.compactionDuration.observe(seconds);
  }

  refused(limit: string, tier: string): void {
    this.rateLimited.inc({ limit, tier });
  }

  toolCalled(era: string, tool: string, outcome: string): void {
    this.toolCalls.inc({ era, tool, outcome });
  }

  relayed(direction: 'published' | 'received', kind: 'documents' | 'events'): void {
    this.relayMessages.inc({ direction, kind });
  }

  decidedLocally(reason: string): void {
    this.localDecisions.inc({ reason });
  }

  publishFailed(kind: string): void {
    this.publishFailures.inc({ kind });
  }

  opsComputed(count: number): void {
    this.jsonOps.inc(count);
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  exposition(): Promise<string> {
    return this.registry.metrics();
  }
}
