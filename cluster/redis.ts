/**
 * The shared setup's Redis: @hocuspocus/extension-redis carries document
 * updates and awareness between instances; one channel carries board events
 * (changed, erased, lock or record changed, people who left) to instances,
 * whether or not they have the board loaded; and counters give the limits the
 * spec wants shared.
 */
import { randomUUID } from 'node:crypto';
import { Redis as RedisExtension } from '@hocuspocus/extension-redis';
import type {
  afterLoadDocumentPayload,
  afterUnloadDocumentPayload,
  onAwarenessUpdatePayload,
  onChangePayload,
} from '@hocuspocus/server';
import type { Redis as IORedis } from 'ioredis';
import { applyAwarenessUpdate, encodeAwarenessUpdate } from 'y-protocols/awareness';
import type { Limiter, SharedCounter } from '../host/access/access.js';
import type { RateLimiter } from '../host/access/rate-limiter.js';
import { type EventRelay, isRelayed, RELAYED_ORIGIN } from '../host/events/board-events.js';
import type { FaultReport } from '../host/operator/fault-log.js';
import { within } from '../host/operator/within.js';
import { ClusterEvent } from '../schema/index.js';
import { GuardedRedis } from './guarded-redis.js';
import { heardRecordEvent, type RecordEventTargets } from './record-events.js';
import { RedisHealth } from './redis-health.js';
import { HEARTBEAT_MS, RelayPeers } from './relay-peers.js';

/** An event as this instance sends it; `from` is added on the way out. */
type OutgoingEvent = ClusterEvent extends infer E ? (E extends ClusterEvent ? Omit<E, 'from'> : never) : never;

/** How long any Redis command may take before it fails: nothing on a request's path waits on Redis longer. */
export const REDIS_COMMAND_TIMEOUT_MS = 1_000;

/** How long a frame or an update waits for the shared counter before this instance decides by its own count. */
export const COUNTER_WAIT_MS = 250;

/** INCR with the window's expiry set by its first hit; returns the count and the window's remaining ms. */
const HIT_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('PTTL', KEYS[1])}`;

/** Takes one back from a window's count; a window that has expired is left alone. */
const REFUND_SCRIPT = `
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n > 0 then return redis.call('DECR', KEYS[1]) end
return 0`;

/**
 * The extension, relaying a change only once it is stored and sending
 * awareness removals on our event channel (see below), and without its store
 * lock: it takes a Redlock lock around each
 * store so that only one instance stores a document, and skips (and logs) the
 * others. Our store is a compaction that merges what PostgreSQL holds with the
 * live copy under a PostgreSQL advisory lock, which is safe from any number
 * of instances, so the lock would only cost a round trip and a log line.
 */
class DocumentRelay extends RedisExtension {
  private destroyed = false;
  /** The journal commit on its way for a board, if any. */
  pending: (boardId: string) => Promise<void> | undefined = () => undefined;
  /** Told of people who left a board here (their awareness states were removed). */
  left: (boardId: string, update: Uint8Array) => void = () => {};
  /** Whether Redis answers (the cluster's health). */
  relayUp: () => boolean = () => true;
  /** Told of a board whose channel could not be subscribed. */
  unrelayed: (error: unknown) => void = () => {};
  /** Boards loaded without their channel (Redis away, or its subscribe failed): subscribed once Redis answers. */
  private readonly unsubscribed = new Map<string, afterLoadDocumentPayload>();

  /**
   * A board loads whether Redis answers or not: one loaded without its
   * channel gets it once Redis is back (subscribeUnrelayed), and the sync
   * with the other instances that follows brings in what it missed.
   */
  override async afterLoadDocument(data: afterLoadDocumentPayload): Promise<void> {
    if (!this.relayUp()) {
      this.unsubscribed.set(data.documentName, data);
      return;
    }
    try {
      await super.afterLoadDocument(data);
    } catch (error) {
      this.unrelayed(error);
      this.unsubscribed.set(data.documentName, data);
    }
  }

  /** Redis answers: every board loaded without its channel, and still loaded, subscribes to it now. */
  async subscribeUnrelayed(): Promise<void> {
    if (this.unsubscribed.size === 0) return;
    const waiting = [...this.unsubscribed.values()];
    this.unsubscribed.clear();
    await Promise.all(
      waiting
        .filter((data) => data.instance.documents.get(data.documentName) === data.document)
        .map((data) => this.afterLoadDocument(data)),
    );
  }

  /** Other instances hear of a change once it is stored: one the storage refuses must reach nobody. */
  override async onChange(data: onChangePayload): Promise<void> {
    const commit = this.pending(data.documentName);
    if (!commit) return super.onChange(data);
    commit.then(
      () => super.onChange(data),
      () => {},
    );
  }

  /**
   * Removals of awareness states never cross through the extension: it
   * publishes only while the document still has connections here (so not
   * when the last person leaves), and Hocuspocus 4.7 re-encodes every incoming
   * awareness message from the states it holds, dropping the null states that
   * mean "gone". Without this, someone who left would stay visible on other
   * instances until Yjs's 30 s awareness timeout. They go on our event channel.
   */
  override async onAwarenessUpdate(data: onAwarenessUpdatePayload): Promise<void> {
    await super.onAwarenessUpdate(data);
    if (data.removed.length > 0 && !isRelayed(data.transactionOrigin))
      this.left(data.documentName, encodeAwarenessUpdate(data.awareness, data.removed));
  }

  override async onStoreDocument(): Promise<void> {}
  override async afterStoreDocument(): Promise<void> {}

  /** Documents still unloading at shutdown have no subscription left to end (the connections are gone). */
  override async afterUnloadDocument(data: afterUnloadDocumentPayload): Promise<void> {
    if (!data.instance.documents.has(data.documentName)) this.unsubscribed.delete(data.documentName);
    if (!this.destroyed) await super.afterUnloadDocument(data);
  }

  override async onDestroy(): Promise<void> {
    this.destroyed = true;
    await super.onDestroy();
  }
}

type RelayKind = 'documents' | 'events';

/** Why a shared count was decided by this instance's own: Redis known down, or no answer within the bound. */
export type LocalReason = 'redis_down' | 'no_answer';

/** What the cluster tells the operator: pub/sub messages, publishes that failed, counts decided here, and errors. */
export type ClusterHooks = {
  relayed(direction: 'published' | 'received', kind: RelayKind): void;
  publishFailed(kind: RelayKind): void;
  decidedLocally(reason: LocalReason): void;
  fault: FaultReport;
};

export class RedisCluster implements EventRelay {
  readonly instanceId = randomUUID();
  readonly extension: DocumentRelay;
  private readonly pub: IORedis;
  private readonly sub: IORedis;
  private readonly changedThisTurn = new Set<string>();
  /** Every connection this instance opened (ours and the extension's), for the connection status. */
  private readonly clients = new Set<IORedis>();
  private targets: RecordEventTargets | undefined;
  private closed = false;
  /** Redis answering pings and every connection ready: counters and publishes skip Redis at once while it is down. */
  readonly health: RedisHealth;
  /** The other instances as heard on the event channel: one that falls silent relays nothing. */
  readonly peers: RelayPeers;
  private heartbeat: NodeJS.Timeout | undefined;

  private readonly channel: string;

  constructor(
    private readonly url: string,
    /** Namespace of every key and channel. */
    private readonly prefix: string,
    /** The journal commit on its way for a board, if any: changes are relayed once stored. */
    pending: (boardId: string) => Promise<void> | undefined,
    private readonly hooks: ClusterHooks,
    now: () => number,
    heartbeatMs = HEARTBEAT_MS,
  ) {
    this.peers = new RelayPeers(Date.now, heartbeatMs);
    this.channel = `${prefix}:events`;
    this.pub = this.client();
    this.sub = this.client();
    this.health = new RedisHealth(this.pub, () => this.connected(), now);
    this.extension = new DocumentRelay({ createClient: () => this.client(), identifier: this.instanceId, prefix });
    this.extension.pending = pending;
    this.extension.relayUp = () => this.health.up();
    this.extension.unrelayed = (error) => hooks.fault('redis_subscribe', error);
    this.health.onChange((up) => {
      if (up) void this.extension.subscribeUnrelayed();
    });
    // A subscribe that timed out while Redis stayed up (one slow answer under load) is tried again at the next ping.
    this.health.onAnswered(() => void this.extension.subscribeUnrelayed());
    this.extension.left = (boardId, update) =>
      this.publish({ type: 'left', boardId, awareness: Buffer.from(update).toString('base64') });
    this.pub.defineCommand('boardHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    this.pub.defineCommand('boardRefund', { numberOfKeys: 1, lua: REFUND_SCRIPT });
  }

  /**
   * A connection whose every command fails after the timeout, queued while
   * reconnecting or not. A failed publish is counted and logged here and
   * answers "sent to nobody", for the extension's publishes too: other
   * instances catch up from the journal.
   */
  private client(): IORedis {
    const kind = (channel: string): RelayKind => (channel === this.channel ? 'events' : 'documents');
    const client = new GuardedRedis(
      this.url,
      { maxRetriesPerRequest: 2, enableOfflineQueue: true, commandTimeout: REDIS_COMMAND_TIMEOUT_MS },
      {
        closed: () => this.closed,
        up: () => this.health.up(),
        published: (channel) => this.hooks.relayed('published', kind(channel)),
        failed: (channel, error) => {
          this.hooks.publishFailed(kind(channel));
          if (error !== undefined) this.hooks.fault('redis_publish', error);
        },
      },
    );
    client.on('error', (error: unknown) => this.hooks.fault('redis_connection', error)); // it reconnects by itself
    this.clients.add(client);
    client.once('end', () => this.clients.delete(client));
    for (const event of ['ready', 'close', 'end']) client.on(event, () => this.health.check());
    client.on('messageBuffer', (channel: Buffer) => this.hooks.relayed('received', kind(String(channel))));
    return client;
  }

  /** Whether every Redis connection of this instance is up (readiness and the metrics). */
  connected(): boolean {
    return [...this.clients].every((client) => client.status === 'ready');
  }

  /** Starts relaying: this instance's events go out, the others' come in. */
  async attach(targets: RecordEventTargets): Promise<void> {
    this.targets = targets;
    targets.events.relay = this;
    this.sub.on('message', (_channel: string, raw: string) => this.receive(raw));
    await this.sub.subscribe(this.channel);
    await this.health.start();
    this.heartbeat = setInterval(() => this.publish({ type: 'heartbeat' }), this.peers.heartbeatMs);
    this.heartbeat.unref();
  }

  changed(boardId: string): void {
    // One message per board per turn of the event loop, however many updates it made.
    if (this.changedThisTurn.size === 0) setImmediate(() => this.flushChanged());
    this.changedThisTurn.add(boardId);
  }

  erased(boardId: string): void {
    this.publish({ type: 'erased', boardId });
  }

  lockChanged(boardId: string): void {
    this.publish({ type: 'lockChanged', boardId });
  }

  /** The board's registry row changed (created, mode switched, revived): instances holding it read it again. */
  recordChanged(boardId: string): void {
    this.publish({ type: 'recordChanged', boardId });
  }

  private flushChanged(): void {
    for (const boardId of this.changedThisTurn) this.publish({ type: 'changed', boardId });
    this.changedThisTurn.clear();
  }

  private publish(event: OutgoingEvent): void {
    const message: ClusterEvent = { ...event, from: this.instanceId };
    void this.pub.publish(this.channel, JSON.stringify(message)); // a failure is counted and logged in client()
  }

  /** An event from the channel, checked like any message that crosses a wire: one that is not an event is ignored. */
  private receive(raw: string): void {
    let data: unknown;
    try {
      data = JSON.parse(raw);
    } catch {
      return;
    }
    const parsed = ClusterEvent.safeParse(data);
    const targets = this.targets;
    if (!parsed.success || !targets || parsed.data.from === this.instanceId) return;
    const message = parsed.data;
    const { events, host } = targets;
    this.peers.heardFrom(message.from);
    switch (message.type) {
      case 'changed':
        // A loaded copy hears of the change itself, through the extension's update.
        if (!host.loaded(message.boardId)) events.changed(message.boardId, RELAYED_ORIGIN);
        return;
      case 'left': {
        // y-protocols' own rule applies: a state newer than the removal (the person came back) stays.
        const document = host.loaded(message.boardId);
        if (document)
          applyAwarenessUpdate(document.awareness, Buffer.from(message.awareness, 'base64'), RELAYED_ORIGIN);
        return;
      }
      case 'erased':
      case 'lockChanged':
      case 'recordChanged':
        return heardRecordEvent(message.type, message.boardId, targets);
      case 'heartbeat':
        return;
      case 'stopped':
        this.peers.stopped(message.from);
        return;
      default: {
        const unknown: never = message;
        return unknown;
      }
    }
  }

  /** Counts one hit on the shared key; resolves to the window's count and its remaining ms. */
  private async sharedHit(key: string, windowMs: number): Promise<[count: number, ttlMs: number]> {
    const client = this.pub as IORedis & { boardHit(key: string, windowMs: number): Promise<[number, number]> };
    return client.boardHit(`${this.prefix}:rate:${key}`, windowMs);
  }

  /**
   * The strong counter: one Redis key per window, shared by every instance.
   * When Redis is down or does not answer within COUNTER_WAIT_MS, this
   * instance's own count decides, with the same limit: never a held frame,
   * never an unlimited one.
   */
  counter(local: RateLimiter): SharedCounter {
    const locally = (reason: LocalReason, key: string, limit: number, windowMs: number) => {
      this.hooks.decidedLocally(reason);
      return local.hit(key, limit, windowMs);
    };
    return {
      hit: async (key, limit, windowMs) => {
        if (!this.health.up()) return locally('redis_down', key, limit, windowMs);
        let count: number, ttl: number;
        try {
          [count, ttl] = await within(this.sharedHit(key, windowMs), COUNTER_WAIT_MS);
        } catch (error) {
          this.hooks.fault('redis_counter', error);
          return locally('no_answer', key, limit, windowMs);
        }
        return count <= limit ? null : Math.max(1, Math.ceil(ttl / 1000));
      },
    };
  }

  /**
   * The eventually consistent counter for board creation: each instance
   * decides at once from its own count and the shared count as last heard,
   * and adds its hit to the shared count in the background.
   */
  eventualLimiter(local: RateLimiter, now: () => number): Limiter {
    const heard = new Map<string, { count: number; resetAt: number }>();
    return {
      hit: (key, limit, windowMs) => {
        const retry = local.hit(key, limit, windowMs);
        const shared = heard.get(key);
        const sharedRetry =
          shared && now() < shared.resetAt && shared.count + 1 > limit
            ? Math.max(1, Math.ceil((shared.resetAt - now()) / 1000))
            : null;
        // While Redis is down this instance's count alone decides; the shared one starts again with Redis.
        if (this.health.up())
          this.sharedHit(key, windowMs)
            .then(([count, ttl]) => {
              if (heard.size > 10_000) heard.clear();
              if (ttl > 0) heard.set(key, { count, resetAt: now() + ttl });
            })
            .catch(() => {});
        return retry ?? sharedRetry;
      },
      count: (key) => local.count(key),
      refund: (key) => {
        local.refund(key);
        const shared = heard.get(key);
        if (shared && shared.count > 0) shared.count -= 1;
        // Sent on the connection that sent the hit, so Redis counts the hit first.
        const client = this.pub as IORedis & { boardRefund(key: string): Promise<number> };
        if (this.health.up()) client.boardRefund(`${this.prefix}:rate:${key}`).catch(() => {});
      },
    };
  }

  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    this.publish({ type: 'stopped' }); // sent before `closed`, which turns publishes into no-ops
    this.closed = true;
    this.health.stop();
    await this.extension.onDestroy();
    this.sub.disconnect();
    await this.pub.quit().catch(() => {});
  }
}
