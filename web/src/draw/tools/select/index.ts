/**
 * The Select tool: a press on an item selects and drags it (Shift adds it to
 * the selection), a drag on empty canvas draws a selection box, a double press
 * edits a text or starts a new one (as tldraw and Excalidraw do). A finger on
 * empty canvas pans, as in a phone's maps; held still it draws a selection box
 * (Panning.onLongPress). A mouse or pen draws one at once. A press inside a
 * multi-selection's box drags the selection; with Alt, a drag takes a copy.
 */
import type { DrawContext } from '../../context.js';
import type { DoublePress } from '../../gestures.js';
import { panOrResize } from '../press.js';
import type { Gesture, Press, Tool } from '../state.js';
import { Pointing } from '../text/pointing.js';
import { Brushing } from './brushing.js';
import { Translating } from './translating.js';

/** The kinds a double press edits: a text's content, a shape's or a stroke's label, a frame's title. */
const EDITABLE: ReadonlySet<string | null> = new Set(['texts', 'shapes', 'frames', 'strokes']);

export class SelectTool implements Tool {
  readonly name = 'select';

  /** `doublePress` counts presses across gestures: a double click is two of them. */
  constructor(private readonly doublePress: DoublePress) {}

  onPointerDown(ctx: DrawContext, press: Press): Gesture | null {
    const { layer } = ctx;
    const { event, id, world } = press;
    // Empty canvas inside a multi-selection's box is the selection's, as in tldraw: a press there drags it.
    const inBox = !id && !press.onHandle && !event.shiftKey && ctx.box.holds(world);
    const double =
      press.editable && event.button === 0 && !press.spaceDown && !press.onHandle && this.doublePress.press(event, id);
    // Not captured: a phone opens its keyboard only for a focus made in the release's user activation.
    if (double && (id ? EDITABLE.has(layer.kindOf(id)) : !inBox))
      return new Pointing(ctx, world, id ? { edit: id } : { create: (at) => ctx.editing.createText(at, 'text') });
    const touchOnEmpty = !id && !inBox && !press.onHandle && event.pointerType === 'touch';
    if (touchOnEmpty) layer.selection.select([]);
    const first = panOrResize(ctx, press, touchOnEmpty);
    if (first) return first;
    if (inBox) return new Translating(ctx, world, event.altKey);
    if (!id) {
      // A plain drag on empty canvas draws a selection box (tldraw, Excalidraw); Shift adds to the selection.
      if (!event.shiftKey) layer.selection.select([]);
      return new Brushing(ctx, { x: event.clientX, y: event.clientY }, event.shiftKey);
    }
    if (event.shiftKey) {
      layer.selection.select([id], true);
      return null;
    }
    if (!layer.selection.has(id)) layer.selection.select([id]);
    return new Translating(ctx, world, event.altKey);
  }
}
