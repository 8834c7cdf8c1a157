/** The todo board's actions, in the help dialog's order; a card's keys act on the card that has the focus. */
import type { Action } from './action.js';
import { redo, type UndoContext, undo } from './history.js';

/** What the kanban's actions act on. */
export type TodoKeys = UndoContext & {
  /** Moves a card a column across or a place along (kanban/keys.ts). */
  moveByKey: (taskId: string, columnStep: number, rowStep: number) => void;
  editTask: (taskId: string) => void;
  /** Moves a column `step` places along its row; `title` is what its title field holds (kept with the move). */
  moveColumnByKey: (columnId: string, step: number, title: string) => void;
};

/** The column whose title field a key was pressed in, if any. */
const titleOf = (event: KeyboardEvent): { column: string; title: string } | undefined => {
  const target = event.target;
  if (!(target instanceof HTMLInputElement) || !target.classList.contains('column-title')) return undefined;
  const column = target.closest<HTMLElement>('.column')?.dataset.columnId;
  return column ? { column, title: target.value } : undefined;
};

/** Where Alt+arrow takes a card: the key's direction. */
const MOVE_KEYS: Record<string, [column: number, row: number]> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

/** The card a key was pressed on (the card itself, not a box inside it), if any. */
const cardOf = (event: KeyboardEvent): string | undefined => {
  const target = event.target;
  return target instanceof HTMLElement && target.classList.contains('task') ? target.dataset.id : undefined;
};

/** Alt+arrows of one axis on a card. */
const moveCard = (name: string, label: string, keys: string, across: boolean): Action<TodoKeys> => ({
  name,
  label,
  keys,
  keyTest: (event, ctx) =>
    ctx.editable() &&
    event.altKey &&
    cardOf(event) !== undefined &&
    event.key in MOVE_KEYS &&
    (MOVE_KEYS[event.key][0] !== 0) === across,
  perform: (ctx, event) => {
    const id = event && cardOf(event);
    if (!event || !id) return;
    event.preventDefault();
    ctx.moveByKey(id, ...MOVE_KEYS[event.key]);
  },
});

export const TODO_ACTIONS: readonly Action<TodoKeys>[] = [
  { name: 'quick-add', label: 'Add the card and stay ready for the next', keys: 'Enter (in “Add a card…”)' }, // the field's own key (kanban/lanes.ts)
  { name: 'tab', label: 'Move between cards and controls', keys: 'Tab' }, // the browser's
  {
    name: 'edit-card',
    label: 'Open its editor; Enter there saves',
    keys: 'Enter (on a card)',
    keyTest: (event, ctx) => ctx.editable() && event.key === 'Enter' && cardOf(event) !== undefined,
    perform: (ctx, event) => {
      const id = event && cardOf(event);
      if (!event || !id) return;
      // Otherwise this Enter goes on to the dialog's name field, which has focus by then, and submits it.
      event.preventDefault();
      ctx.editTask(id);
    },
  },
  moveCard('move-card-across', 'Move the focused card to the previous or next column', 'Alt + ← / →', true),
  moveCard('move-card-along', 'Move the focused card up or down', 'Alt + ↑ / ↓', false),
  {
    name: 'move-column',
    label: 'Move the column whose title is focused to the left or right',
    keys: 'Alt + ← / → (in a column title), or drag its ⠿',
    anywhere: true, // a key of the title field
    keyTest: (event, ctx) =>
      ctx.editable() &&
      event.altKey &&
      (event.key === 'ArrowLeft' || event.key === 'ArrowRight') &&
      titleOf(event) !== undefined,
    perform: (ctx, event) => {
      const field = event && titleOf(event);
      if (!event || !field) return;
      event.preventDefault();
      ctx.moveColumnByKey(field.column, event.key === 'ArrowLeft' ? -1 : 1, field.title);
    },
  },
  { name: 'leave', label: 'Leave a field, close a dialog', keys: 'Escape' }, // the fields' and dialogs' own
  undo,
  redo,
];
