/** Every tool's behaviour by name: the type makes each tool of names.ts have one. */
import type { DoublePress } from '../gestures.js';
import { ArrowTool } from './arrow/index.js';
import { EraserTool } from './eraser/index.js';
import { HandTool } from './hand/index.js';
import type { ToolName } from './names.js';
import { PenTool } from './pen/index.js';
import { SelectTool } from './select/index.js';
import { DiamondTool, EllipseTool, FrameTool, RectangleTool } from './shape/index.js';
import type { Tool } from './state.js';
import { DiagramTool, LinkTool, PostitTool, TextTool } from './text/index.js';

/** The tools of one canvas; `doublePress` is the canvas's own count of presses. */
export function toolStates(doublePress: DoublePress): { readonly [name in ToolName]: Tool } {
  return {
    select: new SelectTool(doublePress),
    hand: HandTool,
    text: TextTool,
    postit: PostitTool,
    diagram: DiagramTool,
    rectangle: RectangleTool,
    ellipse: EllipseTool,
    diamond: DiamondTool,
    frame: FrameTool,
    pen: PenTool,
    arrow: ArrowTool,
    eraser: EraserTool,
    link: LinkTool,
  };
}
