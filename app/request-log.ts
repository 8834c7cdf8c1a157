/**
 * One JSON log line per request, and the request id that ties it to the
 * answer: echoed in `X-Request-Id` and in every JSON error body. Keys and
 * tokens never reach a line: no header is logged, and the URL is redacted.
 * The format is in docs/operations.md, "Logs".
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { VIEW_TOKENS_IN_TEXT } from '../schema/index.js';

/** An incoming X-Request-Id we keep (a proxy's or a client's); anything else is replaced by our own. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Query parameters that may carry credentials, by decoded name with case and separators dropped: any spelling of
 * a key, token, secret or password (`key`, `access_key`, `x-board-key`, `boardKey`, `api.key`, `importToken`).
 */
const SECRET_PARAM = /key|token|secret|passw|credential|auth(?!or)|signature|session/;

function decodedName(raw: string): string {
  return decoded(raw)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

function decoded(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw; // malformed escapes: the name as sent
  }
}

/**
 * Strips credentials from a logged URL: keys must never reach the logs. Names
 * are compared decoded, as the query parser reads them: `?%6Bey=` is `?key=`.
 */
export function redactUrl(raw: string): string {
  // A view token in a path is a credential too: its `v_` prefix stays, so a line still says one was used.
  const url = raw.replace(VIEW_TOKENS_IN_TEXT, 'v_[redacted]');
  const start = url.indexOf('?');
  if (start === -1) return url;
  const pairs = url
    .slice(start + 1)
    .split('&')
    .map((pair) => {
      const end = pair.indexOf('=');
      const name = end === -1 ? pair : pair.slice(0, end);
      return SECRET_PARAM.test(decodedName(name)) ? `${name}=[redacted]` : pair;
    });
  return `${url.slice(0, start + 1)}${pairs.join('&')}`;
}

/** Fastify's `genReqId`: the caller's X-Request-Id when it is sane, else a new UUID. */
export function requestId(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

type ChildArgs = Parameters<FastifyBaseLogger['child']>;
type Line = (...args: unknown[]) => void;

/**
 * A request's logger, made the first time something logs through it: pino's child serializes its bindings at
 * once, and most requests log nothing. The lines it writes are the child's, with the same reqId binding.
 */
class RequestLogger implements FastifyBaseLogger {
  #made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: ChildArgs[0],
    private readonly options: ChildArgs[1],
  ) {}

  private get made(): FastifyBaseLogger {
    return (this.#made ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return this.#made?.level ?? this.options?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.made.level = level;
  }

  fatal(...args: unknown[]): void {
    (this.made.fatal as Line)(...args);
  }

  error(...args: unknown[]): void {
    (this.made.error as Line)(...args);
  }

  warn(...args: unknown[]): void {
    (this.made.warn as Line)(...args);
  }

  info(...args: unknown[]): void {
    (this.made.info as Line)(...args);
  }

  debug(...args: unknown[]): void {
    (this.made.debug as Line)(...args);
  }

  trace(...args: unknown[]): void {
    (this.made.trace as Line)(...args);
  }

  silent(...args: unknown[]): void {
    (this.made.silent as Line)(...args);
  }

  child(...args: ChildArgs): FastifyBaseLogger {
    return this.made.child(...args);
  }
}

/** Fastify's `childLoggerFactory`: each request's logger, made lazily (RequestLogger). */
export function requestLogger(
  logger: FastifyBaseLogger,
  bindings: ChildArgs[0],
  options: ChildArgs[1],
): FastifyBaseLogger {
  return new RequestLogger(logger, bindings, options);
}

/** Echoes the request id and logs each answered request once (Fastify's own request logging is off). */
export function logRequests(app: FastifyInstance): void {
  // Nothing to build per request when the configured level drops the line (LOG_LEVEL=warn and above).
  const logged = ['trace', 'debug', 'info'].includes(app.log.level);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    if (!logged) return done();
    // reqId comes from the request's child logger; the route is the pattern, to group lines by endpoint.
    request.log.info(
      {
        method: request.method,
        route: request.routeOptions.url ?? null,
        url: redactUrl(request.url),
        statusCode: reply.statusCode,
        responseTime: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request',
    );
    done();
  });
}
