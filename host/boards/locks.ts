/**
 * Board locks: locking (a fresh key, returned once), changing a lock's mode,
 * unlocking and checking a key, and what a socket may do on a locked board.
 * Each lock operation spends the caller's lock budget as well as the board's
 * rate limit; a lock that changed meanwhile refuses the swap (409).
 */
import { errors, keyStateOf } from '../../board/model/errors.js';
import type { BoardRecord } from '../../board/model/record.js';
import { isViewToken, type LockMode } from '../../schema/index.js';
import type { Lock } from '../../store/board-store.js';
import type { Caller, KeyHolder } from '../access/access.js';
import { generateKey, hashKeyAsync } from '../access/keys.js';
import { hashViewToken } from '../access/view-tokens.js';
import type { BoardCore, BoardsDeps } from './board-core.js';
import type { IdempotentRequest, Unit } from './idempotency.js';

export type LockAnswer = { mode: LockMode; key?: string };

export class BoardLocks {
  constructor(
    private readonly boards: BoardCore,
    private readonly deps: BoardsDeps,
  ) {}

  /**
   * Locks a board, or changes the mode of its lock. An unlocked board gets a
   * fresh key, returned once; a locked one needs its current key (else 403)
   * and keeps it. The swap fails with 409 if the lock changed meanwhile.
   */
  lock(boardId: string, caller: Caller, mode: LockMode, retry?: IdempotentRequest): Promise<LockAnswer> {
    return this.boards.keyed<LockAnswer>(boardId, caller, retry, async (admitted, unit) => {
      const record = await this.admitLockOperation(boardId, admitted);
      if (record.lockMode) {
        if (!record.keyHash || !this.deps.access.checkKey(record, admitted))
          throw errors.invalidKey(keyStateOf(admitted.key));
        return this.swapLock(unit, record, { mode, keyHash: record.keyHash }, { mode });
      }
      const key = generateKey();
      // Hashed off the main thread: another lock call may swap the row meanwhile, and then this one must not.
      const keyHash = await hashKeyAsync(key);
      return this.swapLock(unit, record, { mode, keyHash }, { mode, key });
    });
  }

  /** Unlocks a board with its key (403 without); a no-op on an unlocked board. */
  unlock(boardId: string, caller: Caller, retry?: IdempotentRequest): Promise<{ mode: null }> {
    return this.boards.keyed<{ mode: null }>(boardId, caller, retry, async (admitted, unit) => {
      const record = await this.admitLockOperation(boardId, admitted);
      if (!record.lockMode) return { mode: null };
      if (!this.deps.access.checkKey(record, admitted)) throw errors.invalidKey(keyStateOf(admitted.key));
      return this.swapLock(unit, record, null, { mode: null });
    });
  }

  /** Whether a key opens a locked board; changes nothing (400 on an unlocked board). A wrong key spends the caller's budget like any other. */
  async verifyKey(boardId: string, caller: Caller, key: string): Promise<{ ok: boolean }> {
    const record = await this.admitLockOperation(boardId, caller);
    if (!record.lockMode) throw errors.boardNotLocked();
    return { ok: this.deps.access.checkKey(record, { ip: caller.ip, key }) };
  }

  /**
   * Admits a socket to a board its id or a view token names (the JSON channel
   * before its upgrade, a Yjs document when it authenticates): an `all` lock
   * needs the key (401); a `write` lock without it, or a view token, gives a
   * read-only connection, `viewLink` naming the link it holds.
   */
  async admitSocket(
    ref: string,
    caller: Caller,
  ): Promise<{ record: BoardRecord; readOnly: boolean; viewLink?: string }> {
    const link = isViewToken(ref) ? await this.deps.store.viewLinks.find(hashViewToken(ref)) : undefined;
    if (link === null) throw errors.boardNotFound();
    const record = await this.boards.requireLive(link?.boardId ?? ref);
    const holder = link ? { ...caller, viewLink: link.id } : caller;
    return { record, readOnly: this.socketReadOnly(record, holder), ...(link && { viewLink: link.id }) };
  }

  /**
   * Whether a socket whose client presents its key (or a view link) is
   * read-only on a board as `record` stands; throws when it may not even read.
   */
  socketReadOnly(record: BoardRecord, holder: KeyHolder): boolean {
    this.deps.access.requireAccess(record, 'read', holder);
    if (holder.viewLink !== undefined) return true;
    return record.lockMode !== null && !this.deps.access.checkKey(record, holder);
  }

  /** Swaps a board's lock, in one unit with its answer, if nobody changed it since `record` was read (else 409). */
  private async swapLock<T>(unit: Unit<T>, record: BoardRecord, lock: Lock | null, answer: T): Promise<T> {
    await unit(record.id, (tx) => {
      tx.swapLock(record.id, lock, record.lockVersion);
      tx.answer(answer);
    });
    this.deps.events.lockChanged(record.id);
    return answer;
  }

  private async admitLockOperation(boardId: string, caller: Caller): Promise<BoardRecord> {
    if (isViewToken(boardId)) await this.boards.boardOf(boardId, 'write'); // a token never touches a lock
    this.deps.access.admitLockOperation(caller);
    this.deps.access.admitBoardRequest(boardId, caller);
    return this.boards.requireLive(boardId);
  }
}
