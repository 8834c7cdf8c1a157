/**
 * The board markup of a text, laid out for the schematic preview: headings
 * larger and bold, **bold**, *italic*, `code` and fenced code in monospace,
 * ~~struck~~, [links](…) by their label, bullets, numbers, `[ ]`/`[x]` as ☐/☑,
 * quotes, rules; words wrapped to the box width with an estimate of the glyph
 * widths (the preview has no font metrics: it runs in the browser and on the
 * server alike).
 */

export type Run = { text: string; bold?: boolean; italic?: boolean; code?: boolean; strike?: boolean; link?: boolean };
export type Line = {
  runs: Run[];
  size: number;
  indent: number;
  quote?: boolean;
  code?: boolean;
  rule?: boolean;
  gap?: boolean;
};

export const BODY_FONT_PX = 14;
const HEADING_FONT_PX = [22, 18, 16, 15, 14, 14];
/** Average advance of a glyph in em (DejaVu Sans runs wide; an overestimate wraps early rather than overflowing the box). */
const EM_REGULAR = 0.6;
const EM_BOLD = 0.66;
const EM_MONO = 0.61;
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
  const [, spaces, bullet, number, check, rest] = item;
  const hasCheck = /^\s*(?:(?:[-*+]|\d+[.)])\s+)?\[(?: |x|X)?\]/.test(source);
  const indent = Math.min(6, Math.floor(spaces.replace(/\t/g, '  ').length / 2)) * 14;
  if (hasCheck) {
    const done = check === 'x' || check === 'X';
    return { runs: [{ text: done ? '☑ ' : '☐ ' }, ...inlineRuns(rest)], size: BODY_FONT_PX, indent };
  }
  if (bullet) return { runs: [{ text: '• ' }, ...inlineRuns(rest)], size: BODY_FONT_PX, indent };
  if (number) return { runs: [{ text: `${number}. ` }, ...inlineRuns(rest)], size: BODY_FONT_PX, indent };
  const quote = /^\s*>\s?(.*)$/.exec(source);
  if (quote) return { runs: inlineRuns(quote[1], { italic: true }), size: BODY_FONT_PX, indent: 12, quote: true };
  if (/^\s*(?:-{3,}|\*{3,}|_{3,})\s*$/.test(source)) return { runs: [], size: BODY_FONT_PX, indent: 0, rule: true };
  return { runs: inlineRuns(source.trim()), size: BODY_FONT_PX, indent };
}

/** Estimated width in px of a run's text. */
export function runWidth(run: Run, size: number): number {
  return [...run.text].length * size * (run.code ? EM_MONO : run.bold ? EM_BOLD : EM_REGULAR);
}

/** Splits one styled line into lines no wider than `width` (words kept whole unless one alone is too wide). */
function wrap(line: Line, width: number): Line[] {
  const room = Math.max(40, width - line.indent);
  const lines: Line[] = [];
  let current: Run[] = [];
  let used = 0;
  const flush = () => {
    lines.push({ ...line, runs: current, indent: lines.length && !line.quote ? line.indent + 14 : line.indent });
    current = [];
    used = 0;
  };
  for (const run of line.runs) {
    for (const piece of run.text.split(/(?<=\s)/)) {
      let rest = { ...run, text: piece };
      while (rest.text) {
        const w = runWidth(rest, line.size);
        if (used + w <= room || (used === 0 && w <= room)) {
          const previous = current.at(-1);
          if (previous && sameStyle(previous, rest)) previous.text += rest.text;
          else current.push(rest);
          used += w;
          break;
        }
        if (used > 0 && runWidth({ ...rest, text: rest.text.trimEnd() }, line.size) <= room) {
          flush();
          continue;
        }
        // A word wider than the whole line: cut it where the room ends.
        const chars = [...rest.text];
        const fit = Math.max(
          1,
          Math.floor((room - used) / line.size / (rest.code ? EM_MONO : rest.bold ? EM_BOLD : EM_REGULAR)),
        );
        if (fit >= chars.length) {
          flush();
          continue;
        }
        current.push({ ...rest, text: chars.slice(0, fit).join('') });
        flush();
        rest = { ...rest, text: chars.slice(fit).join('') };
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
export function markdownLines(content: string, width: number, maxLines: number): { lines: Line[]; cut: boolean } {
  const lines: Line[] = [];
  const source = content.split('\n', MAX_SOURCE_LINES + 1);
  let fence = false;
  let blank = false;
  let cut = source.length > MAX_SOURCE_LINES;
  for (const raw of source.slice(0, MAX_SOURCE_LINES)) {
    if (lines.length >= maxLines) {
      cut = true;
      break;
    }
    const text = raw.length > MAX_SOURCE_LINE_CHARS ? raw.slice(0, MAX_SOURCE_LINE_CHARS) : raw;
    if (/^\s*(```|~~~)/.test(text)) {
      fence = !fence;
      continue;
    }
    if (fence) {
      lines.push(
        ...wrap(
          { runs: [{ text: text.replace(/\t/g, '  ') || ' ', code: true }], size: 13, indent: 4, code: true },
          width,
        ),
      );
      continue;
    }
    if (!text.trim()) {
      if (lines.length && !blank) lines.push({ runs: [], size: BODY_FONT_PX, indent: 0, gap: true });
      blank = true;
      continue;
    }
    blank = false;
    lines.push(...wrap(blockLine(text), width));
  }
  if (lines.length > maxLines) {
    lines.length = maxLines;
    cut = true;
  }
  while (lines.at(-1)?.gap) lines.pop();
  return { lines, cut };
}

/** Height in px of a laid-out line. */
export function lineHeight(line: Line): number {
  if (line.gap) return 6;
  if (line.rule) return 12;
  return Math.round(line.size * 1.35);
}
