/**
 * Scaling: a drag of a corner of the selection box, written as it goes (once a
 * frame, or less often for a large selection, as a move is: live.ts; one
 * undo step). The box follows the pointer at once; the items follow each write.
 */
import type { DrawContext } from '../../context.js';
import { LiveWrite } from '../../live.js';
import { factors, type Scale, scaledBox, scaleWrite } from '../../selection-scale.js';
import type { World } from '../../view.js';
import type { GestureState } from '../state.js';

export class Scaling implements GestureState {
  readonly kind = 'scale';
  private readonly live: LiveWrite;

  constructor(
    private readonly ctx: DrawContext,
    private readonly scale: Scale,
  ) {
    this.live = LiveWrite.ofItems(ctx.session, scale.items.length);
  }

  onPointerMove(event: PointerEvent, world: World): void {
    const by = factors(this.scale, world, event.shiftKey);
    this.ctx.box.pin(scaledBox(this.scale.box, by));
    this.live.set(scaleWrite(this.scale, by));
  }

  onPointerUp(event: PointerEvent): void {
    const world = this.ctx.view.toWorld(event.clientX, event.clientY);
    const moved = world.x !== this.scale.start.x || world.y !== this.scale.start.y;
    this.live.end(
      event.type === 'pointerup' && moved
        ? scaleWrite(this.scale, factors(this.scale, world, event.shiftKey))
        : undefined,
    );
    this.ctx.box.unpin();
  }

  onCancel(): void {
    this.live.end();
    this.ctx.box.unpin();
  }
}
