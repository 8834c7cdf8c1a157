/**
 * A gesture that writes while it lasts (a drag, a resize): the people watching
 * see the item follow the pointer rather than jump on the drop, and the person
 * making it undoes it as one step.
 */
import type { BoardWrite } from '../../../server/board/board-write.js';
import type { BoardSession } from '../session.js';

/**
 * Writes the latest state of a gesture at most once per animation frame,
 * through the same domain mutation its release uses. Every write between
 * `constructor` and `end` lands in one undo step: `stopCapturing` closes the
 * step before and after, and an infinite capture timeout keeps a pause in the
 * middle of the drag (longer than the manager's 400 ms) from splitting it.
 */
export class LiveWrite {
  private pending: ((w: BoardWrite) => void) | null = null;
  private frame = 0;
  private readonly timeout: number;
  private wrote = false;

  constructor(private readonly session: BoardSession) {
    const { undo } = session;
    this.timeout = undo.captureTimeout;
    undo.stopCapturing();
    undo.captureTimeout = Infinity;
  }

  /** Whether anything has been written yet. */
  get written(): boolean {
    return this.wrote;
  }

  /** Schedules `mutate` for the next frame, in place of whatever was scheduled and not yet written. */
  set(mutate: (w: BoardWrite) => void): void {
    this.pending = mutate;
    this.frame ||= requestAnimationFrame(() => this.flush());
  }

  /** Writes the scheduled state now, if any. */
  flush(): void {
    cancelAnimationFrame(this.frame);
    this.frame = 0;
    const mutate = this.pending;
    this.pending = null;
    if (!mutate) return;
    this.wrote = true;
    this.session.write(mutate);
  }

  /** Writes `last` (the release's state) or what is still scheduled, and closes the undo step. */
  end(last?: (w: BoardWrite) => void): void {
    if (last) this.pending = last;
    this.flush();
    const { undo } = this.session;
    undo.captureTimeout = this.timeout;
    undo.stopCapturing();
  }
}
