/** The Rectangle, Ellipse, Diamond and Frame tools: a drag draws one (Shift: 1:1), a click makes one of the default size. */
import type { DrawContext } from '../../context.js';
import type { ShapeToolName } from '../names.js';
import { panOrResize } from '../press.js';
import type { Gesture, Press, Tool } from '../state.js';
import { ShapeDrawing } from './drawing.js';

class ShapeTool implements Tool {
  constructor(readonly name: ShapeToolName | 'frame') {}

  onPointerDown(ctx: DrawContext, press: Press): Gesture | null {
    return panOrResize(ctx, press) ?? new ShapeDrawing(ctx, this.name, press.world);
  }
}

export const RectangleTool = new ShapeTool('rectangle');
export const EllipseTool = new ShapeTool('ellipse');
export const DiamondTool = new ShapeTool('diamond');
export const FrameTool = new ShapeTool('frame');
