/**
 * The states of the draw canvas's tools, as tldraw has them: a tool is a folder
 * (index.ts says what a press starts with it), and each gesture it can be in is
 * a state of one file that handles the pointer's moves and its release. The
 * pointer handlers (pointer.ts) only pass events to the state under way.
 */
import type { DrawContext } from '../context.js';
import type { World } from '../view.js';
import type { ArrowDrawing } from './arrow/drawing.js';
import type { Erasing } from './eraser/erasing.js';
import type { ToolName } from './names.js';
import type { Drawing } from './pen/drawing.js';
import type { Brushing } from './select/brushing.js';
import type { Translating } from './select/translating.js';
import type { ShapeDrawing } from './shape/drawing.js';
import type { Panning } from './shared/panning.js';
import type { Pinching } from './shared/pinching.js';
import type { Resizing } from './shared/resizing.js';
import type { Scaling } from './shared/scaling.js';
import type { Pointing } from './text/pointing.js';

export type Screen = { x: number; y: number };

/** A gesture under way: what one press (or two fingers) started, until the release. */
export interface GestureState {
  /** Which gesture it is: the union below narrows on it. */
  readonly kind: string;
  /** A pointer moved; `pointers` are every pointer down, in screen coordinates. */
  onPointerMove(event: PointerEvent, world: World, pointers: ReadonlyMap<number, Screen>): void;
  /** The press ended: a release, or the browser's cancel (`event.type`); writes what the gesture made. */
  onPointerUp(event: PointerEvent): void;
  /** A second finger replaced the gesture with a pinch: what it showed goes, what it wrote stays one undo step. */
  onCancel(): void;
  /** A finger held still (touch only, gestures.ts LongPress): the gesture that goes on instead, by default this one. */
  onLongPress?(at: Screen): Gesture | null;
}

/** What a press found: where, on which item, and what was held. */
export type Press = {
  event: PointerEvent;
  world: World;
  /** The item under the press, if any. */
  id: string | null;
  /** On a handle: the selected item's resize handle, or a corner of the selection's box. */
  onHandle: boolean;
  editable: boolean;
  spaceDown: boolean;
};

/** A tool: its name, and the gesture a press with it starts (null: none, the press did its work). */
export interface Tool {
  readonly name: ToolName;
  onPointerDown(ctx: DrawContext, press: Press): Gesture | null;
}

/** Every gesture there is, told apart by `kind`. */
export type Gesture =
  | Panning
  | Pinching
  | Resizing
  | Scaling
  | Translating
  | Brushing
  | Drawing
  | ArrowDrawing
  | Erasing
  | ShapeDrawing
  | Pointing;
