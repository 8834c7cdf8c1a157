/** The REST adapter: CORS, body parsing, the error mapper and every route, on one Fastify instance. */
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import { errors } from '../../board/model/errors.js';
import type { Boards } from '../../host/boards/boards.js';
import { baseUrlOf, baseUrlVary, sendError, toBoardError } from '../kit/http-errors.js';
import type { McpDescription } from '../kit/mcp-description.js';
import { settleRefusedBody } from '../kit/refused-body.js';
import { apiDocsRoutes } from './api-docs.js';
import { boardRoutes } from './boards.js';
import { discoveryRoutes } from './discovery.js';
import { historyRoutes } from './history.js';
import { admitAtTheEdge } from './http.js';
import { lockRoutes } from './locks.js';
import { operationRoutes } from './operation-routes.js';
import { previewRoutes } from './preview.js';
import { registerSecurityHeaders } from './security-headers.js';

/** Request headers a browser may send cross-origin; X-Import-Token is deliberately absent (server-to-server only). */
// The contract's four, Idempotency-Key (safe retries), and the headers MCP clients send (MCP-Protocol-Version since 2025-06-18; Mcp-Method, Mcp-Name on 2026-07-28; Last-Event-ID on a resumed stream), so an MCP client in a browser passes the preflight.
export const CORS_ALLOWED_HEADERS = [
  'Content-Type',
  'Mcp-Session-Id',
  'If-None-Match',
  'X-Board-Key',
  'MCP-Protocol-Version',
  'Mcp-Method',
  'Mcp-Name',
  'Last-Event-ID',
  'Idempotency-Key',
];
export const CORS_ALLOWED_METHODS = ['GET', 'POST', 'DELETE', 'OPTIONS'];
export const CORS_EXPOSED_HEADERS = [
  'ETag',
  'Mcp-Session-Id',
  'Retry-After',
  'WWW-Authenticate',
  'Content-Disposition',
  'X-Request-Id',
  'Idempotent-Replayed',
];

export type RestOptions = {
  /** The configured base URL; without it, the request's own origin is used. */
  publicUrl: string | undefined;
  /** A proxy's X-Forwarded-Host and -Proto are believed (TRUST_PROXY). */
  trustProxy: boolean;
  rateLimits: boolean;
  /** What the server card and llms.txt say of /mcp (the MCP adapter's, handed over by the app). */
  mcp: McpDescription;
};

/** Registers the REST surface on the Fastify instance. */
export async function registerRest(app: FastifyInstance, boards: Boards, options: RestOptions): Promise<void> {
  registerSecurityHeaders(app, options.publicUrl);
  await app.register(cors, {
    origin: '*',
    methods: CORS_ALLOWED_METHODS,
    allowedHeaders: CORS_ALLOWED_HEADERS,
    // Joined once here: @fastify/cors joins an array on every request.
    exposedHeaders: CORS_EXPOSED_HEADERS.join(', '),
    maxAge: 600,
    strictPreflight: false,
  });

  // Fastify's own JSON parser (prototype poisoning rejected), except that an
  // empty body counts as no body: a bare `POST /api/boards` is valid.
  const jsonParser = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser(['application/json', 'text/plain']); // bodies are JSON only: anything else is 415
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' || (typeof body === 'string' && body.trim() === '')) return done(null, undefined);
    jsonParser(request, body as string, done);
  });

  app.setErrorHandler(async (error, request, reply) => {
    if (toBoardError(error).code === 'payload_too_large') await settleRefusedBody(request, reply);
    return sendError(request, reply, error);
  });
  admitAtTheEdge(app, boards);
  app.setNotFoundHandler((request, reply) =>
    sendError(request, reply, errors.routeNotFound(request.method, request.url.split('?')[0])),
  );

  const baseUrl = baseUrlOf(options.publicUrl);
  boardRoutes(app, boards, baseUrl);
  operationRoutes(app, boards, baseUrl);
  lockRoutes(app, boards);
  previewRoutes(app, boards);
  historyRoutes(app, boards);
  apiDocsRoutes(app);
  discoveryRoutes(app, {
    rateLimits: options.rateLimits,
    baseUrl,
    baseUrlVary: baseUrlVary(options.publicUrl, options.trustProxy),
    mcp: options.mcp,
  });
}
