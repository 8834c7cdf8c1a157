/**
 * The live lock re-check for every kind of socket (the JSON channel and Yjs
 * providers alike) and every MCP listener of a board (a 2025 session's
 * subscription, a 2026-07-28 listen stream). A lock set or lifted, here or on
 * another instance, applies to them at once: each is checked again against
 * the board's record as it stands, and its adapter acts on the verdict on its
 * own wire.
 */
import { errors } from '../../board/model/errors.js';
import type { BoardRecord } from '../../board/model/record.js';
import type { Boards } from '../boards/boards.js';
import type { BoardEvents } from '../events/board-events.js';
import type { KeyHolder } from './access.js';

/** What a socket may do now: read only or read and write, or nothing (refused, with the error that says why). */
export type SocketVerdict = { admitted: true; readOnly: boolean } | { admitted: false; error: unknown };

export class SocketAccess {
  constructor(private readonly deps: { boards: Boards; events: BoardEvents }) {}

  /** The lock changes counted so far: keep it from before the admission read the record. */
  mark(): number {
    return this.deps.events.lockChanges;
  }

  /** True when a lock changed between `mark()` and now, before the socket listened: it must check itself once. */
  changedSince(mark: number): boolean {
    return this.deps.events.lockChanges !== mark;
  }

  /** Calls `listener` with the board id of every lock change (relayed ones included); returns the unsubscribe. */
  onLockChanged(listener: (boardId: string) => void): () => void {
    this.deps.events.on('lockChanged', listener);
    return () => this.deps.events.off('lockChanged', listener);
  }

  /**
   * Checks a board's open sockets again, with one registry read for them
   * all, as the admission did (existence, the `all` lock's key, the `write`
   * lock's read-only), and one read of its view links for those opened with
   * one (a revoked link reads nothing more): the verdict for each socket, in order.
   */
  async recheck<S>(
    boardId: string,
    sockets: readonly S[],
    holderOf: (socket: S) => KeyHolder,
  ): Promise<[S, SocketVerdict][]> {
    if (sockets.length === 0) return [];
    let record: BoardRecord;
    let liveLinks: Set<string> | undefined;
    try {
      record = await this.deps.boards.requireLive(boardId);
      if (sockets.some((socket) => holderOf(socket).viewLink !== undefined))
        liveLinks = await this.deps.boards.viewLinks.liveIds(boardId);
    } catch (error) {
      return sockets.map((socket) => [socket, { admitted: false, error }]);
    }
    return sockets.map((socket): [S, SocketVerdict] => {
      try {
        const holder = holderOf(socket);
        if (holder.viewLink !== undefined && !liveLinks?.has(holder.viewLink)) throw errors.boardNotFound();
        return [socket, { admitted: true, readOnly: this.deps.boards.socketReadOnly(record, holder) }];
      } catch (error) {
        return [socket, { admitted: false, error }];
      }
    });
  }
}
