/**
 * Security headers on every HTTP answer (helmet): the browser app's
 * Content-Security-Policy, nosniff, the referrer policy, HSTS behind https,
 * and cross-origin headers that leave the public API and its images usable
 * from other sites. The choices are explained in docs/security.md.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A route's own security headers (registerSecurityHeaders' policies by
     * name); default: `api` under /api/, /json and /mcp, the app's elsewhere.
     */
    securityHeaders?: 'docs' | 'app' | 'user-image';
  }
}

/**
 * helmet itself, not its Fastify plugin: @fastify/helmet builds helmet's
 * middleware again for every request, parsing the whole policy each time.
 * Built once per policy here instead, and run in one synchronous hook.
 */
type Middleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

type Directives = Record<string, Iterable<string | ((req: IncomingMessage) => string)>>;

/** A Host header we are willing to write into a policy: a name or address and a port, nothing else. */
const SANE_HOST = /^[A-Za-z0-9.-]+(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$/;

/** The read-only embed is the app's page with `?embed=1`, read as the app reads it (web/src/main.ts). */
export function isEmbedPage(url: string | undefined): boolean {
  const [path, query = ''] = (url ?? '').split('?', 2);
  return (path === '/' || path === '/index.html') && new URLSearchParams(query).get('embed') === '1';
}

/**
 * The WebSocket origin the app opens `/collab` on: PUBLIC_URL's when set, else
 * the request's own host. CSP3 browsers already let 'self' reach ws(s): on the
 * same host; naming it keeps older ones working.
 */
function socketOrigin(publicUrl: string | undefined): (req: IncomingMessage) => string {
  if (publicUrl) {
    const url = new URL(publicUrl);
    const origin = `${url.protocol === 'https:' ? 'wss' : 'ws'}://${url.host}`;
    return () => origin;
  }
  return (req) => {
    const host = req.headers.host ?? '';
    if (!SANE_HOST.test(host)) return "'self'";
    const secure = (req.socket as { encrypted?: boolean }).encrypted === true;
    return `${secure ? 'wss' : 'ws'}://${host}`;
  };
}

/** What every page of ours shares: our own scripts only, no plugins, no foreign base or form target. */
const BASE: Directives = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
};

/** The app's policy: nothing runs but our own scripts; what is drawn may be data: or blob: images. */
function appDirectives(publicUrl: string | undefined, https: boolean): Directives {
  return {
    ...BASE,
    // Mermaid writes <style> into its SVG and the app sets style attributes: inline style only, never script.
    'style-src': ["'self'", "'unsafe-inline'"],
    // Pasted images are data: URLs, drawn ones and exports blob: URLs.
    'img-src': ["'self'", 'data:', 'blob:'],
    // modern-screenshot embeds fonts as data: URLs when it exports a board.
    'font-src': ["'self'", 'data:'],
    // modern-screenshot fetches the images it inlines, data: and blob: ones included.
    'connect-src': ["'self'", socketOrigin(publicUrl), 'data:', 'blob:'],
    'worker-src': ["'self'"], // the service worker, /sw.js
    'manifest-src': ["'self'"],
    'frame-src': ["'self'"], // the landing page shows the example board as an embed
    // Only the embed may sit in another site's frame; the editing app only in our own.
    'frame-ancestors': [(req) => (isEmbedPage(req.url) ? '*' : "'self'")],
    ...(https ? { 'upgrade-insecure-requests': [] } : {}),
  };
}

/** The API page (/docs): Redoc styles itself inline; its search runs in the page (no worker, no eval). */
function docsDirectives(): Directives {
  return {
    ...BASE,
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'"],
    'worker-src': ["'none'"],
    'frame-ancestors': ["'self'"],
  };
}

/**
 * What a JSON answer needs: it is never a page, so it may load nothing and sit
 * in no frame (GitHub's API and OWASP's REST cheat sheet send the same). It
 * keeps nosniff, the referrer policy (Firefox shows JSON as a page whose links
 * can be followed, and the path holds the board id), the cross-origin resource
 * policy of everything public, and HSTS. The page-only headers (COOP,
 * Origin-Agent-Cluster, X-Frame-Options and the legacy ones) cost every write
 * and protect nothing here.
 */
function apiOptions(https: boolean): HelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] },
    },
    referrerPolicy: { policy: 'same-origin' },
    strictTransportSecurity: https ? { maxAge: 180 * 24 * 3600, includeSubDomains: false } : false,
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    xContentTypeOptions: true,
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xFrameOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  };
}

/**
 * A user's image, which a browser may open as a page: it loads nothing but
 * its own data: images and inline style and runs nothing, in a sandbox that
 * gives it an origin of its own (what GitHub sends for user content). The
 * route also makes an SVG a download, which holds where this header is lost.
 */
function userImageOptions(https: boolean): HelmetOptions {
  return {
    ...apiOptions(https),
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { 'default-src': ["'none'"], 'img-src': ['data:'], 'style-src': ["'unsafe-inline'"], sandbox: [] },
    },
  };
}

/** Paths whose answers are JSON (or JSON-RPC over MCP, or a plain-text export), never a page. */
const API_PATH = /^\/(?:api\/|json(?:[/?]|$)|mcp(?:\?|$))/;

/** The headers of one page policy, given the directives of its Content-Security-Policy. */
function helmetOptions(directives: Directives, https: boolean): HelmetOptions {
  return {
    contentSecurityPolicy: { useDefaults: false, directives },
    // Never a board URL to another site (its id is the credential); our own origin still gets it, and a
    // same-origin POST keeps its Origin header (no-referrer would make it `null`).
    referrerPolicy: { policy: 'same-origin' },
    strictTransportSecurity: https ? { maxAge: 180 * 24 * 3600, includeSubDomains: false } : false,
    xFrameOptions: { action: 'sameorigin' }, // dropped for the embed (below); frame-ancestors says the same
    // The API answers CORS `*` and other sites show our previews and embeds: no same-origin resource
    // policy, no embedder policy (helmet's Cross-Origin-Opener-Policy: same-origin stays).
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    crossOriginEmbedderPolicy: false,
  };
}

const failed = (error?: unknown) => {
  if (error) throw error;
};

/** What a policy's middleware leaves on an answer, by lower-case name. */
type Headers = Record<string, string>;

/** Distinct answers remembered (a policy, a Host, http or https, the embed or not); past that, computed each time. */
const REMEMBERED = 256;

/**
 * Runs a policy's middleware against a recorder. What it removes (helmet's
 * X-Powered-By, the embed's X-Frame-Options) is left out of what it sets:
 * nothing before this hook sets a header that helmet removes.
 */
function headersOf(middleware: Middleware, req: IncomingMessage, embed: boolean): Headers {
  const headers: Headers = {};
  const recorder = {
    setHeader: (name: string, value: string) => (headers[name.toLowerCase()] = value),
    removeHeader: (name: string) => delete headers[name.toLowerCase()],
  };
  middleware(req, recorder as unknown as ServerResponse, failed);
  // frame-ancestors lets the embed into any frame; X-Frame-Options has no way to say so.
  if (embed) delete headers['x-frame-options'];
  return headers;
}

/**
 * Registers the headers on every answer of `app`, in one synchronous hook: a
 * route's `config.securityHeaders` when it names a policy, else the JSON one
 * under /api/, /json and /mcp and the app's everywhere else.
 * An answer's headers depend only on its policy, its Host (the WebSocket
 * origin), http or https and whether it is the embed: helmet computes them
 * once for each such answer, and they are replayed after that (helmet checks
 * every directive's value on every request otherwise).
 * They are Fastify's reply headers, never the raw response's: one header set
 * on the raw response sends Node's `writeHead` down its slow path, which sets
 * every header of the answer again one by one. A hijacked reply hands them to the
 * answer it writes (adapters/mcp/web.ts).
 */
export function registerSecurityHeaders(app: FastifyInstance, publicUrl: string | undefined): void {
  const https = publicUrl?.startsWith('https:') ?? false;
  const policies = {
    app: helmet(helmetOptions(appDirectives(publicUrl, https), https)),
    docs: helmet(helmetOptions(docsDirectives(), https)),
    api: helmet(apiOptions(https)),
    'user-image': helmet(userImageOptions(https)),
  };
  const remembered = new Map<string, Headers>();
  app.addHook('onRequest', (request, reply, done) => {
    const policy = request.routeOptions.config.securityHeaders ?? (API_PATH.test(request.url) ? 'api' : 'app');
    const embed = policy === 'app' && isEmbedPage(request.url);
    const secure = (request.raw.socket as { encrypted?: boolean }).encrypted === true;
    const key = `${policy} ${secure} ${embed} ${publicUrl || policy !== 'app' ? '' : request.headers.host}`; // only the app's names its Host
    let headers = remembered.get(key);
    if (!headers) {
      headers = headersOf(policies[policy], request.raw, embed);
      if (remembered.size < REMEMBERED) remembered.set(key, headers);
    }
    reply.headers(headers);
    done();
  });
}
