/** The Arrow tool: a drag draws an arrow, bound to the items under its ends. */
import { nodeAt } from '../../arrows.js';
import type { DrawContext } from '../../context.js';
import { panOrResize } from '../press.js';
import type { Gesture, Press, Tool } from '../state.js';
import { ArrowDrawing } from './drawing.js';

export const ArrowTool: Tool = {
  name: 'arrow',
  onPointerDown: (ctx: DrawContext, press: Press): Gesture | null =>
    panOrResize(ctx, press) ?? new ArrowDrawing(ctx, nodeAt(ctx.layer, press.id), press.world),
};
