/** The tools that place an item where they are pressed: a text, a post-it, a frame (a diagram's text) and a link. */
import type { DrawContext } from '../../context.js';
import type { TextVariant } from '../../editing.js';
import type { World } from '../../view.js';
import type { ToolName } from '../names.js';
import { panOrResize } from '../press.js';
import type { Gesture, Press, Tool } from '../state.js';
import { Pointing } from './pointing.js';

/** A tool whose press places an item on release: `create` makes it. */
class PlacingTool implements Tool {
  constructor(
    readonly name: ToolName,
    private readonly create: (ctx: DrawContext, at: World) => void,
  ) {}

  onPointerDown(ctx: DrawContext, press: Press): Gesture | null {
    return panOrResize(ctx, press) ?? new Pointing(ctx, press.world, { create: (at) => this.create(ctx, at) });
  }
}

const textTool = (name: ToolName & TextVariant) => new PlacingTool(name, (ctx, at) => ctx.editing.createText(at, name));

export const TextTool = textTool('text');
export const PostitTool = textTool('postit');
export const DiagramTool = textTool('diagram');
/** A link asks for its address. */
export const LinkTool = new PlacingTool('link', (ctx, at) => void ctx.editing.createLink(at));
