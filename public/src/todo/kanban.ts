/**
 * The todo board: columns in rows (lanes), task cards dragged within and
 * across columns, a task editor, and the shared column width. Every change is a
 * domain mutation on the shared document (BoardSession.write).
 */
import { CARD_COLORS, MAX_COLUMN_WIDTH_PX, MAX_LANES, MIN_COLUMN_WIDTH_PX, TaskInput } from '../../../schema/index.js';
import type { ColumnItem, TaskItem } from '../../../server/board/document-model.js';
import { todoView } from '../../../server/board/todo-view.js';
import { deleteColumn, deleteTask, moveTask, patchColumn, patchTask, setColumnWidth, setLane, upsertColumn, upsertTask } from '../../../server/board/todo.js';
import { boardMaps } from '../../../server/board/document-model.js';
import type { BoardSession } from '../session.js';
import { dialog, h, isTyping } from '../ui.js';

const isAi = (author: string) => author.startsWith('ai:');

/** The sort value that puts an item between two neighbours. */
function between(before: number | undefined, after: number | undefined): number {
  if (before === undefined && after === undefined) return 0;
  if (before === undefined) return after! - 1;
  if (after === undefined) return before + 1;
  return (before + after) / 2;
}

export class KanbanBoard {
  readonly element: HTMLElement;
  private frame = 0;
  private readonly cleanup: (() => void)[] = [];

  constructor(
    private readonly session: BoardSession,
    private readonly options: { embed: boolean },
  ) {
    this.element = h('div.kanban', { 'data-testid': 'kanban' });
    const maps = boardMaps(session.doc);
    const schedule = () => {
      cancelAnimationFrame(this.frame);
      this.frame = requestAnimationFrame(() => {
        // Rendering replaces every element: a title being typed (while someone else edits the
        // board) would lose its text and focus, so the render waits until the field is left.
        const typing = document.activeElement;
        if (typing instanceof HTMLInputElement && typing.type === 'text' && this.element.contains(typing)) {
          typing.addEventListener('blur', schedule, { once: true });
          return;
        }
        this.render();
      });
    };
    for (const map of [maps.columns, maps.tasks, maps.lanes, maps.meta]) {
      map.observe(schedule);
      this.cleanup.push(() => map.unobserve(schedule));
    }
    this.cleanup.push(session.onChange(schedule));
    const onKey = (event: KeyboardEvent) => this.undoKey(event);
    document.addEventListener('keydown', onKey);
    this.cleanup.push(() => document.removeEventListener('keydown', onKey));
    this.render();
  }

  /** Ctrl/⌘+Z undoes, Ctrl/⌘+Shift+Z or Ctrl+Y redoes; a field being typed in keeps its own undo. */
  private undoKey(event: KeyboardEvent): void {
    if (!this.editable || !(event.ctrlKey || event.metaKey) || isTyping(event.target) || document.querySelector('dialog[open]')) return;
    const key = event.key.toLowerCase();
    if (key !== 'z' && key !== 'y') return;
    event.preventDefault();
    if (key === 'z' && !event.shiftKey) this.session.undo.undo();
    else this.session.undo.redo();
  }

  private get editable(): boolean {
    return !this.options.embed && !this.session.readOnly;
  }

  private render(): void {
    const view = todoView(boardMaps(this.session.doc));
    const titles = new Map(view.lanes.map((lane) => [lane.lane, lane.title]));
    const lanes = [...new Set([...view.columns.map((column) => column.lane), ...titles.keys()])].sort((a, b) => a - b);
    if (!lanes.length) lanes.push(0);
    this.element.style.setProperty('--col-width', `${view.colWidth}px`);
    this.element.classList.toggle('readonly', !this.editable);
    const toolbar = this.editable
      ? h('div.kanban-toolbar', {},
          h('label', {}, 'Column width ', h('input', { type: 'range', min: MIN_COLUMN_WIDTH_PX, max: MAX_COLUMN_WIDTH_PX, value: view.colWidth, 'aria-label': 'Column width', onchange: (event: Event) => this.session.write((w) => setColumnWidth(w, Number((event.target as HTMLInputElement).value))) })),
          h('button', { type: 'button', onclick: () => this.session.undo.undo(), title: 'Undo (Ctrl+Z)' }, 'Undo'),
          h('button', { type: 'button', onclick: () => this.session.undo.redo(), title: 'Redo (Ctrl+Shift+Z)' }, 'Redo'),
          lanes.length < MAX_LANES ? h('button', { type: 'button', onclick: () => this.addColumn(Math.max(...lanes) + 1) }, 'New row') : null,
          h('a', { href: `/api/boards/${this.session.boardId}/tasks.csv?download=1`, download: '' }, 'Export CSV'),
          h('a', { href: `/api/boards/${this.session.boardId}/tasks.md?download=1`, download: '' }, 'Export Markdown'),
        )
      : null;
    this.element.replaceChildren(
      ...(toolbar ? [toolbar] : []),
      ...lanes.map((lane) => this.renderLane(lane, titles.get(lane), view.columns.filter((column) => column.lane === lane), view.tasks)),
    );
  }

  private renderLane(lane: number, title: string | undefined, columns: ColumnItem[], tasks: TaskItem[]): HTMLElement {
    const heading = this.editable
      ? h('input.lane-title', { value: title ?? '', placeholder: `Row ${lane + 1}`, 'aria-label': `Title of row ${lane + 1}`, onchange: (event: Event) => this.session.write((w) => setLane(w, { lane, title: (event.target as HTMLInputElement).value })) })
      : h('h2.lane-title', {}, title ?? `Row ${lane + 1}`);
    return h('section.lane', { 'data-lane': lane },
      heading,
      h('div.columns', {},
        ...columns.map((column) => this.renderColumn(column, tasks.filter((task) => task.column_id === column.id))),
        this.editable ? h('button.add-column', { type: 'button', onclick: () => this.addColumn(lane) }, '+ Column') : null,
      ),
    );
  }

  private renderColumn(column: ColumnItem, tasks: TaskItem[]): HTMLElement {
    const list = h('div.tasks', { 'data-column-id': column.id }, ...tasks.map((task) => this.renderTask(task)));
    if (this.editable) this.dropZone(list, column.id, tasks);
    const header = this.editable
      ? h('header', {},
          h('input.column-title', { value: column.title, 'aria-label': 'Column title', onchange: (event: Event) => this.session.write((w) => patchColumn(w, column.id, { title: (event.target as HTMLInputElement).value })) }),
          h('select.column-color', { 'aria-label': 'Column colour', onchange: (event: Event) => this.session.write((w) => patchColumn(w, column.id, { color: ((event.target as HTMLSelectElement).value || null) as never })) },
            h('option', { value: '' }, 'No colour'), ...CARD_COLORS.map((color) => h('option', { value: color, selected: column.color === color }, color))),
          h('button.icon', { type: 'button', title: 'Delete the column and its tasks', 'aria-label': `Delete column ${column.title}`, onclick: () => this.removeColumn(column, tasks.length) }, '×'),
        )
      : h('header', {}, h('h3', {}, column.title));
    header.insertBefore(h('span.count', { title: 'tasks' }, `${tasks.length}`), header.children[1] ?? null);
    return h(`div.column${column.color ? `.c-${column.color}` : ''}${isAi(column.author) ? '.ai' : ''}`, { 'data-column-id': column.id },
      header,
      list,
      this.editable ? h('button.add-task', { type: 'button', onclick: () => this.addTask(column.id) }, '+ Task') : null,
    );
  }

  private renderTask(task: TaskItem): HTMLElement {
    const badges = [
      task.priority ? h(`span.badge.p-${task.priority}`, { title: 'priority' }, task.priority) : null,
      task.due_date ? h(`span.badge.due${!task.done && task.due_date.slice(0, 10) < new Date().toISOString().slice(0, 10) ? '.overdue' : ''}`, { title: 'due' }, task.due_date.slice(0, 10)) : null,
      task.assignee ? h('span.badge.who', { title: 'assignee' }, task.assignee) : null,
    ];
    const done = h('input', { type: 'checkbox', checked: task.done, disabled: !this.editable, 'aria-label': `Done: ${task.name}`, onclick: (event: Event) => {
      event.stopPropagation();
      this.session.write((w) => patchTask(w, task.id, { done: (event.target as HTMLInputElement).checked }));
    } });
    const card = h(`div.task${task.done ? '.done' : ''}${task.color ? `.c-${task.color}` : ''}${isAi(task.author) ? '.ai' : ''}`, {
      'data-task-id': task.id,
      draggable: this.editable ? 'true' : undefined,
      tabindex: 0,
      title: `by ${task.author}`,
      onclick: () => this.editable && this.editTask(task),
      onkeydown: (event: KeyboardEvent) => {
        if (event.key !== 'Enter' || event.target !== card || !this.editable) return;
        // Otherwise this Enter goes on to the dialog's name field, which has focus by then, and submits it.
        event.preventDefault();
        void this.editTask(task);
      },
    }, done, h('span.name', {}, task.name || 'Untitled'), h('span.badges', {}, ...badges));
    card.addEventListener('dragstart', (event) => {
      event.dataTransfer?.setData('text/task-id', task.id);
      event.dataTransfer!.effectAllowed = 'move';
      card.classList.add('dragging');
    });
    card.addEventListener('dragend', () => card.classList.remove('dragging'));
    return card;
  }

  /** Dropping a card puts it between the cards above and below the pointer. */
  private dropZone(list: HTMLElement, columnId: string, tasks: TaskItem[]): void {
    const indexAt = (clientY: number) => {
      const cards = [...list.querySelectorAll<HTMLElement>('.task:not(.dragging)')];
      const index = cards.findIndex((card) => {
        const rect = card.getBoundingClientRect();
        return clientY < rect.top + rect.height / 2;
      });
      return index === -1 ? cards.length : index;
    };
    list.addEventListener('dragover', (event) => {
      event.preventDefault();
      list.classList.add('over');
    });
    list.addEventListener('dragleave', () => list.classList.remove('over'));
    list.addEventListener('drop', (event) => {
      event.preventDefault();
      list.classList.remove('over');
      const id = event.dataTransfer?.getData('text/task-id');
      if (!id) return;
      const others = tasks.filter((task) => task.id !== id);
      const index = indexAt(event.clientY);
      const sort = between(others[index - 1]?.sort, others[index]?.sort);
      this.session.write((w) => moveTask(w, id, { column_id: columnId, sort }));
    });
  }

  private addColumn(lane: number): void {
    const columns = todoView(boardMaps(this.session.doc)).columns.filter((column) => column.lane === lane);
    const sort = columns.length ? columns[columns.length - 1].sort + 1 : 0;
    this.session.write((w) => upsertColumn(w, { title: 'New column', sort, lane }));
  }

  private async removeColumn(column: ColumnItem, taskCount: number): Promise<void> {
    if (taskCount > 0) {
      const answer = await dialog('Delete this column?', [`"${column.title}" and its ${taskCount} task(s) will be deleted.`], [{ label: 'Cancel', value: 'cancel' }, { label: 'Delete', value: 'ok', primary: true }]);
      if (answer !== 'ok') return;
    }
    this.session.write((w) => deleteColumn(w, column.id));
  }

  /** The dialog opens on a draft: the task is created on Save, so Cancel leaves nothing behind. */
  private addTask(columnId: string): void {
    void this.editTask({ column_id: columnId, name: 'New task', done: false });
  }

  private async editTask(task: Pick<TaskItem, 'column_id' | 'name' | 'done'> & Partial<TaskItem>): Promise<void> {
    const name = h('input', { name: 'name', value: task.name, maxlength: 500, 'aria-label': 'Name' });
    const description = h('textarea', { name: 'description', rows: 4, 'aria-label': 'Description' });
    description.value = task.description ?? '';
    const due = h('input', { type: 'date', value: task.due_date?.slice(0, 10) ?? '', 'aria-label': 'Due date' });
    const priority = h('select', { 'aria-label': 'Priority' }, h('option', { value: '' }, 'None'), ...['H', 'M', 'L'].map((p) => h('option', { value: p, selected: task.priority === p }, { H: 'High', M: 'Medium', L: 'Low' }[p]!)));
    const assignee = h('input', { value: task.assignee ?? '', maxlength: 200, 'aria-label': 'Assignee' });
    const done = h('input', { type: 'checkbox', checked: task.done, 'aria-label': 'Done' });
    const color = h('select', { 'aria-label': 'Colour' }, h('option', { value: '' }, 'None'), ...CARD_COLORS.map((c) => h('option', { value: c, selected: task.color === c }, c)));
    const row = (label: string, field: HTMLElement) => h('label.field', {}, h('span', {}, label), field);
    const id = task.id;
    const asked = dialog(id ? 'Task' : 'New task', [row('Name', name), row('Description', description), row('Due', due), row('Priority', priority), row('Assignee', assignee), row('Colour', color), h('label.choice', {}, done, ' Done')], [
      ...(id ? [{ label: 'Delete', value: 'delete', confirm: { title: 'Delete this task?', text: `"${task.name || 'Untitled'}" will be deleted.`, yes: 'Delete the task' } }] : []),
      { label: 'Cancel', value: 'cancel' },
      { label: id ? 'Save' : 'Add', value: 'save', primary: true },
    ]);
    if (!id) name.select(); // the draft's name is there to be typed over
    const answer = await asked;
    if (answer === 'delete' && id) this.session.write((w) => deleteTask(w, id));
    if (answer !== 'save') return;
    const fields = {
      // The same schema as every surface: names and assignees are trimmed here as on REST and MCP.
      name: TaskInput.shape.name.parse(name.value),
      description: description.value,
      due_date: (due.value || null) as never, // null clears it (the patch keeps what is undefined)
      priority: (priority.value || null) as never,
      assignee: TaskInput.shape.assignee.parse(assignee.value),
      done: done.checked,
      color: (color.value || null) as never,
    };
    this.session.write((w) => (id ? patchTask(w, id, fields) : upsertTask(w, { ...fields, column_id: task.column_id })));
  }

  destroy(): void {
    cancelAnimationFrame(this.frame);
    for (const undo of this.cleanup) undo();
    this.element.remove();
  }
}
