/**
 * /docs: the OpenAPI description as a readable page, drawn by the Redoc
 * bundle we ship (no CDN: the page loads nothing from another site).
 */
import type { FastifyInstance } from 'fastify';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

const REDOC_BUNDLE = createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js');

/** The bundle changes only with the installed Redoc, so a browser may keep it a day. */
const BUNDLE_MAX_AGE_SECONDS = 24 * 3600;

/**
 * The one thing the bundle fetches from elsewhere: the logo beside "API docs by
 * Redocly" in its menu. An empty data: image fails to load, and Redoc then drops
 * the logo and keeps the credit line.
 */
const REMOTE_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';

async function loadBundle(): Promise<string> {
  return (await readFile(REDOC_BUNDLE, 'utf8')).replace(REMOTE_LOGO, 'data:,');
}

// No inline script: the bundle finds <redoc> and reads its options from attributes.
// Roboto and Montserrat are Redoc's fonts; naming system fonts means none is fetched.
const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Boards API</title>
  <link rel="icon" href="data:,">
</head>
<body>
  <redoc spec-url="/openapi.json"
    theme='{"typography":{"fontFamily":"system-ui, sans-serif","headings":{"fontFamily":"system-ui, sans-serif"},"code":{"fontFamily":"ui-monospace, monospace"}}}'></redoc>
  <script src="/docs/redoc.standalone.js"></script>
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
