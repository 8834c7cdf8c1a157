/**
 * The board markup of a text, laid out as the app lays it out (its font size,
 * line height, heading sizes, blank-line gaps and checkbox width) for the
 * preview and for the sizes writes answer: headings larger and bold, **bold**,
 * *italic*, `code` and fenced code in monospace, ~~struck~~, [links](…) by
 * their label, bullets, numbers, `[ ]`/`[x]` as ☐/☑, quotes, rules; words
 * wrapped to the box width with DejaVu Sans advances (glyph-widths.ts: no font
 * is loaded, it runs in the browser and on the server alike).
 */
import { textWidth } from './glyph-widths.js';

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

/** The app's text metrics (styles.css `.item.text`, `.md-h1`, `.md-h2`, `.md-blank`, `.md-task`). */
export const BODY_FONT_PX = 15;
const LINE_HEIGHT_EM = 1.45;
const HEADING_FONT_PX = [19.5, 17.25, 15, 15, 15, 15];
const BLANK_LINE_PX = 9;
/** A task's checkbox with its margins and the gap before its label. */
const CHECKBOX_PX = 26;
/** Where DejaVu Sans's baseline sits in a line 1.45 em high: half the leading, then the ascent. */
const BASELINE_EM = 1.071;
/** Source lines read and characters per source line: a 100 000-character text costs what its visible part costs. */
const MAX_SOURCE_LINES = 400;
const MAX_SOURCE_LINE_CHARS = 2_000;

const INLINE =
  /\*\*(.+?)\*\*|__(.+?)__|~~(.+?)~~|`([^`]+)`|\[([^\]]+)\]\([^)\s]*\)|(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?!\*)|(?<!\w)_(?!\s)(.+?)(?<!\s)_(?!\w)/g;

/** Inline Markdown of one line as styled runs. */
export function inlineRuns(text: string, base: Omit<Run, 'text'> = {}): Run[] {
  const runs: Run[] = [];
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    if (match.index > last) runs.push({ ...base, text: text.slice(last, match.index) });
    const [, bold1, bold2, strike, code, link, italic1, italic2] = match;
    if (bold1 ?? bold2) runs.push(...inlineRuns((bold1 ?? bold2)!, { ...base, bold: true }));
    else if (strike) runs.push(...inlineRuns(strike, { ...base, strike: true }));
    else if (code) runs.push({ ...base, text: code, code: true });
    else if (link) runs.push(...inlineRuns(link, { ...base, link: true }));
    else runs.push(...inlineRuns((italic1 ?? italic2)!, { ...base, italic: true }));
    last = match.index + match[0].length;
  }
  if (last < text.length) runs.push({ ...base, text: text.slice(last) });
  return runs;
}

function blockLine(source: string): Line {
  const heading = /^(#{1,6})\s+(.*)$/.exec(source);
  if (heading)
    return {
      runs: inlineRuns(heading[2].replace(/\s+#+\s*$/, ''), { bold: true }),
      size: HEADING_FONT_PX[heading[1].length - 1],
      indent: 0,
    };
  const item = /^(\s*)(?:([-*+])\s+|(\d+)[.)]\s+)?(?:\[( |x|X)?\]\s*)?(.*)$/.exec(source)!;
  const [, , bullet, number, check, rest] = item;
  const hasCheck = /^\s*(?:(?:[-*+]|\d+[.)])\s+)?\[(?: |x|X)?\]/.test(source);
  // The app indents neither nested items nor their wrapped lines; a task's label stays right of its checkbox.
  const indent = 0;
  if (hasCheck) {
    const done = check === 'x' || check === 'X';
    return {
      runs: [{ text: done ? '☑ ' : '☐ ', advance: CHECKBOX_PX }, ...inlineRuns(rest)],
      size: BODY_FONT_PX,
      indent,
      hanging: CHECKBOX_PX,
    };
  }
  if (bullet) return { runs: [{ text: '• ' }, ...inlineRuns(rest)], size: BODY_FONT_PX, indent };
  if (number) return { runs: [{ text: `${number}. ` }, ...inlineRuns(rest)], size: BODY_FONT_PX, indent };
  const quote = /^\s*>\s?(.*)$/.exec(source);
  if (quote) return { runs: inlineRuns(quote[1], { italic: true }), size: BODY_FONT_PX, indent: 12, quote: true };
  if (/^\s*(?:-{3,}|\*{3,}|_{3,})\s*$/.test(source)) return { runs: [], size: BODY_FONT_PX, indent: 0, rule: true };
  return { runs: inlineRuns(source.trim()), size: BODY_FONT_PX, indent };
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
 * The lines a text shows in a box `width` px wide (padding excluded), at most
 * `maxLines`; `cut` says whether some of the text did not fit.
 */
export function markdownLines(
  content: string,
  width: number,
  maxLines: number,
  fences = false,
): { lines: Line[]; cut: boolean; unread: number } {
  const lines: Line[] = [];
  const source = content.split('\n', MAX_SOURCE_LINES + 1);
  let fence = false;
  let cut = source.length > MAX_SOURCE_LINES;
  // Height of what is not laid out, estimated: the rest of a line past its first characters, lines past the first ones.
  let unread = cut ? (content.split('\n').length - MAX_SOURCE_LINES) * BODY_FONT_PX * LINE_HEIGHT_EM : 0;
  for (const raw of source.slice(0, MAX_SOURCE_LINES)) {
    if (lines.length >= maxLines) {
      cut = true;
      break;
    }
    const text = raw.length > MAX_SOURCE_LINE_CHARS ? raw.slice(0, MAX_SOURCE_LINE_CHARS) : raw;
    if (fences && /^\s*(```|~~~)/.test(text)) {
      fence = !fence;
      continue;
    }
    const laid = fence
      ? wrap({ runs: [{ text: text.replace(/\t/g, '  ') || ' ', code: true }], size: 13, indent: 4, code: true }, width)
      : // Every blank line is a gap of its own, as the app draws it.
        text.trim()
        ? wrap(blockLine(text), width)
        : [{ runs: [], size: BODY_FONT_PX, indent: 0, gap: true }];
    if (text !== raw) unread += laid.reduce((sum, line) => sum + lineHeight(line), 0) * (raw.length / text.length - 1);
    lines.push(...laid);
  }
  if (lines.length > maxLines) {
    lines.length = maxLines;
    cut = true;
  }
  return { lines, cut, unread };
}

/** The widest line of a text laid out without wrapping: the width the app gives a text that has none set. */
export function naturalWidth(content: string, maxChars: number): number {
  let widest = 0;
  for (const raw of content.slice(0, maxChars).split('\n', MAX_SOURCE_LINES)) {
    if (!raw.trim()) continue;
    const line = blockLine(raw.length > MAX_SOURCE_LINE_CHARS ? raw.slice(0, MAX_SOURCE_LINE_CHARS) : raw);
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
