/**
 * Board markup as DOM: the rows the one Markdown parser reads
 * (board/render/markdown.ts) become one element each, headings, list items,
 * task checkboxes that can be clicked, code, quotes, rules and blank-line
 * gaps. Built as DOM nodes, never as HTML strings, so content cannot inject markup.
 */
import { LIST_INDENT_PX, parseMarkdown, type Row, type Span } from '../../../board/render/markdown.js';

export { MERMAID_ONLY } from '../../../board/render/markdown.js';

/** A span as nested elements: a link outermost, then bold, italic, struck and code. */
function spanNode(span: Span): Node {
  let node: Node = document.createTextNode(span.text);
  const wrap = (tag: string) => {
    const element = document.createElement(tag);
    element.append(node);
    node = element;
  };
  if (span.code) wrap('code');
  if (span.strike) wrap('s');
  if (span.italic) wrap('em');
  if (span.bold) wrap('strong');
  if (span.href) {
    wrap('a');
    const anchor = node as HTMLAnchorElement;
    anchor.href = span.href;
    anchor.target = '_blank';
    anchor.rel = 'noopener noreferrer';
  }
  return node;
}

const CLASS: Record<Row['kind'], string> = {
  paragraph: 'md-p',
  heading: 'md-h',
  item: 'md-li',
  task: 'md-task',
  code: 'md-code',
  rule: 'md-rule',
  gap: 'md-blank',
};

function rowElement(row: Row, onToggle?: (line: number) => void): HTMLElement {
  const element = document.createElement('div');
  element.className = row.kind === 'heading' ? `md-h${Math.min(row.level, 3)}` : CLASS[row.kind];
  if (row.quote) element.classList.add('md-quote');
  if (row.depth) element.style.marginLeft = `${row.depth * LIST_INDENT_PX}px`;
  const spans = row.spans.map(spanNode);
  // An empty line of code or an empty heading still takes its line's height.
  if (!spans.length && row.kind !== 'rule' && row.kind !== 'gap') spans.push(document.createTextNode(' '));
  if (row.kind === 'item' && row.marker !== '•') element.dataset.marker = `${row.marker} `;
  if (row.kind !== 'task') {
    element.append(...spans);
    return element;
  }
  const input = document.createElement('input');
  input.type = 'checkbox';
  input.checked = row.checked;
  input.disabled = !onToggle;
  input.setAttribute('aria-label', row.spans.map((span) => span.text).join('') || 'task');
  input.addEventListener('pointerdown', (event) => event.stopPropagation());
  input.addEventListener('click', (event) => {
    event.preventDefault();
    onToggle?.(row.line);
  });
  const label = document.createElement('span');
  label.append(...spans);
  if (row.checked) label.className = 'done';
  element.append(input, label);
  return element;
}

/** Renders markup; a click on a checkbox calls `onToggle` with its source line. */
export function renderMarkup(content: string, onToggle?: (line: number) => void): DocumentFragment {
  const fragment = document.createDocumentFragment();
  for (const row of parseMarkdown(content)) fragment.append(rowElement(row, onToggle));
  return fragment;
}

/** True when a text is nothing but an http(s) URL: it becomes a link pill. */
export function asUrl(text: string): string | null {
  const trimmed = text.trim();
  return /^https?:\/\/\S+$/i.test(trimmed) ? trimmed : null;
}
