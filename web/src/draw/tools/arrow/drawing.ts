/** Drawing an arrow: a straight line from the press, bound to the items it starts and ends on, written on release. */
import { upsertStroke } from '../../../../../board/mutations/draw.js';
import { arrowStroke, type Node, nodeAt } from '../../arrows.js';
import type { DrawContext } from '../../context.js';
import { strokePath } from '../../render.js';
import type { World } from '../../view.js';
import { draftLine } from '../pen/drawing.js';
import type { GestureState } from '../state.js';

/** Shorter than this, in screen pixels, a press is a click and no arrow (unless it joins two items). */
const MIN_ARROW_PX = 4;

export class ArrowDrawing implements GestureState {
  readonly kind = 'arrow';
  private readonly line: SVGPolylineElement;

  /** `from`: the item the arrow starts on, if any. */
  constructor(
    private readonly ctx: DrawContext,
    private readonly from: Node | null,
    private readonly start: World,
  ) {
    this.line = draftLine(ctx);
  }

  onPointerMove(_event: PointerEvent, world: World): void {
    this.line.setAttribute(
      'points',
      strokePath([
        [this.start.x, this.start.y],
        [world.x, world.y],
      ]),
    );
  }

  onPointerUp(event: PointerEvent): void {
    const { ctx, start, from } = this;
    const { layer, view } = ctx;
    this.line.remove();
    if (event.type !== 'pointerup') return;
    const end = view.toWorld(event.clientX, event.clientY);
    const to = nodeAt(layer, layer.itemAt(document.elementFromPoint(event.clientX, event.clientY)));
    const tooShort = Math.hypot(end.x - start.x, end.y - start.y) * view.scale < MIN_ARROW_PX;
    if (tooShort && (!to || to.id === from?.id)) return; // a click is no arrow
    const arrow = arrowStroke(from, start, to, end);
    ctx.session.write((w) => upsertStroke(w, { ...arrow, color: ctx.toolbar.color }));
  }

  onCancel(): void {
    this.line.remove();
  }
}
