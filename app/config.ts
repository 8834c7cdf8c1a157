/**
 * Configuration, parsed once from the environment by one zod schema, frozen and
 * passed down. Nothing else in the service reads process.env.
 */
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { CATCH_UP_INTERVAL_MS, HAND_OVER_MS } from '../cluster/journal-catch-up.js';
import { HEARTBEAT_MS } from '../cluster/relay-peers.js';
import { projectRoot } from '../host/operator/service-info.js';
import {
  HEADERS_TIMEOUT_MS,
  MAX_CONNECTIONS_PER_IP,
  MAX_SOCKETS_PER_IP,
  NOTIFICATION_DEBOUNCE_MS,
  NOTIFICATION_MAX_WAIT_MS,
  REQUEST_TIMEOUT_MS,
} from '../schema/limits.js';

const EnvSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('127.0.0.1'),
    DATA_DIR: z.string().min(1).default('./data'),
    PUBLIC_URL: z
      .url({ error: 'PUBLIC_URL must be an absolute URL' })
      .transform((url) => url.replace(/\/+$/, ''))
      .optional(),
    IMPORT_TOKEN: z.string().min(1).optional(),
    // Host names /mcp answers besides PUBLIC_URL's, localhost and IP addresses (DNS-rebinding check); "*" answers any.
    ALLOWED_HOSTS: z.string().optional(),
    // Trust X-Forwarded-For from a reverse proxy: "true", a hop count, or a comma-separated list of proxy addresses.
    TRUST_PROXY: z.string().optional(),
    // "off" switches every rate limit off: for benchmarks and trusted deployments only.
    RATE_LIMITS: z.enum(['on', 'off']).default('on'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    // How long a board's writes must pause before it is stored (its journal compacted), and how long its store may wait at most.
    STORE_DEBOUNCE_MS: z.coerce.number().int().min(0).default(2_000),
    STORE_MAX_DEBOUNCE_MS: z.coerce.number().int().min(0).default(10_000),
    // How long a board's edits must pause before the burst settles (long polls, MCP notifications, history versions),
    // and how long a burst that never pauses waits at most. The contract says about 3 s; only tests shorten it.
    NOTIFICATION_SETTLE_MS: z.coerce.number().int().min(1).default(NOTIFICATION_DEBOUNCE_MS),
    NOTIFICATION_MAX_WAIT_MS: z.coerce.number().int().min(1).default(NOTIFICATION_MAX_WAIT_MS),
    // The shared setup's clocks: how often an instance says it is there on the relay (three missed and it is taken to
    // be cut off), how often the storage is read while the relay is down, and how long that goes on once it is back.
    RELAY_HEARTBEAT_MS: z.coerce.number().int().min(1).default(HEARTBEAT_MS),
    CATCH_UP_INTERVAL_MS: z.coerce.number().int().min(1).default(CATCH_UP_INTERVAL_MS),
    RELAY_HAND_OVER_MS: z.coerce.number().int().min(0).default(HAND_OVER_MS),
    // How long a board nobody is connected to stays loaded after its last use (a write, a read, its last client
    // leaving). It is stored before, on the debounce above; 0 unloads it right after its store.
    KEEP_LOADED_MS: z.coerce.number().int().min(0).default(60_000),
    // How many loaded boards may be kept so; beyond that an unused board unloads right after its store.
    KEEP_LOADED_MAX_BOARDS: z.coerce.number().int().min(0).default(500),
    // WebSockets one client IP may hold open (raise it for load tests from one machine).
    MAX_SOCKETS_PER_IP: z.coerce.number().int().min(1).default(MAX_SOCKETS_PER_IP),
    // TCP connections one address may hold open (not applied behind TRUST_PROXY, where the proxy caps them).
    MAX_CONNECTIONS_PER_IP: z.coerce.number().int().min(1).default(MAX_CONNECTIONS_PER_IP),
    // "1" skips the journal: for measuring its cost in benchmarks ONLY. A board is then stored whole when it settles,
    // as plain Hocuspocus stores it, and the writes acknowledged since are lost on a crash.
    UNSAFE_NO_JOURNAL: z.enum(['0', '1']).default('0'),
    // "off" records no versions when bursts settle: for measuring history's write-path cost in benchmarks ONLY.
    HISTORY: z.enum(['on', 'off']).default('on'),
    // Slow clients: the headers, and the whole request, must arrive within these.
    HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).default(HEADERS_TIMEOUT_MS),
    REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).default(REQUEST_TIMEOUT_MS),
    // An MCP session with no request and no open notification stream for this long is closed.
    MCP_SESSION_IDLE_MS: z.coerce
      .number()
      .int()
      .min(1_000)
      .default(30 * 60_000),
    // Both set: this instance is one of many sharing PostgreSQL (boards, journal, state) and Redis (updates, events, counters).
    REDIS_URL: z.url({ protocol: /^rediss?$/, error: 'REDIS_URL must be a redis:// or rediss:// URL' }).optional(),
    DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'DATABASE_URL must be a postgres:// URL' }).optional(),
    // Namespace of this service's Redis keys and channels (several deployments may share one Redis).
    REDIS_PREFIX: z
      .string()
      .regex(/^[\w.:-]{1,64}$/, 'REDIS_PREFIX: letters, digits and . : _ - only')
      .default('boards'),
    // Connections this instance holds to PostgreSQL.
    DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(200).default(20),
    // Set: GET /metrics asks for "Authorization: Bearer <token>".
    METRICS_TOKEN: z.string().min(1).optional(),
    // Set: /metrics is served on this port (on HOST) of its own, not on PORT.
    METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    // On SIGTERM, /readyz answers 503 for this long while requests are still served, then the server stops.
    SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(600_000).default(5_000),
    // Worker threads that draw previews (SVG, PNG, Mermaid layout); default one per spare core, at most two.
    PREVIEW_THREADS: z.coerce
      .number()
      .int()
      .min(1)
      .max(64)
      .default(() => Math.max(1, Math.min(2, availableParallelism() - 1))),
    // A preview not drawn within this (queue wait included) is refused with 503 preview_unavailable.
    PREVIEW_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  })
  .refine((env) => (env.REDIS_URL === undefined) === (env.DATABASE_URL === undefined), {
    message:
      'REDIS_URL and DATABASE_URL go together: set both for the shared setup, or neither for the embedded SQLite',
    path: ['REDIS_URL'],
  });

export type Config = Readonly<{
  port: number;
  host: string;
  dataDir: string;
  publicUrl: string | undefined;
  importToken: string | undefined;
  /** Host names /mcp answers besides PUBLIC_URL's, localhost and IP addresses. */
  allowedHosts: readonly string[];
  trustProxy: boolean | number | string[];
  rateLimits: boolean;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  storeDebounceMs: number;
  storeMaxDebounceMs: number;
  /** The clocks of settling bursts and of the relay between instances (defaults: the contract's and docs/reliability.md's). */
  clocks: Readonly<{
    settleMs: number;
    settleMaxWaitMs: number;
    heartbeatMs: number;
    catchUpIntervalMs: number;
    handOverMs: number;
  }>;
  /** How long an unused board stays loaded after its last use, and how many boards may be kept so. */
  keepLoaded: { ms: number; maxBoards: number };
  mcpSessionIdleMs: number;
  headersTimeoutMs: number;
  journal: boolean;
  /** Versions are recorded as bursts settle (off only for benchmarks). */
  history: boolean;
  maxSocketsPerIp: number;
  maxConnectionsPerIp: number;
  requestTimeoutMs: number;
  /** The shared setup (several instances), or undefined for the embedded SQLite in dataDir. */
  shared: Readonly<{ redisUrl: string; redisPrefix: string; databaseUrl: string; poolSize: number }> | undefined;
  /** Folder of the built browser app (npm run build:app). */
  publicDir: string;
  /** Bearer token /metrics asks for, when set. */
  metricsToken: string | undefined;
  /** A port of its own for /metrics (on `host`), or undefined to serve it on `port`. */
  metricsPort: number | undefined;
  /** How long a SIGTERM drains (readiness 503, requests still served) before the server stops. */
  shutdownDrainMs: number;
  /** The preview pool: its worker threads, and how long a preview may take. */
  previews: Readonly<{ threads: number; timeoutMs: number }>;
}>;

function parseTrustProxy(value: string | undefined): boolean | number | string[] {
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value
    .split(',')
    .map((address) => address.trim())
    .filter(Boolean);
}

/** Parses the environment (or overrides, for tests) into a frozen Config; throws a readable error. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    dataDir: resolve(e.DATA_DIR),
    publicUrl: e.PUBLIC_URL,
    importToken: e.IMPORT_TOKEN,
    allowedHosts: (e.ALLOWED_HOSTS ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    rateLimits: e.RATE_LIMITS === 'on',
    logLevel: e.LOG_LEVEL,
    storeDebounceMs: e.STORE_DEBOUNCE_MS,
    storeMaxDebounceMs: e.STORE_MAX_DEBOUNCE_MS,
    clocks: Object.freeze({
      settleMs: e.NOTIFICATION_SETTLE_MS,
      settleMaxWaitMs: e.NOTIFICATION_MAX_WAIT_MS,
      heartbeatMs: e.RELAY_HEARTBEAT_MS,
      catchUpIntervalMs: e.CATCH_UP_INTERVAL_MS,
      handOverMs: e.RELAY_HAND_OVER_MS,
    }),
    keepLoaded: Object.freeze({ ms: e.KEEP_LOADED_MS, maxBoards: e.KEEP_LOADED_MAX_BOARDS }),
    mcpSessionIdleMs: e.MCP_SESSION_IDLE_MS,
    headersTimeoutMs: Math.min(e.HEADERS_TIMEOUT_MS, e.REQUEST_TIMEOUT_MS),
    journal: e.UNSAFE_NO_JOURNAL === '0',
    history: e.HISTORY === 'on',
    maxSocketsPerIp: e.MAX_SOCKETS_PER_IP,
    maxConnectionsPerIp: e.MAX_CONNECTIONS_PER_IP,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    shared:
      e.REDIS_URL && e.DATABASE_URL
        ? Object.freeze({
            redisUrl: e.REDIS_URL,
            redisPrefix: e.REDIS_PREFIX,
            databaseUrl: e.DATABASE_URL,
            poolSize: e.DATABASE_POOL_SIZE,
          })
        : undefined,
    publicDir: join(projectRoot(), 'dist', 'web'),
    metricsToken: e.METRICS_TOKEN,
    metricsPort: e.METRICS_PORT,
    shutdownDrainMs: e.SHUTDOWN_DRAIN_MS,
    previews: Object.freeze({ threads: e.PREVIEW_THREADS, timeoutMs: e.PREVIEW_TIMEOUT_MS }),
  });
}
