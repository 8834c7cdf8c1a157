/**
 * Keyboard and clipboard input of the draw canvas. Listened for on the whole
 * document, so that keys work without first clicking the canvas; keys meant for
 * a text field or an open dialog are left to it.
 */
import { isTyping } from '../ui.js';
import { bindClipboard, duplicateSelection } from './clipboard.js';
import type { DrawContext } from './context.js';
import { nudgeSelection } from './pointer.js';
import { bindExport } from './export.js';
import { focusedItem, ItemFocus } from './item-focus.js';
import { TOOLS } from './toolbar.js';

/** How far an arrow key pans, in screen pixels. */
const ARROW_PAN_PX = 60;

/** Binds keydown and keyup on the document, and the clipboard (clipboard.ts) and export (export.ts); returns what unbinds them. */
export function bindKeyboard(ctx: DrawContext): () => void {
  const unbindClipboard = bindClipboard(ctx);
  const unbindExport = bindExport(ctx);
  const focus = new ItemFocus(ctx);
  const onKey = (event: KeyboardEvent) => key(ctx, focus, event);
  const onKeyUp = (event: KeyboardEvent) => {
    if (event.key === ' ') ctx.input.spaceDown = false;
  };
  document.addEventListener('keydown', onKey);
  document.addEventListener('keyup', onKeyUp);
  return () => {
    unbindClipboard();
    unbindExport();
    document.removeEventListener('keydown', onKey);
    document.removeEventListener('keyup', onKeyUp);
  };
}

/** Viewing keys work on every board; the ones that change it only where the person may edit. */
function key(ctx: DrawContext, focus: ItemFocus, event: KeyboardEvent): void {
  if (isTyping(event.target) || document.querySelector('dialog[open]')) return;
  const { view, layer, session, editing } = ctx;
  const { selection } = layer;
  const mod = event.ctrlKey || event.metaKey;
  const onCanvas = event.target === ctx.viewport || focusedItem(ctx) !== null;
  if (event.key === 'Tab' && onCanvas && !mod && !event.altKey) {
    if (focus.next(event.shiftKey)) event.preventDefault();
    return;
  }
  // Escape, and a Delete that takes the focused item away, leave the focus on the canvas rather than on the page.
  if (
    focusedItem(ctx) &&
    (event.key === 'Escape' || ((event.key === 'Delete' || event.key === 'Backspace') && ctx.editable()))
  )
    ctx.viewport.focus({ preventScroll: true });
  if (event.key === ' ') ctx.input.spaceDown = true;
  if (event.key === '+' || event.key === '=') return view.zoomStep(1);
  if (event.key === '-') return view.zoomStep(-1);
  if (event.key === '0') return view.fit();
  const arrows: Record<string, [number, number]> = {
    ArrowLeft: [ARROW_PAN_PX, 0],
    ArrowRight: [-ARROW_PAN_PX, 0],
    ArrowUp: [0, ARROW_PAN_PX],
    ArrowDown: [0, -ARROW_PAN_PX],
  };
  if (arrows[event.key] && !selection.size) {
    event.preventDefault();
    return view.panBy(...arrows[event.key]);
  }
  if (arrows[event.key] && ctx.editable() && !mod) {
    // With a selection, arrow keys nudge it instead: 1 px, or 10 px with Shift (tldraw, Excalidraw).
    event.preventDefault();
    const [dx, dy] = arrows[event.key].map((pan) => -Math.sign(pan) * (event.shiftKey ? 10 : 1));
    return nudgeSelection(ctx, dx, dy);
  }
  if (mod && event.key.toLowerCase() === 'a') {
    // Select all means every item on the canvas, never the text of the page around it.
    event.preventDefault();
    if (ctx.editable()) selection.select([...layer.elements.keys()]);
    return;
  }
  if (!ctx.editable()) return;
  if (mod && event.key.toLowerCase() === 'z') {
    event.preventDefault();
    return void (event.shiftKey ? session.undo.redo() : session.undo.undo());
  }
  if (mod && event.key.toLowerCase() === 'y') {
    event.preventDefault();
    return void session.undo.redo();
  }
  if (mod && event.key.toLowerCase() === 'd') {
    event.preventDefault(); // not the browser's bookmark
    return duplicateSelection(ctx);
  }
  if (mod) return;
  if (event.key === 'Delete' || event.key === 'Backspace') return editing.deleteSelection();
  if (event.key === 'Escape') {
    selection.select([]);
    return ctx.toolbar.setTool('select');
  }
  if (event.key === 'Enter' && selection.size === 1) {
    event.preventDefault();
    return editing.edit([...selection][0]);
  }
  const hovered = ctx.input.hovered;
  if (event.key.toLowerCase() === 'y' && hovered && layer.kindOf(hovered) === 'texts')
    return editing.togglePostit(hovered);
  const tool = TOOLS.find((entry) => entry.key === event.key.toLowerCase());
  if (tool) ctx.toolbar.setTool(tool.tool);
}
