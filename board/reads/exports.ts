/**
 * Task exports of a board, as `tasks.csv` and `tasks.md` (and MCP export_tasks):
 * tasks in board order (lane, column sort, task sort). A draw board exports the
 * CSV header only, or the Markdown heading only.
 */
import type * as Y from 'yjs';
import type { BoardMode } from '../../schema/index.js';
import { boardMaps, type ColumnItem, type TaskItem } from '../model/document-model.js';
import { boardTitle } from '../model/title.js';
import { todoView } from './snapshot.js';

export const TASKS_CSV_HEADER = [
  'lane',
  'column',
  'name',
  'priority',
  'assignee',
  'due_date',
  'done',
  'description',
] as const;

/** A cell a spreadsheet would run as a formula starts with one of these. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV cell, RFC 4180 quoted. A cell that a spreadsheet would read as a
 * formula gets a leading apostrophe, the usual guard against CSV injection.
 */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

type Row = { laneLabel: string; lane: number; column: ColumnItem; task: TaskItem };

/** Tasks in board order with their lane label: the lane's title, or its 1-based row number. */
function taskRows(doc: Y.Doc): { rows: Row[]; columns: ColumnItem[]; laneTitles: Map<number, string> } {
  const view = todoView(boardMaps(doc));
  const laneTitles = new Map(view.lanes.map((lane) => [lane.lane, lane.title]));
  const columns = new Map(view.columns.map((column) => [column.id, column]));
  const rows: Row[] = [];
  for (const task of view.tasks) {
    const column = columns.get(task.column_id);
    if (!column) continue; // a task whose column is gone is not on the board
    rows.push({ laneLabel: laneTitles.get(column.lane) ?? String(column.lane + 1), lane: column.lane, column, task });
  }
  return { rows, columns: view.columns, laneTitles };
}

export function tasksCsv(doc: Y.Doc, mode: BoardMode, _boardId?: string): string {
  const lines = [TASKS_CSV_HEADER.join(',')];
  if (mode === 'todo') {
    for (const { laneLabel, column, task } of taskRows(doc).rows) {
      const cells = [
        laneLabel,
        column.title,
        task.name,
        task.priority ?? '',
        task.assignee ?? '',
        task.due_date ?? '',
        String(task.done),
        task.description ?? '',
      ];
      lines.push(cells.map(csvCell).join(','));
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}

const oneLine = (text: string) => text.replace(/\s*[\r\n]+\s*/g, ' ').trim();

function taskLine(task: TaskItem): string {
  const tags = [
    task.priority && `priority:${task.priority}`,
    task.assignee && `@${oneLine(task.assignee)}`,
    task.due_date && `due:${task.due_date}`,
  ].filter(Boolean);
  const line = `- [${task.done ? 'x' : ' '}] ${oneLine(task.name) || '(untitled task)'}${tags.length ? ` ${tags.join(' ')}` : ''}`;
  const description = task.description?.trim();
  if (!description) return line;
  return [line, ...description.split(/\r?\n/).map((text) => (text ? `  ${text}` : ''))].join('\n');
}

/**
 * A Markdown checklist under the board's title (`# Board <id>` for a board
 * without one), grouped by column (`##`), and by lane first (`##` lanes,
 * `###` columns) when any lane is named; done `[x]`, open `[ ]`, priority,
 * assignee and due date as trailing tags.
 */
export function tasksMarkdown(doc: Y.Doc, mode: BoardMode, boardId: string): string {
  const title = boardTitle(doc);
  const out = [`# ${title === undefined ? `Board ${boardId}` : oneLine(title)}`];
  if (mode === 'todo') {
    const { rows, columns, laneTitles } = taskRows(doc);
    const byLane = laneTitles.size > 0;
    let lane = -1;
    for (const column of columns) {
      if (byLane && column.lane !== lane) {
        lane = column.lane;
        out.push('', `## ${oneLine(laneTitles.get(lane) ?? '') || `Row ${lane + 1}`}`);
      }
      out.push('', `${byLane ? '###' : '##'} ${oneLine(column.title) || '(untitled column)'}`, '');
      const tasks = rows.filter((row) => row.column.id === column.id);
      out.push(...(tasks.length ? tasks.map((row) => taskLine(row.task)) : ['_No tasks._']));
    }
  }
  return `${out.join('\n')}\n`;
}
