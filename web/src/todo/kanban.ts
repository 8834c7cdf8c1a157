/**
 * The todo board: columns in rows (lanes), task cards dragged within and
 * across columns or moved with Alt+arrows, quick entry, a filter bar, a card
 * editor, and the shared column width. Every change is a domain mutation on
 * the shared document (BoardSession.write).
 *
 * A render updates by key: each row, column and card keeps its element while
 * it is shown, is drawn again only when what it shows changed, and is moved
 * into place only when it is out of place (keyed.ts).
 */
import type { ColumnItem, TaskItem } from '../../../board/model/document-model.js';
import { boardMaps } from '../../../board/model/document-model.js';
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
import { type TodoView, todoView } from '../../../board/reads/todo-view.js';
import { bindActions } from '../actions/keys.js';
import { TODO_ACTIONS } from '../actions/todo.js';
import type { BoardSession } from '../session.js';
import { dialog, h } from '../ui.js';
import { type CardDraft, editCard } from './card-editor.js';
import { type CardHandlers, cardKey, renderCard } from './cards.js';
import { type ColumnActions, ColumnView } from './columns.js';
import { between, sortAt, sortBefore } from './drag.js';
import { TaskFilter } from './filter.js';
import { captureFocus, restoreFocus } from './focus.js';
import { Keyed, placeChildren } from './keyed.js';
import { LaneView } from './lanes.js';
import { moveByKey } from './moves.js';
import { kanbanToolbar } from './toolbar.js';
import { touchDragCards } from './touch-drag.js';

export class KanbanBoard {
  readonly element: HTMLElement;
  /** The rows of columns: the only part a render changes, so the toolbar's and filter's fields keep focus. */
  private readonly lanesElement = h('div.lanes');
  private readonly toolbarElement = h('div.kanban-toolbar');
  private readonly filter = new TaskFilter(() => this.render());
  /** The card to focus after the next render (a keyboard move puts it elsewhere). */
  private focusCard: string | null = null;
  private frame = 0;
  private readonly cleanup: (() => void)[] = [];
  private readonly lanes = new Keyed<LaneView>();
  private readonly columns = new Keyed<ColumnView>();
  private readonly cards = new Keyed<HTMLElement>();
  /** What the toolbar shows, as a string: it is drawn again only when that changes. */
  private toolbarKey = '';

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
        // A row title being typed (while someone else edits the board) would lose its text if its row
        // were drawn again, so the render waits until the field is left. The quick entry field and a
        // column's title are put back, with their text, caret and focus, after the render (focus.ts).
        const typing = document.activeElement;
        if (
          typing instanceof HTMLInputElement &&
          typing.type === 'text' &&
          this.lanesElement.contains(typing) &&
          !typing.classList.contains('quick-add') &&
          !typing.classList.contains('column-title')
        ) {
          typing.addEventListener('blur', schedule, { once: true });
          return;
        }
        this.render();
      });
    };
    for (const map of [maps.columns, maps.tasks, maps.lanes]) this.cleanup.push(map.observe(schedule));
    maps.meta.observe(schedule);
    this.cleanup.push(() => maps.meta.unobserve(schedule));
    this.cleanup.push(session.onChange(schedule));
    this.cleanup.push(
      bindActions(TODO_ACTIONS, {
        session,
        editable: () => this.editable,
        moveByKey: (id, columnStep, rowStep) => this.moveByKey(id, columnStep, rowStep),
        editTask: (id) => this.editTaskNamed(id),
        moveColumnByKey: (id, step, title) => this.moveColumnByKey(id, step, title),
      }),
    );
    this.cleanup.push(
      touchDragCards(
        this.lanesElement,
        () => this.editable,
        (id, list, clientY) => {
          const columnId = list.dataset.columnId;
          if (!columnId) return;
          const sort = sortAt(list, this.columnActions.tasks(columnId), id, clientY);
          this.columnActions.moveTask(id, columnId, sort);
        },
      ),
    );
    this.render();
  }

  /** A column just added by this person, whose title takes the focus once it is drawn. */
  private titleToFocus: string | null = null;

  private get editable(): boolean {
    return !this.options.embed && !this.session.readOnly;
  }

  private view(): TodoView {
    return todoView(boardMaps(this.session.doc));
  }

  private readonly columnActions: ColumnActions = {
    editable: () => this.editable,
    tasks: (columnId) => this.view().tasks.filter((task) => task.column_id === columnId),
    moveTask: (id, columnId, sort) => this.session.write((w) => moveTask(w, id, { column_id: columnId, sort })),
    rename: (columnId, title) => this.session.write((w) => patchColumn(w, columnId, { title })),
    recolour: (columnId, color) => this.session.write((w) => patchColumn(w, columnId, { color })),
    remove: (column) => void this.removeColumn(column, this.columnActions.tasks(column.id).length),
    addCard: (columnId, name) => this.session.write((w) => upsertTask(w, { column_id: columnId, name, done: false })),
    addTask: (columnId) => this.addTask(columnId),
  };

  private readonly cardHandlers = (editable: boolean): CardHandlers => ({
    editable,
    setDone: (id, done) => this.session.write((w) => patchTask(w, id, { done })),
    edit: (id) => this.editTaskNamed(id),
  });

  private render(): void {
    const view = this.view();
    const { editable } = this;
    const titles = new Map(view.lanes.map((lane) => [lane.lane, lane.title]));
    const lanes = [...new Set([...view.columns.map((column) => column.lane), ...titles.keys()])].sort((a, b) => a - b);
    if (!lanes.length) lanes.push(0);
    this.element.style.setProperty('--col-width', `${view.colWidth}px`);
    this.element.classList.toggle('readonly', !editable);
    // A person who may only look keeps the exports; an embed is the board alone.
    this.toolbarElement.hidden = this.options.embed;
    const toolbarKey = JSON.stringify([editable, view.colWidth, lanes.length, Math.max(...lanes)]);
    if (!this.options.embed && toolbarKey !== this.toolbarKey)
      this.toolbarElement.replaceChildren(
        ...kanbanToolbar(
          {
            boardId: this.session.boardId,
            setColumnWidth: (width) => this.session.write((w) => setColumnWidth(w, width)),
            undo: () => this.session.undo.undo(),
            redo: () => this.session.undo.redo(),
            addRow: () => this.addRow(Math.max(...lanes) + 1),
          },
          view.colWidth,
          lanes.length,
          editable,
        ),
      );
    this.toolbarKey = toolbarKey;
    this.filter.element.hidden = this.options.embed; // an embed is the board and nothing else
    this.filter.setAssignees(view.tasks);
    const shown = new Set(this.filter.apply(view.tasks).map((task) => task.id));
    const focus = captureFocus(this.lanesElement, this.focusCard);
    this.focusCard = null;
    const handlers = this.cardHandlers(editable);
    const laneViews = lanes.map((lane) => {
      const title = titles.get(lane);
      const laneView = this.lanes.get(String(lane), JSON.stringify([title, editable]), (previous) => {
        const built =
          previous ??
          new LaneView(lane, {
            setTitle: (at, t) => this.setLaneTitle(at, t),
            addColumn: (at) => this.addColumn(at),
            editable: () => this.editable,
            moveColumn: (id, at, beforeId) => this.moveColumn(id, at, beforeId),
          });
        built.draw(title, editable);
        return built;
      });
      const columns = view.columns.filter((column) => column.lane === lane);
      placeChildren(
        laneView.strip,
        columns.map((column) => this.renderColumn(column, view.tasks, shown, handlers)),
      );
      return laneView.element;
    });
    placeChildren(this.lanesElement, laneViews);
    this.lanes.keep(new Set(lanes.map(String)));
    this.columns.keep(new Set(view.columns.map((column) => column.id)));
    this.cards.keep(shown);
    restoreFocus(this.lanesElement, focus);
    if (this.titleToFocus) {
      const title = this.lanesElement.querySelector<HTMLInputElement>(
        `.column[data-column-id="${CSS.escape(this.titleToFocus)}"] input.column-title`,
      );
      this.titleToFocus = null;
      title?.focus();
      title?.select();
    }
  }

  /** A column and its cards shown, each kept from the last render where unchanged. */
  private renderColumn(column: ColumnItem, tasks: TaskItem[], shown: Set<string>, handlers: CardHandlers): HTMLElement {
    const { editable } = handlers;
    const columnView = this.columns.get(column.id, JSON.stringify([column, editable]), (previous) => {
      const built = previous ?? new ColumnView(column.id, this.columnActions);
      built.draw(column, editable);
      return built;
    });
    const all = tasks.filter((task) => task.column_id === column.id);
    const visible = all.filter((task) => shown.has(task.id));
    columnView.counted(visible.length, all.length);
    placeChildren(
      columnView.list,
      visible.map((task) => this.cards.get(task.id, cardKey(task, editable), () => renderCard(task, handlers))),
    );
    return columnView.element;
  }

  /** Moves a card by Alt+arrow (moves.ts); the card keeps the focus where it lands. */
  private moveByKey(taskId: string, columnStep: number, rowStep: number): void {
    const view = this.view();
    const shown = new Set(this.filter.apply(view.tasks).map((t) => t.id));
    const to = moveByKey(view, shown, taskId, columnStep, rowStep);
    if (!to) return;
    this.focusCard = taskId;
    this.session.write((w) => moveTask(w, taskId, to));
  }

  /** Puts a column in row `lane` before the column `beforeId` (at the row's end for null), with `patch` besides. */
  private moveColumn(id: string, lane: number, beforeId: string | null, patch: { title?: string } = {}): void {
    const row = this.view().columns.filter((column) => column.lane === lane);
    const sort = sortBefore(row, id, beforeId ?? undefined);
    this.session.write((w) => patchColumn(w, id, { ...patch, lane, sort }));
  }

  /** Alt+←/→ in a column's title: one place along its row, the title as typed going with it. */
  private moveColumnByKey(id: string, step: number, title: string): void {
    const { columns } = this.view();
    const column = columns.find((entry) => entry.id === id);
    if (!column) return;
    const row = columns.filter((entry) => entry.lane === column.lane);
    const to = row.indexOf(column) + step;
    if (to < 0 || to >= row.length) return;
    // Past the neighbour: before the column after it (moving right) or before it (moving left).
    const before = step < 0 ? row[to].id : (row[to + 1]?.id ?? null);
    this.moveColumn(id, column.lane, before, title !== column.title ? { title } : {});
  }

  private setLaneTitle(lane: number, title: string): void {
    this.session.write((w) => setLane(w, { lane, title }));
  }

  /** A new column at the row's end, its title selected to be typed over. */
  private addColumn(lane: number): void {
    const columns = this.view().columns.filter((column) => column.lane === lane);
    const sort = columns.length ? columns[columns.length - 1].sort + 1 : 0;
    const id = this.session.write((w) => upsertColumn(w, { title: 'New column', sort, lane }).id);
    if (id) this.titleToFocus = id;
  }

  /** A new row with the columns of the row above it (their titles, in order), as a board's rows share their stages. */
  private addRow(lane: number): void {
    const above = this.view().columns.filter((column) => column.lane === lane - 1);
    const titles = above.length ? above.map((column) => column.title) : ['New column'];
    const ids = this.session.write((w) => titles.map((title, sort) => upsertColumn(w, { title, sort, lane }).id));
    if (ids?.[0]) this.titleToFocus = ids[0];
  }

  /** Asks first, empty or not: a column deleted by a slip of the × is asked about, and Undo brings it back. */
  private async removeColumn(column: ColumnItem, taskCount: number): Promise<void> {
    const answer = await dialog(
      'Delete this column?',
      [
        taskCount > 0
          ? `"${column.title}" and its ${taskCount} task(s) will be deleted.`
          : `"${column.title}" will be deleted. Undo brings it back.`,
      ],
      [
        { label: 'Cancel', value: 'cancel' },
        { label: 'Delete', value: 'ok', primary: true },
      ],
    );
    if (answer !== 'ok') return;
    this.session.write((w) => deleteColumn(w, column.id));
  }

  /** The dialog opens on a draft: the task is created on Save, so Cancel leaves nothing behind. */
  private addTask(columnId: string): void {
    void this.editTask({ column_id: columnId, name: 'New task', done: false });
  }

  /** Opens the card editor on the task `id` as the document holds it now. */
  private editTaskNamed(id: string): void {
    const task = this.view().tasks.find((t) => t.id === id);
    if (task) void this.editTask(task);
  }

  private async editTask(task: CardDraft): Promise<void> {
    const id = task.id;
    const view = this.view();
    const rowName = (lane: number) => view.lanes.find((l) => l.lane === lane)?.title || `Row ${lane + 1}`;
    const places = view.columns.map((column) => ({
      id: column.id,
      label: `${rowName(column.lane)} › ${column.title}`,
    }));
    const answer = await editCard(
      task,
      (description) => {
        if (id) this.session.write((w) => patchTask(w, id, { description }));
      },
      places,
    );
    if (answer === 'delete' && id) this.session.write((w) => deleteTask(w, id));
    if (!answer || answer === 'delete') return;
    const { column_id, ...fields } = answer;
    this.session.write((w) => {
      if (!id) return upsertTask(w, { ...fields, column_id });
      patchTask(w, id, fields);
      if (column_id === task.column_id) return;
      // Moved in the editor: to the end of the column chosen, as a drop below its last card.
      const last = todoView(w.maps)
        .tasks.filter((t) => t.column_id === column_id && t.id !== id)
        .at(-1);
      moveTask(w, id, { column_id, sort: between(last?.sort, undefined) });
    });
  }

  destroy(): void {
    cancelAnimationFrame(this.frame);
    for (const undo of this.cleanup) undo();
    this.element.remove();
  }
}
