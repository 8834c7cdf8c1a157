/** The Pen tool: a press draws a freehand stroke. */
import type { DrawContext } from '../../context.js';
import { panOrResize } from '../press.js';
import type { Gesture, Press, Tool } from '../state.js';
import { Drawing } from './drawing.js';

export const PenTool: Tool = {
  name: 'pen',
  onPointerDown: (ctx: DrawContext, press: Press): Gesture | null =>
    panOrResize(ctx, press) ?? new Drawing(ctx, press.world),
};
