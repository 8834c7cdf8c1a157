/**
 * An ioredis connection whose publishes answer "sent to nobody" (0) instead of
 * failing: while Redis is down they are skipped at once, at shutdown they are
 * dropped, and a publish that fails is reported. Other instances catch up from
 * the journal, so a lost publish is a delay, never a refused write. The
 * Hocuspocus Redis extension's publishes go through it too, since it is the
 * client the extension is given (`createClient`).
 */
import { Redis as IORedis, type RedisOptions } from 'ioredis';

/** What a publish asks and tells the relay. */
export interface PublishGuard {
  /** The relay is closing: what is still flushed has no connection left, and is no fault. */
  closed(): boolean;
  /** Redis answers pings and every connection is ready. */
  up(): boolean;
  published(channel: string): void;
  failed(channel: string, error?: unknown): void;
}

export class GuardedRedis extends IORedis {
  constructor(
    url: string,
    options: RedisOptions,
    private readonly guard: PublishGuard,
  ) {
    super(url, options);
  }

  override publish(channel: string | Buffer, message: string | Buffer): Promise<number> {
    const name = String(channel);
    if (this.guard.closed()) return Promise.resolve(0);
    if (!this.guard.up()) {
      this.guard.failed(name);
      return Promise.resolve(0);
    }
    this.guard.published(name);
    return super.publish(channel, message).catch((error: unknown) => {
      this.guard.failed(name, error);
      return 0;
    });
  }
}
