/**
 * The kanban's card editor (the task dialog): name, a description shown as
 * rendered board markup with an Edit mode, the checklist inside it
 * (`- [ ]` / `- [x]`, toggled in place), due date, priority, assignee, done,
 * the label colour as swatches, and the column it is in (moving it there).
 */

import type { TaskItem } from '../../../board/model/document-model.js';
import type { TaskWrite } from '../../../board/mutations/todo.js';
import { toggleCheckbox } from '../../../board/render/markdown.js';
import {
  CARD_COLORS,
  type CardColorName,
  MAX_ASSIGNEE_CHARS,
  MAX_TASK_NAME_CHARS,
  TaskInput,
} from '../../../schema/index.js';
import { renderMarkup } from '../draw/markup.js';
import { dialog, h } from '../ui.js';

/** The CSS colour of each card label colour (the board's own three). */
export const LABEL_CSS: Record<string, string> = { red: '#e53935', blue: '#1e88e5', green: '#43a047' };

const PRIORITY_NAMES = { H: 'High', M: 'Medium', L: 'Low' };

/** What the editor saves: the task's fields as patchTask / upsertTask take them. */
export type CardFields = Pick<
  TaskWrite,
  'name' | 'description' | 'due_date' | 'priority' | 'assignee' | 'done' | 'color'
>;

export type CardDraft = Pick<TaskItem, 'column_id' | 'name' | 'done'> & Partial<TaskItem>;

/** A column the card can be moved to, named as a person finds it: its row, then its title. */
export type CardPlace = { id: string; label: string };

/**
 * Swatches choosing one of the label colours or none: radio-like buttons
 * (aria-pressed), the draw toolbar's `.swatch` look.
 */
export function colourSwatches(
  current: string | null | undefined,
  label: string,
  pick: (color: CardColorName | null) => void,
): HTMLElement {
  const group = h('div.swatches', { role: 'group', 'aria-label': label });
  const buttons = [null, ...CARD_COLORS].map((color) => {
    const button = h(`button.swatch${color ? '' : '.none'}`, {
      type: 'button',
      'data-color': color ?? 'none',
      'aria-pressed': String((current ?? null) === color),
      'aria-label': color ? `${label}: ${color}` : `${label}: none`,
      title: color ?? 'No colour',
      style: color ? `--swatch: ${LABEL_CSS[color] ?? color}` : undefined,
      onclick: (event: Event) => {
        event.stopPropagation();
        for (const other of buttons) other.setAttribute('aria-pressed', String(other === button));
        pick(color);
      },
    });
    return button;
  });
  group.append(...buttons);
  return group;
}

/**
 * Opens the editor on a task (or on a draft, created only on Add). A checklist
 * box toggled in the rendered description is stored at once through
 * `toggleStored` when the task exists (as Trello does), so Cancel keeps it.
 * Resolves to the fields to save, 'delete', or null.
 */
export async function editCard(
  task: CardDraft,
  toggleStored: (description: string) => void,
  places: CardPlace[],
): Promise<(CardFields & { column_id: string }) | 'delete' | null> {
  const name = h('input', { name: 'name', value: task.name, maxlength: MAX_TASK_NAME_CHARS, 'aria-label': 'Name' });
  const description = h('textarea', {
    name: 'description',
    rows: 5,
    'aria-label': 'Description',
    placeholder: 'Markdown: **bold**, - [ ] a checklist item',
  });
  description.value = task.description ?? '';
  const preview = h('div.card-description', { 'data-testid': 'card-description' });
  const editButton = h('button.edit-description', { type: 'button' }, 'Edit');
  const showPreview = (on: boolean) => {
    preview.hidden = !on;
    description.hidden = on;
    editButton.textContent = on ? 'Edit' : 'Preview';
    if (on) {
      preview.replaceChildren(
        renderMarkup(description.value, (line) => {
          description.value = toggleCheckbox(description.value, line);
          if (task.id) toggleStored(description.value);
          showPreview(true);
        }),
      );
    }
  };
  editButton.addEventListener('click', () => {
    const editing = description.hidden;
    showPreview(!editing);
    if (editing) description.focus();
  });
  // A new card or an empty description opens ready to type; a written one opens rendered.
  showPreview(!!task.id && description.value.trim() !== '');
  const due = h('input', { type: 'date', value: task.due_date?.slice(0, 10) ?? '', 'aria-label': 'Due date' });
  const priority = h(
    'select',
    { 'aria-label': 'Priority' },
    h('option', { value: '' }, 'None'),
    ...Object.entries(PRIORITY_NAMES).map(([p, words]) =>
      h('option', { value: p, selected: task.priority === p }, words),
    ),
  );
  const assignee = h('input', { value: task.assignee ?? '', maxlength: MAX_ASSIGNEE_CHARS, 'aria-label': 'Assignee' });
  const done = h('input', { type: 'checkbox', checked: task.done, 'aria-label': 'Done' });
  // Where the card is: the way to move it without a drag or a keyboard (a phone).
  const place = h(
    'select',
    { 'aria-label': 'Column' },
    ...places.map((option) => h('option', { value: option.id, selected: option.id === task.column_id }, option.label)),
  ) as HTMLSelectElement;
  let color: CardColorName | null = task.color ?? null;
  const swatches = colourSwatches(color, 'Label', (picked) => (color = picked));
  const row = (label: string, field: HTMLElement) => h('label.field', {}, h('span', {}, label), field);
  const id = task.id;
  const asked = dialog(
    id ? 'Task' : 'New task',
    [
      row('Name', name),
      h(
        'div.field.description-field',
        {},
        h('span', {}, 'Description', h('br'), editButton),
        h('div', {}, preview, description),
      ),
      row('Column', place),
      row('Due', due),
      row('Priority', priority),
      row('Assignee', assignee),
      h('div.field', {}, h('span', {}, 'Label'), swatches),
      h('label.choice', {}, done, ' Done'),
    ],
    [
      ...(id
        ? [
            {
              label: 'Delete',
              value: 'delete',
              confirm: {
                title: 'Delete this task?',
                text: `"${task.name || 'Untitled'}" will be deleted.`,
                yes: 'Delete the task',
              },
            },
          ]
        : []),
      { label: 'Cancel', value: 'cancel' },
      { label: id ? 'Save' : 'Add', value: 'save', primary: true },
    ],
  );
  if (!id) name.select(); // the draft's name is there to be typed over
  const answer = await asked;
  if (answer === 'delete') return 'delete';
  if (answer !== 'save') return null;
  return {
    // The same schema as every surface: names and assignees are trimmed here as on REST and MCP.
    name: TaskInput.shape.name.parse(name.value),
    description: description.value,
    due_date: due.value || null, // null clears it (the patch keeps what is undefined)
    priority: TaskInput.shape.priority.parse(priority.value), // '' clears it
    assignee: TaskInput.shape.assignee.parse(assignee.value),
    done: done.checked,
    color,
    column_id: place.value || task.column_id,
  };
}
