/**
 * The schematic SVG preview of a board: a few kB that show its layout at a
 * glance (texts as boxes with their Markdown laid out and wrapped, post-its
 * yellow, Mermaid diagrams drawn, strokes as simplified polylines, images as
 * their thumbnails, links as pills, kanban columns and cards). AI-authored
 * items get a purple border. Every user string is escaped.
 */
import type * as Y from 'yjs';
import { type BoardMode, INK_HEX, type InkColor, NOTE_TINT, type Point, tintsNote } from '../../schema/index.js';
import {
  boardMaps,
  type ImageItem,
  isLink,
  type LinkItem,
  type ReadMap,
  type ReadMaps,
  type StrokeItem,
  type TaskItem,
  type TextItem,
} from '../model/document-model.js';
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
import { BODY_FONT_PX, baseline, lineHeight, type Run } from './preview-markdown.js';
import { drawMermaid, placeDiagram } from './preview-mermaid.js';
import { xml } from './xml.js';

const CARD_HEX: Record<string, string> = { red: '#ffcdd2', blue: '#bbdefb', green: '#c8e6c9' };
const AI_BORDER = '#8e24aa';
const POSTIT_FILL = '#fff59d';
const AI_WIDTH = 2;
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
const MARGIN_PX = 20;

const isAi = (author: string) => author.startsWith('ai:');
const n = (value: number) => String(Math.round(value));

function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : text;
}

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

type Box = { x: number; y: number; width: number; height: number };

class Bounds {
  minX = Infinity;
  minY = Infinity;
  maxX = -Infinity;
  maxY = -Infinity;
  add(box: Box): void {
    this.minX = Math.min(this.minX, box.x);
    this.minY = Math.min(this.minY, box.y);
    this.maxX = Math.max(this.maxX, box.x + box.width);
    this.maxY = Math.max(this.maxY, box.y + box.height);
  }
  viewBox(): Box {
    if (this.minX === Infinity) return { x: 0, y: 0, width: 400, height: 300 };
    return {
      x: this.minX - MARGIN_PX,
      y: this.minY - MARGIN_PX,
      width: this.maxX - this.minX + 2 * MARGIN_PX,
      height: this.maxY - this.minY + 2 * MARGIN_PX,
    };
  }
}

/** A post-it's fill: the note's yellow, or its colour as a light tint, as coloured sticky notes are (the app's .postit.tinted). */
export function postitFill(color: InkColor | undefined): string {
  if (!tintsNote(color)) return POSTIT_FILL;
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(INK_HEX[color].slice(i, i + 2), 16));
  return rgbHex(
    ...([r, g, b].map((c) => Math.round(c * NOTE_TINT + 255 * (1 - NOTE_TINT))) as [number, number, number]),
  );
}

/** Ink on a post-it: a colour too light for the yellow fill is darkened until it reads (contrast 4.5:1). */
export function postitInk(hex: string): string {
  let [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  const fill = luminance(POSTIT_FILL);
  for (let step = 0; step < 20 && (fill + 0.05) / (luminance(rgbHex(r, g, b)) + 0.05) < 4.5; step++)
    [r, g, b] = [r, g, b].map((c) => Math.round(c * 0.85));
  return rgbHex(r, g, b);
}

function rgbHex(r: number, g: number, b: number): string {
  return `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

/** Relative luminance (WCAG) of a #rrggbb colour. */
export function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
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

function runMarkup(run: Run): string {
  const attributes = [
    run.bold ? ' font-weight="bold"' : '',
    run.italic ? ' font-style="italic"' : '',
    run.code ? ' font-family="DejaVu Sans Mono, monospace"' : '',
    run.strike ? ' text-decoration="line-through"' : run.link ? ' text-decoration="underline"' : '',
    run.link ? ' fill="#1565c0"' : run.code ? ' fill="#37474f"' : '',
  ].join('');
  return attributes ? `<tspan${attributes}>${xml(run.text)}</tspan>` : xml(run.text);
}

/** A text's laid-out lines inside its box (item-layout.ts), the last marked when some did not fit. */
function drawLines(text: TextItem, layout: TextLayout): string {
  const { lines, cut, width, border } = layout;
  const last = lines.at(-1);
  if (cut && last) {
    if (last.gap || last.rule) lines[lines.length - 1] = { runs: [{ text: '…' }], size: BODY_FONT_PX, indent: 0 };
    else last.runs.push({ text: ' …' });
  }
  const parts: string[] = [];
  const left = text.x + border + TEXT_PAD_X_PX;
  const right = text.x + width - border - TEXT_PAD_X_PX;
  let y = text.y + border + TEXT_PAD_Y_PX;
  for (const line of lines) {
    const height = lineHeight(line);
    const x = left + line.indent;
    if (line.rule)
      parts.push(
        `<line x1="${n(x)}" y1="${n(y + height / 2)}" x2="${n(right)}" y2="${n(y + height / 2)}" stroke="#bdbdbd"/>`,
      );
    if (line.code)
      parts.push(`<rect x="${n(left)}" y="${n(y)}" width="${n(right - left)}" height="${n(height)}" fill="#eceff1"/>`);
    if (line.quote) parts.push(`<rect x="${n(left)}" y="${n(y)}" width="3" height="${n(height)}" fill="#bdbdbd"/>`);
    if (line.runs.length) {
      const size = line.size === BODY_FONT_PX ? '' : ` font-size="${line.size}"`;
      parts.push(
        `<text x="${n(x)}" y="${n(y + baseline(line))}"${size}${line.quote ? ' fill="#616161"' : ''}>${line.runs.map(runMarkup).join('')}</text>`,
      );
    }
    y += height;
  }
  return parts.join('');
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
  return { markup: drawLines(framed, layout), box: layout };
}

type DiagramBudget = { drawn: number; bytes: number; ms: number };

function drawText(text: TextItem, bounds: Bounds, maxLines: number, budget: DiagramBudget): string {
  const source = mermaidSource(text.content);
  let markup: string;
  let box: Size;
  if (source === undefined) {
    const layout = layoutText(text, maxLines);
    [markup, box] = [drawLines(text, layout), layout];
  } else ({ markup, box } = drawDiagram(text, source, budget));
  bounds.add({ x: text.x, y: text.y, ...box });
  const ink = INK_HEX[text.color ?? 'auto'];
  // A coloured post-it shows its colour as the note's, with the plain ink on it.
  const color = text.postit ? (tintsNote(text.color) ? INK_HEX.auto : postitInk(ink)) : ink;
  const framed = !!text.diagram || source !== undefined;
  const classes = `text${text.postit ? ' postit' : ''}${framed ? ' diagram' : ''}${isAi(text.author) ? ' ai' : ''}`;
  return `<g class="${classes}" fill="${color}">${textFrame(text, box.width, box.height, framed)}${markup}</g>`;
}

function drawLink(link: LinkItem, bounds: Bounds): string {
  const label = linkLabel(link);
  const { width, height } = layoutLink(link);
  bounds.add({ x: link.x, y: link.y, width, height });
  const ai = isAi(link.author);
  const stroke = ai ? AI_BORDER : '#1976d2';
  return `<g class="link${ai ? ' ai' : ''}"><rect x="${n(link.x)}" y="${n(link.y)}" width="${n(width)}" height="${height}" rx="${height / 2}" fill="#e3f2fd" stroke="${stroke}" stroke-width="${ai ? 2 : 1}"/><text x="${n(link.x + width / 2)}" y="${n(link.y + height / 2 + 5)}" text-anchor="middle" fill="#0d47a1">${xml(label)}</text></g>`;
}

function drawImage(image: ImageItem, bounds: Bounds): string {
  bounds.add(image);
  const ai = isAi(image.author);
  const frame = `<rect x="${n(image.x)}" y="${n(image.y)}" width="${n(image.width)}" height="${n(image.height)}" fill="${image.thumbDataUrl ? 'none' : '#eeeeee'}" stroke="${ai ? AI_BORDER : '#9e9e9e'}" stroke-width="${ai ? 2 : 1}"/>`;
  const picture = image.thumbDataUrl
    ? `<image href="${xml(image.thumbDataUrl)}" x="${n(image.x)}" y="${n(image.y)}" width="${n(image.width)}" height="${n(image.height)}" preserveAspectRatio="xMidYMid meet"/>`
    : `<text x="${n(image.x + image.width / 2)}" y="${n(image.y + image.height / 2)}" text-anchor="middle" fill="#757575">image</text>`;
  return `<g class="image${ai ? ' ai' : ''}">${picture}${frame}</g>`;
}

/** The arrowhead of an ink, as the app draws it (draw/render.ts): a marker takes its colour from where it is defined. */
function arrowhead(color: string): string {
  return `<marker id="arrowhead-${color.slice(1)}" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="4" markerHeight="4" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="${color}"/></marker>`;
}

/** A stroke as a polyline; an end with an arrowhead (arrowheadEnds) gets the head of its colour (added to `heads`). */
function drawStroke(
  stroke: StrokeItem,
  bounds: Bounds,
  tolerance: number,
  maxPoints: number,
  heads: Set<string>,
): string {
  const points = simplify(stroke.points, tolerance, maxPoints);
  for (const [x, y] of points) bounds.add({ x, y, width: 0, height: 0 });
  const color = INK_HEX[stroke.color] ?? INK_HEX.auto;
  const path = points.map(([x, y]) => `${n(x)},${n(y)}`).join(' ');
  const ends = arrowheadEnds(stroke);
  const arrow = ends.start || ends.end;
  if (arrow) heads.add(color);
  const marker = `"url(#arrowhead-${color.slice(1)})"`;
  const markers = `${ends.start ? ` marker-start=${marker}` : ''}${ends.end ? ` marker-end=${marker}` : ''}`;
  return `<polyline class="stroke${arrow ? ' arrow' : ''}${isAi(stroke.author) ? ' ai' : ''}" points="${path}" stroke="${color}"${markers}/>`;
}

type Drawing = { body: string; bounds: Bounds; defs?: string };

function drawBoard(maps: PreviewMaps): Drawing {
  const bounds = new Bounds();
  const parts: string[] = [];
  for (const image of maps.images.values()) parts.push(drawImage(image, bounds));
  const maxLines = Math.max(
    MIN_LINES_PER_TEXT,
    Math.min(MAX_LINES_PER_TEXT, Math.floor(TEXT_LINE_BUDGET / Math.max(1, maps.texts.size))),
  );
  const budget: DiagramBudget = { drawn: 0, bytes: 0, ms: 0 };
  for (const node of maps.texts.values())
    parts.push(isLink(node) ? drawLink(node, bounds) : drawText(node, bounds, maxLines, budget));
  const placed = bounds.viewBox();
  const tolerance = Math.max(1, Math.max(placed.width, placed.height) / 400);
  const strokes = [...maps.lines.values()];
  const maxPoints = Math.max(
    MIN_POINTS_PER_STROKE,
    Math.min(MAX_POINTS_PER_STROKE, Math.floor(STROKE_POINT_BUDGET / Math.max(1, strokes.length))),
  );
  // What every stroke shares is said once, on their group; AI strokes get one glow filter for the whole group,
  // since a rasteriser runs a filter once per element it is on.
  const heads = new Set<string>();
  for (const ai of [false, true]) {
    const group = strokes.filter((stroke) => isAi(stroke.author) === ai);
    if (!group.length) continue;
    parts.push(
      `<g class="strokes${ai ? ' ai' : ''}" fill="none" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"${ai ? ' filter="url(#ai-border)"' : ''}>`,
    );
    for (const stroke of group) parts.push(drawStroke(stroke, bounds, tolerance, maxPoints, heads));
    parts.push('</g>');
  }
  return { body: parts.join(''), bounds, defs: [...heads].map(arrowhead).join('') };
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

/** The preview of a board as an SVG document, sized to fit its content (the preview pool caches it per board state). */
export function renderPreview(maps: PreviewMaps, mode: BoardMode): string {
  const { body, bounds, defs = '' } = mode === 'todo' ? drawKanban(maps) : drawBoard(maps);
  const title = boardTitle(maps);
  const heading = title === undefined ? '' : drawTitle(title, bounds);
  const box = bounds.viewBox();
  // Both sizes: a browser derives a missing height from the viewBox, but resvg (the PNG) does not.
  const width = Math.min(box.width, 1600);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="${n(box.x)} ${n(box.y)} ${n(box.width)} ${n(box.height)}" width="${n(width)}" height="${n((width * box.height) / box.width)}" font-family="system-ui, sans-serif" font-size="${BODY_FONT_PX}"><title>${title === undefined ? '' : `${xml(title)}: `}${mode === 'todo' ? 'Todo board' : 'Draw board'} preview</title><defs><filter id="ai-border" x="-20%" y="-20%" width="140%" height="140%"><feDropShadow dx="0" dy="0" stdDeviation="1.5" flood-color="${AI_BORDER}"/></filter>${defs}</defs><rect x="${n(box.x)}" y="${n(box.y)}" width="${n(box.width)}" height="${n(box.height)}" fill="#fafafa"/>${heading}${body}</svg>\n`;
}
