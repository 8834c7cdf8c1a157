/** Where Alt+arrows take a card (actions/todo.ts): the same domain move a drop makes (moveTask). */
import type { TodoView } from '../../../board/reads/todo-view.js';
import { between } from './drag.js';

/**
 * Alt+Left/Right takes the card to the neighbouring column of its row, at the
 * same place among the cards shown; Alt+Up/Down swaps it with the card shown
 * above or below. `shown` are the ids the filter lets through; null: no move.
 */
export function moveByKey(
  view: TodoView,
  shown: ReadonlySet<string>,
  taskId: string,
  columnStep: number,
  rowStep: number,
): { column_id: string; sort: number } | null {
  const task = view.tasks.find((t) => t.id === taskId);
  const from = task && view.columns.find((column) => column.id === task.column_id);
  if (!task || !from) return null;
  const row = view.columns.filter((column) => column.lane === from.lane);
  const target = row[row.indexOf(from) + columnStep];
  if (!target) return null;
  const others = view.tasks.filter((t) => t.column_id === target.id && t.id !== task.id);
  const visible = others.filter((t) => shown.has(t.id));
  let index: number; // the place among the visible cards of the target column
  if (columnStep) {
    const sameColumn = view.tasks.filter((t) => t.column_id === from.id && shown.has(t.id));
    index = Math.min(
      sameColumn.findIndex((t) => t.id === task.id),
      visible.length,
    );
  } else {
    const here = view.tasks
      .filter((t) => t.column_id === from.id && shown.has(t.id))
      .findIndex((t) => t.id === task.id);
    index = here + rowStep;
    if (index < 0 || index > visible.length) return null;
  }
  // Between the visible neighbours, and next to them in the full column (hidden cards keep their places).
  const next = visible[index];
  const nextAt = next ? others.indexOf(next) : others.length;
  return { column_id: target.id, sort: between(others[nextAt - 1]?.sort, next?.sort) };
}
