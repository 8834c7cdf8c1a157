/**
 * Board markup, the Markdown of a text node or a task's description, read by
 * one parser (markdown-it) into rows: one row per line the reader sees, its
 * kind and its styled spans. The app builds its DOM from the rows
 * (web/src/draw/markup.ts) and the preview and the answered `bbox` lay out
 * the same rows (preview-markdown.ts), so both show the same Markdown.
 */
import MarkdownIt, { type Token } from 'markdown-it';

/** Every newline is a line break (`breaks`), as typed on a note; bare http(s) URLs become links; no HTML. */
const parser = new MarkdownIt({ html: false, linkify: true, breaks: true });
// Only http(s) URLs written out are links: no "example.org", e-mail or "//host" guesses.
parser.linkify.set({ fuzzyLink: false, fuzzyEmail: false, fuzzyIP: false });
for (const schema of ['mailto:', 'ftp:', '//']) parser.linkify.add(schema, null);
// A table or an image would need a layout the preview does not have: they show as written.
parser.disable(['table', 'image']);

/** A run of text in one style; `href` is set on http(s) links only, the ones a click opens. */
export type Span = { text: string; bold?: boolean; italic?: boolean; strike?: boolean; code?: boolean; href?: string };

/**
 * One line as shown: `line` is its source line (0-based, what a checkbox
 * rewrites), `depth` its list nesting, `quote` whether it is in a quotation.
 */
export type Row = { line: number; depth: number; quote: boolean; spans: Span[] } & (
  | { kind: 'paragraph' | 'code' | 'rule' | 'gap' }
  | { kind: 'heading'; level: number }
  | { kind: 'item'; marker: string }
  | { kind: 'task'; checked: boolean }
);

/** How far each level of a nested list is indented. */
export const LIST_INDENT_PX = 20;

/** A text whose whole content is exactly one fenced mermaid block: it is drawn as a diagram. */
export const MERMAID_ONLY = /^\s*```mermaid[^\n]*\n([\s\S]*?)\n?```\s*$/;

/** The Mermaid source of a text that is one fenced `mermaid` block. */
export function mermaidSource(content: string): string | undefined {
  return MERMAID_ONLY.exec(content)?.[1];
}

/** A task's checkbox at the start of a line's text: `[ ]`, `[x]` or `[]`, then a space or the end. */
const TASK = /^\[( |x|X)?\](?:\s+|$)/;
/** The same checkbox in the source line, after any quote marks and list marker: what a click rewrites. */
const SOURCE_TASK = /^(\s*(?:>\s*)*(?:(?:[-*+]|\d{1,9}[.)])\s+)?)\[( |x|X)?\](.*)$/;

type Context = { depth: number; quote: boolean };

/** The rows of a text, in source order, with a gap row for every blank line outside code. */
export function parseMarkdown(content: string): Row[] {
  const source = content.replace(/\r\n?/g, '\n');
  const tokens = parser.parse(source, {});
  const rows: Row[] = [];
  const inCode = new Set<number>();
  const lists: string[] = [];
  let quotes = 0;
  let marker: string | undefined;
  let markerLine = 0;
  let heading = 0;
  const context = (): Context => ({ depth: Math.max(0, lists.length - 1), quote: quotes > 0 });
  for (const token of tokens) {
    switch (token.type) {
      case 'bullet_list_open':
      case 'ordered_list_open':
        lists.push(token.type);
        break;
      case 'bullet_list_close':
      case 'ordered_list_close':
        lists.pop();
        break;
      case 'list_item_open':
        marker = token.info ? `${token.info}${token.markup}` : '•';
        markerLine = token.map?.[0] ?? 0;
        break;
      case 'list_item_close':
        // An item with nothing after its marker still shows its bullet.
        if (marker !== undefined) rows.push({ kind: 'item', marker, line: markerLine, spans: [], ...context() });
        marker = undefined;
        break;
      case 'blockquote_open':
        quotes++;
        break;
      case 'blockquote_close':
        quotes--;
        break;
      case 'heading_open':
        heading = Number(token.tag.slice(1));
        break;
      case 'heading_close':
        heading = 0;
        break;
      case 'inline': {
        const first = token.map?.[0] ?? 0;
        splitLines(token.children ?? []).forEach((spans, i) => {
          const at = { line: first + i, spans, ...context() };
          if (heading) rows.push({ kind: 'heading', level: heading, ...at });
          else
            rows.push(
              taskRow(at) ?? (i === 0 && marker !== undefined ? { kind: 'item', marker, ...at } : paragraph(at)),
            );
        });
        marker = undefined;
        break;
      }
      case 'fence':
      case 'code_block': {
        const [start, end] = token.map ?? [0, 0];
        for (let line = start; line < end; line++) inCode.add(line);
        const first = start + (token.type === 'fence' ? 1 : 0);
        for (const [i, text] of token.content.replace(/\n$/, '').split('\n').entries())
          rows.push({ kind: 'code', line: first + i, spans: text ? [{ text, code: true }] : [], ...context() });
        marker = undefined;
        break;
      }
      case 'hr':
        rows.push({ kind: 'rule', line: token.map?.[0] ?? 0, spans: [], ...context() });
        marker = undefined;
        break;
    }
  }
  return withGaps(rows, source.split('\n'), inCode);
}

function paragraph(at: Omit<Row, 'kind'>): Row {
  return { kind: 'paragraph', ...at };
}

/** A line whose text opens with a checkbox is a task, in a list or not. */
function taskRow(at: Omit<Row, 'kind'>): Row | undefined {
  const [first, ...rest] = at.spans;
  const box = first && !first.code && !first.href && !first.bold && !first.italic ? TASK.exec(first.text) : null;
  if (!box) return undefined;
  const label = first.text.slice(box[0].length);
  return {
    kind: 'task',
    checked: box[1] === 'x' || box[1] === 'X',
    ...at,
    spans: label ? [{ ...first, text: label }, ...rest] : rest,
  };
}

/** The inline tokens of a paragraph or heading as styled spans, one list of them per line. */
function splitLines(children: Token[]): Span[][] {
  let line: Span[] = [];
  const lines: Span[][] = [line];
  let bold = false;
  let italic = false;
  let strike = false;
  const links: (string | undefined)[] = [];
  const push = (text: string, code = false) => {
    if (!text) return;
    const span: Span = { text };
    const href = links.at(-1);
    if (bold) span.bold = true;
    if (italic) span.italic = true;
    if (strike) span.strike = true;
    if (code) span.code = true;
    if (href) span.href = href;
    line.push(span);
  };
  for (const child of children) {
    switch (child.type) {
      case 'text':
        push(child.content);
        break;
      case 'code_inline':
        push(child.content, true);
        break;
      case 'softbreak':
      case 'hardbreak':
        line = [];
        lines.push(line);
        break;
      case 'strong_open':
      case 'strong_close':
        bold = child.type === 'strong_open';
        break;
      case 'em_open':
      case 'em_close':
        italic = child.type === 'em_open';
        break;
      case 's_open':
      case 's_close':
        strike = child.type === 's_open';
        break;
      case 'link_open': {
        const href = String(child.attrGet('href') ?? '');
        links.push(/^https?:\/\//i.test(href) ? href : undefined);
        break;
      }
      case 'link_close':
        links.pop();
        break;
    }
  }
  return lines;
}

/** Every blank source line outside code is a gap of its own, as the app has always drawn it. */
function withGaps(rows: Row[], lines: string[], inCode: Set<number>): Row[] {
  const out: Row[] = [];
  let next = 0;
  const gapsBefore = (line: number) => {
    for (; next < line && next < lines.length; next++)
      if (!inCode.has(next) && !lines[next].trim())
        out.push({ kind: 'gap', line: next, depth: 0, quote: false, spans: [] });
  };
  for (const row of rows) {
    gapsBefore(row.line);
    next = Math.max(next, row.line + 1);
    out.push(row);
  }
  gapsBefore(lines.length);
  return out;
}

/** The content with the checkbox on source line `line` flipped (unchanged when that line holds none). */
export function toggleCheckbox(content: string, line: number): string {
  const lines = content.split('\n');
  const box = SOURCE_TASK.exec(lines[line] ?? '');
  if (!box) return content;
  const checked = box[2] === 'x' || box[2] === 'X';
  lines[line] = `${box[1]}[${checked ? ' ' : 'x'}]${box[3]}`;
  return lines.join('\n');
}

/** The checklist of a text: `[done, total]`, or null without one. */
export function checklistOf(content: string | undefined): [number, number] | null {
  const tasks = parseMarkdown(content ?? '').filter((row) => row.kind === 'task');
  return tasks.length ? [tasks.filter((row) => row.checked).length, tasks.length] : null;
}
