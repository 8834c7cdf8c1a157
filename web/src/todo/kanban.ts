/**
 * The todo board: columns in rows (lanes), task cards dragged within and
 * across columns or moved with Alt+arrows, quick entry, a filter bar, a card
 * editor, and the shared column width. Every change is a domain mutation on
 * the shared document (BoardSession.write).
 */
import { MAX_COLUMN_WIDTH_PX, MAX_LANES, MIN_COLUMN_WIDTH_PX, TaskInput } from '../../../schema/index.js';
import type { ColumnItem, TaskItem } from '../../../board/model/document-model.js';
import { todoView } from '../../../board/reads/todo-view.js';
import {
  deleteColumn,
  deleteTask,
  moveTask,
  patchColumn,
  patchTask,
  setColumnWidth,
  setLane,
  upsertColumn,
  upsertTask,
} from '../../../board/mutations/todo.js';
import { boardMaps } from '../../../board/model/document-model.js';
import type { BoardSession } from '../session.js';
import { dialog, h, isTyping } from '../ui.js';
import { checklistOf } from '../../../board/render/markdown.js';
import { type CardDraft, colourSwatches, editCard } from './card-editor.js';
import { isOverdue, TaskFilter, todayUtc } from './filter.js';

const isAi = (author: string) => author.startsWith('ai:');

/** The sort value that puts an item between two neighbours. */
function between(before: number | undefined, after: number | undefined): number {
  if (before === undefined && after === undefined) return 0;
  if (before === undefined) return after! - 1;
  if (after === undefined) return before + 1;
  return (before + after) / 2;
}

/** Where Alt+arrow takes a card: the key's direction. */
const MOVE_KEYS: Record<string, [column: number, row: number]> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

export class KanbanBoard {
  readonly element: HTMLElement;
  /** The rows of columns: the only part a render replaces, so the toolbar's and filter's fields keep focus. */
  private readonly lanesElement = h('div.lanes');
  private readonly toolbarElement = h('div.kanban-toolbar');
  private readonly filter = new TaskFilter(() => this.render());
  /** The card to focus after the next render (a keyboard move re-renders it elsewhere). */
  private focusCard: string | null = null;
  private frame = 0;
  private readonly cleanup: (() => void)[] = [];

  constructor(
    private readonly session: BoardSession,
    private readonly options: { embed: boolean },
  ) {
    this.element = h(
      'div.kanban',
      { 'data-testid': 'kanban' },
      this.toolbarElement,
      this.filter.element,
      this.lanesElement,
    );
    const maps = boardMaps(session.doc);
    const schedule = () => {
      cancelAnimationFrame(this.frame);
      this.frame = requestAnimationFrame(() => {
        // Rendering replaces every card and column: a title being typed (while someone else edits the
        // board) would lose its text and focus, so the render waits until the field is left. The quick
        // entry field is the exception: it is put back, with its text and focus, after the render.
        const typing = document.activeElement;
        if (
          typing instanceof HTMLInputElement &&
          typing.type === 'text' &&
          this.lanesElement.contains(typing) &&
          !typing.classList.contains('quick-add')
        ) {
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
    if (
      !this.editable ||
      !(event.ctrlKey || event.metaKey) ||
      isTyping(event.target) ||
      document.querySelector('dialog[open]')
    )
      return;
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
    this.toolbarElement.hidden = !this.editable;
    if (this.editable) {
      this.toolbarElement.replaceChildren(
        h(
          'label.column-width',
          {},
          'Column width ',
          h('input', {
            type: 'range',
            min: MIN_COLUMN_WIDTH_PX,
            max: MAX_COLUMN_WIDTH_PX,
            value: view.colWidth,
            'aria-label': 'Column width',
            onchange: (event: Event) =>
              this.session.write((w) => setColumnWidth(w, Number((event.target as HTMLInputElement).value))),
          }),
        ),
        h('button', { type: 'button', onclick: () => this.session.undo.undo(), title: 'Undo (Ctrl+Z)' }, 'Undo'),
        h('button', { type: 'button', onclick: () => this.session.undo.redo(), title: 'Redo (Ctrl+Shift+Z)' }, 'Redo'),
        ...(lanes.length < MAX_LANES
          ? [h('button', { type: 'button', onclick: () => this.addColumn(Math.max(...lanes) + 1) }, 'New row')]
          : []),
        h('a', { href: `/api/boards/${this.session.boardId}/tasks.csv?download=1`, download: '' }, 'Export CSV'),
        h('a', { href: `/api/boards/${this.session.boardId}/tasks.md?download=1`, download: '' }, 'Export Markdown'),
      );
    }
    this.filter.element.hidden = this.options.embed; // an embed is the board and nothing else
    this.filter.setAssignees(view.tasks);
    const shown = new Set(this.filter.apply(view.tasks).map((task) => task.id));
    // The quick entry field being typed in comes back after the render, with its text and caret.
    const active = document.activeElement;
    const quick =
      active instanceof HTMLInputElement && active.classList.contains('quick-add') && this.lanesElement.contains(active)
        ? { column: active.dataset.columnId, value: active.value, caret: active.selectionStart }
        : null;
    // A focused card keeps focus across renders (someone else's edit re-renders it too), and a moved one follows its card.
    if (active instanceof HTMLElement && active.classList.contains('task') && this.lanesElement.contains(active))
      this.focusCard ??= active.dataset.id ?? null;
    const scrolls = [...this.lanesElement.querySelectorAll<HTMLElement>('.columns')].map((strip) => strip.scrollLeft);
    this.lanesElement.replaceChildren(
      ...lanes.map((lane) =>
        this.renderLane(
          lane,
          titles.get(lane),
          view.columns.filter((column) => column.lane === lane),
          view.tasks,
          shown,
        ),
      ),
    );
    this.lanesElement.querySelectorAll<HTMLElement>('.columns').forEach((strip, index) => {
      strip.scrollLeft = scrolls[index] ?? 0;
    });
    if (quick) {
      const field = this.lanesElement.querySelector<HTMLInputElement>(
        `.quick-add[data-column-id="${CSS.escape(quick.column ?? '')}"]`,
      );
      if (field) {
        field.value = quick.value;
        field.focus();
        field.setSelectionRange(quick.caret, quick.caret);
      }
    }
    if (this.focusCard) {
      this.lanesElement.querySelector<HTMLElement>(`.task[data-id="${CSS.escape(this.focusCard)}"]`)?.focus();
      this.focusCard = null;
    }
  }

  private renderLane(
    lane: number,
    title: string | undefined,
    columns: ColumnItem[],
    tasks: TaskItem[],
    shown: Set<string>,
  ): HTMLElement {
    const heading = this.editable
      ? h('input.lane-title', {
          value: title ?? '',
          placeholder: `Row ${lane + 1}`,
          'aria-label': `Title of row ${lane + 1}`,
          onchange: (event: Event) =>
            this.session.write((w) => setLane(w, { lane, title: (event.target as HTMLInputElement).value })),
        })
      : h('h2.lane-title', {}, title ?? `Row ${lane + 1}`);
    // "+ Column" sits in the row's header, not after the last column: it stays on screen however far the columns run.
    return h(
      'section.lane',
      { 'data-lane': lane },
      h(
        'div.lane-head',
        {},
        heading,
        this.editable
          ? h('button.add-column', { type: 'button', onclick: () => this.addColumn(lane) }, '+ Column')
          : null,
      ),
      h(
        'div.columns',
        {},
        ...columns.map((column) =>
          this.renderColumn(
            column,
            tasks.filter((task) => task.column_id === column.id),
            shown,
          ),
        ),
      ),
    );
  }

  private renderColumn(column: ColumnItem, tasks: TaskItem[], shown: Set<string>): HTMLElement {
    const visible = tasks.filter((task) => shown.has(task.id));
    const list = h('div.tasks', { 'data-column-id': column.id }, ...visible.map((task) => this.renderTask(task)));
    if (this.editable) this.dropZone(list, column.id, tasks);
    const count = h(
      'span.count',
      { title: visible.length === tasks.length ? 'tasks' : 'tasks shown of all' },
      visible.length === tasks.length ? `${tasks.length}` : `${visible.length}/${tasks.length}`,
    );
    const header = this.editable
      ? h(
          'header',
          {},
          h('input.column-title', {
            value: column.title,
            'aria-label': 'Column title',
            onchange: (event: Event) =>
              this.session.write((w) => patchColumn(w, column.id, { title: (event.target as HTMLInputElement).value })),
          }),
          count,
          h(
            'button.icon',
            {
              type: 'button',
              title: 'Delete the column and its tasks',
              'aria-label': `Delete column ${column.title}`,
              onclick: () => this.removeColumn(column, tasks.length),
            },
            '×',
          ),
        )
      : h('header', {}, h('h3', {}, column.title), count);
    const colours = this.editable
      ? colourSwatches(column.color, `Colour of column ${column.title}`, (color) =>
          this.session.write((w) => patchColumn(w, column.id, { color: color as never })),
        )
      : null;
    return h(
      `div.column${column.color ? `.c-${column.color}` : ''}${isAi(column.author) ? '.ai' : ''}`,
      { 'data-column-id': column.id, 'data-id': column.id },
      header,
      colours,
      list,
      this.editable ? this.quickAdd(column) : null,
    );
  }

  /** Trello's "Add a card": Enter adds the typed title at the column's end and leaves the field empty and focused for the next. */
  private quickAdd(column: ColumnItem): HTMLElement {
    const field = h('input.quick-add', {
      type: 'text',
      maxlength: 500,
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
      this.session.write((w) => upsertTask(w, { column_id: column.id, name: name.data, done: false }));
    });
    return h(
      'div.add-card',
      {},
      field,
      h(
        'button.add-task',
        { type: 'button', title: 'A card with every field', onclick: () => this.addTask(column.id) },
        '+ Task',
      ),
    );
  }

  private renderTask(task: TaskItem): HTMLElement {
    const overdue = isOverdue(task, todayUtc());
    const checklist = checklistOf(task.description);
    const badges = [
      task.priority ? h(`span.badge.p-${task.priority}`, { title: 'priority' }, task.priority) : null,
      task.due_date
        ? h(
            `span.badge.due${overdue ? '.overdue' : ''}`,
            { title: overdue ? 'overdue' : 'due' },
            overdue ? `⚠ ${task.due_date.slice(0, 10)}` : task.due_date.slice(0, 10),
          )
        : null,
      task.assignee ? h('span.badge.who', { title: 'assignee' }, task.assignee) : null,
      checklist
        ? h(
            `span.badge.checklist${checklist[0] === checklist[1] ? '.complete' : ''}`,
            { title: 'checklist' },
            `☑ ${checklist[0]}/${checklist[1]}`,
          )
        : null,
    ];
    const done = h('input', {
      type: 'checkbox',
      checked: task.done,
      disabled: !this.editable,
      'aria-label': `Done: ${task.name}`,
      onclick: (event: Event) => {
        event.stopPropagation();
        this.session.write((w) => patchTask(w, task.id, { done: (event.target as HTMLInputElement).checked }));
      },
    });
    // The label is the box's hit area: on a touch screen it is a finger's size around a box that keeps its look (styles.css).
    const doneBox = h('label.done-box', { onclick: (event: Event) => event.stopPropagation() }, done);
    const described = [
      task.name || 'Untitled',
      task.done ? 'done' : '',
      task.priority ? `priority ${task.priority}` : '',
      task.due_date ? `${overdue ? 'overdue, ' : ''}due ${task.due_date.slice(0, 10)}` : '',
      task.assignee ? `assigned to ${task.assignee}` : '',
      task.color ? `label ${task.color}` : '',
    ]
      .filter(Boolean)
      .join(', ');
    const card = h(
      `div.task${task.done ? '.done' : ''}${task.color ? `.c-${task.color}` : ''}${overdue ? '.overdue' : ''}${isAi(task.author) ? '.ai' : ''}`,
      {
        'data-task-id': task.id,
        'data-id': task.id,
        draggable: this.editable ? 'true' : undefined,
        tabindex: 0,
        role: 'group',
        'aria-label': described,
        'aria-roledescription': 'card',
        'aria-keyshortcuts': this.editable ? 'Enter Alt+ArrowLeft Alt+ArrowRight Alt+ArrowUp Alt+ArrowDown' : undefined,
        title: `by ${task.author}${this.editable ? ' · Enter edits, Alt+arrows move' : ''}`,
        onclick: () => this.editable && this.editTask(task),
        onkeydown: (event: KeyboardEvent) => {
          if (event.target !== card || !this.editable) return;
          if (event.altKey && MOVE_KEYS[event.key]) {
            event.preventDefault();
            this.moveByKey(task, ...MOVE_KEYS[event.key]);
            return;
          }
          if (event.key !== 'Enter') return;
          // Otherwise this Enter goes on to the dialog's name field, which has focus by then, and submits it.
          event.preventDefault();
          void this.editTask(task);
        },
      },
      doneBox,
      h('span.name', {}, task.name || 'Untitled'),
      h('span.badges', {}, ...badges),
    );
    card.addEventListener('dragstart', (event) => {
      event.dataTransfer?.setData('text/task-id', task.id);
      event.dataTransfer!.effectAllowed = 'move';
      card.classList.add('dragging');
    });
    card.addEventListener('dragend', () => card.classList.remove('dragging'));
    return card;
  }

  /**
   * Alt+Left/Right takes the card to the neighbouring column of its row, at the
   * same place among the cards shown; Alt+Up/Down swaps it with the card shown
   * above or below. The same domain move a drop makes (moveTask).
   */
  private moveByKey(task: TaskItem, columnStep: number, rowStep: number): void {
    const view = todoView(boardMaps(this.session.doc));
    const shown = new Set(this.filter.apply(view.tasks).map((t) => t.id));
    const from = view.columns.find((column) => column.id === task.column_id);
    if (!from) return;
    const row = view.columns.filter((column) => column.lane === from.lane);
    const target = row[row.indexOf(from) + columnStep];
    if (!target) return;
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
      if (index < 0 || index > visible.length) return;
    }
    // Between the visible neighbours, and next to them in the full column (hidden cards keep their places).
    const next = visible[index];
    const nextAt = next ? others.indexOf(next) : others.length;
    const sort = between(others[nextAt - 1]?.sort, next?.sort);
    this.focusCard = task.id;
    this.session.write((w) => moveTask(w, task.id, { column_id: target.id, sort }));
  }

  /** Dropping a card puts it between the cards above and below the pointer. */
  private dropZone(list: HTMLElement, columnId: string, tasks: TaskItem[]): void {
    const indexAt = (clientY: number) => {
      const cards = [...list.querySelectorAll<HTMLElement>('.task:not(.dragging)')];
      const index = cards.findIndex((card) => {
        const rect = card.getBoundingClientRect();
        return clientY < rect.top + rect.height / 2;
      });
      return { next: cards[index]?.dataset.id, at: index === -1 ? cards.length : index };
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
      // With a filter on, the cards shown are some of the column's: the drop goes just before the card under the pointer.
      const others = tasks.filter((task) => task.id !== id);
      const { next } = indexAt(event.clientY);
      const nextAt = next === undefined ? others.length : others.findIndex((task) => task.id === next);
      const sort = between(others[nextAt - 1]?.sort, others[nextAt]?.sort);
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
      const answer = await dialog(
        'Delete this column?',
        [`"${column.title}" and its ${taskCount} task(s) will be deleted.`],
        [
          { label: 'Cancel', value: 'cancel' },
          { label: 'Delete', value: 'ok', primary: true },
        ],
      );
      if (answer !== 'ok') return;
    }
    this.session.write((w) => deleteColumn(w, column.id));
  }

  /** The dialog opens on a draft: the task is created on Save, so Cancel leaves nothing behind. */
  private addTask(columnId: string): void {
    void this.editTask({ column_id: columnId, name: 'New task', done: false });
  }

  private async editTask(task: CardDraft): Promise<void> {
    const id = task.id;
    const answer = await editCard(task, (description) => {
      if (id) this.session.write((w) => patchTask(w, id, { description }));
    });
    if (answer === 'delete' && id) this.session.write((w) => deleteTask(w, id));
    if (!answer || answer === 'delete') return;
    this.session.write((w) =>
      id ? patchTask(w, id, answer) : upsertTask(w, { ...answer, column_id: task.column_id }),
    );
  }

  destroy(): void {
    cancelAnimationFrame(this.frame);
    for (const undo of this.cleanup) undo();
    this.element.remove();
  }
}
