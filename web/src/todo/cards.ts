/** A task's card: its name, done box and badges; and the key that says when a card must be drawn again. */
import type { TaskItem } from '../../../board/model/document-model.js';
import { checklistOf } from '../../../board/render/markdown.js';
import { h } from '../ui.js';
import { cardDrag } from './drag.js';
import { isOverdue, todayUtc } from './filter.js';

export const isAi = (author: string) => author.startsWith('ai:');

/** What a card does when used; the card itself writes nothing. */
export type CardHandlers = {
  editable: boolean;
  setDone: (id: string, done: boolean) => void;
  /** Opens the card editor on the task as it is now. */
  edit: (id: string) => void;
};

/** Everything a card shows, as one string: a card whose key is unchanged is left as it is, or only moved (its column and sort are not shown). */
export function cardKey(task: TaskItem, editable: boolean): string {
  const { column_id: _column, sort: _sort, ...shown } = task;
  return JSON.stringify([shown, editable, isOverdue(task, todayUtc())]);
}

export function renderCard(task: TaskItem, { editable, setDone, edit }: CardHandlers): HTMLElement {
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
    disabled: !editable,
    'aria-label': `Done: ${task.name}`,
    onclick: (event: Event) => {
      event.stopPropagation();
      setDone(task.id, (event.target as HTMLInputElement).checked);
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
  // Its keys (Enter, Alt+arrows) are the todo board's actions (actions/todo.ts).
  const card = h(
    `div.task${task.done ? '.done' : ''}${task.color ? `.c-${task.color}` : ''}${overdue ? '.overdue' : ''}${isAi(task.author) ? '.ai' : ''}`,
    {
      'data-task-id': task.id,
      'data-id': task.id,
      draggable: editable ? 'true' : undefined,
      tabindex: 0,
      role: 'group',
      'aria-label': described,
      'aria-roledescription': 'card',
      'aria-keyshortcuts': editable ? 'Enter Alt+ArrowLeft Alt+ArrowRight Alt+ArrowUp Alt+ArrowDown' : undefined,
      title: `by ${task.author}${editable ? ' · Enter edits, Alt+arrows move' : ''}`,
      onclick: () => editable && edit(task.id),
    },
    doneBox,
    h('span.name', {}, task.name || 'Untitled'),
    h('span.badges', {}, ...badges),
  );
  cardDrag(card, task.id);
  return card;
}
