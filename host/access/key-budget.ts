/**
 * The wrong-key budget: when a client may have a board's access key checked.
 * Each client (an IPv4 address, or an IPv6 /64) has its own budget on each
 * board: a few wrong keys are answered at once, then after each further one
 * the client waits twice as long as after the last, up to a cap. A client that
 * is waiting is refused without its key being checked, so the wait cannot be
 * skipped by reading the answers; a client that is not waiting is always
 * checked, so one client's guesses never hold off another's right key.
 * Many wrong keys on one board (guessing from many addresses) put the board on
 * alert, where every client has fewer free failures and a longer cap; and a
 * client's wrong keys on all boards together are limited per hour.
 * Per instance, on the injected clock; docs/security.md has the reasoning.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { isIPv6 } from 'node:net';
import { LRUCache } from 'lru-cache';
import {
  KEY_BACKOFF_FIRST_MS,
  KEY_BACKOFF_MAX_MS,
  KEY_BACKOFF_MAX_ON_ALERT_MS,
  KEY_BOARD_ALERT_FAILURES,
  KEY_BOARD_ALERT_WINDOW_MS,
  KEY_BUDGET_MAX_RECORDS,
  KEY_CLIENT_FAILURES,
  KEY_CLIENT_WINDOW_MS,
  KEY_FAILURE_MEMORY_MS,
  KEY_FREE_FAILURES,
  KEY_FREE_FAILURES_ON_ALERT,
  KEY_REMEMBERED_WRONG_KEYS,
} from '../../schema/index.js';

/** One client's wrong keys on one board. */
type Guesses = { failures: number; lastFailureAt: number; blockedUntil: number; wrongKeys: string[] };
type Window = { endsAt: number; count: number };
/** One board's wrong keys from everyone. */
type Watch = { window: Window; alertUntil: number };

export class KeyBudget {
  // Bounded, so that a flood of addresses cannot grow memory without end; the longest untouched record goes first.
  private readonly guesses = new LRUCache<string, Guesses>({ max: KEY_BUDGET_MAX_RECORDS });
  private readonly boards = new LRUCache<string, Watch>({ max: KEY_BUDGET_MAX_RECORDS });
  private readonly clients = new LRUCache<string, Window>({ max: KEY_BUDGET_MAX_RECORDS });
  /** Wrong keys are remembered as keyed digests, never as presented: one may be a near miss of the real key. */
  private readonly salt = randomBytes(16);

  constructor(private readonly now: () => number) {}

  /**
   * Whole seconds (rounded up) that the client at `ip` must still wait before
   * `key` may be checked on `boardId`; 0 when it may be checked now. A key
   * this client already presented there, and that was wrong, is no new guess:
   * it may always be checked again.
   */
  waitSeconds(ip: string, boardId: string, key: string): number {
    const now = this.now();
    const client = clientOf(ip);
    const guesses = this.liveGuesses(client, boardId, now);
    if (guesses?.wrongKeys.includes(this.digest(key))) return 0;
    let until = guesses?.blockedUntil ?? 0;
    const window = this.clients.peek(client);
    if (window && now < window.endsAt && window.count >= KEY_CLIENT_FAILURES) until = Math.max(until, window.endsAt);
    return until > now ? Math.ceil((until - now) / 1000) : 0;
  }

  /** Records a checked key: the right one forgets the client's wrong ones on the board; a new wrong one counts everywhere. */
  checked(ip: string, boardId: string, key: string, right: boolean): void {
    const client = clientOf(ip);
    const id = `${client} ${boardId}`;
    if (right) {
      this.guesses.delete(id);
      return;
    }
    const now = this.now();
    const digest = this.digest(key);
    const guesses = this.liveGuesses(client, boardId, now) ?? {
      failures: 0,
      lastFailureAt: now,
      blockedUntil: 0,
      wrongKeys: [],
    };
    if (guesses.wrongKeys.includes(digest)) return;
    const onAlert = this.countOnBoard(boardId, now);
    this.countForClient(client, now);
    guesses.failures += 1;
    guesses.lastFailureAt = now;
    guesses.wrongKeys = [digest, ...guesses.wrongKeys].slice(0, KEY_REMEMBERED_WRONG_KEYS);
    const free = onAlert ? KEY_FREE_FAILURES_ON_ALERT : KEY_FREE_FAILURES;
    const cap = onAlert ? KEY_BACKOFF_MAX_ON_ALERT_MS : KEY_BACKOFF_MAX_MS;
    const beyond = guesses.failures - free;
    guesses.blockedUntil = beyond > 0 ? now + Math.min(KEY_BACKOFF_FIRST_MS * 2 ** (beyond - 1), cap) : 0;
    this.guesses.set(id, guesses);
  }

  /** Drops what has been forgotten: quiet clients, ended windows and alerts. */
  sweep(): void {
    const now = this.now();
    for (const [id, guesses] of [...this.guesses.entries()])
      if (now - guesses.lastFailureAt >= KEY_FAILURE_MEMORY_MS) this.guesses.delete(id);
    for (const [id, watch] of [...this.boards.entries()])
      if (now >= watch.window.endsAt && now >= watch.alertUntil) this.boards.delete(id);
    for (const [id, window] of [...this.clients.entries()]) if (now >= window.endsAt) this.clients.delete(id);
  }

  /** Records held (for tests of expiry). */
  get size(): number {
    return this.guesses.size + this.boards.size + this.clients.size;
  }

  private liveGuesses(client: string, boardId: string, now: number): Guesses | undefined {
    const id = `${client} ${boardId}`;
    const guesses = this.guesses.peek(id);
    if (!guesses || now - guesses.lastFailureAt < KEY_FAILURE_MEMORY_MS) return guesses;
    this.guesses.delete(id);
    return undefined;
  }

  /** Counts a wrong key on the board; true when the board is on alert (this key included). */
  private countOnBoard(boardId: string, now: number): boolean {
    const watch = this.boards.peek(boardId) ?? { window: { endsAt: 0, count: 0 }, alertUntil: 0 };
    if (now >= watch.window.endsAt) watch.window = { endsAt: now + KEY_BOARD_ALERT_WINDOW_MS, count: 0 };
    watch.window.count += 1;
    if (watch.window.count >= KEY_BOARD_ALERT_FAILURES) watch.alertUntil = now + KEY_BOARD_ALERT_WINDOW_MS;
    this.boards.set(boardId, watch);
    return now < watch.alertUntil;
  }

  private countForClient(client: string, now: number): void {
    let window = this.clients.peek(client);
    if (!window || now >= window.endsAt) window = { endsAt: now + KEY_CLIENT_WINDOW_MS, count: 0 };
    window.count += 1;
    this.clients.set(client, window);
  }

  private digest(key: string): string {
    return createHmac('sha256', this.salt).update(key.toLowerCase(), 'utf8').digest('base64url').slice(0, 16);
  }
}

/**
 * The client an address stands for: an IPv4 address (also mapped into IPv6),
 * or the /64 of an IPv6 address, which one home or host is given whole: per
 * address, one machine would have 2^64 budgets.
 */
export function clientOf(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1];
  if (!isIPv6(ip)) return ip;
  return `${ipv6Groups(ip).slice(0, 4).join(':')}::/64`;
}

/** The eight groups of an IPv6 address, without leading zeros. */
function ipv6Groups(ip: string): string[] {
  let address = ip.split('%')[0]; // a zone (fe80::1%eth0) is no part of the address
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address); // an IPv4 tail is the last two groups
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number);
    address = `${address.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((group) => parseInt(group, 16).toString(16));
}
