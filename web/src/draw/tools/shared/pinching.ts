/** Pinching: two fingers pan by their midpoint's motion and zoom about where it is now, as on a phone's maps. */
import type { DrawContext } from '../../context.js';
import type { GestureState, Screen } from '../state.js';

const midpoint = (a: Screen, b: Screen): Screen => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });

export class Pinching implements GestureState {
  readonly kind = 'pinch';
  private distance: number;
  private mid: Screen;

  constructor(
    private readonly ctx: DrawContext,
    [a, b]: [Screen, Screen],
  ) {
    this.distance = Math.hypot(a.x - b.x, a.y - b.y);
    this.mid = midpoint(a, b);
  }

  onPointerMove(_event: PointerEvent, _world: unknown, pointers: ReadonlyMap<number, Screen>): void {
    if (pointers.size !== 2) return;
    const [a, b] = [...pointers.values()];
    const distance = Math.hypot(a.x - b.x, a.y - b.y);
    const mid = midpoint(a, b);
    this.ctx.view.panBy(mid.x - this.mid.x, mid.y - this.mid.y);
    this.ctx.view.zoomBy(distance / this.distance, mid);
    this.distance = distance;
    this.mid = mid;
  }

  onPointerUp(): void {}

  onCancel(): void {}
}
