/**
 * The rows of a text's Markdown (markdown.ts) laid out as the app lays them
 * out (its font size, line height, heading sizes, blank-line gaps, checkbox
 * width, list and quote indents), for the preview and for the sizes writes
 * answer: words wrapped to the box width with DejaVu Sans advances
 * (glyph-widths.ts: no font is loaded, it runs in the browser and on the
 * server alike).
 */
import { textWidth } from './glyph-widths.js';
import { LIST_INDENT_PX, parseMarkdown, type Row } from './markdown.js';

/** `advance` fixes a run's width where the app draws a control, not a glyph (a task's checkbox). */
export type Run = {
  text: string;
  bold?: boolean;
  italic?: boolean;
  code?: boolean;
  strike?: boolean;
  link?: boolean;
  advance?: number;
};
export type Line = {
  runs: Run[];
  size: number;
  indent: number;
  quote?: boolean;
  code?: boolean;
  rule?: boolean;
  gap?: boolean;
  /** Indent of the wrapped lines past the first (a task's label column). */
  hanging?: number;
};

/** The app's text metrics (styles.css `.item.text`, `.md-h1`, `.md-h2`, `.md-blank`, `.md-task`, `.md-code`). */
export const BODY_FONT_PX = 15;
const LINE_HEIGHT_EM = 1.45;
const HEADING_FONT_PX = [19.5, 17.25, 15, 15, 15, 15];
const BLANK_LINE_PX = 9;
const CODE_FONT_PX = 13;
/** A code line's text sits this far right of its shaded band. */
const CODE_INDENT_PX = 4;
/** A quotation's bar and the room after it (`.md-quote`: a 3 px border, 9 px padding). */
const QUOTE_INDENT_PX = 12;
/** A task's checkbox with its margins and the gap before its label. */
const CHECKBOX_PX = 26;
/** Where DejaVu Sans's baseline sits in a line 1.45 em high: half the leading, then the ascent. */
const BASELINE_EM = 1.071;
/** Source lines read and characters per source line: a 100 000-character text costs what its visible part costs. */
const MAX_SOURCE_LINES = 400;
const MAX_SOURCE_LINE_CHARS = 2_000;
/** The narrowest advance a character takes at the smallest size laid out (DejaVu Sans `i` at 13 px). */
const NARROWEST_GLYPH_PX = 3.6;

/** A row as one styled line, not yet wrapped. */
function rowLine(row: Row): Line {
  const base = { size: BODY_FONT_PX, indent: row.depth * LIST_INDENT_PX + (row.quote ? QUOTE_INDENT_PX : 0) };
  const runs = (extra: Omit<Run, 'text'> = {}): Run[] =>
    row.spans.map(({ href, ...span }) => ({ ...span, ...extra, ...(href ? { link: true } : {}) }));
  const quote = row.quote ? { quote: true, runs: runs({ italic: true }) } : { runs: runs() };
  switch (row.kind) {
    case 'heading':
      return { ...base, runs: runs({ bold: true }), size: HEADING_FONT_PX[row.level - 1], quote: row.quote };
    case 'item':
      return { ...base, ...quote, runs: [{ text: `${row.marker} ` }, ...quote.runs] };
    case 'task':
      return {
        ...base,
        ...quote,
        runs: [{ text: row.checked ? '☑ ' : '☐ ', advance: CHECKBOX_PX }, ...quote.runs],
        hanging: CHECKBOX_PX,
      };
    case 'code':
      return {
        ...base,
        quote: row.quote,
        runs: [{ text: row.spans[0]?.text.replace(/\t/g, '  ') || ' ', code: true }],
        size: CODE_FONT_PX,
        indent: base.indent + CODE_INDENT_PX,
        code: true,
      };
    case 'rule':
      return { ...base, runs: [], rule: true };
    case 'gap':
      return { ...base, runs: [], gap: true };
    case 'paragraph':
      return { ...base, ...quote };
  }
}

/** A text's rows, read from its first lines and their first characters, and what was left unread. */
export type ReadMarkdown = {
  rows: Row[];
  /** How much longer than read each cut source line is (its length over what was read). */
  cutLines: Map<number, number>;
  /** Source lines past those read. */
  unreadLines: number;
};

/**
 * Parses what of a text a layout reads: its first MAX_SOURCE_LINES lines and
 * of each at most the characters that can fill `maxLines` lines `width` px wide
 * (twice over, so a style opened early still closes), and MAX_SOURCE_LINE_CHARS.
 */
export function readMarkdown(content: string, width: number, maxLines = Number.POSITIVE_INFINITY): ReadMarkdown {
  const lines = content.split('\n');
  const cutLines = new Map<number, number>();
  const perLine = Math.min(MAX_SOURCE_LINE_CHARS, Math.ceil((2 * maxLines * width) / NARROWEST_GLYPH_PX));
  const read = lines.slice(0, MAX_SOURCE_LINES).map((line, i) => {
    if (line.length <= perLine) return line;
    cutLines.set(i, line.length / perLine);
    return line.slice(0, perLine);
  });
  return {
    rows: parseMarkdown(read.join('\n')),
    cutLines,
    unreadLines: Math.max(0, lines.length - MAX_SOURCE_LINES),
  };
}

/** Width in px of a run's text. */
export function runWidth(run: Run, size: number): number {
  return run.advance ?? textWidth(run.text, size, run);
}

/** Splits one styled line into lines no wider than `width` (words kept whole unless one alone is too wide). */
function wrap(line: Line, width: number): Line[] {
  const lines: Line[] = [];
  let room = Math.max(20, width - line.indent);
  let current: Run[] = [];
  let used = 0;
  const flush = () => {
    lines.push({ ...line, runs: current, indent: line.indent + (lines.length ? (line.hanging ?? 0) : 0) });
    current = [];
    used = 0;
    room = Math.max(20, width - line.indent - (line.hanging ?? 0));
  };
  for (const run of line.runs) {
    for (const piece of run.text.split(/(?<=\s)/)) {
      const rest = { ...run, text: piece };
      while (rest.text) {
        // Spaces at a line's end hang past its edge, as in the app (white-space: pre-wrap).
        const w = runWidth({ ...rest, text: rest.text.trimEnd() }, line.size);
        if (used + w <= room) {
          const previous = current.at(-1);
          if (previous && sameStyle(previous, rest) && previous.advance === undefined) previous.text += rest.text;
          else current.push(rest);
          used += runWidth(rest, line.size);
          break;
        }
        if (used > 0) {
          flush();
          continue;
        }
        // A word wider than the whole line (overflow-wrap: anywhere): cut where the room ends, in one pass.
        const chars = [...rest.text];
        let start = 0;
        let taken = 0;
        for (let i = 0; i < chars.length; i++) {
          const advance = textWidth(chars[i], line.size, rest);
          if (taken + advance > room && i > start && chars[i].trim()) {
            current.push({ ...rest, text: chars.slice(start, i).join('') });
            flush();
            [start, taken] = [i, 0];
          }
          taken += advance;
        }
        current.push({ ...rest, text: chars.slice(start).join('') });
        used = taken;
        break;
      }
    }
  }
  if (current.length || !lines.length) flush();
  for (const wrapped of lines) {
    const lastRun = wrapped.runs.at(-1);
    if (lastRun) lastRun.text = lastRun.text.trimEnd();
  }
  return lines;
}

function sameStyle(a: Run, b: Run): boolean {
  return (
    !!a.bold === !!b.bold &&
    !!a.italic === !!b.italic &&
    !!a.code === !!b.code &&
    !!a.strike === !!b.strike &&
    !!a.link === !!b.link
  );
}

/**
 * The lines a text's rows show in a box `width` px wide (padding excluded), at
 * most `maxLines`; `cut` says whether some of the text did not fit, `unread`
 * estimates the height of what was not read (lines past the first ones, the
 * rest of a very long line).
 */
export function markdownLines(
  { rows, cutLines, unreadLines }: ReadMarkdown,
  width: number,
  maxLines: number,
): { lines: Line[]; cut: boolean; unread: number } {
  const lines: Line[] = [];
  let cut = unreadLines > 0;
  let unread = unreadLines * BODY_FONT_PX * LINE_HEIGHT_EM;
  for (const row of rows) {
    if (lines.length >= maxLines) {
      cut = true;
      break;
    }
    const line = rowLine(row);
    const laid = line.gap || line.rule ? [line] : wrap(line, width);
    const ratio = cutLines.get(row.line);
    if (ratio) unread += laid.reduce((sum, one) => sum + lineHeight(one), 0) * (ratio - 1);
    lines.push(...laid);
  }
  if (lines.length > maxLines) {
    lines.length = maxLines;
    cut = true;
  }
  return { lines, cut, unread };
}

/** The widest row laid out without wrapping: the width the app gives a text that has none set. */
export function naturalWidth({ rows }: ReadMarkdown): number {
  let widest = 0;
  for (const row of rows) {
    if (row.kind === 'gap' || row.kind === 'rule') continue;
    const line = rowLine(row);
    widest = Math.max(widest, line.indent + line.runs.reduce((sum, run) => sum + runWidth(run, line.size), 0));
  }
  return widest;
}

/** Where a line's baseline sits below its top. */
export function baseline(line: Line): number {
  return line.size * BASELINE_EM + (lineHeight(line) - line.size * LINE_HEIGHT_EM) / 2;
}

/** Height in px of a laid-out line. */
export function lineHeight(line: Line): number {
  if (line.gap) return BLANK_LINE_PX;
  if (line.rule) return BODY_FONT_PX * LINE_HEIGHT_EM;
  return line.size * LINE_HEIGHT_EM;
}
