/** Drawing: a pen stroke, drawn as the pointer moves and written once, on release. */

import { upsertStroke } from '../../../../../board/mutations/draw.js';
import type { Point } from '../../../../../schema/index.js';
import type { DrawContext } from '../../context.js';
import { inkCss, strokePath, svgElement } from '../../render.js';
import { round, type World } from '../../view.js';
import type { GestureState } from '../state.js';

/** The line a pen or arrow shows while it is drawn, in the ink picked. */
export function draftLine(ctx: DrawContext): SVGPolylineElement {
  const line = svgElement('polyline');
  line.setAttribute('class', 'stroke drawing');
  line.style.stroke = inkCss(ctx.toolbar.color);
  ctx.layer.strokes.append(line);
  return line;
}

/** How far the pointer moves, in screen pixels, before the stroke takes another point. */
const POINT_SPACING_PX = 2;

export class Drawing implements GestureState {
  readonly kind = 'pen';
  private readonly points: Point[];
  private readonly line: SVGPolylineElement;

  constructor(
    private readonly ctx: DrawContext,
    start: World,
  ) {
    this.line = draftLine(ctx);
    this.points = [[round(start.x), round(start.y)]];
  }

  onPointerMove(_event: PointerEvent, world: World): void {
    const { points } = this;
    const last = points[points.length - 1];
    if (Math.hypot(world.x - last[0], world.y - last[1]) * this.ctx.view.scale >= POINT_SPACING_PX) {
      points.push([round(world.x), round(world.y)]);
      this.line.setAttribute('points', strokePath(points));
    }
  }

  /** A stroke is written even when the browser cancels the press: what was drawn stays. */
  onPointerUp(): void {
    const { ctx, points } = this;
    this.line.remove();
    if (points.length === 1) points.push([points[0][0] + 1, points[0][1] + 1]);
    ctx.session.write((w) => upsertStroke(w, { points, color: ctx.toolbar.color }));
  }

  onCancel(): void {
    this.line.remove();
  }
}
