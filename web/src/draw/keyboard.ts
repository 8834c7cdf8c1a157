/**
 * Keyboard and clipboard input of the draw canvas: its actions (actions/draw.ts)
 * answer key presses on the whole document, so that keys work without first
 * clicking the canvas; the clipboard (clipboard.ts) and export (export.ts) bind
 * their own events.
 */

import { type CanvasKeys, drawActions } from '../actions/draw.js';
import { EXPORT_ACTIONS } from '../actions/export.js';
import { bindActions } from '../actions/keys.js';
import { bindClipboard } from './clipboard.js';
import { bindExport } from './export.js';

/** Binds the canvas's actions and Space's release, the clipboard and export; returns what unbinds them. */
export function bindKeyboard(ctx: CanvasKeys): () => void {
  const unbindClipboard = bindClipboard(ctx);
  const unbindExport = bindExport(ctx, EXPORT_ACTIONS);
  const unbindActions = bindActions(drawActions, ctx);
  const onKeyUp = (event: KeyboardEvent) => {
    if (event.key === ' ') ctx.input.spaceDown = false;
  };
  document.addEventListener('keyup', onKeyUp);
  return () => {
    unbindClipboard();
    unbindExport();
    unbindActions();
    document.removeEventListener('keyup', onKeyUp);
  };
}
