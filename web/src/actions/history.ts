/** Undo and redo of this person's own edits: the same two actions on every board kind. */
import type { BoardSession } from '../session.js';
import { type Action, modKey } from './action.js';

/** What undo needs of a board: its session, and whether the person may edit it. */
export type UndoContext = { session: BoardSession; editable: () => boolean };

const key = (event: KeyboardEvent) => event.key.toLowerCase();

export const undo: Action<UndoContext> = {
  name: 'undo',
  label: 'Undo your own edits',
  keys: 'Ctrl + Z',
  shortcut: 'Ctrl+Z',
  keyTest: (event, ctx) => ctx.editable() && modKey(event) && key(event) === 'z' && !event.shiftKey,
  perform: (ctx, event) => {
    event?.preventDefault();
    ctx.session.undo.undo();
  },
};

export const redo: Action<UndoContext> = {
  name: 'redo',
  label: 'Redo',
  keys: 'Ctrl + Shift + Z, Ctrl + Y',
  shortcut: 'Ctrl+Shift+Z',
  keyTest: (event, ctx) =>
    ctx.editable() && modKey(event) && (key(event) === 'y' || (key(event) === 'z' && event.shiftKey)),
  perform: (ctx, event) => {
    event?.preventDefault();
    ctx.session.undo.redo();
  },
};
