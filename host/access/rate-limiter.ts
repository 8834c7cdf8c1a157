/**
 * Fixed-window request counters keyed by a string (a board id, a client IP, a
 * token digest). Windows that have ended are swept, so the limiter does not
 * grow with the number of keys ever seen.
 */

type Window = { resetAt: number; count: number };

/** Above this many live keys a hit also sweeps ended windows (a flood of distinct keys). */
const SWEEP_THRESHOLD = 10_000;

export class RateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly now: () => number) {}

  /**
   * Counts one request against `key`; returns null when it is allowed, or the
   * whole seconds until its window ends when it is over the limit.
   */
  hit(key: string, limit: number, windowMs: number): number | null {
    const now = this.now();
    if (this.windows.size > SWEEP_THRESHOLD) this.sweep();
    let window = this.windows.get(key);
    if (!window || now >= window.resetAt) {
      window = { resetAt: now + windowMs, count: 0 };
      this.windows.set(key, window);
    }
    window.count += 1;
    return window.count <= limit ? null : Math.max(1, Math.ceil((window.resetAt - now) / 1000));
  }

  /**
   * Takes back one hit of `key`'s current window. A window that has ended has
   * nothing to take back; a refund that lands just after a window changed
   * takes one from the new window (one extra request at most, in a race of
   * milliseconds at its start).
   */
  refund(key: string): void {
    const window = this.windows.get(key);
    if (window && this.now() < window.resetAt && window.count > 0) window.count -= 1;
  }

  /** How many requests `key` has made in its current window (0 when none). */
  count(key: string): number {
    const window = this.windows.get(key);
    return window && this.now() < window.resetAt ? window.count : 0;
  }

  /** Drops every window that has ended. */
  sweep(): void {
    const now = this.now();
    for (const [key, window] of this.windows) if (now >= window.resetAt) this.windows.delete(key);
  }

  /** Number of keys held (for tests of expiry). */
  get size(): number {
    return this.windows.size;
  }
}
