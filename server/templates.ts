/** The starter columns of todo boards (decisions.md). */
import type { Template } from '../schema/index.js';
import type { BoardWrite } from './board-write.js';
import type { ColumnItem } from './document-model.js';

export const TEMPLATE_COLUMNS: Record<Template, readonly string[]> = {
  kanban: ['To do', 'In progress', 'Done'],
  sprint: ['Backlog', 'Sprint', 'Review', 'Done'],
  bugs: ['Triage', 'Confirmed', 'In progress', 'Fixed'],
};

/** Replaces the board's columns with the template's, in lane 0, authored `system:template`. */
export function seedTemplate(w: BoardWrite, template: Template): ColumnItem[] {
  w.maps.columns.clear();
  return TEMPLATE_COLUMNS[template].map((title, index) => {
    const column: ColumnItem = { id: w.newId(), title, sort: index, lane: 0, author: 'system:template', last_updated: w.now };
    w.maps.columns.set(column.id, column);
    return column;
  });
}
