/**
 * Who listens to which board over MCP (a 2025 session's subscriptions, a
 * 2026-07-28 listen stream), with one watch per board. A board's changes reach
 * its listeners; a lock change on it, set here or on another instance, checks
 * each listener again with the key it presented, as open sockets are checked
 * (host/access/socket-access.ts), and one that may no longer read is refused
 * before it is told of any change made after the lock. A listener may name
 * the board by a view token: it is watched under the board's own id once the
 * token is found, checked with its link (a revoked link refuses it), and
 * told of changes by the token it named.
 */
import type { KeyHolder } from '../../host/access/access.js';
import { SocketAccess } from '../../host/access/socket-access.js';
import type { Boards } from '../../host/boards/boards.js';
import type { BoardEvents, BoardSignal } from '../../host/events/board-events.js';
import { isViewToken } from '../../schema/index.js';

export type ListenerHooks<L> = {
  /** Whose key a listener presented for a board, and from which address. */
  holder(listener: L, boardId: string): KeyHolder;
  /** The board's burst of changes settled (or it was erased): tell these listeners. */
  changed(boardId: string, listeners: ReadonlySet<L>): void;
  /** The listener may no longer read the board (`error` says why): it must stop listening to it. */
  refused(listener: L, boardId: string, error: unknown): void;
};

type Board<L> = {
  listeners: Set<L>;
  unwatch: () => void;
  /** The board's own id (a token's until it is found) and the view link it was named by, if any. */
  boardId: string;
  viewLink?: string;
  /** Settles once the checks begun so far are done: a change waits for it, so a refused listener hears nothing more. */
  checked: Promise<void>;
};

export class BoardListeners<L> {
  private readonly boards = new Map<string, Board<L>>();
  private readonly access: SocketAccess;
  private readonly events: BoardEvents;
  private readonly deps: { boards: Boards; events: BoardEvents };

  constructor(
    deps: { boards: Boards; events: BoardEvents },
    private readonly hooks: ListenerHooks<L>,
  ) {
    this.access = new SocketAccess(deps);
    this.events = deps.events;
    this.deps = deps;
  }

  /**
   * Adds a listener to a board whose read check it passed. It is checked once
   * more now: that check may have read the record before a lock change this
   * watch was not yet there to hear.
   */
  add(boardId: string, listener: L): void {
    let board = this.boards.get(boardId);
    if (!board) {
      board = { listeners: new Set(), unwatch: () => {}, checked: Promise.resolve(), boardId };
      this.boards.set(boardId, board);
      if (isViewToken(boardId)) board.checked = this.watchToken(boardId, board);
      else board.unwatch = this.events.watch(boardId, (signal) => this.heard(boardId, signal));
    }
    board.listeners.add(listener);
    this.check(boardId, board, [listener]);
  }

  /** Watches the board a token names; one that names nothing stays unwatched, and its check refuses its listeners. */
  private async watchToken(token: string, board: Board<L>): Promise<void> {
    const link = await this.deps.boards.viewLinks.find(token).catch(() => null);
    if (!link || this.boards.get(token) !== board) return;
    board.boardId = link.boardId;
    board.viewLink = link.id;
    board.unwatch = this.events.watch(link.boardId, (signal) => this.heard(token, signal));
  }

  remove(boardId: string, listener: L): void {
    const board = this.boards.get(boardId);
    if (!board?.listeners.delete(listener) || board.listeners.size > 0) return;
    board.unwatch();
    this.boards.delete(boardId);
  }

  private heard(boardId: string, signal: BoardSignal): void {
    const board = this.boards.get(boardId);
    if (!board) return;
    switch (signal) {
      case 'settled':
      case 'erased':
        void board.checked.then(() => {
          if (board.listeners.size > 0) this.hooks.changed(boardId, board.listeners);
        });
        return;
      case 'lockChanged':
        this.check(boardId, board, [...board.listeners]);
        return;
      case 'closing':
        return;
      default: {
        const unknown: never = signal;
        return unknown;
      }
    }
  }

  /** Checks listeners against the board's record as it stands, after the checks already under way. */
  private check(boardId: string, board: Board<L>, listeners: L[]): void {
    board.checked = board.checked
      .then(() =>
        this.access.recheck(board.boardId, listeners, (listener) => ({
          ...this.hooks.holder(listener, boardId),
          ...(board.viewLink !== undefined && { viewLink: board.viewLink }),
        })),
      )
      .then((verdicts) => {
        for (const [listener, verdict] of verdicts)
          if (!verdict.admitted && board.listeners.has(listener)) this.hooks.refused(listener, boardId, verdict.error);
      })
      .catch(() => {}); // a verdict is never thrown: this keeps the chain for the next check
  }
}
