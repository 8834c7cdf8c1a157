/**
 * Board markup, the Markdown-like text of a text node: headings, lists, bold,
 * italic, code, links, and task checkboxes (`[ ]`, `[x]`, `- [ ]`) that can be
 * clicked. Built as DOM nodes, never as HTML strings, so content cannot inject markup.
 */

/** A text whose whole content is exactly one fenced mermaid block. */
export const MERMAID_ONLY = /^\s*```mermaid[^\n]*\n([\s\S]*?)\n?```\s*$/;

const CHECKBOX = /^(\s*(?:[-*]\s+)?)\[( |x|X)?\](\s?)(.*)$/;
const INLINE = /(\*\*[^*]+\*\*|\*[^*\s][^*]*\*|`[^`]+`|\[[^\]]+\]\(https?:\/\/[^)\s]+\)|https?:\/\/[^\s)<]+)/g;

function inline(text: string): Node[] {
  const nodes: Node[] = [];
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    if (match.index! > last) nodes.push(document.createTextNode(text.slice(last, match.index)));
    const token = match[0];
    let node: HTMLElement;
    if (token.startsWith('**')) (node = document.createElement('strong')).textContent = token.slice(2, -2);
    else if (token.startsWith('`')) (node = document.createElement('code')).textContent = token.slice(1, -1);
    else if (token.startsWith('*')) (node = document.createElement('em')).textContent = token.slice(1, -1);
    else {
      const link = /^\[([^\]]+)\]\((.+)\)$/.exec(token);
      node = document.createElement('a');
      (node as HTMLAnchorElement).href = link ? link[2] : token;
      node.textContent = link ? link[1] : token;
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
    nodes.push(node);
    last = match.index! + token.length;
  }
  if (last < text.length) nodes.push(document.createTextNode(text.slice(last)));
  return nodes;
}

/** Renders markup; a click on a checkbox calls `onToggle` with its line index. */
export function renderMarkup(content: string, onToggle?: (line: number) => void): DocumentFragment {
  const fragment = document.createDocumentFragment();
  content.split('\n').forEach((line, index) => {
    const row = document.createElement('div');
    const heading = /^(#{1,3})\s+(.*)$/.exec(line);
    const box = CHECKBOX.exec(line);
    if (heading) {
      row.className = `md-h${heading[1].length}`;
      row.append(...inline(heading[2]));
    } else if (box) {
      row.className = 'md-task';
      const input = document.createElement('input');
      input.type = 'checkbox';
      input.checked = box[2] === 'x' || box[2] === 'X';
      input.disabled = !onToggle;
      input.setAttribute('aria-label', box[4] || 'task');
      input.addEventListener('pointerdown', (event) => event.stopPropagation());
      input.addEventListener('click', (event) => {
        event.preventDefault();
        onToggle?.(index);
      });
      const label = document.createElement('span');
      label.append(...inline(box[4]));
      if (input.checked) label.className = 'done';
      row.append(input, label);
    } else if (/^\s*[-*]\s+/.test(line)) {
      row.className = 'md-li';
      row.append(...inline(line.replace(/^\s*[-*]\s+/, '')));
    } else {
      row.className = line.trim() ? 'md-p' : 'md-blank';
      row.append(...inline(line));
    }
    fragment.append(row);
  });
  return fragment;
}

/** The content with the checkbox on `line` flipped. */
export function toggleCheckbox(content: string, line: number): string {
  const lines = content.split('\n');
  const box = CHECKBOX.exec(lines[line] ?? '');
  if (!box) return content;
  const checked = box[2] === 'x' || box[2] === 'X';
  lines[line] = `${box[1]}[${checked ? ' ' : 'x'}]${box[3] || ' '}${box[4]}`;
  return lines.join('\n');
}

/** True when a text is nothing but an http(s) URL: it becomes a link pill. */
export function asUrl(text: string): string | null {
  const trimmed = text.trim();
  return /^https?:\/\/\S+$/i.test(trimmed) ? trimmed : null;
}
