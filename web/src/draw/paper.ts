import { h } from '../ui.js';

/**
 * An invisible sheet under the items, covering every item's position with a
 * wide margin. Chromium splits a sparse composited layer (items far apart over
 * a large area) into one layer per cluster of items, hundreds on a full board,
 * which makes every frame's commit and hit test slow; a layer painted over
 * its whole area stays one, which the compositor pans and zooms without
 * painting. Its colour is one 255th opaque: painted, yet no pixel changes.
 * It grows in steps, so a drag does not repaint it.
 */
export class Paper {
  readonly element: HTMLElement = h('div.paper', { 'aria-hidden': 'true' });
  private area: { left: number; top: number; right: number; bottom: number } | null = null;

  /** Grows the sheet, if needed, to cover an item at (x, y). */
  cover(x: number, y: number): void {
    const area = this.area;
    if (
      area &&
      x >= area.left + PAPER_MARGIN &&
      x <= area.right - PAPER_MARGIN &&
      y >= area.top + PAPER_MARGIN &&
      y <= area.bottom - PAPER_MARGIN
    )
      return;
    const step = (value: number, round: (v: number) => number) => round(value / PAPER_STEP) * PAPER_STEP;
    const next = {
      left: step(Math.min(area?.left ?? Infinity, x - PAPER_MARGIN), Math.floor),
      top: step(Math.min(area?.top ?? Infinity, y - PAPER_MARGIN), Math.floor),
      right: step(Math.max(area?.right ?? -Infinity, x + PAPER_MARGIN), Math.ceil),
      bottom: step(Math.max(area?.bottom ?? -Infinity, y + PAPER_MARGIN), Math.ceil),
    };
    this.area = next;
    Object.assign(this.element.style, {
      left: `${next.left}px`,
      top: `${next.top}px`,
      width: `${next.right - next.left}px`,
      height: `${next.bottom - next.top}px`,
    });
  }
}

/** How far the sheet reaches past an item's position (wider than the widest text), and the step it grows by. */
const PAPER_MARGIN = 4096;
const PAPER_STEP = 4096;
