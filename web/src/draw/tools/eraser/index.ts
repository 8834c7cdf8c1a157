/** The Eraser tool: a drag erases the items it passes over (arrows.ts says which touch counts). */
import type { DrawContext } from '../../context.js';
import { panOrResize } from '../press.js';
import type { Gesture, Press, Tool } from '../state.js';
import { Erasing } from './erasing.js';

export const EraserTool: Tool = {
  name: 'eraser',
  onPointerDown: (ctx: DrawContext, press: Press): Gesture | null =>
    panOrResize(ctx, press) ?? new Erasing(ctx, press.world),
};
