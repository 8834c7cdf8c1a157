/**
 * Whether Redis answers, by a timed PING on the connection the counters and
 * publishes use: a closed socket shows at once, but a Redis that hangs
 * (SIGSTOP, a network that holds packets) keeps its socket open and only a
 * ping that goes unanswered shows it.
 */
import type { Redis as IORedis } from 'ioredis';
import { within } from '../host/operator/within.js';
import type { RelayHealth } from './relay-health.js';

/** How often Redis is pinged, and how long a ping may take. */
export const PING_INTERVAL_MS = 1_000;
export const PING_TIMEOUT_MS = 1_000;
/** Unanswered pings in a row that make Redis down: a hung Redis shows within about 4 s, one slow answer does not. */
export const PING_MISSES_DOWN = 3;

/** Redis as last seen: up or down, since when (epoch ms) and, when down, why. */
export type RedisState = { up: boolean; since: number; reason?: string };

export class RedisHealth implements RelayHealth {
  private current: RedisState;
  private misses = 0;
  private lastMiss = '';
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly listeners = new Set<(up: boolean) => void>();
  private readonly answeredListeners = new Set<() => void>();

  constructor(
    private readonly client: IORedis,
    /** Whether every connection of the instance is ready: a subscriber that reconnects receives nothing. */
    private readonly connected: () => boolean,
    private readonly now: () => number,
  ) {
    this.current = { up: true, since: now() };
  }

  up(): boolean {
    return this.current.up;
  }

  state(): RedisState {
    return this.current;
  }

  onChange(listener: (up: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Told after every ping Redis answers while up: what one slow command left undone may be done again. */
  onAnswered(listener: () => void): () => void {
    this.answeredListeners.add(listener);
    return () => this.answeredListeners.delete(listener);
  }

  /** Pings now and then every interval; resolves once the first ping is answered or missed. */
  start(): Promise<void> {
    return this.ping();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** Looks again at what is known (a connection opened or closed): the state follows at once. */
  readonly check = (): void => {
    if (this.stopped) return; // connections closing at shutdown are no news
    const reason =
      this.misses >= PING_MISSES_DOWN
        ? `${this.misses} pings in a row unanswered (${this.lastMiss})`
        : this.connected()
          ? undefined
          : 'a connection is not ready';
    if ((reason === undefined) === this.current.up) return;
    this.current = { up: reason === undefined, since: this.now(), ...(reason !== undefined && { reason }) };
    for (const listener of this.listeners) listener(this.current.up);
  };

  private async ping(): Promise<void> {
    const sent = performance.now();
    try {
      await within(this.client.ping(), PING_TIMEOUT_MS);
      this.misses = 0;
    } catch (error) {
      this.misses += 1;
      this.lastMiss = error instanceof Error ? error.message : String(error);
    }
    this.check();
    if (this.misses === 0 && this.current.up) for (const listener of this.answeredListeners) listener();
    // Pings are sent every interval from the last one's start, so misses count at the pace of the clock.
    if (!this.stopped)
      this.timer = setTimeout(
        () => void this.ping(),
        Math.max(0, PING_INTERVAL_MS - (performance.now() - sent)),
      ).unref();
  }
}
