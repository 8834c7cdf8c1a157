/**
 * Pointer and wheel gestures of the draw canvas that the browser's own events
 * get wrong for a canvas: double click and double tap, a finger's long press,
 * Ctrl+wheel zoom steps, the middle button's Linux paste, the long press's
 * context menu, and presses that would move focus.
 */

/** Longest gap between the two presses of a double click or tap. */
const DOUBLE_PRESS_MS = 500;
/** How far apart the two presses may be: a finger is less precise than a mouse. */
const SLOP_PX = { mouse: 6, pen: 12, touch: 24 } as const;

type Press = { at: number; x: number; y: number; pointerType: string; target: string | null };

/**
 * Recognises a double click or a double tap from pointer presses. The canvas
 * captures the pointer on press, so the browser's `dblclick` lands on the
 * canvas rather than on the item, and a phone sends none for a double tap:
 * counting presses works the same for mouse, pen and touch.
 */
export class DoublePress {
  private last: Press | null = null;

  /** Feeds a primary press on `target` (an item id, or null for empty canvas); true when it completes a double press. */
  press(event: PointerEvent, target: string | null): boolean {
    const last = this.last;
    const double =
      !!last &&
      event.timeStamp - last.at <= DOUBLE_PRESS_MS &&
      last.pointerType === event.pointerType &&
      last.target === target &&
      this.near(last, event);
    this.last = double
      ? null
      : { at: event.timeStamp, x: event.clientX, y: event.clientY, pointerType: event.pointerType, target };
    return double;
  }

  /** A press of another button (a right-click's menu) comes between: the next press starts afresh, as a browser's dblclick does. */
  forget(): void {
    this.last = null;
  }

  /** A press that turns into a drag is no click. */
  drag(event: PointerEvent): void {
    if (this.last && !this.near(this.last, event)) this.last = null;
  }

  private near(press: Press, event: PointerEvent): boolean {
    const slop = SLOP_PX[event.pointerType as keyof typeof SLOP_PX] ?? SLOP_PX.mouse;
    return Math.hypot(event.clientX - press.x, event.clientY - press.y) <= slop;
  }
}

/** A mouse wheel notch is 100 px of deltaY (Chrome, Safari); one zooms 1.1×. */
const ZOOM_PER_PX = Math.log(1.1) / 100;
/** Firefox reports lines (3 a notch) or pages; these turn them into pixels. */
const LINE_PX = 33;
const PAGE_PX = 800;

/**
 * The zoom factor of a Ctrl/⌘+wheel event: exp(-deltaY·k), so a mouse notch
 * zooms about 1.1× and the small deltas of a trackpad pinch (which arrive as
 * Ctrl+wheel) zoom a little each, smoothly. Being exponential, the zoom of a
 * gesture does not depend on how the browser splits or coalesces its events.
 */
export function wheelZoomFactor(event: WheelEvent): number {
  const unit =
    event.deltaMode === WheelEvent.DOM_DELTA_LINE
      ? LINE_PX
      : event.deltaMode === WheelEvent.DOM_DELTA_PAGE
        ? PAGE_PX
        : 1;
  return Math.exp(-event.deltaY * unit * ZOOM_PER_PX);
}

/**
 * Cancels the browser's own actions for presses on the canvas, which manages
 * focus and panning itself. A mousedown would focus the canvas and so close an
 * editor that a double press has just opened (on a phone the compatibility
 * mousedown comes after the tap), and would start selecting item text. A middle
 * press would paste the primary selection on Linux, or start autoscroll. The
 * text editor keeps its defaults: a press there places the caret.
 */
export function cancelPressDefaults(canvas: HTMLElement, isEditor: (target: EventTarget | null) => boolean): void {
  const middle = (event: MouseEvent) => {
    if (event.button === 1) event.preventDefault();
  };
  // Chrome pastes while handling the release: a cancelled press alone does not stop it (tested in Chromium 156).
  for (const type of ['pointerdown', 'pointerup', 'auxclick'] as const) canvas.addEventListener(type, middle);
  canvas.addEventListener('mousedown', (event) => {
    if (!isEditor(event.target)) event.preventDefault();
  });
  // A held finger is a long press of ours (a selection, our menu: pointer.ts), not the browser's context menu.
  canvas.addEventListener('contextmenu', (event) => {
    if ((event as PointerEvent).pointerType === 'touch' && !isEditor(event.target)) event.preventDefault();
  });
}

/** How long a finger is held still before its press is a long press (as Android and iOS wait). */
export const LONG_PRESS_MS = 500;
/** How far a held finger may drift and still be held still. */
const LONG_PRESS_SLOP_PX = 8;

/** Whether a pointer has drifted from a held point beyond the long press's slop. */
export function movedFrom(at: { x: number; y: number }, event: PointerEvent): boolean {
  return Math.hypot(event.clientX - at.x, event.clientY - at.y) > LONG_PRESS_SLOP_PX;
}

/**
 * Recognises a long press of one finger: held within a few pixels of where it
 * went down for LONG_PRESS_MS. A move beyond the slop, a release or a second
 * finger cancels it; `fire` runs once, from a timer, while the finger is still
 * down. A mouse and a pen never long-press: they have Shift and the selection box.
 */
export class LongPress {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private pointerId = -1;
  private at = { x: 0, y: 0 };

  /** Starts timing a touch press; any other press only cancels the one timed. */
  press(event: PointerEvent, fire: (at: { x: number; y: number }) => void): void {
    this.cancel();
    if (event.pointerType !== 'touch') return;
    this.pointerId = event.pointerId;
    this.at = { x: event.clientX, y: event.clientY };
    this.timer = setTimeout(() => {
      this.timer = null;
      fire(this.at);
    }, LONG_PRESS_MS);
  }

  /** A finger that drifts beyond the slop is dragging, not holding. */
  move(event: PointerEvent): void {
    if (this.timer && event.pointerId === this.pointerId && movedFrom(this.at, event)) this.cancel();
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
