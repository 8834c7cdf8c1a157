/**
 * Board import (`POST /api/boards` with `content`): every item is validated and
 * every quota checked before anything exists, then the whole board is written
 * in one transaction (one journal entry). Ids are always minted here; a
 * write-only `sourceId` on texts, images and shapes lets stroke anchors name them.
 */
import type { z } from 'zod';
import type { BoardMode, ImportKind, Template } from '../../schema/index.js';
import {
  base64DecodedBytes,
  clampColumnWidth,
  IMPORT_ITEM_SCHEMAS,
  ImportContent,
  isServerAuthor,
  MAX_COLUMNS,
  MAX_COLUMNS_PER_LANE,
  MAX_FRAMES,
  MAX_IMAGE_BYTES,
  MAX_IMAGE_BYTES_TOTAL,
  MAX_IMAGES,
  MAX_IMPORT_ITEMS,
  MAX_IMPORT_LANE_TITLES,
  MAX_SHAPES,
  MAX_STROKES,
  MAX_TASK_CONTENT_CHARS,
  MAX_TASKS,
  MAX_TEXT_CHARS,
  MAX_TEXT_NODES,
  parseImageDataUrl,
} from '../../schema/index.js';
import { errors, issueField } from '../model/errors.js';
import type { BoardWrite } from '../mutations/board-write.js';
import { upsertImage, upsertLink, upsertStroke, upsertText } from '../mutations/draw.js';
import { upsertFrame, upsertShape } from '../mutations/shapes.js';
import { seedTemplate } from '../mutations/templates.js';
import { setColumnWidth, setLane, upsertColumn, upsertTask } from '../mutations/todo.js';
import { newDiagram } from '../render/item-layout.js';
import { estimateTextBox, masonry } from './autolayout.js';

type Items = { [K in ImportKind]: z.output<(typeof IMPORT_ITEM_SCHEMAS)[K]>[] };

export type ImportRequest = { mode: BoardMode; template?: Template; content: unknown; autolayout?: boolean };

/** A validated import, ready to apply. */
export type ImportPlan = { mode: BoardMode; template: Template; items: Items; colWidth?: number };

export type ImportResult = {
  imported: Record<ImportKind, number>;
  ids: { [K in Exclude<ImportKind, 'lanes'>]: string[] };
};

const DRAW_KINDS: ImportKind[] = ['texts', 'lines', 'images', 'shapes', 'frames'];
const TODO_KINDS: ImportKind[] = ['columns', 'tasks', 'lanes'];
const KINDS: ImportKind[] = [...DRAW_KINDS, ...TODO_KINDS];

function quota(kind: string, count: number, limit: number, what: string): void {
  if (count > limit) throw errors.importQuotaExceeded(kind, `${count} ${what}, at most ${limit} allowed`);
}

function issueReason(issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String).join('.');
  const missing = issue.code === 'invalid_type' && 'input' in issue && issue.input === undefined;
  const message = missing ? 'is required' : issue.message;
  return path ? `${path}: ${message}` : message;
}

/** Top-level fields of a create body whose errors are `invalid_content` rather than `invalid_payload`. */
const IMPORT_FIELDS = new Set(['content', 'lock', 'author', 'colWidth']);

/** The error for a malformed field of a create body: the spec's invalid_content for the import fields. */
export function createBoardFieldError(field: string, reason: string) {
  return IMPORT_FIELDS.has(field.split('.')[0])
    ? errors.invalidContent(field, reason)
    : errors.invalidPayload(field, reason);
}

function parseItems<T extends { author?: string }>(kind: ImportKind, schema: z.ZodType<T>, raws?: unknown[]): T[] {
  return (raws ?? []).map((raw, index) => {
    const parsed = schema.safeParse(raw, { reportInput: true });
    if (!parsed.success) throw errors.invalidItem(kind, index, issueReason(parsed.error.issues[0]));
    // A snapshot's server-written items (a template's columns) come back as the import's own.
    if (isServerAuthor(parsed.data.author)) delete parsed.data.author;
    return parsed.data;
  });
}

/** Validates import content completely; throws the spec's import errors, creates nothing. */
export function planImport(request: ImportRequest): ImportPlan {
  const top = ImportContent.safeParse(request.content, { reportInput: true });
  if (!top.success) {
    const issue = top.error.issues[0];
    const field =
      issue.path.length && issue.path[0] === 'colWidth'
        ? 'colWidth'
        : ['content', issueField(issue)].filter(Boolean).join('.');
    throw errors.invalidContent(field, issueReason({ ...issue, path: [] }));
  }
  const content = top.data;

  const present = KINDS.filter((kind) => (content[kind]?.length ?? 0) > 0);
  const wrong = present.filter((kind) => (request.mode === 'draw' ? TODO_KINDS : DRAW_KINDS).includes(kind));
  if (wrong.length) {
    throw errors.contentModeMismatch(
      `${wrong.join(', ')} need a ${request.mode === 'draw' ? 'todo' : 'draw'} board, but mode is ${request.mode}`,
    );
  }
  const total = KINDS.reduce((sum, kind) => sum + (content[kind]?.length ?? 0), 0);
  quota('items', total, MAX_IMPORT_ITEMS, 'items in total');

  const items: Items = {
    texts: parseItems('texts', IMPORT_ITEM_SCHEMAS.texts, content.texts),
    lines: parseItems('lines', IMPORT_ITEM_SCHEMAS.lines, content.lines),
    images: parseItems('images', IMPORT_ITEM_SCHEMAS.images, content.images),
    shapes: parseItems('shapes', IMPORT_ITEM_SCHEMAS.shapes, content.shapes),
    frames: parseItems('frames', IMPORT_ITEM_SCHEMAS.frames, content.frames),
    columns: parseItems('columns', IMPORT_ITEM_SCHEMAS.columns, content.columns),
    tasks: parseItems('tasks', IMPORT_ITEM_SCHEMAS.tasks, content.tasks),
    lanes: parseItems('lanes', IMPORT_ITEM_SCHEMAS.lanes, content.lanes),
  };
  checkDrawItems(items, request.autolayout === true);
  checkTodoItems(items);
  return {
    mode: request.mode,
    template: request.template ?? 'kanban',
    items,
    colWidth: content.colWidth === undefined ? undefined : clampColumnWidth(content.colWidth),
  };
}

type ImportTextItem = Items['texts'][number];

/** An import text is a link when it says so, or when it gives a url and no kind: add_link's arguments as they are. */
const isImportLink = (text: ImportTextItem) =>
  text.kind === 'link' || (text.kind === undefined && text.url !== undefined);

/**
 * The Mermaid sources of imported texts that strokes are anchored to and that no cache holds: the import sizes
 * those texts to route the strokes, so the host lays them out first, off the event loop.
 */
export function anchoredDiagrams(plan: ImportPlan): string[] {
  const anchored = new Set(plan.items.lines.flatMap((line) => [line.anchors?.start?.id, line.anchors?.end?.id]));
  const sources = new Set<string>();
  for (const text of plan.items.texts) {
    if (text.sourceId === undefined || !anchored.has(text.sourceId) || isImportLink(text)) continue;
    const source = newDiagram(text.content ?? '');
    if (source !== undefined) sources.add(source);
  }
  return [...sources];
}

/** What only a text takes; a link given one is refused rather than stored without it. */
const TEXT_ONLY_FIELDS = ['content', 'color', 'width', 'postit', 'diagram'] as const;

/** The anchor kind an import's item answers to by its sourceId. */
const ANCHOR_KIND = { texts: 'text', images: 'image', shapes: 'shape' } as const;

function checkDrawItems(items: Items, autolayout: boolean): void {
  const sourceIds = new Map<string, (typeof ANCHOR_KIND)[keyof typeof ANCHOR_KIND]>();
  for (const kind of ['texts', 'images', 'shapes'] as const) {
    items[kind].forEach((item, index) => {
      if ((item.x === undefined || item.y === undefined) && !autolayout) {
        throw errors.invalidItem(kind, index, 'x and y are required unless autolayout is true');
      }
      if (item.sourceId !== undefined) {
        if (sourceIds.has(item.sourceId))
          throw errors.invalidItem(kind, index, `sourceId "${item.sourceId}" is used twice`);
        sourceIds.set(item.sourceId, ANCHOR_KIND[kind]);
      }
    });
  }
  items.texts.forEach((text, index) => {
    if (isImportLink(text)) {
      if (text.url === undefined) throw errors.invalidItem('texts', index, 'url: is required for a link');
      const textField = TEXT_ONLY_FIELDS.find((field) => text[field] !== undefined);
      if (textField)
        throw errors.invalidItem('texts', index, `${textField}: a link (an item with url) takes no ${textField}`);
    } else if (text.url !== undefined) {
      throw errors.invalidItem('texts', index, 'url: a text takes no url; leave out kind "text" for a link');
    } else if (text.content === undefined) {
      throw errors.invalidItem('texts', index, 'content: is required');
    } else if (text.content.length > MAX_TEXT_CHARS) {
      throw errors.importQuotaExceeded(
        'text_chars',
        `texts[${index}] holds ${text.content.length} characters, at most ${MAX_TEXT_CHARS} allowed`,
      );
    }
  });
  items.lines.forEach((line, index) => {
    for (const end of ['start', 'end'] as const) {
      const anchor = line.anchors?.[end];
      if (anchor && sourceIds.get(anchor.id) !== anchor.kind) {
        throw errors.invalidItem(
          'lines',
          index,
          `anchors.${end}.id "${anchor.id}" names no sourceId of a ${anchor.kind} in this import`,
        );
      }
    }
  });
  quota('texts', items.texts.length, MAX_TEXT_NODES, 'text nodes');
  quota('strokes', items.lines.length, MAX_STROKES, 'strokes');
  quota('images', items.images.length, MAX_IMAGES, 'images');
  quota('shapes', items.shapes.length, MAX_SHAPES, 'shapes');
  quota('frames', items.frames.length, MAX_FRAMES, 'frames');
  let bytes = 0;
  items.images.forEach((image, index) => {
    const size = base64DecodedBytes(checked(parseImageDataUrl(image.dataUrl), `images[${index}] data URL`).base64);
    if (size > MAX_IMAGE_BYTES)
      throw errors.importQuotaExceeded(
        'image_bytes_per_item',
        `images[${index}] holds ${size} bytes, at most ${MAX_IMAGE_BYTES} allowed`,
      );
    bytes += size;
  });
  quota('image_bytes_total', bytes, MAX_IMAGE_BYTES_TOTAL, 'image bytes');
}

function checkTodoItems(items: Items): void {
  quota('columns', items.columns.length, MAX_COLUMNS, 'columns');
  const perLane = new Map<number, number>();
  for (const column of items.columns) perLane.set(column.lane ?? 0, (perLane.get(column.lane ?? 0) ?? 0) + 1);
  for (const [lane, count] of perLane)
    quota('columns_per_lane', count, MAX_COLUMNS_PER_LANE, `columns in lane ${lane}`);
  quota('tasks', items.tasks.length, MAX_TASKS, 'tasks');
  items.tasks.forEach((task, index) => {
    if (task.columnIndex >= items.columns.length) {
      throw errors.invalidItem(
        'tasks',
        index,
        `columnIndex ${task.columnIndex} names no entry of columns[] (${items.columns.length} given)`,
      );
    }
    if (task.content !== undefined && task.content.length > MAX_TASK_CONTENT_CHARS) {
      throw errors.importQuotaExceeded(
        'task_content_chars',
        `tasks[${index}] content holds ${task.content.length} characters, at most ${MAX_TASK_CONTENT_CHARS} allowed`,
      );
    }
  });
  quota('lanes', items.lanes.length, MAX_IMPORT_LANE_TITLES, 'lane titles');
  const usedLanes = new Set(items.columns.map((column) => column.lane ?? 0));
  const named = new Set<number>();
  items.lanes.forEach((lane, index) => {
    if (named.has(lane.lane)) throw errors.invalidItem('lanes', index, `lane ${lane.lane} is named twice`);
    named.add(lane.lane);
    if (!usedLanes.has(lane.lane))
      throw errors.invalidItem('lanes', index, `lane ${lane.lane} holds no column of this import`);
  });
}

/** A value planImport's checks guarantee: missing, it is a bug here, never the caller's error. */
function checked<T>(value: T | undefined | null, what: string): T {
  if (value === undefined || value === null) throw new Error(`import: ${what} passed the checks but is missing`);
  return value;
}

/** Where the item stands: its own x and y, or those the masonry gave it. */
const placed = (item: { x?: number; y?: number }) => ({ x: checked(item.x, 'x'), y: checked(item.y, 'y') });

const mintedId = (minted: Map<string, string>, sourceId: string) =>
  checked(minted.get(sourceId), `the id minted for sourceId "${sourceId}"`);

/** Writes a validated import into a fresh board, inside the caller's transaction. */
export function applyImport(w: BoardWrite, plan: ImportPlan): ImportResult {
  const { items } = plan;
  const boxes = [
    ...items.texts.map((text) => ({ x: text.x, y: text.y, ...estimateTextBox(text), place: text })),
    ...items.images.map((image) => ({
      x: image.x,
      y: image.y,
      width: image.width,
      height: image.height,
      place: image,
    })),
    ...items.shapes.map((shape) => ({
      x: shape.x,
      y: shape.y,
      width: shape.width,
      height: shape.height,
      place: shape,
    })),
  ];
  for (const box of masonry(boxes)) [box.place.x, box.place.y] = [box.x, box.y];

  const minted = new Map<string, string>();
  const ids: ImportResult['ids'] = { texts: [], lines: [], images: [], shapes: [], frames: [], columns: [], tasks: [] };
  for (const text of items.texts) {
    const { sourceId, kind: _kind, x: _x, y: _y, url, content, ...rest } = text;
    const at = placed(text);
    const item = isImportLink(text)
      ? upsertLink(w, { ...at, url: checked(url, 'a link url'), author: rest.author })
      : upsertText(w, { ...rest, ...at, content: checked(content, 'a text content') });
    if (sourceId !== undefined) minted.set(sourceId, item.id);
    ids.texts.push(item.id);
  }
  for (const image of items.images) {
    const { sourceId, x: _x, y: _y, ...rest } = image;
    const item = upsertImage(w, { ...rest, ...placed(image) });
    if (sourceId !== undefined) minted.set(sourceId, item.id);
    ids.images.push(item.id);
  }
  for (const shape of items.shapes) {
    const { sourceId, x: _x, y: _y, ...rest } = shape;
    const item = upsertShape(w, { ...rest, ...placed(shape) });
    if (sourceId !== undefined) minted.set(sourceId, item.id);
    ids.shapes.push(item.id);
  }
  for (const frame of items.frames) ids.frames.push(upsertFrame(w, frame).id);
  for (const line of items.lines) {
    const anchors = line.anchors && {
      ...(line.anchors.start && { start: { ...line.anchors.start, id: mintedId(minted, line.anchors.start.id) } }),
      ...(line.anchors.end && { end: { ...line.anchors.end, id: mintedId(minted, line.anchors.end.id) } }),
    };
    ids.lines.push(upsertStroke(w, { ...line, anchors }).id);
  }

  if (plan.mode === 'todo') {
    if (items.columns.length === 0) seedTemplate(w, plan.template);
    for (const [index, column] of items.columns.entries())
      ids.columns.push(upsertColumn(w, { ...column, sort: column.sort ?? index }).id);
    for (const lane of items.lanes) setLane(w, lane);
    items.tasks.forEach((task, index) => {
      const { columnIndex, ...rest } = task;
      ids.tasks.push(upsertTask(w, { ...rest, column_id: ids.columns[columnIndex], sort: rest.sort ?? index }).id);
    });
    if (plan.colWidth !== undefined) setColumnWidth(w, plan.colWidth);
  }
  return {
    imported: {
      texts: ids.texts.length,
      lines: ids.lines.length,
      images: ids.images.length,
      shapes: ids.shapes.length,
      frames: ids.frames.length,
      columns: ids.columns.length,
      tasks: ids.tasks.length,
      lanes: items.lanes.length,
    },
    ids,
  };
}
