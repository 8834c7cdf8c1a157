/**
 * The `?` overlay: every shortcut of the board kind on screen, generated from
 * the actions each board kind registers (actions/), so an action added there,
 * a tool among them, is listed here.
 */
import type { Action } from './actions/action.js';
import { ALWAYS } from './actions/app.js';
import { DRAW_ACTIONS } from './actions/draw.js';
import { bindActions } from './actions/keys.js';
import { TODO_ACTIONS } from './actions/todo.js';
import { dialog, h } from './ui.js';

type Shortcut = [keys: string, what: string];

/** The help's rows of a list of actions, in its order. */
const rows = (actions: readonly Action<never>[]): Shortcut[] =>
  actions.filter((action) => !action.hidden).map((action) => [action.keys, action.label]);

/** The shortcuts of a board kind, in the overlay's order. */
export function shortcuts(mode: 'draw' | 'todo'): { title: string; rows: Shortcut[] }[] {
  if (mode === 'todo')
    return [
      { title: 'Todo board', rows: rows(TODO_ACTIONS) },
      { title: 'Everywhere', rows: rows(ALWAYS) },
    ];
  return [
    { title: 'Tools', rows: rows(DRAW_ACTIONS.tools) },
    { title: 'Canvas', rows: rows(DRAW_ACTIONS.canvas) },
    { title: 'Arrange', rows: rows(DRAW_ACTIONS.arrange) },
    { title: 'Everywhere', rows: rows(ALWAYS) },
  ];
}

let open = false;

/** Shows the overlay; Escape or Close ends it. */
export async function showHelp(mode: 'draw' | 'todo'): Promise<void> {
  if (open) return;
  open = true;
  const sections = shortcuts(mode).map(({ title, rows }) =>
    h(
      'section',
      {},
      h('h3', {}, title),
      h(
        'table.shortcuts',
        {},
        h(
          'tbody',
          {},
          ...rows.map(([keys, what]) => h('tr', {}, h('th', { scope: 'row' }, h('kbd', {}, keys)), h('td', {}, what))),
        ),
      ),
    ),
  );
  try {
    await dialog(
      'Keyboard shortcuts',
      [h('div.help', { 'data-testid': 'help' }, ...sections)],
      [{ label: 'Close', value: 'ok', primary: true }],
    );
  } finally {
    open = false;
  }
}

/** The header's `?` button. */
export function helpButton(mode: () => 'draw' | 'todo'): HTMLButtonElement {
  return h(
    'button.help-toggle',
    {
      type: 'button',
      'aria-label': 'Keyboard shortcuts',
      title: 'Keyboard shortcuts (?)',
      'aria-keyshortcuts': 'Shift+?',
      'data-testid': 'help-button',
      onclick: () => void showHelp(mode()),
    },
    '?',
  );
}

/** Makes `?` show the overlay while a board of `mode()` is open (not while typing or in a dialog); returns what stops it. */
export function bindHelpKey(mode: () => 'draw' | 'todo'): () => void {
  return bindActions(ALWAYS, { showHelp: () => void showHelp(mode()) });
}
