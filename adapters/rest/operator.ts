/**
 * The operator's endpoints (docs/operations.md): `/readyz` for load balancers
 * and `/metrics` for Prometheus, plus the hook that times every HTTP request.
 * `/metrics` is not part of the public surface: no CORS header, and a bearer
 * token when METRICS_TOKEN is set.
 */
import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '../../board/model/errors.js';
import { secretsEqual } from '../../host/access/keys.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: @fastify/cors adds no header to this route. */
    cors?: false;
  }
}

/** The figures to scrape, as the Prometheus text format. */
export type Scrape = { readonly contentType: string; exposition(): Promise<string> };

/**
 * What keeps this instance from taking traffic (`reasons`: draining, storage;
 * empty when ready), and the dependencies it serves without (`degraded`: Redis).
 */
export type Readiness = () => Promise<{ reasons: string[]; degraded: string[] }>;

/** Told of every answered request: the route is its pattern (never the URL, which holds board ids). */
export type RequestServed = (method: string, route: string, status: number, seconds: number) => void;

/** The label of a request no route matched (404s, malformed URLs). */
export const UNMATCHED_ROUTE = 'unmatched';

const STARTED = Symbol('started');
const REQUEST = Symbol('request');
/** What the timing hook leaves on a response for its one shared `close` listener. */
type Timed = ServerResponse & { [STARTED]?: number; [REQUEST]?: FastifyRequest };

/**
 * Times every request, including those whose reply is hijacked (MCP, whose
 * stream ends long after the handler) and those no route matched. The start
 * and the request ride on the response for one listener shared by all of
 * them, rather than a closure and a `once` wrapper made per request.
 */
export function observeRequests(app: FastifyInstance, served: RequestServed): void {
  function closed(this: Timed): void {
    const { [REQUEST]: request, [STARTED]: started } = this;
    if (request === undefined || started === undefined) throw new Error('a response closed that onRequest never timed');
    served(
      request.method,
      request.routeOptions.url ?? UNMATCHED_ROUTE,
      this.statusCode,
      (performance.now() - started) / 1000,
    );
  }
  // Callback-style hooks here and in the other per-request hooks: an async one costs promises on every request.
  app.addHook('onRequest', (request, reply, done) => {
    const raw: Timed = reply.raw;
    raw[STARTED] = performance.now();
    raw[REQUEST] = request;
    raw.on('close', closed); // a response closes once
    done();
  });
}

export function readinessRoute(app: FastifyInstance, readiness: Readiness): void {
  app.get('/readyz', async (_request, reply) => {
    const { reasons, degraded } = await readiness();
    reply.header('Cache-Control', 'no-store');
    const lesser = degraded.length > 0 ? { degraded } : {};
    if (reasons.length === 0) return reply.send({ status: 'ready', ...lesser });
    const { code, message, details } = errors.notReady(reasons);
    return reply.status(503).send({ status: 'not_ready', code, error: message, ...details, ...lesser });
  });
}

function unauthorized(reply: FastifyReply): FastifyReply {
  const error = errors.metricsUnauthorized();
  return reply
    .status(401)
    .header('WWW-Authenticate', 'Bearer realm="metrics"')
    .type('application/json; charset=utf-8')
    .send(error.toBody());
}

function bearer(request: FastifyRequest): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  return match?.[1];
}

export function metricsRoute(app: FastifyInstance, scrape: Scrape, token: string | undefined): void {
  app.get('/metrics', { config: { cors: false } }, async (request, reply) => {
    if (token !== undefined) {
      const presented = bearer(request);
      if (presented === undefined || !secretsEqual(presented, token)) return unauthorized(reply);
    }
    return reply
      .header('Cache-Control', 'no-store')
      .type(scrape.contentType)
      .send(await scrape.exposition());
  });
}
