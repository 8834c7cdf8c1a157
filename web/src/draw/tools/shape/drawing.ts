/** Drawing a shape or a frame: its box follows the drag (Shift: 1:1), written once on release; a click makes one of the default size. */
import type { FrameItem, ShapeItem } from '../../../../../board/model/document-model.js';
import { upsertFrame, upsertShape } from '../../../../../board/mutations/shapes.js';
import { MIN_FRAME_SIDE_PX, MIN_SHAPE_SIDE_PX } from '../../../../../schema/index.js';
import type { DrawContext } from '../../context.js';
import { renderFrame, renderShape } from '../../shape-render.js';
import { type Box, round, type World } from '../../view.js';
import type { ShapeToolName } from '../names.js';
import type { GestureState } from '../state.js';

/** Shorter than this, in screen pixels, a drag is a click: a shape of the default size, centred on it (tldraw). */
const MIN_DRAG_PX = 4;
/** The size a click makes, in world pixels. */
export const DEFAULT_SIZE = { shape: { width: 160, height: 100 }, frame: { width: 320, height: 200 } };

export class ShapeDrawing implements GestureState {
  readonly kind = 'shape';
  private readonly draft = document.createElement('div');
  private box: Box;
  private dragged = false;

  constructor(
    private readonly ctx: DrawContext,
    private readonly shape: ShapeToolName | 'frame',
    private readonly start: World,
  ) {
    this.box = { ...start, width: 0, height: 0 };
    (shape === 'frame' ? ctx.layer.frameLayer : ctx.layer.shapeLayer).append(this.draft);
    this.draft.hidden = true;
  }

  onPointerMove(event: PointerEvent, world: World): void {
    const { start } = this;
    let [dx, dy] = [world.x - start.x, world.y - start.y];
    if (!this.dragged && Math.hypot(dx, dy) * this.ctx.view.scale < MIN_DRAG_PX) return;
    this.dragged = true;
    if (event.shiftKey) {
      const side = Math.max(Math.abs(dx), Math.abs(dy));
      [dx, dy] = [Math.sign(dx || 1) * side, Math.sign(dy || 1) * side];
    }
    this.box = {
      x: Math.min(start.x, start.x + dx),
      y: Math.min(start.y, start.y + dy),
      width: Math.abs(dx),
      height: Math.abs(dy),
    };
    this.drawDraft();
  }

  private item(): ShapeItem | FrameItem {
    const min = this.shape === 'frame' ? MIN_FRAME_SIDE_PX : MIN_SHAPE_SIDE_PX;
    const size = this.shape === 'frame' ? DEFAULT_SIZE.frame : DEFAULT_SIZE.shape;
    const box = this.dragged
      ? this.box
      : { x: this.start.x - size.width / 2, y: this.start.y - size.height / 2, ...size };
    const common = {
      id: 'draft',
      x: round(box.x),
      y: round(box.y),
      width: round(Math.max(min, box.width)),
      height: round(Math.max(min, box.height)),
      author: '',
      last_updated: '',
    };
    if (this.shape === 'frame') return common;
    return { ...common, shape: this.shape, color: this.ctx.toolbar.color, fill: 'none' };
  }

  private drawDraft(): void {
    const item = this.item();
    if ('shape' in item) renderShape(this.draft, item);
    else renderFrame(this.draft, item);
    this.draft.classList.add('drafting');
    delete this.draft.dataset.id; // not an item: no press or export finds it
    this.draft.hidden = false;
  }

  onPointerUp(event: PointerEvent): void {
    const { ctx } = this;
    this.draft.remove();
    if (event.type !== 'pointerup') return;
    const { id: _id, author: _author, last_updated: _at, ...input } = this.item();
    const made = ctx.session.write((w) => ('shape' in input ? upsertShape(w, input) : upsertFrame(w, input)).id);
    ctx.toolbar.setTool('select');
    if (made) ctx.layer.selection.select([made]);
  }

  onCancel(): void {
    this.draft.remove();
  }
}
