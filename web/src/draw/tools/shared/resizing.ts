/** Resizing: a drag of the selected item's handle, written as it goes (once a frame, one undo step). */
import type { DrawContext } from '../../context.js';
import type { LiveWrite } from '../../live.js';
import { type Resize, resizeWrite } from '../../transform.js';
import type { World } from '../../view.js';
import type { GestureState } from '../state.js';

export class Resizing implements GestureState {
  readonly kind = 'resize';

  constructor(
    private readonly ctx: DrawContext,
    private readonly resize: Resize,
    private readonly live: LiveWrite,
  ) {}

  onPointerMove(event: PointerEvent, world: World): void {
    const write = resizeWrite(this.ctx.layer, this.resize, world, event.shiftKey);
    if (write) this.live.set(write);
  }

  onPointerUp(event: PointerEvent): void {
    const { layer, view } = this.ctx;
    const write =
      event.type === 'pointerup'
        ? resizeWrite(layer, this.resize, view.toWorld(event.clientX, event.clientY), event.shiftKey)
        : null;
    this.live.end(write ?? undefined);
  }

  onCancel(): void {
    this.live.end();
  }
}
