/** The kanban's toolbar: the shared column width, undo and redo, a new row, and the exports. */
import { MAX_COLUMN_WIDTH_PX, MAX_LANES, MIN_COLUMN_WIDTH_PX } from '../../../schema/index.js';
import { redo, undo } from '../actions/history.js';
import { h } from '../ui.js';

export type KanbanToolbarActions = {
  boardId: string;
  setColumnWidth: (width: number) => void;
  undo: () => void;
  redo: () => void;
  /** Adds a row of columns below the last. */
  addRow: () => void;
};

/** The toolbar's controls for a board with `lanes` rows and columns `colWidth` wide; the exports alone for a person who may only look. */
export function kanbanToolbar(
  actions: KanbanToolbarActions,
  colWidth: number,
  lanes: number,
  editable: boolean,
): HTMLElement[] {
  const { boardId } = actions;
  const exports = [
    h('a', { href: `/api/boards/${boardId}/tasks.csv?download=1`, download: '' }, 'Export CSV'),
    h('a', { href: `/api/boards/${boardId}/tasks.md?download=1`, download: '' }, 'Export Markdown'),
  ];
  if (!editable) return exports;
  return [
    h(
      'label.column-width',
      {},
      'Column width ',
      h('input', {
        type: 'range',
        min: MIN_COLUMN_WIDTH_PX,
        max: MAX_COLUMN_WIDTH_PX,
        value: colWidth,
        'aria-label': 'Column width',
        onchange: (event: Event) => actions.setColumnWidth(Number((event.target as HTMLInputElement).value)),
      }),
    ),
    h('button', { type: 'button', onclick: () => actions.undo(), title: `Undo (${undo.shortcut})` }, 'Undo'),
    h('button', { type: 'button', onclick: () => actions.redo(), title: `Redo (${redo.shortcut})` }, 'Redo'),
    ...(lanes < MAX_LANES ? [h('button', { type: 'button', onclick: () => actions.addRow() }, 'New row')] : []),
    ...exports,
  ];
}
