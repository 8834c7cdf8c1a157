/**
 * The schematic SVG preview of a board: a few kB that show its layout at a
 * glance (texts as boxes with their Markdown laid out and wrapped, post-its
 * yellow, Mermaid diagrams drawn, strokes as simplified polylines, images as
 * their thumbnails, links as pills, kanban columns and cards). AI-authored
 * items get a purple border. Every user string is escaped.
 */
import type * as Y from 'yjs';
import { INK_HEX, type BoardMode, type Point } from '../../schema/index.js';
import { estimateTextBox } from './autolayout.js';
import { boardMaps, isLink, type ImageItem, type LinkItem, type StrokeItem, type TextItem } from './document-model.js';
import { BODY_FONT_PX, lineHeight, markdownLines, type Run } from './preview-markdown.js';
import { drawMermaid, placeDiagram } from './preview-mermaid.js';
import { memoized, todoView } from './snapshot.js';

const CARD_HEX: Record<string, string> = { red: '#ffcdd2', blue: '#bbdefb', green: '#c8e6c9' };
const AI_BORDER = '#8e24aa';
const POSTIT_FILL = '#fff59d';
/** Lines a text shows: at most 40, and 2500 shared by all texts (a board of 500 shows 5 each), so the preview stays bounded. */
const MAX_LINES_PER_TEXT = 40;
const MIN_LINES_PER_TEXT = 3;
const TEXT_LINE_BUDGET = 2_500;
/** Mermaid diagrams drawn per preview and the bytes they may take; the rest show their source. */
const MAX_DRAWN_DIAGRAMS = 24;
const DIAGRAM_BYTES_BUDGET = 250_000;
const MAX_DIAGRAM_HEIGHT_PX = 900;
/** Layout time one preview may spend on diagrams not yet cached; later ones show their source until a later preview. */
const DIAGRAM_LAYOUT_BUDGET_MS = 1_500;
const MAX_POINTS_PER_STROKE = 48;
const MIN_POINTS_PER_STROKE = 4;
/** Points shared by all strokes: a board of 2000 strokes draws each with about 8, so the preview stays bounded. */
const STROKE_POINT_BUDGET = 16_000;
const MARGIN_PX = 20;

/** Characters XML 1.0 forbids (and lone surrogates): removed, so hostile text cannot break the document. */
const INVALID_XML =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Escapes text for XML element content and attribute values. */
export function xml(text: string): string {
  return text
    .replace(INVALID_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const isAi = (author: string) => author.startsWith('ai:');
const n = (value: number) => String(Math.round(value));

function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : text;
}

const MERMAID = /^\s*```mermaid[^\n]*\n([\s\S]*?)\n?```\s*$/;

/** The Mermaid source of a text that is one fenced `mermaid` block. */
export function mermaidSource(content: string): string | undefined {
  return MERMAID.exec(content)?.[1];
}

/** Ramer-Douglas-Peucker, then an even pick if still more than `maxPoints`: thousands of points stay a few dozen. */
export function simplify(points: Point[], tolerance: number, maxPoints = MAX_POINTS_PER_STROKE): Point[] {
  if (points.length <= 2) return points;
  const keep = new Uint8Array(points.length);
  keep[0] = keep[points.length - 1] = 1;
  const stack: [number, number][] = [[0, points.length - 1]];
  while (stack.length) {
    const [first, last] = stack.pop()!;
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

function hostname(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}

const TEXT_PAD_PX = 8;
const AI_WIDTH = 2;

/** The frame of a text item: post-its yellow with a shadow as in the app, diagram frames dark, AI authors purple. */
function textFrame(text: TextItem, width: number, height: number, framed: boolean): string {
  const ai = isAi(text.author);
  const stroke = ai ? AI_BORDER : framed ? '#455a64' : text.postit ? 'none' : '#9e9e9e';
  const strokeWidth = ai || framed ? AI_WIDTH : 1;
  // The post-it's shadow is an offset rect, not a blur filter: a filter per item is slow to rasterise.
  const shadow = text.postit
    ? `<rect x="${n(text.x + 2)}" y="${n(text.y + 3)}" width="${n(width)}" height="${n(height)}" rx="2" fill="#000000" fill-opacity="0.18"/>`
    : '';
  return `${shadow}<rect x="${n(text.x)}" y="${n(text.y)}" width="${n(width)}" height="${n(height)}" rx="${text.postit ? 2 : 4}" fill="${text.postit ? POSTIT_FILL : '#ffffff'}" stroke="${stroke}" stroke-width="${strokeWidth}"/>`;
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

/** A text's Markdown as wrapped lines inside its box; returns the markup and the height used. */
function drawMarkdown(text: TextItem, width: number, maxLines: number): { markup: string; height: number } {
  const { lines, cut } = markdownLines(text.content, width - 2 * TEXT_PAD_PX, maxLines);
  if (cut && lines.length) {
    const last = lines.at(-1)!;
    if (last.gap || last.rule) lines[lines.length - 1] = { runs: [{ text: '…' }], size: BODY_FONT_PX, indent: 0 };
    else last.runs.push({ text: ' …' });
  }
  const parts: string[] = [];
  let y = text.y + TEXT_PAD_PX;
  for (const line of lines) {
    const height = lineHeight(line);
    const x = text.x + TEXT_PAD_PX + line.indent;
    if (line.rule)
      parts.push(
        `<line x1="${n(x)}" y1="${n(y + height / 2)}" x2="${n(text.x + width - TEXT_PAD_PX)}" y2="${n(y + height / 2)}" stroke="#bdbdbd"/>`,
      );
    if (line.code)
      parts.push(
        `<rect x="${n(text.x + TEXT_PAD_PX)}" y="${n(y)}" width="${n(width - 2 * TEXT_PAD_PX)}" height="${n(height)}" fill="#eceff1"/>`,
      );
    if (line.quote)
      parts.push(`<rect x="${n(text.x + TEXT_PAD_PX)}" y="${n(y)}" width="3" height="${n(height)}" fill="#bdbdbd"/>`);
    if (line.runs.length) {
      const size = line.size === BODY_FONT_PX ? '' : ` font-size="${line.size}"`;
      parts.push(
        `<text x="${n(x)}" y="${n(y + line.size)}"${size}${line.quote ? ' fill="#616161"' : ''}>${line.runs.map(runMarkup).join('')}</text>`,
      );
    }
    y += height;
  }
  return { markup: parts.join(''), height: Math.max(32, y - text.y + TEXT_PAD_PX) };
}

/** A Mermaid text: the diagram drawn and scaled into the box, or its source in a framed monospace box. */
function drawDiagram(
  text: TextItem,
  source: string,
  width: number,
  budget: DiagramBudget,
): { markup: string; height: number } {
  const started = performance.now();
  const affordable =
    budget.drawn < MAX_DRAWN_DIAGRAMS && budget.bytes < DIAGRAM_BYTES_BUDGET && budget.ms < DIAGRAM_LAYOUT_BUDGET_MS;
  const diagram = affordable ? drawMermaid(source, xml) : undefined;
  budget.ms += performance.now() - started;
  if (diagram) {
    budget.drawn++;
    budget.bytes += diagram.body.length;
    const inner = width - 2 * TEXT_PAD_PX;
    const scale = Math.min(inner / diagram.width, MAX_DIAGRAM_HEIGHT_PX / diagram.height, 1.5);
    const [w, h] = [diagram.width * scale, diagram.height * scale];
    const x = text.x + TEXT_PAD_PX + (inner - w) / 2;
    const markup = `<svg class="mermaid" x="${n(x)}" y="${n(text.y + TEXT_PAD_PX)}" width="${n(w)}" height="${n(h)}" viewBox="0 0 ${n(diagram.width)} ${n(diagram.height)}">${placeDiagram(diagram, `d${budget.drawn}-`)}</svg>`;
    return { markup, height: h + 2 * TEXT_PAD_PX };
  }
  // Not drawn (a type the renderer lacks, a syntax error, past the budget): the source, framed, in monospace.
  const kind =
    source
      .split('\n')
      .map((line) => line.trim())
      .find(Boolean)
      ?.split(/\s+/)[0] ?? 'diagram';
  const fenced = `**Mermaid: ${kind.replace(/[*_`~[\]]/g, '')}** (not drawn)\n\`\`\`\n${source}\n\`\`\``;
  return drawMarkdown({ ...text, content: fenced }, width, 12);
}

type DiagramBudget = { drawn: number; bytes: number; ms: number };

function drawText(text: TextItem, bounds: Bounds, maxLines: number, budget: DiagramBudget): string {
  const source = mermaidSource(text.content);
  const width = source === undefined ? (text.width ?? estimateTextBox(text).width) : estimateTextBox(text).width;
  const { markup, height } =
    source === undefined ? drawMarkdown(text, width, maxLines) : drawDiagram(text, source, width, budget);
  bounds.add({ x: text.x, y: text.y, width, height });
  const color = INK_HEX[text.color ?? 'auto'];
  const framed = !!text.diagram || source !== undefined;
  const classes = `text${text.postit ? ' postit' : ''}${framed ? ' diagram' : ''}${isAi(text.author) ? ' ai' : ''}`;
  return `<g class="${classes}" fill="${color}">${textFrame(text, width, height, framed)}${markup}</g>`;
}

function drawLink(link: LinkItem, bounds: Bounds): string {
  const label = truncate(hostname(link.url), 40);
  const width = 24 + [...label].length * 7;
  bounds.add({ x: link.x, y: link.y, width, height: 28 });
  const stroke = isAi(link.author) ? AI_BORDER : '#1976d2';
  return `<g class="link${isAi(link.author) ? ' ai' : ''}"><rect x="${n(link.x)}" y="${n(link.y)}" width="${n(width)}" height="28" rx="14" fill="#e3f2fd" stroke="${stroke}" stroke-width="${isAi(link.author) ? 2 : 1}"/><text x="${n(link.x + 12)}" y="${n(link.y + 19)}" fill="#0d47a1">${xml(label)}</text></g>`;
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

function drawStroke(stroke: StrokeItem, bounds: Bounds, tolerance: number, maxPoints: number): string {
  const points = simplify(stroke.points, tolerance, maxPoints);
  for (const [x, y] of points) bounds.add({ x, y, width: 0, height: 0 });
  const color = INK_HEX[stroke.color] ?? INK_HEX.auto;
  const path = points.map(([x, y]) => `${n(x)},${n(y)}`).join(' ');
  return `<polyline class="stroke${isAi(stroke.author) ? ' ai' : ''}" points="${path}" stroke="${color}"/>`;
}

function drawBoard(doc: Y.Doc): { body: string; bounds: Bounds } {
  const maps = boardMaps(doc);
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
  for (const ai of [false, true]) {
    const group = strokes.filter((stroke) => isAi(stroke.author) === ai);
    if (!group.length) continue;
    parts.push(
      `<g class="strokes${ai ? ' ai' : ''}" fill="none" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"${ai ? ' filter="url(#ai-border)"' : ''}>`,
    );
    for (const stroke of group) parts.push(drawStroke(stroke, bounds, tolerance, maxPoints));
    parts.push('</g>');
  }
  return { body: parts.join(''), bounds };
}

const CARD_HEIGHT_PX = 30;
const COLUMN_HEADER_PX = 36;
const COLUMN_GAP_PX = 16;
const LANE_GAP_PX = 40;
const LANE_LABEL_PX = 28;

function drawKanban(doc: Y.Doc): { body: string; bounds: Bounds } {
  const view = todoView(boardMaps(doc));
  const bounds = new Bounds();
  const parts: string[] = [];
  const titles = new Map(view.lanes.map((lane) => [lane.lane, lane.title]));
  const lanes = [...new Set(view.columns.map((column) => column.lane))].sort((a, b) => a - b);
  let y = 0;
  for (const lane of lanes) {
    const columns = view.columns.filter((column) => column.lane === lane);
    const title = titles.get(lane);
    if (title)
      parts.push(
        `<text class="lane" x="0" y="${n(y + 18)}" font-weight="bold" fill="#424242">${xml(truncate(title, 60))}</text>`,
      );
    const top = y + (title ? LANE_LABEL_PX : 0);
    let tallest = 0;
    columns.forEach((column, index) => {
      const x = index * (view.colWidth + COLUMN_GAP_PX);
      const tasks = view.tasks.filter((task) => task.column_id === column.id);
      const height = COLUMN_HEADER_PX + tasks.length * (CARD_HEIGHT_PX + 6) + 8;
      tallest = Math.max(tallest, height);
      bounds.add({ x, y: top, width: view.colWidth, height });
      const ai = isAi(column.author);
      parts.push(
        `<g class="column${ai ? ' ai' : ''}"><rect x="${n(x)}" y="${n(top)}" width="${n(view.colWidth)}" height="${n(height)}" rx="6" fill="${CARD_HEX[column.color ?? ''] ?? '#f5f5f5'}" stroke="${ai ? AI_BORDER : '#bdbdbd'}" stroke-width="${ai ? 2 : 1}"/><text x="${n(x + 10)}" y="${n(top + 23)}" font-weight="bold" fill="#212121">${xml(truncate(column.title || 'Untitled', 32))} (${tasks.length})</text></g>`,
      );
      tasks.forEach((task, i) => {
        const cardY = top + COLUMN_HEADER_PX + i * (CARD_HEIGHT_PX + 6);
        const taskAi = isAi(task.author);
        const badge = task.priority
          ? `<text x="${n(x + view.colWidth - 24)}" y="${n(cardY + 20)}" font-weight="bold" fill="${task.priority === 'H' ? '#c62828' : task.priority === 'M' ? '#ef6c00' : '#2e7d32'}">${task.priority}</text>`
          : '';
        parts.push(
          `<g class="task${task.done ? ' done' : ''}${taskAi ? ' ai' : ''}"><rect x="${n(x + 6)}" y="${n(cardY)}" width="${n(view.colWidth - 12)}" height="${CARD_HEIGHT_PX}" rx="4" fill="${CARD_HEX[task.color ?? ''] ?? '#ffffff'}" stroke="${taskAi ? AI_BORDER : '#e0e0e0'}" stroke-width="${taskAi ? 2 : 1}"/><text x="${n(x + 14)}" y="${n(cardY + 20)}" fill="${task.done ? '#9e9e9e' : '#212121'}"${task.done ? ' text-decoration="line-through"' : ''}>${task.done ? '☑' : '☐'} ${xml(truncate(task.name || 'Untitled', Math.max(8, Math.floor(view.colWidth / 8) - 6)))}</text>${badge}</g>`,
        );
      });
    });
    y = top + tallest + LANE_GAP_PX;
  }
  return { body: parts.join(''), bounds };
}

/** The preview of a board as an SVG document, sized to fit its content; cached until the next change. */
export function previewSvg(doc: Y.Doc, mode: BoardMode): string {
  return memoized(doc, `svg:${mode}`, () => renderPreview(doc, mode));
}

export function renderPreview(doc: Y.Doc, mode: BoardMode): string {
  const { body, bounds } = mode === 'todo' ? drawKanban(doc) : drawBoard(doc);
  const box = bounds.viewBox();
  // Both sizes: a browser derives a missing height from the viewBox, but resvg (the PNG) does not.
  const width = Math.min(box.width, 1600);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="${n(box.x)} ${n(box.y)} ${n(box.width)} ${n(box.height)}" width="${n(width)}" height="${n((width * box.height) / box.width)}" font-family="system-ui, sans-serif" font-size="14"><title>${mode === 'todo' ? 'Todo board' : 'Draw board'} preview</title><defs><filter id="ai-border" x="-20%" y="-20%" width="140%" height="140%"><feDropShadow dx="0" dy="0" stdDeviation="1.5" flood-color="${AI_BORDER}"/></filter></defs><rect x="${n(box.x)}" y="${n(box.y)}" width="${n(box.width)}" height="${n(box.height)}" fill="#fafafa"/>${body}</svg>\n`;
}
