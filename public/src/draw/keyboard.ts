/**
 * Keyboard and clipboard input of the draw canvas. Listened for on the whole
 * document, so that keys work without first clicking the canvas; keys meant for
 * a text field or an open dialog are left to it.
 */
import { upsertLink, upsertText } from '../../../server/board/draw.js';
import { isTyping } from '../ui.js';
import type { DrawContext } from './context.js';
import { uploadImages } from './images.js';
import { asUrl } from './markup.js';
import { TOOLS } from './toolbar.js';
import { round } from './view.js';

/** How far an arrow key pans, in screen pixels. */
const ARROW_PAN_PX = 60;

/** Binds keydown, keyup and paste on the document; returns what unbinds them. */
export function bindKeyboard(ctx: DrawContext): () => void {
  const onPaste = (event: ClipboardEvent) => paste(ctx, event);
  const onKey = (event: KeyboardEvent) => key(ctx, event);
  const onKeyUp = (event: KeyboardEvent) => {
    if (event.key === ' ') ctx.input.spaceDown = false;
  };
  document.addEventListener('paste', onPaste);
  document.addEventListener('keydown', onKey);
  document.addEventListener('keyup', onKeyUp);
  return () => {
    document.removeEventListener('paste', onPaste);
    document.removeEventListener('keydown', onKey);
    document.removeEventListener('keyup', onKeyUp);
  };
}

/** Pasted images are uploaded, a pasted URL becomes a link and other text a text, at the centre of the view. */
function paste(ctx: DrawContext, event: ClipboardEvent): void {
  if (!ctx.editable() || ctx.editing.editor || isTyping(event.target)) return;
  const files = [...(event.clipboardData?.files ?? [])].filter((file) => file.type.startsWith('image/'));
  const at = ctx.view.centre();
  if (files.length) {
    event.preventDefault();
    uploadImages(ctx.session.boardId, files, at);
    return;
  }
  const text = event.clipboardData?.getData('text/plain') ?? '';
  const url = asUrl(text);
  if (url) {
    event.preventDefault();
    ctx.session.write((w) => upsertLink(w, { x: round(at.x), y: round(at.y), url }));
  } else if (text.trim()) {
    event.preventDefault();
    ctx.session.write((w) => upsertText(w, { x: round(at.x), y: round(at.y), content: text }));
  }
}

/** Viewing keys work on every board; the ones that change it only where the person may edit. */
function key(ctx: DrawContext, event: KeyboardEvent): void {
  if (isTyping(event.target) || document.querySelector('dialog[open]')) return;
  const { view, layer, session, editing } = ctx;
  const { selection } = layer;
  const mod = event.ctrlKey || event.metaKey;
  if (event.key === ' ') ctx.input.spaceDown = true;
  if (event.key === '+' || event.key === '=') return view.zoomStep(1);
  if (event.key === '-') return view.zoomStep(-1);
  if (event.key === '0') return view.fit();
  const arrows: Record<string, [number, number]> = { ArrowLeft: [ARROW_PAN_PX, 0], ArrowRight: [-ARROW_PAN_PX, 0], ArrowUp: [0, ARROW_PAN_PX], ArrowDown: [0, -ARROW_PAN_PX] };
  if (arrows[event.key] && !selection.size) {
    event.preventDefault();
    return view.panBy(...arrows[event.key]);
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
  if (event.key.toLowerCase() === 'y' && hovered && layer.kindOf(hovered) === 'texts') return editing.togglePostit(hovered);
  const tool = TOOLS.find((entry) => entry.key === event.key.toLowerCase());
  if (tool) ctx.toolbar.setTool(tool.tool);
}
