/**
 * What an agent's calls leave for its next ones. A 2025 session remembers
 * the keys that opened boards, the boards it used and its subscriptions; a
 * 2026-07-28 request is stateless, so its memory lasts the request (the key
 * is passed once per request, as access_key or X-Board-Key).
 */
import { parseUri } from './resources.js';

/** What an agent's calls may leave behind for its next ones. */
export interface AgentMemory {
  /** The key to use for a board: the one this call carries, else one remembered. */
  keyFor(boardId: string, given: string | undefined): string | undefined;
  /** A board this agent used, with the key that opened it (remembered by a session, forgotten by a stateless request). */
  used(boardId: string, key: string | undefined): void;
  /** Boards this agent used, for resources/list and completions. */
  boards(): Iterable<string>;
  /** Subscribes to a resource (a session's open_board does); a stateless request cannot, and says so with its resource links. */
  subscribe?(uri: string): void;
  unsubscribe?(uri: string): void;
}

/** A stateless request's memory: what the request itself carries, for the length of the request. */
export class RequestMemory implements AgentMemory {
  private readonly keys = new Map<string, string>();
  private readonly seen = new Set<string>();

  keyFor(boardId: string, given: string | undefined): string | undefined {
    return given ?? this.keys.get(boardId);
  }

  used(boardId: string, key: string | undefined): void {
    this.seen.add(boardId);
    if (key !== undefined) this.keys.set(boardId, key);
  }

  boards(): Iterable<string> {
    return this.seen;
  }
}

/** A session's memory: the same, kept for the session's life, and the resources it subscribed to. */
export class SessionMemory extends RequestMemory {
  readonly subscriptions = new Set<string>();

  constructor(private readonly hooks: { subscribed(boardId: string): void; unsubscribed(boardId: string): void }) {
    super();
  }

  subscribe(uri: string): void {
    if (this.subscriptions.has(uri)) return;
    this.subscriptions.add(uri);
    this.hooks.subscribed(parseUri(uri).boardId);
  }

  unsubscribe(uri: string): void {
    if (!this.subscriptions.delete(uri)) return;
    const { boardId } = parseUri(uri);
    if (![...this.subscriptions].some((other) => parseUri(other).boardId === boardId)) this.hooks.unsubscribed(boardId);
  }
}
