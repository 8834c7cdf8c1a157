/**
 * /docs: the OpenAPI description as a readable page, drawn by the Redoc
 * bundle we ship (no CDN: the page loads nothing from another site).
 */

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import type { RouteWords } from './route-words.js';

const REDOC_BUNDLE = createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js');

/** The bundle changes only with the installed Redoc, so a browser may keep it a day. */
const BUNDLE_MAX_AGE_SECONDS = 24 * 3600;

/**
 * The one thing the bundle fetches from elsewhere: the Redocly logo beside its
 * credit line. An empty data: image fails to load, and Redoc then drops the logo.
 */
const REMOTE_LOGO = /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(?:-full)?\.svg/g;

/**
 * Redoc tries eval() to decide whether its search may run in a worker. The page's
 * policy forbids eval, so the answer is no without asking: search runs in the page
 * and the browser reports no violation.
 */
const EVAL_PROBE = /try\{return [\w$]+\._factory\?\?=Function\([\w$]+\),!0\}/;

async function loadBundle(): Promise<string> {
  return (await readFile(REDOC_BUNDLE, 'utf8')).replace(REMOTE_LOGO, 'data:,').replace(EVAL_PROBE, 'try{return!1}');
}

// No inline script: the bundle (an ES module) finds <redoc> and reads its options from attributes.
// Telemetry off: the page would otherwise report each visit to Redocly's collector.
const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Boards API</title>
  <link rel="icon" href="data:,">
</head>
<body>
  <redoc spec-url="/openapi.json" disable-telemetry="true"></redoc>
  <script type="module" src="/docs/redoc.standalone.js"></script>
</body>
</html>
`;

/** Registers GET /docs and the Redoc bundle it loads. */
export function apiDocsRoutes(app: FastifyInstance): void {
  let bundle: Promise<string> | undefined;
  app.get('/docs', { config: { securityHeaders: 'docs' } }, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(PAGE),
  );
  app.get('/docs/redoc.standalone.js', async (_request, reply) => {
    bundle ??= loadBundle();
    return reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', `public, max-age=${BUNDLE_MAX_AGE_SECONDS}`)
      .send(await bundle);
  });
}

/** What OpenAPI says of these routes, and of the browser app at `/`. */
export const API_DOCS_ROUTE_WORDS: RouteWords[] = [
  [
    '/docs',
    'get',
    {
      tag: 'discovery',
      summary: 'This document as a readable page (Redoc, served from here)',
      ok: { description: 'HTML', schema: { type: 'string' }, contentType: 'text/html' },
      errors: [],
    },
  ],
  [
    '/docs/redoc.standalone.js',
    'get',
    {
      tag: 'discovery',
      summary: 'The Redoc script the /docs page loads',
      ok: { description: 'JavaScript', schema: { type: 'string' }, contentType: 'text/javascript' },
      errors: [],
    },
  ],
  [
    '/',
    'get',
    {
      tag: 'app',
      summary: 'The browser app; a board is at /#<boardId>, read-only embeds at /?embed=1#<boardId>',
      ok: { description: 'HTML', schema: { type: 'string' }, contentType: 'text/html' },
      errors: [],
    },
  ],
];
