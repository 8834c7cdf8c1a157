/**
 * The one keydown listener of the app. Each open part (the app's `?`, a draw
 * canvas, a kanban) registers its actions with the context they act on; a key
 * press goes to the first action, in registration order, whose keyTest takes
 * it. Keys meant for a text field or an open dialog are left to them.
 */
import { isTyping } from '../ui.js';
import type { Action } from './action.js';

type Keymap = { actions: readonly Action<never>[]; ctx: unknown };

const keymaps: Keymap[] = [];

function onKeyDown(event: KeyboardEvent): void {
  const typing = isTyping(event.target) || document.querySelector('dialog[open]') !== null;
  for (const { actions, ctx } of [...keymaps])
    for (const action of actions as readonly Action<unknown>[]) {
      if (!action.keyTest || (typing && !action.anywhere) || !action.keyTest(event, ctx)) continue;
      action.perform?.(ctx, event);
      if (!action.passThrough) return;
    }
}

/** Makes `actions` answer key presses, acting on `ctx`, until the returned function is called. */
export function bindActions<C>(actions: readonly Action<C>[], ctx: C): () => void {
  const keymap: Keymap = { actions: actions as readonly Action<never>[], ctx };
  if (!keymaps.length) document.addEventListener('keydown', onKeyDown);
  keymaps.push(keymap);
  return () => {
    const at = keymaps.indexOf(keymap);
    if (at >= 0) keymaps.splice(at, 1);
    if (!keymaps.length) document.removeEventListener('keydown', onKeyDown);
  };
}
