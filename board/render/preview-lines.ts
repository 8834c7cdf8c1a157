/** Laid-out lines of board markup (preview-markdown.ts) as SVG text: a text's, left-aligned, or a shape label's, centred. */
import { n } from './preview-canvas.js';
import { BODY_FONT_PX, baseline, type Line, lineHeight, type Run } from './preview-markdown.js';
import { xml } from './xml.js';

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

/** The height the lines take. */
export const linesHeight = (lines: Line[]): number => lines.reduce((sum, line) => sum + lineHeight(line), 0);

/**
 * Where lines are drawn: between `left` and `right`, from `top` down, each
 * line starting at the left, or at the middle when `centred` (the enclosing
 * group then says `text-anchor="middle"` once for all of them).
 */
export type LineBox = { left: number; right: number; top: number; centred?: boolean };

/** Laid-out lines, the last marked `…` when some did not fit (`cut`). */
export function drawLines(
  { lines, cut }: { lines: Line[]; cut: boolean },
  { left, right, top, centred }: LineBox,
): string {
  const last = lines.at(-1);
  if (cut && last) {
    if (last.gap || last.rule) lines[lines.length - 1] = { runs: [{ text: '…' }], size: BODY_FONT_PX, indent: 0 };
    else last.runs.push({ text: ' …' });
  }
  const parts: string[] = [];
  let y = top;
  for (const line of lines) {
    const height = lineHeight(line);
    const x = centred ? (left + right + line.indent) / 2 : left + line.indent;
    if (line.rule)
      parts.push(
        `<line x1="${n(left + line.indent)}" y1="${n(y + height / 2)}" x2="${n(right)}" y2="${n(y + height / 2)}" stroke="#bdbdbd"/>`,
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
