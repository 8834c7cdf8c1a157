/**
 * Who may do what: the import-token tier, the rate limits and the lock check,
 * in one place that every surface (REST, MCP, WebSocket) goes through.
 */
import { createHash } from 'node:crypto';
import { errors, keyStateOf } from '../../board/model/errors.js';
import type { BoardRecord } from '../../board/model/record.js';
import type { Surface } from '../../board/mutations/board-write.js';
import {
  RATE_BOARD_STANDARD,
  RATE_BOARD_TOKEN,
  RATE_COLLAB_UPDATES,
  RATE_CREATE_STANDARD,
  RATE_CREATE_TOKEN,
  RATE_LOCK,
  RATE_WINDOW_BOARD_MS,
  RATE_WINDOW_COLLAB_MS,
  RATE_WINDOW_CREATE_MS,
  RATE_WINDOW_LOCK_MS,
  RATE_WINDOW_WS_MS,
  RATE_WS_FRAMES,
} from '../../schema/index.js';
import type { KeyBudget } from './key-budget.js';
import { keyMatches, secretsEqual } from './keys.js';

/** Whoever makes a request, as the adapters translate it. */
export type Caller = {
  surface: Surface;
  /** Client IP (the socket address, or X-Forwarded-For behind a trusted proxy). */
  ip: string;
  /** Access key presented for a locked board. */
  key?: string;
  /** X-Import-Token as presented. */
  importToken?: string;
  /** Author tag for items created without their own. */
  author?: string;
  /** Already counted against the board's rate limit at the edge (before its body was read). */
  admitted?: boolean;
  /** The view link a socket or listener was opened with (its id): it reads only, and only while the link lives. */
  viewLink?: string;
};

/** Who presents a key, as the wrong-key budget needs it: the client's address and the key (and a view link's id). */
export type KeyHolder = Pick<Caller, 'ip' | 'key' | 'viewLink'>;

export type Tier = 'standard' | 'token';

/** The rate limits, as the refusal hook names them (docs/operations.md). */
export type RateLimitName = 'board' | 'create' | 'lock' | 'ws_frame' | 'collab_update' | 'key_guess';

/** Told of every refusal by a rate limit (the operator's metrics); `none` where no tier applies. */
export type RefusalHook = (limit: RateLimitName, tier: Tier | 'none') => void;

export type AccessConfig = { importToken: string | undefined; rateLimits: boolean };

/** A counter every instance shares (Redis): the strong limit on WebSocket traffic per board. */
export interface SharedCounter {
  /** Counts one hit; resolves to null when allowed, else the whole seconds until the window ends. */
  hit(key: string, limit: number, windowMs: number): Promise<number | null>;
}

/** Counts for the limits that the spec lets each instance keep loosely: REST, MCP and creation. */
export interface Limiter {
  hit(key: string, limit: number, windowMs: number): number | null;
  count(key: string): number;
  /** Takes back one allowed hit of `key`'s current window (a reserved creation that did not happen). */
  refund(key: string): void;
}

/** The embedded setup's strong counter: with one instance, the local one is exact. */
export function localCounter(limiter: Limiter): SharedCounter {
  return { hit: async (key, limit, windowMs) => limiter.hit(key, limit, windowMs) };
}

export type Limiters = {
  /** REST and MCP requests and lock calls: per instance (soft). */
  local: Limiter;
  /** Wrong keys per client and board, with backoff: per instance. */
  keys: KeyBudget;
  /** Board creations: shared eventually. */
  creations: Limiter;
  /** WebSocket frames and Yjs updates per board: shared strongly. */
  sockets: SharedCounter;
};

export class Access {
  constructor(
    private readonly config: AccessConfig,
    private readonly limiters: Limiters,
    private readonly refused: RefusalHook = () => {},
  ) {}

  /** The caller's rate tier: a presented token must match the configured secret, else 403. */
  tier(caller: Caller): Tier {
    if (caller.importToken === undefined) return 'standard';
    if (this.config.importToken === undefined || !secretsEqual(caller.importToken, this.config.importToken)) {
      throw errors.invalidImportToken();
    }
    return 'token';
  }

  /**
   * Counts a REST or MCP request on a board (60 per 10 s, 600 with a valid
   * token). WebSocket frames have their own limit (admitFrame) and are not
   * counted twice.
   */
  admitBoardRequest(boardId: string, caller: Caller): void {
    if (caller.admitted) return;
    const tier = this.tier(caller);
    if (caller.surface === 'ws') return;
    this.limit(
      ['board', tier],
      `board:${boardId}`,
      tier === 'token' ? RATE_BOARD_TOKEN : RATE_BOARD_STANDARD,
      RATE_WINDOW_BOARD_MS,
    );
  }

  /**
   * Counts a JSON-channel frame on a board: 60 per 10 s, whatever the
   * connection or instance (a whole batch is one frame).
   */
  async admitFrame(boardId: string): Promise<void> {
    await this.limitShared('ws_frame', `ws:${boardId}`, RATE_WS_FRAMES, RATE_WINDOW_WS_MS);
  }

  /** Counts a Yjs document update on /collab (awareness excluded), across instances. */
  async admitCollabUpdate(boardId: string): Promise<void> {
    await this.limitShared('collab_update', `collab:${boardId}`, RATE_COLLAB_UPDATES, RATE_WINDOW_COLLAB_MS);
  }

  /**
   * Reserves one board creation (5 per 60 s per IP; 50 per 60 s in one bucket
   * per token) and returns its refund. Only created boards count: a creation
   * that fails afterwards (invalid content, a storage error) must call the
   * refund. Reserving before the work, rather than checking then counting
   * after it, keeps a flood refused by one counter lookup and keeps the
   * budget exact when requests run concurrently: each takes its own place.
   * The price is that a request still being validated holds a place, so a
   * concurrent one can be refused for a moment by a creation that then fails.
   */
  admitCreate(caller: Caller): () => void {
    const tier = this.tier(caller);
    const token = caller.importToken;
    const key =
      tier === 'token' && token !== undefined
        ? `create-token:${createHash('sha256').update(token).digest('hex').slice(0, 16)}`
        : `create-ip:${caller.ip}`;
    this.limit(
      ['create', tier],
      key,
      tier === 'token' ? RATE_CREATE_TOKEN : RATE_CREATE_STANDARD,
      RATE_WINDOW_CREATE_MS,
      this.limiters.creations,
    );
    if (!this.config.rateLimits) return () => {};
    return () => this.limiters.creations.refund(key);
  }

  /** Counts a lock, unlock or verify-key call (5 per 60 s per IP, token or not). */
  admitLockOperation(caller: Caller): void {
    this.limit(['lock', 'none'], `lock-ip:${caller.ip}`, RATE_LOCK, RATE_WINDOW_LOCK_MS);
  }

  /**
   * The lock check: a `write` lock guards mutations, an `all` lock reads too; a view link never writes.
   * Missing or wrong key: 401 board_locked, its `keyState` telling which (see checkKey for the budget).
   */
  requireAccess(record: BoardRecord, access: 'read' | 'write', holder: KeyHolder): void {
    if (access === 'write' && holder.viewLink !== undefined) throw errors.readOnlyLink();
    if (!record.lockMode) return;
    if (access === 'read' && record.lockMode === 'write') return;
    if (!this.checkKey(record, holder)) throw errors.boardLocked(record.lockMode, keyStateOf(holder.key));
  }

  /**
   * Whether a presented key opens a locked board. Keys are checked against
   * the presenting client's wrong-key budget on this board (host/access/key-budget.ts):
   * a client that must wait is answered 429 with the exact seconds left, and
   * its key is not checked; anyone else's key always is.
   */
  checkKey(record: BoardRecord, holder: KeyHolder): boolean {
    const { key } = holder;
    if (key === undefined) return false;
    if (!this.config.rateLimits) return keyMatches(key, record.keyHash);
    const wait = this.limiters.keys.waitSeconds(holder.ip, record.id, key);
    if (wait > 0) {
      this.refused('key_guess', 'none');
      throw errors.rateLimited(wait);
    }
    const right = keyMatches(key, record.keyHash);
    this.limiters.keys.checked(holder.ip, record.id, key, right);
    return right;
  }

  private limit(
    [name, tier]: [RateLimitName, Tier | 'none'],
    key: string,
    limit: number,
    windowMs: number,
    limiter = this.limiters.local,
  ): void {
    if (!this.config.rateLimits) return;
    const retry = limiter.hit(key, limit, windowMs);
    if (retry === null) return;
    this.refused(name, tier);
    throw errors.rateLimited(retry);
  }

  private async limitShared(name: RateLimitName, key: string, limit: number, windowMs: number): Promise<void> {
    if (!this.config.rateLimits) return;
    const retry = await this.limiters.sockets.hit(key, limit, windowMs);
    if (retry === null) return;
    this.refused(name, 'none');
    throw errors.rateLimited(retry);
  }
}
