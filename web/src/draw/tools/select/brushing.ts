/** Brushing: the selection box of a drag on empty canvas; on release it selects every item wholly inside. */
import type { DrawContext } from '../../context.js';
import type { GestureState, Screen } from '../state.js';

export class Brushing implements GestureState {
  readonly kind = 'rubber';

  /** `add`: Shift was held, the items inside join the selection. */
  constructor(
    private readonly ctx: DrawContext,
    private readonly start: Screen,
    private readonly add: boolean,
  ) {}

  onPointerMove(event: PointerEvent): void {
    const { ctx, start } = this;
    const rect = ctx.viewport.getBoundingClientRect();
    const [x1, y1, x2, y2] = [start.x, start.y, event.clientX, event.clientY];
    Object.assign(ctx.rubber.style, {
      left: `${Math.min(x1, x2) - rect.left}px`,
      top: `${Math.min(y1, y2) - rect.top}px`,
      width: `${Math.abs(x2 - x1)}px`,
      height: `${Math.abs(y2 - y1)}px`,
    });
    ctx.rubber.hidden = false;
  }

  onPointerUp(event: PointerEvent): void {
    const { layer, view, rubber } = this.ctx;
    rubber.hidden = true;
    const a = view.toWorld(this.start.x, this.start.y);
    const b = view.toWorld(event.clientX, event.clientY);
    const [x1, y1, x2, y2] = [Math.min(a.x, b.x), Math.min(a.y, b.y), Math.max(a.x, b.x), Math.max(a.y, b.y)];
    const inside = [...layer.elements.entries()]
      .filter(([, element]) => {
        const box = layer.boxOf(element);
        return box && box.x >= x1 && box.y >= y1 && box.x + box.width <= x2 && box.y + box.height <= y2;
      })
      .map(([id]) => id);
    layer.selection.select(inside, this.add);
  }

  onCancel(): void {
    this.ctx.rubber.hidden = true;
  }
}
