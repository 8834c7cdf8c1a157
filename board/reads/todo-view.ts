/** The kanban of a board in board order (no Node.js dependencies: the browser app uses it too). */
import { DEFAULT_COLUMN_WIDTH_PX } from '../../schema/index.js';
import type { ColumnItem, LaneItem, ReadMaps, TaskItem } from '../model/document-model.js';

export type TodoView = { colWidth: number; columns: ColumnItem[]; tasks: TaskItem[]; lanes: LaneItem[] };

/** Columns by lane then sort; tasks by their column's position then sort; named lanes by index. */
export function todoView(maps: ReadMaps): TodoView {
  const columns = [...maps.columns.values()].sort(
    (a, b) => a.lane - b.lane || a.sort - b.sort || a.id.localeCompare(b.id),
  );
  const position = new Map(columns.map((column, index) => [column.id, index]));
  const tasks = [...maps.tasks.values()].sort(
    (a, b) =>
      (position.get(a.column_id) ?? 0) - (position.get(b.column_id) ?? 0) ||
      a.sort - b.sort ||
      a.id.localeCompare(b.id),
  );
  const lanes = [...maps.lanes.values()].filter((lane) => lane.title !== '').sort((a, b) => a.lane - b.lane);
  const colWidth = (maps.meta.get('colWidth') as number | undefined) ?? DEFAULT_COLUMN_WIDTH_PX;
  return { colWidth, columns, tasks, lanes };
}
