/**
 * The kanban's filter bar: assignee, priority, done, overdue and free text.
 * The structured filters are the server's own task query (board/task-query,
 * the function behind MCP query_tasks), so a filter here shows exactly the
 * tasks query_tasks answers for it; free text is the browser's own addition
 * (query_tasks has none) and narrows that answer by name and description.
 */
import type { TaskItem } from '../../../board/model/document-model.js';
import { queryTasks, type TaskQuery } from '../../../board/reads/task-query.js';
import { h } from '../ui.js';

/** Today as query_tasks judges it: the UTC calendar day. */
export const todayUtc = (): string => new Date().toISOString().slice(0, 10);

/** True when the task is overdue by the server's own rule (due before today, not done). */
export const isOverdue = (task: TaskItem, today = todayUtc()): boolean =>
  queryTasks([task], { overdue: true }, today).length === 1;

const option = (value: string, label: string) => h('option', { value }, label);

/** The filter bar's state and controls; `onChange` runs after every change. */
export class TaskFilter {
  readonly element: HTMLElement;
  private readonly text = h('input.filter-text', {
    type: 'search',
    placeholder: 'Filter cards…',
    'aria-label': 'Filter by text',
  }) as HTMLInputElement;
  private readonly assignee = h(
    'select',
    { 'aria-label': 'Filter by assignee' },
    option('', 'Anyone'),
  ) as HTMLSelectElement;
  private readonly priority = h(
    'select',
    { 'aria-label': 'Filter by priority' },
    option('', 'Any priority'),
    option('H', 'High'),
    option('M', 'Medium'),
    option('L', 'Low'),
    option('none', 'No priority'),
  ) as HTMLSelectElement;
  private readonly done = h(
    'select',
    { 'aria-label': 'Filter by done' },
    option('', 'Any status'),
    option('open', 'Open'),
    option('done', 'Done'),
  ) as HTMLSelectElement;
  private readonly overdue = h('input', { type: 'checkbox', 'aria-label': 'Only overdue' }) as HTMLInputElement;
  private readonly clear = h(
    'button.filter-clear',
    { type: 'button', hidden: true },
    'Clear filter',
  ) as HTMLButtonElement;

  constructor(onChange: () => void) {
    const changed = () => {
      this.clear.hidden = !this.active;
      onChange();
    };
    this.text.addEventListener('input', changed);
    for (const control of [this.assignee, this.priority, this.done, this.overdue])
      control.addEventListener('change', changed);
    this.clear.addEventListener('click', () => {
      this.text.value = this.assignee.value = this.priority.value = this.done.value = '';
      this.overdue.checked = false;
      changed();
    });
    this.element = h(
      'div.kanban-filter',
      { role: 'search', 'aria-label': 'Filter cards' },
      this.text,
      this.assignee,
      this.priority,
      this.done,
      h('label.choice', {}, this.overdue, ' Overdue'),
      this.clear,
    );
  }

  /** The structured part of the filter, as query_tasks takes it. */
  get query(): TaskQuery {
    const query: TaskQuery = {};
    if (this.assignee.value) query.assignee = this.assignee.value;
    if (this.priority.value)
      query.priority = this.priority.value === 'none' ? null : (this.priority.value as 'H' | 'M' | 'L');
    if (this.done.value) query.done = this.done.value === 'done';
    if (this.overdue.checked) query.overdue = true;
    return query;
  }

  get active(): boolean {
    return Object.keys(this.query).length > 0 || this.text.value.trim() !== '';
  }

  /** The tasks the filter shows, in the order given. */
  apply(tasks: TaskItem[]): TaskItem[] {
    const words = this.text.value.trim().toLowerCase().split(/\s+/).filter(Boolean);
    return queryTasks(tasks, this.query, todayUtc()).filter((task) => {
      const haystack = `${task.name}\n${task.description ?? ''}\n${task.assignee ?? ''}`.toLowerCase();
      return words.every((word) => haystack.includes(word));
    });
  }

  /** Offers the board's assignees (as query_tasks matches them: trimmed, any case), keeping the choice. */
  setAssignees(tasks: TaskItem[]): void {
    const names = new Map<string, string>();
    for (const task of tasks) {
      const name = task.assignee?.trim();
      if (name && !names.has(name.toLowerCase())) names.set(name.toLowerCase(), name);
    }
    const chosen = this.assignee.value;
    if (chosen && !names.has(chosen.toLowerCase())) names.set(chosen.toLowerCase(), chosen);
    const sorted = [...names.values()].sort((a, b) => a.localeCompare(b));
    const current = [...this.assignee.options].slice(1).map((o) => o.value);
    if (current.join('\n') === sorted.join('\n')) return;
    this.assignee.replaceChildren(option('', 'Anyone'), ...sorted.map((name) => option(name, name)));
    this.assignee.value = chosen;
  }
}
