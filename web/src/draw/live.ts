/**
 * A gesture that writes while it lasts (a drag, a resize, typing a text): the
 * people watching see the item follow the pointer or the keys rather than jump
 * at the end, and the person making it undoes it as one step.
 */
import type { BoardWrite } from '../../../board/mutations/board-write.js';
import type { BoardSession } from '../session.js';

/**
 * A gesture of more items than this (a drag, a scale) is shared every
 * LARGE_DRAG_EVERY_MS instead of every frame: the person dragging sees it move
 * by the lifted layer's transform alone, and a write of every item of a full
 * board takes several frames (docs/performance.md). Its release writes where
 * it ends, as always.
 */
const LIVE_EVERY_FRAME_ITEMS = 200;
const LARGE_DRAG_EVERY_MS = 500;

/**
 * Writes the latest state of a gesture at most once per animation frame (or
 * once per `everyMs`), through the same domain mutation its end uses. Every
 * write between `constructor` and `end` lands in one undo step:
 * `stopCapturing` closes the step before and after, and an infinite capture
 * timeout keeps the writes in the middle (each its own step otherwise) from
 * splitting it.
 */
export class LiveWrite {
  private pending: ((w: BoardWrite) => unknown) | null = null;
  private cancel: (() => void) | null = null;
  private readonly timeout: number;
  private wrote = false;

  constructor(
    private readonly session: BoardSession,
    private readonly everyMs?: number,
  ) {
    const { undo } = session;
    this.timeout = undo.captureTimeout;
    undo.stopCapturing();
    undo.captureTimeout = Infinity;
  }

  /** The live write of a gesture of `items` items: once a frame, or every LARGE_DRAG_EVERY_MS for many. */
  static ofItems(session: BoardSession, items: number): LiveWrite {
    return new LiveWrite(session, items > LIVE_EVERY_FRAME_ITEMS ? LARGE_DRAG_EVERY_MS : undefined);
  }

  /** Whether anything has been written yet. */
  get written(): boolean {
    return this.wrote;
  }

  /** Schedules `mutate` for the next frame (or `everyMs`), in place of whatever was scheduled and not yet written. */
  set(mutate: (w: BoardWrite) => unknown): void {
    this.pending = mutate;
    if (this.cancel) return;
    if (this.everyMs === undefined) {
      const frame = requestAnimationFrame(() => this.flush());
      this.cancel = () => cancelAnimationFrame(frame);
    } else {
      const timer = setTimeout(() => this.flush(), this.everyMs);
      this.cancel = () => clearTimeout(timer);
    }
  }

  /** Writes the scheduled state now, if any; returns what its mutation returned (undefined when it was refused). */
  flush(): unknown {
    this.cancel?.();
    this.cancel = null;
    const mutate = this.pending;
    this.pending = null;
    if (!mutate) return undefined;
    this.wrote = true;
    return this.session.write(mutate);
  }

  /** Writes `last` (the release's state) or what is still scheduled, and closes the undo step. */
  end(last?: (w: BoardWrite) => unknown): void {
    if (last) this.pending = last;
    this.flush();
    const { undo } = this.session;
    undo.captureTimeout = this.timeout;
    undo.stopCapturing();
  }
}
