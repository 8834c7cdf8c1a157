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
import { Redis as IORedis } from 'ioredis';
import { applyAwarenessUpdate, encodeAwarenessUpdate } from 'y-protocols/awareness';
import type { Limiter, SharedCounter } from '../host/access.js';
import { type EventRelay, isRelayed, RELAYED_ORIGIN } from '../host/board-events.js';
import type { RateLimiter } from '../host/rate-limiter.js';
import { heardRecordEvent, type RecordEventTargets } from '../host/record-events.js';
import { HEARTBEAT_MS, RelayPeers } from './relay-peers.js';
import { ClusterEvent } from '../../schema/index.js';

/** An event as this instance sends it; `from` is added on the way out. */
type OutgoingEvent = ClusterEvent extends infer E ? (E extends ClusterEvent ? Omit<E, 'from'> : never) : never;

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
  /** Loaded boards whose subscription failed (Redis away), made again once Redis is back. */
  private readonly unsubscribed = new Map<string, afterLoadDocumentPayload>();

  constructor(configuration: ConstructorParameters<typeof RedisExtension>[0]) {
    super(configuration);
    this.sub.on('ready', () => this.subscribeAgain());
  }

  /** A board loads whether Redis answers or not: meanwhile the instance catches up from the storage. */
  override async afterLoadDocument(data: afterLoadDocumentPayload): Promise<void> {
    // Asking a Redis that is away would hold the load for ioredis's reconnection attempts.
    if (this.sub.status !== 'ready') {
      this.unsubscribed.set(data.documentName, data);
      return;
    }
    try {
      await super.afterLoadDocument(data);
    } catch {
      this.unsubscribed.set(data.documentName, data);
    }
  }

  private subscribeAgain(): void {
    const waiting = [...this.unsubscribed.values()];
    this.unsubscribed.clear();
    for (const data of waiting)
      if (data.instance.documents.get(data.documentName) === data.document) void this.afterLoadDocument(data);
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
    this.unsubscribed.delete(data.documentName);
    if (!this.destroyed) await super.afterUnloadDocument(data);
  }

  override async onDestroy(): Promise<void> {
    this.destroyed = true;
    await super.onDestroy();
  }
}

/** Told of every pub/sub message: `documents` for the Yjs relay's, `events` for board events (the operator's metrics). */
export type RelayHook = (direction: 'published' | 'received', kind: 'documents' | 'events') => void;

export class RedisCluster implements EventRelay {
  readonly instanceId = randomUUID();
  readonly extension: DocumentRelay;
  private readonly pub: IORedis;
  private readonly sub: IORedis;
  private readonly changedThisTurn = new Set<string>();
  /** Every connection this instance opened (ours and the extension's), for the connection status. */
  private readonly clients = new Set<IORedis>();
  private targets: RecordEventTargets | undefined;
  /** The other instances as heard on the event channel: one that falls silent relays nothing. */
  readonly peers = new RelayPeers();
  private heartbeat: NodeJS.Timeout | undefined;

  private readonly channel: string;

  constructor(
    private readonly url: string,
    /** Namespace of every key and channel. */
    private readonly prefix: string,
    /** The journal commit on its way for a board, if any: changes are relayed once stored. */
    pending: (boardId: string) => Promise<void> | undefined,
    private readonly relayed: RelayHook = () => {},
  ) {
    this.channel = `${prefix}:events`;
    this.pub = this.client();
    this.sub = this.client();
    this.extension = new DocumentRelay({ createClient: () => this.client(), identifier: this.instanceId, prefix });
    this.extension.pending = pending;
    this.extension.left = (boardId, update) =>
      this.publish({ type: 'left', boardId, awareness: Buffer.from(update).toString('base64') });
    this.pub.defineCommand('boardHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    this.pub.defineCommand('boardRefund', { numberOfKeys: 1, lua: REFUND_SCRIPT });
  }

  private client(): IORedis {
    const client = new IORedis(this.url, { maxRetriesPerRequest: 2, enableOfflineQueue: true });
    client.on('error', () => {}); // ioredis reconnects by itself; commands in between fail and say so
    this.clients.add(client);
    client.once('end', () => this.clients.delete(client));
    const kind = (channel: unknown) => (String(channel) === this.channel ? 'events' : 'documents');
    client.on('messageBuffer', (channel: Buffer) => this.relayed('received', kind(channel)));
    // ioredis has no hook on commands: every one passes through sendCommand, publishes of the extension too.
    const send = client.sendCommand.bind(client);
    client.sendCommand = (command, stream) => {
      if (command.name === 'publish') this.relayed('published', kind(command.args[0]));
      return send(command, stream);
    };
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
    this.heartbeat = setInterval(() => this.publish({ type: 'heartbeat' }), HEARTBEAT_MS);
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
    this.pub.publish(this.channel, JSON.stringify(message)).catch(() => {});
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

  /** The strong counter: one Redis key per window, shared by every instance. */
  counter(): SharedCounter {
    return {
      hit: async (key, limit, windowMs) => {
        let count: number, ttl: number;
        try {
          [count, ttl] = await this.sharedHit(key, windowMs);
        } catch {
          return null; // Redis unreachable: edits go on; the limit is back with Redis
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
        client.boardRefund(`${this.prefix}:rate:${key}`).catch(() => {});
      },
    };
  }

  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    this.publish({ type: 'stopped' });
    await this.extension.onDestroy();
    this.sub.disconnect();
    await this.pub.quit().catch(() => {});
  }
}
