/** Panning: a drag that moves the view (the Hand tool, Space, the middle button, a finger on empty canvas). */
import type { DrawContext } from '../../context.js';
import { Brushing } from '../select/brushing.js';
import type { Gesture, GestureState, Screen } from '../state.js';

export class Panning implements GestureState {
  readonly kind = 'pan';

  constructor(
    private readonly ctx: DrawContext,
    private last: Screen,
  ) {}

  onPointerMove(event: PointerEvent): void {
    this.ctx.view.panBy(event.clientX - this.last.x, event.clientY - this.last.y);
    this.last = { x: event.clientX, y: event.clientY };
  }

  onPointerUp(): void {}

  onCancel(): void {}

  /** A finger held still on empty canvas (Select tool) draws a selection box from where it went down instead. */
  onLongPress(at: Screen): Gesture | null {
    const { ctx } = this;
    if (!ctx.editable() || ctx.toolbar.tool !== 'select') return this;
    const rect = ctx.viewport.getBoundingClientRect();
    Object.assign(ctx.rubber.style, {
      left: `${at.x - rect.left}px`,
      top: `${at.y - rect.top}px`,
      width: '0px',
      height: '0px',
    });
    ctx.rubber.hidden = false;
    return new Brushing(ctx, at, false);
  }
}
