/**
 * Board change events, driven by the documents' own update events so that a
 * change from any surface reaches every listener by one path. A burst of
 * changes to a board is aggregated into one `settled` signal once the board has
 * been quiet for the notification debounce (and at least every max wait while
 * it never is); MCP notifications and long polls listen to that.
 *
 * Services that serve every board (history, the Yjs adapter's lock re-check)
 * listen to the instance; a listener that serves one board (a long poll, a
 * JSON-channel room, an MCP subscription) watches that board and hears
 * nothing of the others.
 */
import { EventEmitter } from 'node:events';
import { type afterLoadDocumentPayload, type Extension, isTransactionOrigin } from '@hocuspocus/server';
import { NOTIFICATION_DEBOUNCE_MS, NOTIFICATION_MAX_WAIT_MS } from '../../schema/index.js';

export type BoardEventMap = {
  /** Every accepted change, with the transaction origin. */
  change: [boardId: string, origin: unknown];
  /** The board was erased. */
  erased: [boardId: string];
  /** The board's lock changed: open connections must be checked again. */
  lockChanged: [boardId: string];
};

/** What a board's watchers hear: its burst settled, it was erased, its lock changed, or the server is closing. */
export type BoardSignal = 'settled' | 'erased' | 'lockChanged' | 'closing';
export type BoardWatcher = (signal: BoardSignal) => void;

type Burst = { timer: NodeJS.Timeout; startedAt: number; lastAt: number };

/** The origin of changes another instance made (applied here by @hocuspocus/extension-redis, or only announced). */
export const RELAYED_ORIGIN = { source: 'redis' } as const;

/** Whether a change was made on another instance (which journalled and announced it). */
export function isRelayed(origin: unknown): boolean {
  return isTransactionOrigin(origin) && origin.source === 'redis';
}

/** Carries this instance's events to the others (the shared setup); none in the embedded one. */
export interface EventRelay {
  changed(boardId: string): void;
  erased(boardId: string): void;
  lockChanged(boardId: string): void;
}

export class BoardEvents extends EventEmitter<BoardEventMap> {
  private readonly bursts = new Map<string, Burst>();
  /** Per board, who watches it: a signal reaches its own board's watchers only. */
  private readonly watchers = new Map<string, Set<BoardWatcher>>();
  private lockChangeCount = 0;
  relay: EventRelay | undefined;
  /**
   * Awaited when a burst settles, before `settled` is emitted: history records
   * the settled state here, so that whoever `settled` wakes (long polls, MCP
   * notifications) is given an ETag that is already a version. It must not throw.
   */
  settling: ((boardId: string) => Promise<void>) | undefined;

  constructor(
    private readonly debounceMs = NOTIFICATION_DEBOUNCE_MS,
    private readonly maxWaitMs = NOTIFICATION_MAX_WAIT_MS,
  ) {
    super();
    this.setMaxListeners(0);
  }

  /** Calls `watcher` with every signal of the board; returns the unwatch. */
  watch(boardId: string, watcher: BoardWatcher): () => void {
    let set = this.watchers.get(boardId);
    if (!set) this.watchers.set(boardId, (set = new Set()));
    set.add(watcher);
    return () => {
      set.delete(watcher);
      if (set.size === 0 && this.watchers.get(boardId) === set) this.watchers.delete(boardId);
    };
  }

  /** The boards someone here watches (long polls, JSON-channel rooms, MCP subscriptions). */
  watchedBoards(): string[] {
    return [...this.watchers.keys()];
  }

  private signal(boardId: string, signal: BoardSignal): void {
    const set = this.watchers.get(boardId);
    if (set) for (const watcher of [...set]) watcher(signal);
  }

  /** A Hocuspocus extension that reports every update of every loaded board document. */
  extension(): Extension {
    return {
      afterLoadDocument: async ({ document, documentName }: afterLoadDocumentPayload) => {
        document.on('update', (_update: Uint8Array, origin: unknown) => this.changed(documentName, origin));
      },
    };
  }

  changed(boardId: string, origin: unknown): void {
    if (!isRelayed(origin)) this.relay?.changed(boardId);
    this.emit('change', boardId, origin);
    const now = Date.now();
    const burst = this.bursts.get(boardId);
    // A burst's timer is not moved on every update (a write would pay a timer each): it checks when it fires.
    if (burst) burst.lastAt = now;
    else this.bursts.set(boardId, { timer: this.wake(boardId, this.debounceMs), startedAt: now, lastAt: now });
  }

  private wake(boardId: string, delay: number): NodeJS.Timeout {
    const timer = setTimeout(() => this.due(boardId), delay);
    timer.unref();
    return timer;
  }

  /** Settles the burst once the board has been quiet for the debounce, or the burst is as old as the max wait. */
  private due(boardId: string): void {
    const burst = this.bursts.get(boardId);
    if (!burst) return;
    const settlesAt = Math.min(burst.lastAt + this.debounceMs, burst.startedAt + this.maxWaitMs);
    const now = Date.now();
    if (now < settlesAt) {
      burst.timer = this.wake(boardId, settlesAt - now);
      return;
    }
    this.bursts.delete(boardId);
    void this.settle(boardId);
  }

  private async settle(boardId: string): Promise<void> {
    await this.settling?.(boardId).catch(() => {});
    this.signal(boardId, 'settled');
  }

  /** The board was erased here (`relayed`: on another instance). */
  erased(boardId: string, relayed = false): void {
    if (!relayed) this.relay?.erased(boardId);
    const burst = this.bursts.get(boardId);
    if (burst) clearTimeout(burst.timer);
    this.bursts.delete(boardId);
    this.emit('erased', boardId);
    this.signal(boardId, 'erased');
  }

  /** The board's lock changed here (`relayed`: on another instance). */
  lockChanged(boardId: string, relayed = false): void {
    if (!relayed) this.relay?.lockChanged(boardId);
    this.lockChangeCount += 1;
    this.emit('lockChanged', boardId);
    this.signal(boardId, 'lockChanged');
  }

  /**
   * Lock changes heard so far, on any board. A socket is admitted against the
   * record as it was read, and listens for lock changes only once it is set up:
   * one whose admission spans a change (the count moved) checks its access again.
   */
  get lockChanges(): number {
    return this.lockChangeCount;
  }

  /**
   * Resolves after the next settled burst of the board (`updated`), at once when
   * it is erased, or after `timeoutMs` (`timedOut`).
   */
  nextUpdate(
    boardId: string,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<{ updated: boolean; timedOut: boolean }> {
    return new Promise((resolve) => {
      const finish = (updated: boolean, timedOut: boolean) => {
        clearTimeout(timer);
        unwatch();
        signal?.removeEventListener('abort', onAbort);
        resolve({ updated, timedOut });
      };
      const unwatch = this.watch(boardId, (heard) => {
        switch (heard) {
          case 'settled':
          case 'erased':
            return finish(true, false);
          case 'closing':
            return finish(false, true);
          case 'lockChanged':
            return; // the answer is read with the caller's access when it comes
          default: {
            const unknown: never = heard;
            return unknown;
          }
        }
      });
      const onAbort = () => finish(false, false);
      const timer = setTimeout(() => finish(false, true), timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Answers every waiting long poll and stops the timers. */
  close(): void {
    for (const boardId of [...this.watchers.keys()]) this.signal(boardId, 'closing');
    this.watchers.clear();
    for (const burst of this.bursts.values()) clearTimeout(burst.timer);
    this.bursts.clear();
    this.removeAllListeners();
  }
}
