/**
 * The schematic SVG preview of a board: a few kB that show its layout at a
 * glance (texts as boxes with their Markdown laid out and wrapped, post-its
 * yellow, Mermaid diagrams drawn, strokes as simplified polylines, images as
 * their thumbnails, links as pills, shapes, frames and connector labels
 * (preview-shapes.ts), kanban columns and cards), or one frame's area alone.
 * AI-authored items get a purple border. Every user string is escaped.
 */
import type * as Y from 'yjs';
import { type BoardMode, INK_HEX, type Point, tintsNote } from '../../schema/index.js';
import {
  boardMaps,
  type FrameItem,
  type ImageItem,
  isLink,
  type LinkItem,
  type ReadMap,
  type ReadMaps,
  type StrokeItem,
  type TaskItem,
  type TextItem,
} from '../model/document-model.js';
import { liesWithin, strokeBBox, type World } from '../model/geometry.js';
import { arrowheadEnds } from '../model/items.js';
import { boardTitle } from '../model/title.js';
import { todoView } from '../reads/snapshot.js';
import { textWidth } from './glyph-widths.js';
import {
  layoutDiagram,
  layoutLink,
  layoutText,
  linkLabel,
  type Size,
  SOURCE_LINES,
  sourceText,
  TEXT_PAD_X_PX,
  TEXT_PAD_Y_PX,
  type TextLayout,
} from './item-layout.js';
import { mermaidSource } from './markdown.js';
import { AI_BORDER, AI_WIDTH, Bounds, type Box, Canvas, isAi, MARGIN_PX, n, truncate } from './preview-canvas.js';
import { postitFill, postitInk } from './preview-ink.js';
import { drawLines } from './preview-lines.js';
import { BODY_FONT_PX } from './preview-markdown.js';
import { drawMermaid, placeDiagram } from './preview-mermaid.js';
import { drawFrame, drawLineLabels, drawShape, FRAME_TITLE_ROOM_PX, labelBudget } from './preview-shapes.js';
import { xml } from './xml.js';

const CARD_HEX: Record<string, string> = { red: '#ffcdd2', blue: '#bbdefb', green: '#c8e6c9' };
/** Lines a text shows: at most 40, and 1500 shared by all texts (a board of 500 shows 3 each), so the preview stays bounded. */
const MAX_LINES_PER_TEXT = 40;
const MIN_LINES_PER_TEXT = 3;
const TEXT_LINE_BUDGET = 1_500;
/** Mermaid diagrams drawn per preview and the bytes they may take; the rest show their source. */
const MAX_DRAWN_DIAGRAMS = 24;
const DIAGRAM_BYTES_BUDGET = 250_000;
/** Layout time one preview may spend on diagrams not yet cached; later ones show their source until a later preview. */
const DIAGRAM_LAYOUT_BUDGET_MS = 1_500;
const MAX_POINTS_PER_STROKE = 48;
const MIN_POINTS_PER_STROKE = 4;
/** Points shared by all strokes: a board of 2000 strokes draws each with about 8, so the preview stays bounded. */
const STROKE_POINT_BUDGET = 16_000;

/** Ramer-Douglas-Peucker, then an even pick if still more than `maxPoints`: thousands of points stay a few dozen. */
export function simplify(points: Point[], tolerance: number, maxPoints = MAX_POINTS_PER_STROKE): Point[] {
  if (points.length <= 2) return points;
  const keep = new Uint8Array(points.length);
  keep[0] = keep[points.length - 1] = 1;
  const stack: [number, number][] = [[0, points.length - 1]];
  for (let range = stack.pop(); range; range = stack.pop()) {
    const [first, last] = range;
    const [x1, y1] = points[first];
    const [x2, y2] = points[last];
    const length = Math.hypot(x2 - x1, y2 - y1) || 1;
    let worst = -1;
    let worstDistance = tolerance;
    for (let i = first + 1; i < last; i++) {
      const distance = Math.abs((y2 - y1) * points[i][0] - (x2 - x1) * points[i][1] + x2 * y1 - y2 * x1) / length;
      if (distance > worstDistance) [worst, worstDistance] = [i, distance];
    }
    if (worst >= 0) {
      keep[worst] = 1;
      stack.push([first, worst], [worst, last]);
    }
  }
  let kept = points.filter((_, i) => keep[i]);
  if (kept.length > maxPoints) {
    const step = (kept.length - 1) / (maxPoints - 1);
    kept = Array.from({ length: maxPoints }, (_, i) => kept[Math.round(i * step)]);
  }
  return kept;
}

/** The frame of a text item: post-its yellow with a shadow as in the app, diagram frames dark, AI authors purple. */
function textFrame(text: TextItem, width: number, height: number, framed: boolean): string {
  const ai = isAi(text.author);
  const stroke = ai ? AI_BORDER : framed ? '#455a64' : text.postit ? 'none' : '#9e9e9e';
  const strokeWidth = ai || framed ? AI_WIDTH : 1;
  // The post-it's shadow is an offset rect, not a blur filter: a filter per item is slow to rasterise.
  const shadow = text.postit
    ? `<rect x="${n(text.x + 2)}" y="${n(text.y + 3)}" width="${n(width)}" height="${n(height)}" rx="2" fill="#000000" fill-opacity="0.18"/>`
    : '';
  return `${shadow}<rect x="${n(text.x)}" y="${n(text.y)}" width="${n(width)}" height="${n(height)}" rx="${text.postit ? 2 : 4}" fill="${text.postit ? postitFill(text.color) : '#ffffff'}" stroke="${stroke}" stroke-width="${strokeWidth}"/>`;
}

/** A text's laid-out lines inside its box (item-layout.ts), the last marked when some did not fit. */
function drawTextLines(text: TextItem, layout: TextLayout): string {
  const left = text.x + layout.border + TEXT_PAD_X_PX;
  const right = text.x + layout.width - layout.border - TEXT_PAD_X_PX;
  return drawLines(layout, { left, right, top: text.y + layout.border + TEXT_PAD_Y_PX });
}

/** A Mermaid text: the diagram drawn and scaled into the box, or its source in a framed monospace box. */
function drawDiagram(text: TextItem, source: string, budget: DiagramBudget): { markup: string; box: Size } {
  const started = performance.now();
  const affordable =
    budget.drawn < MAX_DRAWN_DIAGRAMS && budget.bytes < DIAGRAM_BYTES_BUDGET && budget.ms < DIAGRAM_LAYOUT_BUDGET_MS;
  const diagram = affordable ? drawMermaid(source) : undefined;
  budget.ms += performance.now() - started;
  if (diagram) {
    budget.drawn++;
    budget.bytes += diagram.body.length;
    const box = layoutDiagram(text, diagram);
    const inner = box.width - 2 * (box.border + TEXT_PAD_X_PX);
    const [w, h] = [diagram.width * box.scale, diagram.height * box.scale];
    const x = text.x + box.border + TEXT_PAD_X_PX + (inner - w) / 2;
    const markup = `<svg class="mermaid" x="${n(x)}" y="${n(text.y + box.border + TEXT_PAD_Y_PX)}" width="${n(w)}" height="${n(h)}" viewBox="0 0 ${n(diagram.width)} ${n(diagram.height)}">${placeDiagram(diagram, `d${budget.drawn}-`)}</svg>`;
    return { markup, box };
  }
  // Not drawn (a type the renderer lacks, syntax it reads otherwise, a syntax error, past the budget): the source, framed.
  const framed = sourceText(text, source);
  const layout = layoutText(framed, SOURCE_LINES);
  return { markup: drawTextLines(framed, layout), box: layout };
}

type DiagramBudget = { drawn: number; bytes: number; ms: number };

function drawText(text: TextItem, canvas: Canvas, maxLines: number, budget: DiagramBudget): void {
  if (canvas.pastArea(text.x, text.y)) return;
  const source = mermaidSource(text.content);
  let markup: string;
  let box: Size;
  if (source === undefined) {
    const layout = layoutText(text, maxLines);
    [markup, box] = [drawTextLines(text, layout), layout];
  } else ({ markup, box } = drawDiagram(text, source, budget));
  const ink = INK_HEX[text.color ?? 'auto'];
  // A coloured post-it shows its colour as the note's, with the plain ink on it.
  const color = text.postit ? (tintsNote(text.color) ? INK_HEX.auto : postitInk(ink)) : ink;
  const framed = !!text.diagram || source !== undefined;
  const classes = `text${text.postit ? ' postit' : ''}${framed ? ' diagram' : ''}${isAi(text.author) ? ' ai' : ''}`;
  canvas.put(
    { x: text.x, y: text.y, ...box },
    `<g class="${classes}" fill="${color}">${textFrame(text, box.width, box.height, framed)}${markup}</g>`,
  );
}

function drawLink(link: LinkItem, canvas: Canvas): void {
  const label = linkLabel(link);
  const { width, height } = layoutLink(link);
  const ai = isAi(link.author);
  const stroke = ai ? AI_BORDER : '#1976d2';
  canvas.put(
    { x: link.x, y: link.y, width, height },
    `<g class="link${ai ? ' ai' : ''}"><rect x="${n(link.x)}" y="${n(link.y)}" width="${n(width)}" height="${height}" rx="${height / 2}" fill="#e3f2fd" stroke="${stroke}" stroke-width="${ai ? 2 : 1}"/><text x="${n(link.x + width / 2)}" y="${n(link.y + height / 2 + 5)}" text-anchor="middle" fill="#0d47a1">${xml(label)}</text></g>`,
  );
}

function drawImage(image: ImageItem, canvas: Canvas): void {
  const ai = isAi(image.author);
  const frame = `<rect x="${n(image.x)}" y="${n(image.y)}" width="${n(image.width)}" height="${n(image.height)}" fill="${image.thumbDataUrl ? 'none' : '#eeeeee'}" stroke="${ai ? AI_BORDER : '#9e9e9e'}" stroke-width="${ai ? 2 : 1}"/>`;
  const picture = image.thumbDataUrl
    ? `<image href="${xml(image.thumbDataUrl)}" x="${n(image.x)}" y="${n(image.y)}" width="${n(image.width)}" height="${n(image.height)}" preserveAspectRatio="xMidYMid meet"/>`
    : `<text x="${n(image.x + image.width / 2)}" y="${n(image.y + image.height / 2)}" text-anchor="middle" fill="#757575">image</text>`;
  canvas.put(image, `<g class="image${ai ? ' ai' : ''}">${picture}${frame}</g>`);
}

/**
 * The arrowhead of an ink at a stroke's end or start, as the app draws it
 * (draw/render.ts): a marker takes its colour from where it is defined. The
 * start's head is drawn reversed rather than by `auto-start-reverse`, which
 * resvg (the PNG) turns the wrong way on a vertical stroke.
 */
function arrowhead(head: string): string {
  const [end, color] = head.split(' ');
  const path = end === 'end' ? 'M0,0 L10,5 L0,10 z' : 'M10,0 L0,5 L10,10 z';
  return `<marker id="${markerId(end, color)}" viewBox="0 0 10 10" refX="${end === 'end' ? 10 : 0}" refY="5" markerWidth="4" markerHeight="4" orient="auto"><path d="${path}" fill="${color}"/></marker>`;
}

const markerId = (end: string, color: string) => `arrowhead${end === 'end' ? '' : '-start'}-${color.slice(1)}`;

/** A stroke as a polyline; an end with an arrowhead (arrowheadEnds) gets the head of its colour (added to `heads` as `end #colour`). */
function drawStroke(
  stroke: StrokeItem,
  canvas: Canvas,
  tolerance: number,
  maxPoints: number,
  heads: Set<string>,
): void {
  const points = simplify(stroke.points, tolerance, maxPoints);
  const color = INK_HEX[stroke.color] ?? INK_HEX.auto;
  const path = points.map(([x, y]) => `${n(x)},${n(y)}`).join(' ');
  const ends = arrowheadEnds(stroke);
  const arrow = ends.start || ends.end;
  const marker = (end: string) => `"url(#${markerId(end, color)})"`;
  const markers = `${ends.start ? ` marker-start=${marker('start')}` : ''}${ends.end ? ` marker-end=${marker('end')}` : ''}`;
  const drawn = canvas.put(
    strokeBBox(points),
    `<polyline class="stroke${arrow ? ' arrow' : ''}${isAi(stroke.author) ? ' ai' : ''}" points="${path}" stroke="${color}"${markers}/>`,
  );
  if (drawn && ends.start) heads.add(`start ${color}`);
  if (drawn && ends.end) heads.add(`end ${color}`);
}

/** How many items a budget is shared by: all of them, or for a frame's preview those whose place is in its area. */
function sharing<T>(
  items: { values(): IterableIterator<T>; readonly size: number },
  canvas: Canvas,
  at: (item: T) => World,
): number {
  const { area } = canvas;
  if (!area) return items.size;
  let count = 0;
  for (const item of items.values()) if (liesWithin({ ...at(item), width: 0, height: 0 }, area)) count++;
  return count;
}

type Drawing = { body: string; bounds: Bounds; defs?: string };

/**
 * A draw board, back to front: frames behind everything, then images,
 * shapes, texts and links, strokes, and the strokes' labels over them all.
 * With a frame, its area alone: the frame itself, and what reaches into it
 * clipped to its box.
 */
function drawBoard(maps: PreviewMaps, frame?: FrameItem): Drawing {
  const canvas = new Canvas(frame);
  if (frame) {
    drawFrame(frame, canvas);
    canvas.raw(`<g class="frame-area" clip-path="url(#frame-area)">`);
  }
  for (const other of maps.frames.values()) if (other.id !== frame?.id) drawFrame(other, canvas);
  for (const image of maps.images.values()) drawImage(image, canvas);
  const labels = labelBudget(sharing(maps.shapes, canvas, (shape) => shape));
  let index = 0;
  for (const shape of maps.shapes.values()) drawShape(shape, canvas, labels, index++);
  const maxLines = Math.max(
    MIN_LINES_PER_TEXT,
    Math.min(
      MAX_LINES_PER_TEXT,
      Math.floor(
        TEXT_LINE_BUDGET /
          Math.max(
            1,
            sharing(maps.texts, canvas, (text) => text),
          ),
      ),
    ),
  );
  const budget: DiagramBudget = { drawn: 0, bytes: 0, ms: 0 };
  for (const node of maps.texts.values())
    isLink(node) ? drawLink(node, canvas) : drawText(node, canvas, maxLines, budget);
  const placed = frame ?? canvas.bounds.viewBox();
  const tolerance = Math.max(1, Math.max(placed.width, placed.height) / 400);
  const strokes = [...maps.lines.values()];
  const firstPoint = (stroke: StrokeItem) => ({ x: stroke.points[0][0], y: stroke.points[0][1] });
  const maxPoints = Math.max(
    MIN_POINTS_PER_STROKE,
    Math.min(
      MAX_POINTS_PER_STROKE,
      Math.floor(STROKE_POINT_BUDGET / Math.max(1, sharing(maps.lines, canvas, firstPoint))),
    ),
  );
  // What every stroke shares is said once, on their group; AI strokes get one glow filter for the whole group,
  // since a rasteriser runs a filter once per element it is on.
  const heads = new Set<string>();
  for (const ai of [false, true]) {
    const group = strokes.filter((stroke) => isAi(stroke.author) === ai);
    if (!group.length) continue;
    canvas.raw(
      `<g class="strokes${ai ? ' ai' : ''}" fill="none" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"${ai ? ' filter="url(#ai-border)"' : ''}>`,
    );
    for (const stroke of group) drawStroke(stroke, canvas, tolerance, maxPoints, heads);
    canvas.raw('</g>');
  }
  drawLineLabels(strokes, canvas);
  if (frame) canvas.raw('</g>');
  const clip = frame
    ? `<clipPath id="frame-area"><rect x="${n(frame.x)}" y="${n(frame.y)}" width="${n(frame.width)}" height="${n(frame.height)}"/></clipPath>`
    : '';
  return { body: canvas.parts.join(''), bounds: canvas.bounds, defs: clip + [...heads].map(arrowhead).join('') };
}

const CARD_HEIGHT_PX = 30;
const CARD_WITH_META_PX = 48;
const COLUMN_HEADER_PX = 36;
const COLUMN_GAP_PX = 16;
const LANE_GAP_PX = 40;
const LANE_LABEL_PX = 28;

function drawKanban(maps: PreviewMaps): Drawing {
  const view = todoView(maps);
  const bounds = new Bounds();
  const parts: string[] = [];
  const titles = new Map(view.lanes.map((lane) => [lane.lane, lane.title]));
  const lanes = [...new Set(view.columns.map((column) => column.lane))].sort((a, b) => a - b);
  let y = 0;
  for (const lane of lanes) {
    const columns = view.columns.filter((column) => column.lane === lane);
    const title = titles.get(lane);
    if (title) {
      const shown = truncate(title, 60);
      // The label is part of the drawing's bounds, so the top lane's is not cut off.
      bounds.add({ x: 0, y, width: textWidth(shown, BODY_FONT_PX, { bold: true }), height: LANE_LABEL_PX });
      parts.push(`<text class="lane" x="0" y="${n(y + 18)}" font-weight="bold" fill="#424242">${xml(shown)}</text>`);
    }
    const top = y + (title ? LANE_LABEL_PX : 0);
    let tallest = 0;
    columns.forEach((column, index) => {
      const x = index * (view.colWidth + COLUMN_GAP_PX);
      const tasks = view.tasks.filter((task) => task.column_id === column.id);
      const cardHeight = (task: TaskItem) => (task.assignee || task.due_date ? CARD_WITH_META_PX : CARD_HEIGHT_PX);
      const height = COLUMN_HEADER_PX + tasks.reduce((sum, task) => sum + cardHeight(task) + 6, 0) + 8;
      tallest = Math.max(tallest, height);
      bounds.add({ x, y: top, width: view.colWidth, height });
      const ai = isAi(column.author);
      parts.push(
        `<g class="column${ai ? ' ai' : ''}"><rect x="${n(x)}" y="${n(top)}" width="${n(view.colWidth)}" height="${n(height)}" rx="6" fill="${CARD_HEX[column.color ?? ''] ?? '#f5f5f5'}" stroke="${ai ? AI_BORDER : '#bdbdbd'}" stroke-width="${ai ? 2 : 1}"/><text x="${n(x + 10)}" y="${n(top + 23)}" font-weight="bold" fill="#212121">${xml(truncate(column.title || 'Untitled', 32))} (${tasks.length})</text></g>`,
      );
      let cardY = top + COLUMN_HEADER_PX;
      for (const task of tasks) {
        const taskAi = isAi(task.author);
        const cardH = cardHeight(task);
        // Who and when, as the app's card shows them under the name.
        const meta = [task.assignee && `@${task.assignee}`, task.due_date && `due ${task.due_date.slice(0, 10)}`]
          .filter(Boolean)
          .join(' · ');
        const metaLine = meta
          ? `<text class="meta" x="${n(x + 14)}" y="${n(cardY + 40)}" font-size="12" fill="#616161">${xml(truncate(meta, Math.max(8, Math.floor(view.colWidth / 7) - 4)))}</text>`
          : '';
        const badge = task.priority
          ? `<text x="${n(x + view.colWidth - 24)}" y="${n(cardY + 20)}" font-weight="bold" fill="${task.priority === 'H' ? '#c62828' : task.priority === 'M' ? '#ef6c00' : '#2e7d32'}">${task.priority}</text>`
          : '';
        parts.push(
          `<g class="task${task.done ? ' done' : ''}${taskAi ? ' ai' : ''}"><rect x="${n(x + 6)}" y="${n(cardY)}" width="${n(view.colWidth - 12)}" height="${cardH}" rx="4" fill="${CARD_HEX[task.color ?? ''] ?? '#ffffff'}" stroke="${taskAi ? AI_BORDER : '#e0e0e0'}" stroke-width="${taskAi ? 2 : 1}"/><text x="${n(x + 14)}" y="${n(cardY + 20)}" fill="${task.done ? '#9e9e9e' : '#212121'}"${task.done ? ' text-decoration="line-through"' : ''}>${task.done ? '☑' : '☐'} ${xml(truncate(task.name || 'Untitled', Math.max(8, Math.floor(view.colWidth / 8) - 6)))}</text>${metaLine}${badge}</g>`,
        );
        cardY += cardH + 6;
      }
    });
    y = top + tallest + LANE_GAP_PX;
  }
  return { body: parts.join(''), bounds };
}

/**
 * What a preview is drawn from: a document's maps, or copies of them as plain
 * `Map`s in the document's order (what a worker thread is handed), which draw
 * the same bytes.
 */
export type PreviewMaps = { [K in keyof ReadMaps]: ReadMaps[K] & { readonly size: number } };

/** The board's maps copied into plain `Map`s, in the document's order: cheap to hand to another thread. */
export function previewMaps(doc: Y.Doc): { [K in keyof ReadMaps]: Map<string, ValueOf<ReadMaps[K]>> } {
  const maps = boardMaps(doc);
  return {
    texts: new Map(maps.texts.entries()),
    lines: new Map(maps.lines.entries()),
    images: new Map(maps.images.entries()),
    shapes: new Map(maps.shapes.entries()),
    frames: new Map(maps.frames.entries()),
    columns: new Map(maps.columns.entries()),
    tasks: new Map(maps.tasks.entries()),
    lanes: new Map(maps.lanes.entries()),
    meta: new Map(maps.meta.entries()),
  };
}

type ValueOf<M> = M extends ReadMap<infer T> ? T : never;

const TITLE_FONT_PX = 22;
const TITLE_GAP_PX = 16;

/** The board's title above its content, as the app's header shows it. */
function drawTitle(title: string, bounds: Bounds): string {
  const shown = truncate(title, 120);
  const top = (bounds.minY === Infinity ? 0 : bounds.minY) - TITLE_GAP_PX - TITLE_FONT_PX * 1.45;
  const left = bounds.minX === Infinity ? 0 : bounds.minX;
  bounds.add({ x: left, y: top, width: textWidth(shown, TITLE_FONT_PX, { bold: true }), height: TITLE_FONT_PX * 1.45 });
  return `<text class="title" x="${n(left)}" y="${n(top + TITLE_FONT_PX * 1.07)}" font-size="${TITLE_FONT_PX}" font-weight="bold" fill="#212121">${xml(shown)}</text>`;
}

/** The viewBox of a frame's preview: its box with the margin, and room for its title above. */
function frameView(frame: FrameItem): Box {
  const top = MARGIN_PX + (frame.title?.trim() ? FRAME_TITLE_ROOM_PX : 0);
  return {
    x: frame.x - MARGIN_PX,
    y: frame.y - top,
    width: frame.width + 2 * MARGIN_PX,
    height: frame.height + MARGIN_PX + top,
  };
}

/** What to draw: the whole board, or the area of the frame `frame` names (the whole board when it has none by that id). */
export type PreviewOptions = { frame?: string };

/**
 * The preview of a board as an SVG document, sized to fit its content or the
 * frame asked for (the preview pool caches it per board state and frame).
 */
export function renderPreview(maps: PreviewMaps, mode: BoardMode, options: PreviewOptions = {}): string {
  const frame = mode === 'draw' && options.frame !== undefined ? maps.frames.get(options.frame) : undefined;
  const { body, bounds, defs = '' } = mode === 'todo' ? drawKanban(maps) : drawBoard(maps, frame);
  const title = boardTitle(maps);
  // A frame's preview is headed by the frame's own title, drawn above it.
  const heading = title === undefined || frame ? '' : drawTitle(title, bounds);
  const box = frame ? frameView(frame) : bounds.viewBox();
  const named = `${title === undefined ? '' : `${xml(title)}: `}${frame ? `frame ${xml(frame.title ?? frame.id)}` : mode === 'todo' ? 'Todo board' : 'Draw board'}`;
  // Both sizes: a browser derives a missing height from the viewBox, but resvg (the PNG) does not.
  const width = Math.min(box.width, 1600);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="${n(box.x)} ${n(box.y)} ${n(box.width)} ${n(box.height)}" width="${n(width)}" height="${n((width * box.height) / box.width)}" font-family="system-ui, sans-serif" font-size="${BODY_FONT_PX}"><title>${named} preview</title><defs><filter id="ai-border" x="-20%" y="-20%" width="140%" height="140%"><feDropShadow dx="0" dy="0" stdDeviation="1.5" flood-color="${AI_BORDER}"/></filter>${defs}</defs><rect x="${n(box.x)}" y="${n(box.y)}" width="${n(box.width)}" height="${n(box.height)}" fill="#fafafa"/>${heading}${body}</svg>\n`;
}
