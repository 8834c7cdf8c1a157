/**
 * Dragging cards and columns: a card carries its id, and a column's list takes
 * the drop between the cards above and below the pointer; a column, dragged by
 * its grip, carries its id, and a row takes it between the columns left and
 * right of the pointer.
 */
import type { TaskItem } from '../../../board/model/document-model.js';

const TASK_TYPE = 'text/task-id';
const COLUMN_TYPE = 'text/column-id';

/**
 * The sort that puts item `id` just before `beforeId` among `items` (in their
 * order; `id` itself left out), or after the last for none or one not there.
 */
export function sortBefore(
  items: readonly { id: string; sort: number }[],
  id: string,
  beforeId: string | undefined,
): number {
  const others = items.filter((item) => item.id !== id);
  const found = beforeId === undefined ? -1 : others.findIndex((item) => item.id === beforeId);
  const at = found < 0 ? others.length : found;
  return between(others[at - 1]?.sort, others[at]?.sort);
}

/** The first of `elements` whose middle lies past `at` along `axis`: what a drop there goes before. */
function firstPast(elements: readonly HTMLElement[], at: number, axis: 'x' | 'y'): HTMLElement | undefined {
  return elements.find((element) => {
    const rect = element.getBoundingClientRect();
    return axis === 'x' ? at < rect.left + rect.width / 2 : at < rect.top + rect.height / 2;
  });
}

/** The sort value that puts an item between two neighbours. */
export function between(before: number | undefined, after: number | undefined): number {
  if (before === undefined && after === undefined) return 0;
  if (before === undefined) return (after ?? 0) - 1;
  if (after === undefined) return before + 1;
  return (before + after) / 2;
}

/** Makes a card draggable as its task's id (the card is `draggable` only where the person may edit). */
export function cardDrag(card: HTMLElement, id: string): void {
  card.addEventListener('dragstart', (event) => {
    event.dataTransfer?.setData(TASK_TYPE, id);
    if (event.dataTransfer) event.dataTransfer.effectAllowed = 'move';
    card.classList.add('dragging');
  });
  card.addEventListener('dragend', () => card.classList.remove('dragging'));
}

/**
 * Dropping a card on a column's list puts it between the cards above and below
 * the pointer; `tasks` are the column's tasks now, `move` writes the move. Only
 * while `editable()`: elsewhere the list takes no drop.
 */
export function dropZone(
  list: HTMLElement,
  editable: () => boolean,
  tasks: () => TaskItem[],
  move: (id: string, sort: number) => void,
): void {
  list.addEventListener('dragover', (event) => {
    if (!editable() || !event.dataTransfer?.types.includes(TASK_TYPE)) return;
    event.preventDefault();
    list.classList.add('over');
  });
  list.addEventListener('dragleave', () => list.classList.remove('over'));
  list.addEventListener('drop', (event) => {
    if (!editable()) return;
    event.preventDefault();
    list.classList.remove('over');
    const id = event.dataTransfer?.getData(TASK_TYPE);
    if (id) move(id, sortAt(list, tasks(), id, event.clientY));
  });
}

/**
 * The sort that puts the card `id`, dropped at `clientY` on `list` (a column's
 * cards, `tasks` its tasks), just before the card under the pointer: with a
 * filter on, the cards shown are some of the column's.
 */
export function sortAt(list: HTMLElement, tasks: readonly TaskItem[], id: string, clientY: number): number {
  const cards = [...list.querySelectorAll<HTMLElement>('.task:not(.dragging)')];
  return sortBefore(tasks, id, firstPast(cards, clientY, 'y')?.dataset.id);
}

/** Makes `grip` drag its column (`column`, the element that fades while it is carried). */
export function columnDrag(grip: HTMLElement, column: HTMLElement, id: string): void {
  grip.draggable = true;
  grip.addEventListener('dragstart', (event) => {
    event.dataTransfer?.setData(COLUMN_TYPE, id);
    if (event.dataTransfer) {
      event.dataTransfer.effectAllowed = 'move';
      event.dataTransfer.setDragImage(column, 16, 16);
    }
    column.classList.add('dragging');
  });
  grip.addEventListener('dragend', () => column.classList.remove('dragging'));
}

/**
 * Dropping a column on a row's strip puts it before the column whose middle is
 * right of the pointer (at the end past the last); `move` gets the column and
 * the one it goes before, or null.
 */
export function columnDropZone(
  strip: HTMLElement,
  editable: () => boolean,
  move: (id: string, beforeId: string | null) => void,
): void {
  const carriesColumn = (event: DragEvent) => editable() && event.dataTransfer?.types.includes(COLUMN_TYPE) === true;
  strip.addEventListener('dragover', (event) => {
    if (!carriesColumn(event)) return;
    event.preventDefault();
    strip.classList.add('over');
  });
  strip.addEventListener('dragleave', () => strip.classList.remove('over'));
  strip.addEventListener('drop', (event) => {
    if (!carriesColumn(event)) return;
    event.preventDefault();
    strip.classList.remove('over');
    const id = event.dataTransfer?.getData(COLUMN_TYPE);
    if (!id) return;
    const columns = [...strip.querySelectorAll<HTMLElement>(':scope > .column:not(.dragging)')];
    move(id, firstPast(columns, event.clientX, 'x')?.dataset.columnId ?? null);
  });
}
