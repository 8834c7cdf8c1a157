/**
 * The `?` overlay: every shortcut of the board kind on screen. The draw tools'
 * keys come from the toolbar's own list, so a tool added there is listed here;
 * the other keys are written out, as draw/keyboard.ts, draw/pointer.ts and the
 * kanban handle them.
 */
import { TOOLS } from './draw/toolbar.js';
import { dialog, h, isTyping } from './ui.js';

type Shortcut = [keys: string, what: string];

const DRAW: Shortcut[] = [
  ['Space + drag, middle button, H', 'Pan'],
  ['Arrow keys', 'Pan (nothing selected) or nudge the selection by 1 px'],
  ['Shift + arrow keys', 'Nudge the selection by 10 px'],
  ['Ctrl + wheel, pinch, + / −', 'Zoom'],
  ['0', 'Fit the board'],
  ['Click, Shift + click', 'Select, add to the selection'],
  ['Drag on empty canvas (Select tool), Shift + drag', 'Selection box'],
  ['Ctrl + A', 'Select every item'],
  ['Tab, Shift + Tab (on the canvas)', 'Select and focus the next or previous item; Escape goes back to the canvas'],
  ['Ctrl + C / Ctrl + X / Ctrl + V', 'Copy, cut, paste (also between boards)'],
  ['Ctrl + D', 'Duplicate the selection'],
  ['Delete, Backspace', 'Delete the selection'],
  ['Double-click, Enter', 'Edit a text (double-click on empty canvas makes one)'],
  ['Escape, Ctrl + Enter', 'Finish editing; Escape also drops the selection and picks Select'],
  ['Y (over a text)', 'Post-it on and off'],
  ['Ctrl + Z', 'Undo your own edits'],
  ['Ctrl + Shift + Z, Ctrl + Y', 'Redo'],
];

const TODO: Shortcut[] = [
  ['Enter (in “Add a card…”)', 'Add the card and stay ready for the next'],
  ['Tab', 'Move between cards and controls'],
  ['Enter (on a card)', 'Open its editor; Enter there saves'],
  ['Alt + ← / →', 'Move the focused card to the previous or next column'],
  ['Alt + ↑ / ↓', 'Move the focused card up or down'],
  ['Escape', 'Leave a field, close a dialog'],
  ['Ctrl + Z', 'Undo your own edits'],
  ['Ctrl + Shift + Z, Ctrl + Y', 'Redo'],
];

const ALWAYS: Shortcut[] = [
  ['?', 'This list'],
  ['Escape', 'Close it'],
];

/** The shortcuts of a board kind, in the overlay's order. */
export function shortcuts(mode: 'draw' | 'todo'): { title: string; rows: Shortcut[] }[] {
  if (mode === 'todo')
    return [
      { title: 'Todo board', rows: TODO },
      { title: 'Everywhere', rows: ALWAYS },
    ];
  const tools: Shortcut[] = TOOLS.map(({ label, key }) => [key.toUpperCase(), `${label} tool`]);
  return [
    { title: 'Tools', rows: tools },
    { title: 'Canvas', rows: DRAW },
    { title: 'Everywhere', rows: ALWAYS },
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

/** Listens for `?` on the document while a board of `mode()` is open (not while typing or in a dialog); returns what stops it. */
export function bindHelpKey(mode: () => 'draw' | 'todo'): () => void {
  const onKey = (event: KeyboardEvent) => {
    if (
      event.key !== '?' ||
      event.ctrlKey ||
      event.metaKey ||
      event.altKey ||
      isTyping(event.target) ||
      document.querySelector('dialog[open]')
    )
      return;
    event.preventDefault();
    void showHelp(mode());
  };
  document.addEventListener('keydown', onKey);
  return () => document.removeEventListener('keydown', onKey);
}
