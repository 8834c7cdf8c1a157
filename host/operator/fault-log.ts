/**
 * Errors of the shared dependencies (Redis, PostgreSQL) and of Hocuspocus,
 * as JSON lines through the app's logger at its level, and never a flood: the
 * first of a kind is written at once, the rest of its window are counted and
 * written as one line when the window ends (`count` says how many a line stands
 * for). The format is in docs/operations.md, "Logs".
 */

/** What a fault line goes through: pino's logger (Fastify's `app.log`) has it. */
export interface FaultLogger {
  error(fields: object, message: string): void;
}

/** Each kind with its line's message: what happened and what the service does about it. */
const KINDS = {
  redis_connection: 'redis: a connection failed; it reconnects by itself',
  redis_subscribe: "redis: a board's channel could not be subscribed; it loads, and subscribes once Redis answers",
  redis_publish: 'redis: a relay publish failed; other instances catch up from the journal',
  redis_counter: "redis: the shared rate counter did not answer; decided by this instance's own count",
  pg_pool: 'postgres: a pooled connection failed; the pool opens another',
  hocuspocus: 'hocuspocus: a hook or a connection failed',
} as const;

export type FaultKind = keyof typeof KINDS;

/** Where a fault happened, when known: the request's id ties the line to the answer the client got. */
export type FaultContext = { reqId?: string; detail?: string };

/** Reports one fault of a kind. */
export type FaultReport = (kind: FaultKind, error: unknown, context?: FaultContext) => void;

/** How long a kind writes at most one line. */
export const FAULT_WINDOW_MS = 5_000;

type Window = { count: number; error: unknown; context: FaultContext | undefined; timer: NodeJS.Timeout };

export class FaultLog {
  private readonly windows = new Map<FaultKind, Window>();

  constructor(
    private readonly logger: FaultLogger,
    private readonly windowMs = FAULT_WINDOW_MS,
  ) {}

  readonly report: FaultReport = (kind, error, context) => {
    const window = this.windows.get(kind);
    if (window) {
      window.count += 1;
      window.error = error;
      window.context = context;
      return;
    }
    this.write(kind, 1, error, context);
    this.open(kind);
  };

  /** Writes what the open windows still hold (at shutdown). */
  flush(): void {
    for (const [kind, window] of this.windows) {
      clearTimeout(window.timer);
      if (window.count > 0) this.write(kind, window.count, window.error, window.context);
    }
    this.windows.clear();
  }

  private open(kind: FaultKind): void {
    const timer = setTimeout(() => this.close(kind), this.windowMs).unref();
    this.windows.set(kind, { count: 0, error: undefined, context: undefined, timer });
  }

  /** A window ends: its count is written, and the line opens the next window; a quiet window ends the kind's run. */
  private close(kind: FaultKind): void {
    const window = this.windows.get(kind);
    if (!window) throw new Error(`fault log: the ${kind} window closed twice`);
    this.windows.delete(kind);
    if (window.count === 0) return;
    this.write(kind, window.count, window.error, window.context);
    this.open(kind);
  }

  private write(kind: FaultKind, count: number, error: unknown, context: FaultContext | undefined): void {
    this.logger.error({ kind, count, err: error, ...context }, KINDS[kind]);
  }
}
