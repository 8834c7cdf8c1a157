/** Server-side task filtering for MCP query_tasks. */
import type { TaskItem } from '../model/document-model.js';

export type TaskQuery = {
  assignee?: string;
  priority?: 'H' | 'M' | 'L' | null;
  done?: boolean;
  overdue?: boolean;
  due_before?: string;
  due_after?: string;
  color?: string | null;
};

/** The calendar day of a due date (date or date-time), for day-level comparisons. */
const day = (dueDate: string) => dueDate.slice(0, 10);

/**
 * Tasks matching every given filter: assignee (case-insensitive, spaces around it ignored), priority,
 * done, overdue (due before `today` and not done), and a due window
 * (`due_before`/`due_after`, exclusive, by calendar day). Tasks without a due
 * date never match a due filter.
 */
export function queryTasks(tasks: TaskItem[], query: TaskQuery, today: string): TaskItem[] {
  return tasks.filter((task) => {
    // The schema trims the query and new values; the browser's editor and older boards may still hold spaces.
    if (query.assignee !== undefined && (task.assignee ?? '').trim().toLowerCase() !== query.assignee.toLowerCase())
      return false;
    if (query.priority !== undefined && (task.priority ?? null) !== query.priority) return false;
    if (query.color !== undefined && (task.color ?? null) !== query.color) return false;
    if (query.done !== undefined && task.done !== query.done) return false;
    const due = task.due_date === undefined ? undefined : day(task.due_date);
    if (query.overdue !== undefined) {
      const overdue = due !== undefined && due < today && !task.done;
      if (overdue !== query.overdue) return false;
    }
    if (query.due_before !== undefined && (due === undefined || due >= day(query.due_before))) return false;
    if (query.due_after !== undefined && (due === undefined || due <= day(query.due_after))) return false;
    return true;
  });
}
