/** Erasing: the items the eraser passes over are marked, and go in one write on release (one undo brings them back). */
import { eraseItem } from '../../../../../board/mutations/draw.js';
import { ERASER_RADIUS_PX, itemsCrossed, strokesCrossed } from '../../arrows.js';
import type { DrawContext } from '../../context.js';
import type { World } from '../../view.js';
import type { GestureState } from '../state.js';

export class Erasing implements GestureState {
  readonly kind = 'erase';
  private readonly ids = new Set<string>();

  constructor(
    private readonly ctx: DrawContext,
    private last: World,
  ) {
    this.erase(last);
  }

  /** Marks the items crossed on the way to `world`. */
  private erase(world: World): void {
    const { ctx } = this;
    const radius = ERASER_RADIUS_PX / ctx.view.scale;
    for (const id of [
      ...strokesCrossed(ctx.layer, this.last, world, radius),
      ...itemsCrossed(ctx.layer, this.last, world, radius),
    ]) {
      if (this.ids.has(id)) continue;
      this.ids.add(id);
      ctx.layer.elements.get(id)?.classList.add('erasing');
    }
    this.last = world;
  }

  onPointerMove(_event: PointerEvent, world: World): void {
    this.erase(world);
  }

  onPointerUp(event: PointerEvent): void {
    const { layer, session } = this.ctx;
    this.onCancel();
    const gone = [...this.ids].flatMap((id) => {
      const kind = layer.kindOf(id); // another person may have erased it meanwhile
      return kind ? [{ id, kind }] : [];
    });
    if (event.type === 'pointerup' && gone.length)
      session.write((w) => {
        for (const { id, kind } of gone) eraseItem(w, kind, id);
      });
  }

  onCancel(): void {
    for (const id of this.ids) this.ctx.layer.elements.get(id)?.classList.remove('erasing');
  }
}
