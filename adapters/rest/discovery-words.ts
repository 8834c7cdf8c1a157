/**
 * What OpenAPI says of the documents that describe the service and of its
 * health routes (served by discovery.ts, which builds /openapi.json from
 * these words and so cannot hold them itself without an import circle).
 */
import type { RouteWords } from './route-words.js';

/** What OpenAPI says of these routes. */
export const DISCOVERY_ROUTE_WORDS: RouteWords[] = [
  [
    '/quotas.json',
    'get',
    {
      tag: 'discovery',
      summary: 'Every limit, machine-readable',
      ok: { description: 'limits', schema: { type: 'object' } },
      errors: [],
    },
  ],
  [
    '/llms.txt',
    'get',
    {
      tag: 'discovery',
      summary: 'A guide for language models (llmstxt.org format)',
      ok: { description: 'Markdown', schema: { type: 'string' }, contentType: 'text/plain' },
      errors: [],
    },
  ],
  [
    '/.well-known/mcp.json',
    'get',
    {
      tag: 'discovery',
      summary: 'MCP server card',
      ok: { description: 'server card', schema: { type: 'object' } },
      errors: [],
    },
  ],
  [
    '/.well-known/mcp/server-card',
    'get',
    {
      tag: 'discovery',
      summary: 'MCP server card (same document)',
      ok: { description: 'server card', schema: { type: 'object' } },
      errors: [],
    },
  ],
  [
    '/healthz',
    'get',
    {
      tag: 'discovery',
      summary: 'Liveness: 200 {status: "ok"} while the process serves HTTP (load figures are on /metrics)',
      ok: { description: '{status: "ok"}', schema: { type: 'object' } },
      errors: [],
    },
  ],
  [
    '/readyz',
    'get',
    {
      tag: 'discovery',
      summary:
        'Readiness: 200 {status: "ready"} when the store answers and the instance is not draining; 200 {status: "ready", degraded: ["redis"]} while it serves without Redis (shared setup)',
      description:
        'Otherwise 503 {status: "not_ready", code: "not_ready", reasons: [...]} (reasons: draining, store_unavailable), with `degraded` too when Redis is away. /healthz is liveness. See docs/operations.md.',
      ok: { description: '{status: "ready"}, or {status: "ready", degraded: ["redis"]}', schema: { type: 'object' } },
      errors: [],
    },
  ],
  [
    '/metrics',
    'get',
    {
      tag: 'discovery',
      summary:
        'Prometheus metrics for operators (text exposition format); described only when served on this port (not METRICS_PORT)',
      description:
        'No CORS header. With METRICS_TOKEN set, send Authorization: Bearer <token> (401 `metrics_unauthorized` otherwise). See docs/operations.md.',
      ok: { description: 'Prometheus text format 0.0.4', schema: { type: 'string' }, contentType: 'text/plain' },
      errors: [],
    },
  ],
  [
    '/openapi.json',
    'get',
    {
      tag: 'discovery',
      summary: 'This document',
      ok: { description: 'OpenAPI 3.1.0', schema: { type: 'object' } },
      errors: [],
    },
  ],
];
