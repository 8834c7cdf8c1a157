/**
 * The board's reads as MCP gives them, in pages (paging.ts): `get_board` (the
 * `/json` snapshot's shape, strokes as their box and point count unless
 * points are asked for) and `list_tasks`, and the orders their lists page in.
 */
import type * as Y from 'yjs';
import type { BoardMode } from '../../schema/index.js';
import { boardMaps, type ColumnItem, type LaneItem, type StrokeItem, type TaskItem } from '../model/document-model.js';
import { strokeBBox } from '../model/geometry.js';
import { titleEntry } from '../model/title.js';
import { compareKeys, type Key, listOf, type PageList, type PageRequest, pageAnswer } from './paging.js';
import { drawView, etagOf, tasksView, todoView } from './snapshot.js';

/** What a read of the board may ask for besides its page. */
export type BoardPageArgs = { cursor?: string; include_points?: boolean; ids?: string[] };

type Page = Omit<PageRequest, 'tool' | 'boardId' | 'cursor' | 'whole'>;

/** A stroke as MCP reads show it by default: its box and point count instead of its points. */
export function strokeSummary(stroke: StrokeItem) {
  const { points, ...rest } = stroke;
  return { ...rest, pointCount: points.length, bbox: strokeBBox(points) };
}

const byId = (item: { id: string }): Key => [item.id];
export const columnKey = (column: ColumnItem): Key => [column.lane, column.sort, column.id];
const laneKey = (lane: LaneItem): Key => [lane.lane];

/** Each task's place in board order (its column's place, then its own), as todoView sorts them. */
export function taskKeyOf(columns: readonly ColumnItem[]): (task: TaskItem) => Key {
  const byColumn = new Map(columns.map((column) => [column.id, column]));
  const first = [...columns].sort((a, b) => compareKeys(columnKey(a), columnKey(b)))[0];
  return (task) => {
    // A task whose column is gone sorts with the first column, as todoView places it.
    const column = byColumn.get(task.column_id) ?? first;
    return column ? [...columnKey(column), task.sort, task.id] : [0, 0, '', task.sort, task.id];
  };
}

/** The lists of a todo board, in the order they page: columns and lanes before the tasks they hold. */
function todoLists(
  view: { columns: ColumnItem[]; tasks: TaskItem[]; lanes: LaneItem[] },
  allColumns = view.columns,
): PageList<unknown>[] {
  return [
    listOf({ name: 'columns', items: view.columns, key: columnKey }),
    listOf({ name: 'lanes', items: view.lanes, key: laneKey }),
    listOf({ name: 'tasks', items: view.tasks, key: taskKeyOf(allColumns) }),
  ];
}

/**
 * get_board: the `/json` snapshot, whole when it fits the budget, else its
 * first page (or the page `cursor` names). `ids` keeps only the items named,
 * which come whole whatever their size.
 */
export function boardPage(doc: Y.Doc, boardId: string, mode: BoardMode, args: BoardPageArgs, page: Page) {
  const wanted = args.ids && new Set(args.ids);
  const pick = <T extends { id: string }>(items: T[]) => (wanted ? items.filter((item) => wanted.has(item.id)) : items);
  const draw = drawView(doc, () => null);
  const todo = mode === 'todo' ? todoView(boardMaps(doc)) : undefined;
  const envelope = {
    boardId,
    mode,
    ...titleEntry(doc),
    etag: etagOf(doc),
    texts: [],
    lines: [],
    images: [],
    shapes: [],
    frames: [],
    ...(todo && { colWidth: todo.colWidth, columns: [], tasks: [], lanes: [] }),
  };
  const lists = [
    listOf({ name: 'texts', items: pick(draw.texts), key: byId }),
    listOf({
      name: 'lines',
      items: pick(draw.lines),
      key: byId,
      show: args.include_points ? undefined : strokeSummary,
    }),
    listOf({ name: 'images', items: pick(draw.images), key: byId }),
    listOf({ name: 'shapes', items: pick(draw.shapes), key: byId }),
    listOf({ name: 'frames', items: pick(draw.frames), key: byId }),
    ...(todo
      ? todoLists(
          { columns: pick(todo.columns), tasks: pick(todo.tasks), lanes: wanted ? [] : todo.lanes },
          todo.columns,
        )
      : []),
  ];
  return pageAnswer(envelope, lists, {
    ...page,
    tool: 'get_board',
    boardId,
    cursor: args.cursor,
    whole: (item) => wanted?.has((item as { id: string }).id) ?? false,
  });
}

/** list_tasks: `{mode, columns, tasks, lanes, colWidth}`, whole when it fits, else in pages. */
export function tasksPage(doc: Y.Doc, boardId: string, mode: BoardMode, cursor: string | undefined, page: Page) {
  const view = tasksView(doc, mode);
  return pageAnswer(view, todoLists(view), { ...page, tool: 'list_tasks', boardId, cursor });
}

/** query_tasks: the matching tasks (in board order) and how many match, in pages. */
export function matchedTasksPage(
  tasks: TaskItem[],
  columns: ColumnItem[],
  boardId: string,
  cursor: string | undefined,
  page: Page,
) {
  const lists = [listOf({ name: 'tasks', items: tasks, key: taskKeyOf(columns) })];
  return pageAnswer({ tasks: [] as TaskItem[], count: tasks.length }, lists, {
    ...page,
    tool: 'query_tasks',
    boardId,
    cursor,
  });
}
