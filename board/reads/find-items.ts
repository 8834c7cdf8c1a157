/**
 * `find_items`: the texts, links, shapes, frames and tasks of a board that match every
 * filter given, each as a compact line of facts (id, kind, where it is, a
 * short excerpt), in pages (paging.ts).
 */
import type * as Y from 'yjs';
import type { BoardMode } from '../../schema/index.js';
import { estimateTextBox } from '../import/autolayout.js';
import { boardMaps, isLink, type TaskItem } from '../model/document-model.js';
import { errors } from '../model/errors.js';
import { frameMembers } from '../mutations/shapes.js';
import { itemSize } from '../render/item-layout.js';
import { taskKeyOf } from './board-pages.js';
import { oneLine } from './outline.js';
import { listOf, type PageRequest, pageAnswer } from './paging.js';
import { todoView } from './snapshot.js';

export type FindKind = 'texts' | 'links' | 'shapes' | 'frames' | 'tasks';
export type Box = { x: number; y: number; width: number; height: number };
export type FindQuery = {
  text?: string;
  kind?: FindKind;
  bbox?: Box;
  frame?: string;
  column_id?: string;
  lane?: number;
  assignee?: string;
  cursor?: string;
};

const EXCERPT_CHARS = 80;

/** Up to EXCERPT_CHARS around the first place `needle` is found in `text` (its start when not given or not found). */
function excerpt(text: string, needle: string | undefined): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const at = needle ? flat.toLowerCase().indexOf(needle) : -1;
  if (at <= EXCERPT_CHARS / 2) return oneLine(flat, EXCERPT_CHARS);
  return `…${oneLine(flat.slice(at - 20), EXCERPT_CHARS - 1)}`;
}

const intersects = (a: Box, b: Box) =>
  a.x <= b.x + b.width && b.x <= a.x + a.width && a.y <= b.y + b.height && b.y <= a.y + a.height;

/** The first of `fields` that holds the text sought (lower-cased), or undefined. */
const matching = (fields: (string | undefined)[], needle: string) =>
  fields.find((field) => field?.toLowerCase().includes(needle));

/** A draw item as find reads it: its kind, its box, and the words it is found by. */
type Findable = { id: string; kind: FindKind; box: Box; text: string };

function drawHit(item: Findable, query: FindQuery, needle: string | undefined, members: Set<string> | undefined) {
  if (query.kind && query.kind !== item.kind) return undefined;
  if (query.column_id !== undefined || query.lane !== undefined || query.assignee !== undefined) return undefined;
  if (query.bbox && !intersects(item.box, query.bbox)) return undefined;
  if (members && !members.has(item.id)) return undefined;
  if (needle !== undefined && !item.text.toLowerCase().includes(needle)) return undefined;
  return { id: item.id, kind: item.kind, ...item.box, excerpt: excerpt(item.text, needle) };
}

/** The draw items find looks through, in its order: texts and links, then shapes, then frames. */
function* findables(maps: ReturnType<typeof boardMaps>): Generator<Findable> {
  for (const node of maps.texts.values()) {
    const box = { x: node.x, y: node.y, ...estimateTextBox(node) };
    yield isLink(node)
      ? { id: node.id, kind: 'links', box, text: node.url }
      : { id: node.id, kind: 'texts', box, text: node.content };
  }
  for (const shape of maps.shapes.values())
    yield { id: shape.id, kind: 'shapes', box: boxOf(shape), text: shape.label ?? '' };
  for (const frame of maps.frames.values())
    yield { id: frame.id, kind: 'frames', box: boxOf(frame), text: frame.title ?? '' };
}

const boxOf = ({ x, y, width, height }: Box): Box => ({ x, y, width, height });

function taskHit(task: TaskItem, lane: number | undefined, query: FindQuery, needle: string | undefined) {
  if (query.kind && query.kind !== 'tasks') return undefined;
  if (query.bbox || query.frame !== undefined) return undefined;
  if (query.column_id !== undefined && task.column_id !== query.column_id) return undefined;
  if (query.lane !== undefined && lane !== query.lane) return undefined;
  if (query.assignee !== undefined && (task.assignee ?? '').trim().toLowerCase() !== query.assignee.toLowerCase())
    return undefined;
  const found = needle === undefined ? task.name : matching([task.name, task.description, task.content], needle);
  if (found === undefined) return undefined;
  return {
    id: task.id,
    kind: 'tasks' as const,
    column_id: task.column_id,
    ...(lane !== undefined && { lane }),
    name: oneLine(task.name, EXCERPT_CHARS),
    done: task.done,
    ...(task.assignee && { assignee: task.assignee }),
    ...(found !== task.name && { excerpt: excerpt(found, needle) }),
  };
}

/** The items matching every filter: texts and links, shapes, frames, then tasks in board order. */
export function findItems(
  doc: Y.Doc,
  boardId: string,
  mode: BoardMode,
  query: FindQuery,
  page: Omit<PageRequest, 'tool' | 'boardId' | 'cursor'>,
) {
  const needle = query.text === undefined || query.text === '' ? undefined : query.text.toLowerCase();
  const maps = boardMaps(doc);
  const frame = query.frame === undefined ? undefined : maps.frames.get(query.frame);
  if (query.frame !== undefined && !frame) throw errors.itemNotFound('frame', query.frame);
  // Members as a move finds them (shapes.ts), with the layout the server moves them by.
  const members = frame && new Set(frameMembers(maps, itemSize, frame).map((member) => member.id));
  const drawHits = [...findables(maps)].flatMap((item) => drawHit(item, query, needle, members) ?? []);
  const view = mode === 'todo' ? todoView(maps) : undefined;
  const laneOf = new Map(view?.columns.map((column) => [column.id, column.lane]));
  const taskHits = (view?.tasks ?? []).flatMap(
    (task) => taskHit(task, laneOf.get(task.column_id), query, needle) ?? [],
  );
  const taskKey = taskKeyOf(view?.columns ?? []);
  const tasksById = new Map(view?.tasks.map((task) => [task.id, task]));
  const taskOf = (id: string) => {
    const task = tasksById.get(id);
    if (!task) throw new Error(`find_items: the hit ${id} is no task of the board`);
    return task;
  };
  const lists = [
    listOf({ name: 'items', items: drawHits, key: (hit) => [hit.id] }),
    listOf({ name: 'items', items: taskHits, key: (hit) => taskKey(taskOf(hit.id)) }),
  ];
  return pageAnswer({ items: [] as object[], count: drawHits.length + taskHits.length }, lists, {
    ...page,
    tool: 'find_items',
    boardId,
    cursor: query.cursor,
  });
}
