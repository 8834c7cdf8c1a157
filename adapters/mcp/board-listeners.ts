/**
 * Who listens to which board over MCP (a 2025 session's subscriptions, a
 * 2026-07-28 listen stream), with one watch per board. A board's changes reach
 * its listeners; a lock change on it, set here or on another instance, checks
 * each listener again with the key it presented, as open sockets are checked
 * (host/access/socket-access.ts), and one that may no longer read is refused
 * before it is told of any change made after the lock.
 */
import type { KeyHolder } from '../../host/access/access.js';
import { SocketAccess } from '../../host/access/socket-access.js';
import type { Boards } from '../../host/boards/boards.js';
import type { BoardEvents, BoardSignal } from '../../host/events/board-events.js';

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
  /** Settles once the checks begun so far are done: a change waits for it, so a refused listener hears nothing more. */
  checked: Promise<void>;
};

export class BoardListeners<L> {
  private readonly boards = new Map<string, Board<L>>();
  private readonly access: SocketAccess;
  private readonly events: BoardEvents;

  constructor(
    deps: { boards: Boards; events: BoardEvents },
    private readonly hooks: ListenerHooks<L>,
  ) {
    this.access = new SocketAccess(deps);
    this.events = deps.events;
  }

  /**
   * Adds a listener to a board whose read check it passed. It is checked once
   * more now: that check may have read the record before a lock change this
   * watch was not yet there to hear.
   */
  add(boardId: string, listener: L): void {
    let board = this.boards.get(boardId);
    if (!board) {
      const unwatch = this.events.watch(boardId, (signal) => this.heard(boardId, signal));
      this.boards.set(boardId, (board = { listeners: new Set(), unwatch, checked: Promise.resolve() }));
    }
    board.listeners.add(listener);
    this.check(boardId, board, [listener]);
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
      .then(() => this.access.recheck(boardId, listeners, (listener) => this.hooks.holder(listener, boardId)))
      .then((verdicts) => {
        for (const [listener, verdict] of verdicts)
          if (!verdict.admitted && board.listeners.has(listener)) this.hooks.refused(listener, boardId, verdict.error);
      })
      .catch(() => {}); // a verdict is never thrown: this keeps the chain for the next check
  }
}
