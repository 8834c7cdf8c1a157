/**
 * The operator's side of the composition (docs/operations.md): the metrics of
 * this instance, its readiness (draining, the store answering; Redis away
 * only degrades it) and where `/metrics` is served: on the main port, or on
 * METRICS_PORT of its own, where the public surface (and its CORS) never is.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { sendError } from '../adapters/kit/http-errors.js';
import { metricsRoute, observeRequests, type Readiness, readinessRoute } from '../adapters/rest/operator.js';
import { errors } from '../board/model/errors.js';
import type { RedisCluster } from '../cluster/redis.js';
import { Metrics } from '../host/operator/metrics.js';
import { within } from '../host/operator/within.js';
import type { BoardStore } from '../store/board-store.js';
import type { PgStore } from '../store/pg/store.js';
import type { Config } from './config.js';

/** How long /readyz waits for the store before it counts it as not answering. */
const STORE_PING_TIMEOUT_MS = 2_000;

type Shared = { cluster: RedisCluster; store: PgStore };

export class Operator {
  readonly metrics: Metrics;
  /** Set on SIGTERM: /readyz answers 503 while requests are still served. */
  draining = false;
  private metricsApp: FastifyInstance | undefined;
  private metricsAddress: string | undefined;
  private shared: Shared | undefined;

  constructor(
    private readonly config: Pick<Config, 'host' | 'metricsPort' | 'metricsToken'>,
    private readonly store: BoardStore,
    loadedBoards: () => number,
  ) {
    this.metrics = new Metrics(loadedBoards);
  }

  /** The shared setup: Redis's health shows in readiness, and the pool and Redis have figures. */
  watchShared(shared: Shared): void {
    this.shared = shared;
    this.metrics.watchShared({
      redisConnected: () => shared.cluster.connected(),
      redisUp: () => shared.cluster.health.up(),
      pool: () => shared.store.poolFigures(),
    });
  }

  /**
   * What keeps this instance from taking traffic (empty when it is ready),
   * and what it serves in a lesser way: without Redis it still serves every
   * request from PostgreSQL, so Redis away degrades it and never takes it out.
   */
  readonly readiness: Readiness = async () => {
    const reasons: string[] = [];
    if (this.draining) reasons.push('draining');
    const storeAnswers = await within(this.store.ping(), STORE_PING_TIMEOUT_MS).then(
      () => true,
      () => false,
    );
    if (!storeAnswers) reasons.push('store_unavailable');
    const degraded = this.shared && !this.shared.cluster.health.up() ? ['redis'] : [];
    return { reasons, degraded };
  };

  /** Times every request of the main app: call before any route is registered. */
  observe(app: FastifyInstance): void {
    observeRequests(app, (method, route, status, seconds) =>
      this.metrics.requestServed(method, route, status, seconds),
    );
  }

  /** /readyz, and /metrics unless it has a port of its own. */
  routes(app: FastifyInstance): void {
    readinessRoute(app, this.readiness);
    if (this.config.metricsPort === undefined) metricsRoute(app, this.metrics, this.config.metricsToken);
  }

  /** Starts the metrics port, if configured. */
  async listen(): Promise<void> {
    if (this.config.metricsPort === undefined) return;
    const app = Fastify({ logger: false });
    app.setNotFoundHandler((request, reply) =>
      sendError(request, reply, errors.routeNotFound(request.method, request.url.split('?')[0])),
    );
    metricsRoute(app, this.metrics, this.config.metricsToken);
    this.metricsApp = app;
    const address = await app.listen({ port: this.config.metricsPort, host: this.config.host });
    this.metricsAddress = address.replace('://[::1]', '://localhost');
  }

  /** Where /metrics is served when it has its own port (after listen). */
  get metricsUrl(): string | undefined {
    return this.metricsAddress && `${this.metricsAddress}/metrics`;
  }

  async close(): Promise<void> {
    await this.metricsApp?.close();
  }
}
