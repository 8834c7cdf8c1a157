/** The Hand tool: every press pans. */
import type { DrawContext } from '../../context.js';
import { panOrResize } from '../press.js';
import type { Gesture, Press, Tool } from '../state.js';

export const HandTool: Tool = {
  name: 'hand',
  onPointerDown: (ctx: DrawContext, press: Press): Gesture | null => panOrResize(ctx, press, true) ?? null,
};
