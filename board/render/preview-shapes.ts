/**
 * Shapes, frames and connector labels in the preview (the contract's shapes
 * extension): a shape is its outline in its ink with its fill and its label
 * centred inside, laid out as a text's markup is; a frame is a light area with
 * its title above its top-left; a stroke's label sits at the middle of its
 * path on a small background. Every user string is escaped.
 */
import { INK_HEX, type Point } from '../../schema/index.js';
import type { FrameItem, ShapeItem, StrokeItem } from '../model/document-model.js';
import type { World } from '../model/geometry.js';
import { textWidth } from './glyph-widths.js';
import { AI_BORDER, AI_WIDTH, type Box, type Canvas, isAi, n, truncate } from './preview-canvas.js';
import { blend, inkOnFill, readableOn } from './preview-ink.js';
import { drawLines, linesHeight } from './preview-lines.js';
import { BODY_FONT_PX, markdownLines, readMarkdown } from './preview-markdown.js';
import { xml } from './xml.js';

/** What a shape's label is drawn on when it has no fill: the preview's background. */
const BACKGROUND = '#fafafa';
/** A `semi` fill: the shape's colour this opaque. */
export const SEMI_FILL_OPACITY = 0.2;
const OUTLINE_PX = 2;
/** The rim an AI author's shape gets, under its outline: a glow without a filter, which a rasteriser runs per element. */
const AI_RIM_PX = 7;
const LABEL_PAD_PX = 6;
/** Lines and characters of label text shared by all shapes, so a board of 1000 labelled shapes stays bounded. */
const MAX_LINES_PER_LABEL = 40;
const LABEL_LINE_BUDGET = 1_000;
const LABEL_CHAR_BUDGET = 100_000;
const MIN_CHARS_PER_LABEL = 60;

/** What each label may show: at most this many lines and the first this many characters of its source. */
export type LabelBudget = { lines: number; chars: number };

export function labelBudget(shapes: number): LabelBudget {
  const count = Math.max(1, shapes);
  return {
    lines: Math.max(1, Math.min(MAX_LINES_PER_LABEL, Math.floor(LABEL_LINE_BUDGET / count))),
    chars: Math.max(MIN_CHARS_PER_LABEL, Math.floor(LABEL_CHAR_BUDGET / count)),
  };
}

/** The outline's element: a slightly rounded rectangle, the ellipse inscribed in the box, or the diamond on its sides' middles. */
function outline(shape: ShapeItem, attributes: string): string {
  const { x, y, width: w, height: h } = shape;
  switch (shape.shape) {
    case 'rectangle':
      return `<rect x="${n(x)}" y="${n(y)}" width="${n(w)}" height="${n(h)}" rx="${n(Math.min(8, w / 8, h / 8))}"${attributes}/>`;
    case 'ellipse':
      return `<ellipse cx="${n(x + w / 2)}" cy="${n(y + h / 2)}" rx="${n(w / 2)}" ry="${n(h / 2)}"${attributes}/>`;
    case 'diamond':
      return `<polygon points="${n(x + w / 2)},${n(y)} ${n(x + w)},${n(y + h / 2)} ${n(x + w / 2)},${n(y + h)} ${n(x)},${n(y + h / 2)}"${attributes}/>`;
  }
}

/** The part of a shape its label is laid out in: the box less padding, the rectangle inscribed in an ellipse or diamond. */
function labelArea(shape: ShapeItem): Box {
  const share = shape.shape === 'rectangle' ? 1 : shape.shape === 'ellipse' ? Math.SQRT1_2 : 0.5;
  const pad = shape.shape === 'rectangle' ? LABEL_PAD_PX : LABEL_PAD_PX / 2;
  const [width, height] = [shape.width * share - 2 * pad, shape.height * share - 2 * pad];
  return { x: shape.x + (shape.width - width) / 2, y: shape.y + (shape.height - height) / 2, width, height };
}

/** The colour a shape's label reads in on its fill. */
function labelInk(shape: ShapeItem, ink: string): string {
  if (shape.fill === 'solid') return inkOnFill(ink);
  return readableOn(ink, shape.fill === 'semi' ? blend(ink, BACKGROUND, SEMI_FILL_OPACITY) : BACKGROUND);
}

/** A shape's label: its markup wrapped to the label area, centred, the lines that do not fit cut, clipped to the shape. */
function drawLabel(shape: ShapeItem, ink: string, budget: LabelBudget, clipId: string): string {
  const source = shape.label?.slice(0, budget.chars) ?? '';
  if (!source.trim()) return '';
  const area = labelArea(shape);
  const width = Math.max(1, area.width);
  const laid = markdownLines(readMarkdown(source, width, budget.lines), width, budget.lines);
  let cut = laid.cut || source.length < (shape.label?.length ?? 0);
  const lines = laid.lines;
  while (lines.length > 1 && linesHeight(lines) > area.height) {
    lines.pop();
    cut = true;
  }
  const height = linesHeight(lines);
  const centre = shape.y + shape.height / 2;
  const markup = drawLines(
    { lines, cut },
    { left: area.x, right: area.x + width, top: centre - height / 2, centred: true },
  );
  // Only a label that still overflows (a shape smaller than one line) needs the clip; most shapes carry none.
  const clipped = height > area.height || area.width < 2 * BODY_FONT_PX;
  const clip = clipped ? `<clipPath id="${clipId}">${outline(shape, '')}</clipPath>` : '';
  return `${clip}<g class="label" fill="${labelInk(shape, ink)}" text-anchor="middle"${clipped ? ` clip-path="url(#${clipId})"` : ''}>${markup}</g>`;
}

/** A shape in its ink (`auto` the dark one), filled as its `fill` says, its label inside; `index` names its clip. */
export function drawShape(shape: ShapeItem, canvas: Canvas, budget: LabelBudget, index: number): void {
  if (canvas.pastArea(shape.x, shape.y)) return;
  const ink = INK_HEX[shape.color] ?? INK_HEX.auto;
  const ai = isAi(shape.author);
  const fill =
    shape.fill === 'none'
      ? ' fill="none"'
      : ` fill="${ink}"${shape.fill === 'semi' ? ` fill-opacity="${SEMI_FILL_OPACITY}"` : ''}`;
  const rim = ai
    ? outline(shape, ` fill="none" stroke="${AI_BORDER}" stroke-opacity="0.45" stroke-width="${AI_RIM_PX}"`)
    : '';
  const body = outline(shape, `${fill} stroke="${ink}" stroke-width="${OUTLINE_PX}"`);
  const label = drawLabel(shape, ink, budget, `shape-clip-${index}`);
  const classes = `shape ${shape.shape} fill-${shape.fill}${ai ? ' ai' : ''}`;
  canvas.put(shape, `<g class="${classes}">${rim}${body}${label}</g>`);
}

const FRAME_TITLE_PX = 13;
/** Room above a frame for its title: the line and the gap under it. */
export const FRAME_TITLE_ROOM_PX = 24;

/** `text` cut with `…` to at most `width` px at `size`. */
function fitted(text: string, width: number, size: number): string {
  if (textWidth(text, size) <= width) return text;
  const room = width - textWidth('…', size);
  let used = 0;
  let shown = '';
  for (const char of text) {
    used += textWidth(char, size);
    if (used > room) break;
    shown += char;
  }
  return `${shown.trimEnd()}…`;
}

/** A frame: a light area with a thin border and its title above its top-left, cut to the frame's width. */
export function drawFrame(frame: FrameItem, canvas: Canvas): void {
  const ai = isAi(frame.author);
  const { x, y, width, height } = frame;
  const title = frame.title?.trim()
    ? `<text class="frame-title" x="${n(x)}" y="${n(y - 8)}" font-size="${FRAME_TITLE_PX}" fill="#546e7a">${xml(fitted(frame.title, width, FRAME_TITLE_PX))}</text>`
    : '';
  const box = `<rect x="${n(x)}" y="${n(y)}" width="${n(width)}" height="${n(height)}" rx="4" fill="#ffffff" stroke="${ai ? AI_BORDER : '#b0bec5'}" stroke-width="${ai ? AI_WIDTH : 1}"/>`;
  canvas.put(
    { x, y: y - (title ? FRAME_TITLE_ROOM_PX : 0), width, height: height + (title ? FRAME_TITLE_ROOM_PX : 0) },
    `<g class="frame${ai ? ' ai' : ''}">${box}${title}</g>`,
  );
}

/** The point halfway along a path, by length (its first point when it has none). */
export function pathMiddle(points: Point[]): World {
  const lengths = [0];
  for (let i = 1; i < points.length; i++)
    lengths.push(lengths[i - 1] + Math.hypot(points[i][0] - points[i - 1][0], points[i][1] - points[i - 1][1]));
  if (points.length < 2) return { x: points[0]?.[0] ?? 0, y: points[0]?.[1] ?? 0 };
  const half = (lengths.at(-1) ?? 0) / 2;
  const i = Math.max(
    1,
    lengths.findIndex((length) => length >= half),
  );
  const span = lengths[i] - lengths[i - 1];
  const t = span === 0 ? 0 : (half - lengths[i - 1]) / span;
  const [[x1, y1], [x2, y2]] = [points[i - 1], points[i]];
  return { x: x1 + (x2 - x1) * t, y: y1 + (y2 - y1) * t };
}

const LINE_LABEL_PX = 13;
/** Stroke labels drawn, and the characters each shows (one line): a board of 2000 labelled strokes stays bounded. */
const MAX_DRAWN_LINE_LABELS = 500;
const MAX_LINE_LABEL_CHARS = 60;

/** A stroke's label at the middle of its path, on a small background so it reads over the line. */
function drawLineLabel(stroke: StrokeItem, canvas: Canvas): boolean {
  const text = truncate(stroke.label?.trim() ?? '', MAX_LINE_LABEL_CHARS);
  const middle = pathMiddle(stroke.points);
  const [width, height] = [textWidth(text, LINE_LABEL_PX) + 2 * LABEL_PAD_PX, LINE_LABEL_PX * 1.45 + 4];
  const box = { x: middle.x - width / 2, y: middle.y - height / 2, width, height };
  const ink = readableOn(INK_HEX[stroke.color] ?? INK_HEX.auto, '#ffffff');
  return canvas.put(
    box,
    `<g class="line-label"><rect x="${n(box.x)}" y="${n(box.y)}" width="${n(width)}" height="${n(height)}" rx="4" fill="#ffffff"/><text x="${n(middle.x)}" y="${n(middle.y + LINE_LABEL_PX * 0.36)}" fill="${ink}">${xml(text)}</text></g>`,
  );
}

/** The labels of the strokes that have one, over every stroke, in one group; past MAX_DRAWN_LINE_LABELS, none. */
export function drawLineLabels(strokes: Iterable<StrokeItem>, canvas: Canvas): void {
  canvas.raw(`<g class="line-labels" font-size="${LINE_LABEL_PX}" text-anchor="middle">`);
  let drawn = 0;
  for (const stroke of strokes) {
    if (drawn >= MAX_DRAWN_LINE_LABELS) break;
    if (stroke.label?.trim() && drawLineLabel(stroke, canvas)) drawn++;
  }
  canvas.raw('</g>');
}
