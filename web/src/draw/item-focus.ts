/**
 * Keyboard focus on the canvas's items, as tldraw does it: with the canvas
 * focused, Tab and Shift+Tab select and focus the next and previous item in
 * reading order and bring it into view. Items are never tab stops of their own
 * (tabindex -1, render.ts), so nothing here runs until a Tab is pressed.
 */
import type { DrawContext } from './context.js';
import type { Box } from './view.js';

/** How far from the canvas's edges an item brought into view lies, in screen pixels. */
const REVEAL_MARGIN_PX = 40;

/**
 * Item ids top to bottom, left to right: an item whose top lies above the
 * middle of the first item of a row is in that row, so items roughly side by
 * side read left to right even when their tops differ by a few pixels.
 */
export function readingOrder(boxes: Iterable<[string, Box]>): string[] {
  const byTop = [...boxes].sort(([, a], [, b]) => a.y - b.y || a.x - b.x);
  const order: string[] = [];
  for (let start = 0; start < byTop.length; ) {
    const [, first] = byTop[start];
    let end = start + 1;
    while (end < byTop.length && byTop[end][1].y < first.y + first.height / 2) end++;
    const row = byTop.slice(start, end).sort(([, a], [, b]) => a.x - b.x);
    for (const [id] of row) order.push(id);
    start = end;
  }
  return order;
}

/** The id of the item holding the focus, or null (the canvas itself, or anything outside it). */
export function focusedItem(ctx: DrawContext): string | null {
  const active = document.activeElement;
  return active && active !== ctx.viewport && ctx.viewport.contains(active) ? ctx.layer.itemAt(active) : null;
}

/**
 * Moves the focus between items. The reading order is worked out at the first
 * Tab after a change and kept until the next one: a change only drops it.
 */
export class ItemFocus {
  private order: string[] | null = null;

  constructor(private readonly ctx: DrawContext) {
    ctx.layer.onChange(() => {
      this.order = null;
    });
  }

  /**
   * Moves the focus to the next (or previous) item after the focused one, else
   * after the one selected item. Returns false where the focus should leave the
   * canvas as Tab does (past the last item, or backwards from the canvas), so
   * the keyboard is never trapped in it.
   */
  next(backwards: boolean): boolean {
    const { layer, viewport } = this.ctx;
    const current = focusedItem(this.ctx);
    const from = current ?? (layer.selection.size === 1 ? [...layer.selection][0] : null);
    if (!from && backwards) return false;
    this.order ??= readingOrder(this.boxes());
    const next = from === null ? 0 : this.order.indexOf(from) + (backwards ? -1 : 1);
    if (next < 0 && current) {
      layer.selection.select([]);
      viewport.focus({ preventScroll: true });
      return true;
    }
    if (next < 0 || next >= this.order.length) return false;
    const id = this.order[next];
    const element = layer.elements.get(id);
    if (!element) return false;
    if (this.ctx.editable()) layer.selection.select([id]);
    reveal(this.ctx, element);
    element.focus({ preventScroll: true });
    return true;
  }

  private *boxes(): Iterable<[string, Box]> {
    for (const [id, element] of this.ctx.layer.elements) {
      const box = this.ctx.layer.boxOf(element);
      if (box) yield [id, box];
    }
  }
}

/** Pans the least that brings `element` wholly into the canvas (its top-left first, when it is larger). */
function reveal(ctx: DrawContext, element: Element): void {
  const box = element.getBoundingClientRect();
  const frame = ctx.viewport.getBoundingClientRect();
  const shift = (start: number, end: number, min: number, max: number) =>
    start < min ? min - start : end > max ? Math.max(max - end, min - start) : 0;
  const margin = Math.min(REVEAL_MARGIN_PX, frame.width / 8, frame.height / 8);
  const dx = shift(box.left, box.right, frame.left + margin, frame.right - margin);
  const dy = shift(box.top, box.bottom, frame.top + margin, frame.bottom - margin);
  if (dx || dy) ctx.view.panBy(dx, dy);
}
