/**
 * A column: its header (title, count, delete), its colours, its list of cards
 * and the quick entry field. The element and its list stay for as long as the
 * column does; the header, colours and field are drawn again only when the
 * column itself changes, and the count on every render.
 */

import type { ColumnItem, TaskItem } from '../../../board/model/document-model.js';
import { type CardColorName, MAX_TASK_NAME_CHARS, TaskInput } from '../../../schema/index.js';
import { h } from '../ui.js';
import { colourSwatches } from './card-editor.js';
import { isAi } from './cards.js';
import { columnDrag, dropZone } from './drag.js';

/** What a column's controls do; the column itself writes nothing. */
export type ColumnActions = {
  editable: () => boolean;
  /** The column's tasks now (the drop goes between two of them). */
  tasks: (columnId: string) => TaskItem[];
  moveTask: (id: string, columnId: string, sort: number) => void;
  rename: (columnId: string, title: string) => void;
  recolour: (columnId: string, color: CardColorName | null) => void;
  remove: (column: ColumnItem) => void;
  addCard: (columnId: string, name: string) => void;
  /** Opens the card editor on a new card of the column. */
  addTask: (columnId: string) => void;
};

export class ColumnView {
  readonly element: HTMLElement;
  /** The column's cards, in order: filled by the kanban (placeChildren). */
  readonly list: HTMLElement;
  private readonly count = h('span.count');
  private parts: (HTMLElement | null)[] = [];

  constructor(
    columnId: string,
    private readonly actions: ColumnActions,
  ) {
    this.list = h('div.tasks', { 'data-column-id': columnId });
    dropZone(
      this.list,
      actions.editable,
      () => actions.tasks(columnId),
      (id, sort) => actions.moveTask(id, columnId, sort),
    );
    this.element = h('div.column', { 'data-column-id': columnId, 'data-id': columnId }, this.list);
  }

  /** Draws the column's own parts again, for a changed column or a change of who may edit. */
  draw(column: ColumnItem, editable: boolean): void {
    const { actions } = this;
    this.element.className = `column${column.color ? ` c-${column.color}` : ''}${isAi(column.author) ? ' ai' : ''}`;
    const header = editable
      ? h(
          'header',
          {},
          this.grip(column),
          h('input.column-title', {
            value: column.title,
            'aria-label': 'Column title',
            'aria-keyshortcuts': 'Alt+ArrowLeft Alt+ArrowRight',
            onchange: (event: Event) => actions.rename(column.id, (event.target as HTMLInputElement).value),
          }),
          this.count,
          h(
            'button.icon',
            {
              type: 'button',
              title: 'Delete the column and its tasks',
              'aria-label': `Delete column ${column.title}`,
              onclick: () => actions.remove(column),
            },
            '×',
          ),
        )
      : h('header', {}, h('h3', {}, column.title), this.count);
    const colours = editable
      ? colourSwatches(column.color, `Colour of column ${column.title}`, (color) => actions.recolour(column.id, color))
      : null;
    for (const part of this.parts) part?.remove();
    this.parts = [header, colours, editable ? this.quickAdd(column) : null];
    this.list.before(header, ...(colours ? [colours] : []));
    if (this.parts[2]) this.list.after(this.parts[2]);
  }

  /** The handle a column is dragged by to another place or row (Alt+arrows on its title do it by key). */
  private grip(column: ColumnItem): HTMLElement {
    const grip = h(
      'span.column-grip',
      { title: 'Drag to move the column (or Alt+← / → in its title)', 'aria-hidden': 'true' },
      '⠿',
    );
    columnDrag(grip, this.element, column.id);
    return grip;
  }

  /** Shows how many of the column's `total` tasks the filter lets through. */
  counted(visible: number, total: number): void {
    this.count.title = visible === total ? 'tasks' : 'tasks shown of all';
    this.count.textContent = visible === total ? `${total}` : `${visible}/${total}`;
  }

  /** Trello's "Add a card": Enter adds the typed title at the column's end and leaves the field empty and focused for the next. */
  private quickAdd(column: ColumnItem): HTMLElement {
    const field = h('input.quick-add', {
      type: 'text',
      maxlength: MAX_TASK_NAME_CHARS,
      placeholder: 'Add a card…',
      'aria-label': `Add a card to ${column.title}`,
      'data-column-id': column.id,
      enterkeyhint: 'enter',
    });
    field.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') field.blur();
      if (event.key !== 'Enter' || event.isComposing) return;
      event.preventDefault();
      const name = TaskInput.shape.name.safeParse(field.value);
      if (!name.success || !name.data) return;
      field.value = '';
      this.actions.addCard(column.id, name.data);
    });
    return h(
      'div.add-card',
      {},
      field,
      h(
        'button.add-task',
        { type: 'button', title: 'A card with every field', onclick: () => this.actions.addTask(column.id) },
        '+ Task',
      ),
    );
  }
}
