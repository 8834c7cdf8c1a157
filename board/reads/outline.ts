/**
 * `get_board {detail: "outline"}`: a board at a glance within OUTLINE_MAX_BYTES
 * whatever its size: counts per kind, lanes and columns with their task
 * counts, the number of versions, the newest edit, and the first items as
 * one line each. What does not fit is counted in `more`.
 */
import type * as Y from 'yjs';
import { type BoardMode, OUTLINE_MAX_BYTES } from '../../schema/index.js';
import { boardMaps, isLink, type TaskItem } from '../model/document-model.js';
import { strokeBBox } from '../model/geometry.js';
import { boardTitle } from '../model/title.js';
import { jsonBytes } from './paging.js';
import { etagOf, todoView } from './snapshot.js';

/** The longest title or excerpt a line of the outline shows. */
const TITLE_CHARS = 40;
const EXCERPT_CHARS = 60;

/** Text on one line, at most `max` characters (an ellipsis says it was cut). */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = [...flat];
  return chars.length <= max ? flat : `${chars.slice(0, max - 1).join('')}…`;
}

const at = (x: number, y: number) => `@${Math.round(x)},${Math.round(y)}`;

/** The board's items as outline lines, in board order: texts and links, frames, shapes, images, strokes; or tasks. */
function itemLines(doc: Y.Doc, mode: BoardMode, columnTitle: (task: TaskItem) => string): string[] {
  const maps = boardMaps(doc);
  if (mode === 'todo')
    return todoView(maps).tasks.map(
      (task) =>
        `task ${task.id} [${columnTitle(task)}]${task.done ? ' done' : ''}: ${oneLine(task.name, EXCERPT_CHARS)}`,
    );
  const lines: string[] = [];
  for (const node of maps.texts.values()) {
    if (isLink(node)) lines.push(`link ${node.id} ${at(node.x, node.y)}: ${oneLine(node.url, EXCERPT_CHARS)}`);
    else {
      const kind = node.content.trimStart().startsWith('```mermaid') ? 'diagram' : node.postit ? 'postit' : 'text';
      lines.push(`${kind} ${node.id} ${at(node.x, node.y)}: ${oneLine(node.content, EXCERPT_CHARS)}`);
    }
  }
  const size = (box: { width: number; height: number }) => `${Math.round(box.width)}x${Math.round(box.height)}`;
  for (const frame of maps.frames.values())
    lines.push(`frame ${frame.id} ${at(frame.x, frame.y)} ${size(frame)}: ${oneLine(frame.title ?? '', TITLE_CHARS)}`);
  for (const shape of maps.shapes.values())
    lines.push(
      `${shape.shape} ${shape.id} ${at(shape.x, shape.y)} ${size(shape)}: ${oneLine(shape.label ?? '', EXCERPT_CHARS)}`,
    );
  for (const image of maps.images.values()) lines.push(`image ${image.id} ${at(image.x, image.y)} ${size(image)}`);
  for (const stroke of maps.lines.values()) {
    const box = strokeBBox(stroke.points);
    const label = stroke.label ? `: ${oneLine(stroke.label, EXCERPT_CHARS)}` : '';
    lines.push(`stroke ${stroke.id} ${at(box.x, box.y)} ${size(box)}, ${stroke.points.length} points${label}`);
  }
  return lines;
}

/** The newest edit any item records. */
function newestEdit(doc: Y.Doc): { at: string; author: string } | null {
  const maps = boardMaps(doc);
  let newest: { last_updated: string; author: string } | undefined;
  for (const map of [
    maps.texts,
    maps.lines,
    maps.images,
    maps.shapes,
    maps.frames,
    maps.columns,
    maps.tasks,
    maps.lanes,
  ])
    for (const item of map.values() as Iterable<{ last_updated?: string; author: string }>)
      if (item.last_updated && (!newest || item.last_updated > newest.last_updated))
        newest = item as { last_updated: string; author: string };
  return newest ? { at: newest.last_updated, author: newest.author } : null;
}

/** The outline of a board; `versions` is how many versions its history holds (the host counts them). */
export function boardOutline(doc: Y.Doc, boardId: string, mode: BoardMode, versions: number) {
  const maps = boardMaps(doc);
  const view = todoView(maps);
  const tasksIn = new Map<string, number>();
  for (const task of view.tasks) tasksIn.set(task.column_id, (tasksIn.get(task.column_id) ?? 0) + 1);
  const title = boardTitle(doc);
  const texts = [...maps.texts.values()];
  const links = texts.filter(isLink).length;
  const counts =
    mode === 'todo'
      ? {
          columns: view.columns.length,
          lanes: new Set(view.columns.map((column) => column.lane)).size,
          tasks: view.tasks.length,
        }
      : {
          texts: texts.length - links,
          links,
          strokes: maps.lines.size,
          images: maps.images.size,
          shapes: maps.shapes.size,
          frames: maps.frames.size,
        };
  const laneTitles = new Map(view.lanes.map((lane) => [lane.lane, lane.title]));
  const laneIndexes = [...new Set([...view.columns.map((column) => column.lane), ...laneTitles.keys()])].sort(
    (a, b) => a - b,
  );
  const lanes = laneIndexes.map((lane) => {
    const columns = view.columns.filter((column) => column.lane === lane);
    const title = laneTitles.get(lane);
    return {
      lane,
      ...(title !== undefined && { title: oneLine(title, TITLE_CHARS) }),
      columns: columns.length,
      tasks: columns.reduce((sum, column) => sum + (tasksIn.get(column.id) ?? 0), 0),
    };
  });
  const columnTitles = new Map(view.columns.map((column) => [column.id, oneLine(column.title, 20)]));
  const outline = {
    boardId,
    mode,
    ...(title !== undefined && { title: oneLine(title, 120) }),
    etag: etagOf(doc),
    counts,
    versions,
    last_edit: newestEdit(doc),
    ...(mode === 'todo' && { lanes, columns: [] as object[] }),
    items: [] as string[],
    more: { columns: 0, items: 0 },
  };
  // Columns take at most half of what is left, the items' lines the rest.
  let room = OUTLINE_MAX_BYTES - jsonBytes(outline) - 16;
  const fill = <T>(list: T[], from: readonly T[], share: number) => {
    let left = Math.floor(room * share);
    let shown = 0;
    for (const entry of from) {
      const bytes = jsonBytes(entry) + 1;
      if (bytes > left) break;
      list.push(entry);
      left -= bytes;
      room -= bytes;
      shown += 1;
    }
    return from.length - shown;
  };
  if (outline.columns)
    outline.more.columns = fill(
      outline.columns,
      view.columns.map((column) => ({
        id: column.id,
        title: oneLine(column.title, TITLE_CHARS),
        lane: column.lane,
        tasks: tasksIn.get(column.id) ?? 0,
      })),
      0.5,
    );
  outline.more.items = fill(
    outline.items,
    itemLines(doc, mode, (task) => columnTitles.get(task.column_id) ?? '?'),
    1,
  );
  // Titles of escaped characters can outgrow the estimate above: the bound holds anyway.
  while (jsonBytes(outline) > OUTLINE_MAX_BYTES && outline.items.length) {
    outline.items.pop();
    outline.more.items += 1;
  }
  if (jsonBytes(outline) > OUTLINE_MAX_BYTES && outline.lanes)
    for (const lane of outline.lanes) delete (lane as { title?: string }).title;
  return outline;
}
