/**
 * A Mermaid source read the way mermaid reads it, enough for the preview to
 * trust its renderer: flowcharts are rewritten in the spaced form the renderer
 * parses (`A-->B` as `A --> B`, `A-- yes -->B` as `A -->|yes| B`, `--->` as
 * `-->`), and every diagram says what it must show (its nodes with their
 * labels, and how many links). The preview draws a diagram only when the
 * renderer's reading matches; anything this reader does not know makes the
 * diagram show its source.
 */

/** What a diagram must show: `links` counts edges, messages or relationships; `nodes` maps flowchart ids to labels. */
export type Expected =
  | { kind: 'flowchart'; links: number; nodes: Map<string, string>; linkLabels: string[] }
  | { kind: 'state' | 'sequence' | 'class' | 'er' | 'other'; links: number; nodes?: undefined; linkLabels?: undefined };

export type PreparedSource = { source: string; expected: Expected };

const ID = /^[A-Za-z0-9_]+(?:-[A-Za-z0-9_]+)*/;
/** Node shapes the renderer draws, longest opener first; `[/…/]` and `[\…\]` (mermaid's parallelograms) it lacks. */
const SHAPES: [string, string][] = [
  ['(((', ')))'],
  ['([', '])'],
  ['((', '))'],
  ['[[', ']]'],
  ['[(', ')]'],
  ['[/', '\\]'],
  ['[\\', '/]'],
  ['{{', '}}'],
  ['[', ']'],
  ['(', ')'],
  ['{', '}'],
  ['>', ']'],
];
/** A link as the renderer reads it; longer dashes (`--->`) are the same link drawn longer. */
const LINK = /^(<)?(?:(-{2,}>)|(-{3,})(?![ox])|(={2,}>)|(={3,})(?![ox])|(-\.+->)|(-\.+-)(?![ox]))(?![-=.>])/;
/** A link with its label in the middle: `-- label -->`, `== label ==>`, `-. label .->`. */
const TEXT_LINK =
  /^(<)?(--|==|-\.)\s+(.+?)\s+(-{2,}>|-{3,}(?![ox])|={2,}>|={3,}(?![ox])|\.-+>|-\.-(?![ox])|\.-(?![ox]))(?![-=.>])/;
const PIPE_LABEL = /^\|([^|]*)\|/;
const SKIPPED = /^(?:%%|classDef\s|class\s|style\s|linkStyle\s|click\s|direction\s)/;

function canonicalLink(head: string, dotted: boolean, thick: boolean, back: boolean): string {
  const body = dotted ? (head ? '-.->' : '-.-') : thick ? (head ? '==>' : '===') : head ? '-->' : '---';
  return `${back && head ? '<' : ''}${body}`;
}

function unquote(label: string): string {
  const trimmed = label.trim();
  const inner = /^"([^"]*)"$/.exec(trimmed)?.[1] ?? trimmed;
  return inner.replace(/<br\s*\/?>/gi, '\n');
}

type Node = { id: string; label?: string; raw: string };

function readNode(text: string): { node: Node; rest: string } | undefined {
  const id = ID.exec(text)?.[0];
  if (!id) return undefined;
  let rest = text.slice(id.length);
  let label: string | undefined;
  const shape = SHAPES.find(([open]) => rest.startsWith(open));
  if (shape) {
    const [open, close] = shape;
    const inner = rest.slice(open.length);
    const end = inner.startsWith('"') ? inner.indexOf(`"${close}`, 1) + 1 : inner.indexOf(close);
    if (end <= 0) return undefined;
    // An unquoted label with brackets or quotes is one mermaid itself reads differently: not vouched for.
    if (!inner.startsWith('"') && /[[\](){}|"]/.test(inner.slice(0, end))) return undefined;
    label = unquote(inner.slice(0, end));
    rest = inner.slice(end + close.length);
  }
  const style = /^:::[\w-]+/.exec(rest)?.[0] ?? '';
  rest = rest.slice(style.length);
  return { node: { id, label, raw: text.slice(0, text.length - rest.length) }, rest };
}

function readGroup(text: string): { nodes: Node[]; rest: string } | undefined {
  const nodes: Node[] = [];
  let rest = text;
  for (;;) {
    const read = readNode(rest.trimStart());
    if (!read) return undefined;
    nodes.push(read.node);
    rest = read.rest.trimStart();
    if (!rest.startsWith('&')) return { nodes, rest };
    rest = rest.slice(1);
  }
}

function readLink(text: string): { link: string; label: string; rest: string } | undefined {
  const plain = LINK.exec(text);
  if (plain) {
    const [whole, back, arrow, , thickArrow, thickLine, dottedArrow, dottedLine] = plain;
    const head = arrow || thickArrow || dottedArrow ? '>' : '';
    const link = canonicalLink(head, !!(dottedArrow || dottedLine), !!(thickArrow || thickLine), !!back);
    let rest = text.slice(whole.length);
    const pipe = PIPE_LABEL.exec(rest.trimStart());
    if (!pipe) return { link, label: '', rest };
    rest = rest.trimStart().slice(pipe[0].length);
    return { link, label: unquote(pipe[1]), rest };
  }
  const labelled = TEXT_LINK.exec(text);
  if (!labelled) return undefined;
  const [whole, back, open, label, close] = labelled;
  if (label.includes('|')) return undefined;
  const head = close.endsWith('>') ? '>' : '';
  const link = canonicalLink(head, open === '-.' || close.startsWith('.') || close === '-.-', open === '==', !!back);
  return { link, label: unquote(label), rest: text.slice(whole.length) };
}

/** Statements of a line: `;` ends one, outside quotes. */
function statements(line: string): string[] {
  const parts: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '"') quoted = !quoted;
    else if (line[i] === ';' && !quoted) {
      parts.push(line.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(line.slice(start));
  return parts.map((part) => part.trim()).filter(Boolean);
}

function prepareFlowchart(lines: string[]): PreparedSource | undefined {
  const header = /^(graph|flowchart)(?:\s+(TB|TD|BT|LR|RL))?\s*;?\s*$/i.exec(lines[0].trim());
  if (!header) return undefined;
  const out = [`${header[1]} ${header[2] ?? 'TD'}`];
  const nodes = new Map<string, string>();
  const linkLabels: string[] = [];
  for (const line of lines.slice(1)) {
    for (const statement of statements(line)) {
      if (SKIPPED.test(statement)) {
        if (!statement.startsWith('%%')) out.push(statement);
        continue;
      }
      if (/^(?:subgraph\b|end$)/.test(statement)) {
        out.push(statement);
        continue;
      }
      let group = readGroup(statement);
      if (!group) return undefined;
      const parts = [group.nodes.map((node) => node.raw).join(' & ')];
      const define = (node: Node) => {
        if (node.label !== undefined || !nodes.has(node.id)) nodes.set(node.id, node.label ?? node.id);
      };
      group.nodes.forEach(define);
      let rest = group.rest.trim();
      while (rest) {
        const link = readLink(rest);
        if (!link) return undefined;
        const next = readGroup(link.rest);
        if (!next) return undefined;
        for (let i = 0; i < group.nodes.length * next.nodes.length; i++) linkLabels.push(link.label);
        next.nodes.forEach(define);
        parts.push(`${link.link}${link.label ? `|${link.label.replace(/\n/g, '<br>')}|` : ''}`);
        parts.push(next.nodes.map((node) => node.raw).join(' & '));
        group = next;
        rest = next.rest.trim();
      }
      out.push(parts.join(' '));
    }
  }
  return { source: out.join('\n'), expected: { kind: 'flowchart', links: linkLabels.length, nodes, linkLabels } };
}

/** Lines of a diagram body that are not comments, outside `{ … }` blocks when `blocks` is set. */
function bodyLines(lines: string[], blocks: boolean): string[] {
  let depth = 0;
  const body: string[] = [];
  for (const raw of lines.slice(1)) {
    const line = raw.trim();
    if (!line || line.startsWith('%%')) continue;
    const outside = depth === 0;
    // A block opens at a line's end (`class A {`, `CUSTOMER {`) and closes on a line of its own: `o{` is a cardinality.
    if (blocks) depth += (/\{$/.test(line) ? 1 : 0) - (/^\}/.test(line) ? 1 : 0);
    if (outside || !blocks) body.push(line);
  }
  return body;
}

const count = (lines: string[], pattern: RegExp) => lines.filter((line) => pattern.test(line)).length;

const SEQUENCE_MESSAGE = /^[^:]+?(?:->>|-->>|->|-->|-x|--x|-\)|--\)|<<->>|<<-->>)[+-]?\s*[^:]+:/;
const CLASS_RELATION =
  /^[\w`"~<>,]+(?:\s+"[^"]*")?\s*(?:<\|--|--\|>|\*--|--\*|o--|--o|<--|-->|<\.\.|\.\.>|<\|\.\.|\.\.\|>|--|\.\.)\s*(?:"[^"]*"\s+)?[\w`"~<>,]+/;
const ER_RELATION = /^\S+\s*(?:\|\||\|o|o\||\}o|o\{|\}\||\|\{)(?:--|\.\.)(?:\|\||\|o|o\||\}o|o\{|\}\||\|\{)\s*\S+/;

/**
 * The source as the preview's renderer should be given it, with what the
 * drawing must show; `undefined` when the source is one this reader cannot
 * vouch for (the preview then shows the source).
 */
export function prepareMermaid(source: string): PreparedSource | undefined {
  const lines = source.split('\n').filter((line, i) => i > 0 || line.trim());
  const first = lines[0]?.trim() ?? '';
  if (/^(graph|flowchart)\b/i.test(first)) return prepareFlowchart(lines);
  if (/^stateDiagram(-v2)?\s*$/.test(first))
    return { source, expected: { kind: 'state', links: count(bodyLines(lines, false), /-->/) } };
  if (/^sequenceDiagram\s*$/.test(first))
    return { source, expected: { kind: 'sequence', links: count(bodyLines(lines, false), SEQUENCE_MESSAGE) } };
  if (/^classDiagram\s*$/.test(first))
    return { source, expected: { kind: 'class', links: count(bodyLines(lines, true), CLASS_RELATION) } };
  if (/^erDiagram\s*$/.test(first))
    return { source, expected: { kind: 'er', links: count(bodyLines(lines, true), ER_RELATION) } };
  if (/^xychart(-beta)?\b/.test(first)) return { source, expected: { kind: 'other', links: 0 } };
  return undefined;
}

/** The class of the drawn elements that are a diagram's links, per kind. */
export const LINK_CLASS: Record<Expected['kind'], string | undefined> = {
  flowchart: 'edge',
  state: 'edge',
  sequence: 'message',
  class: 'class-relationship',
  er: 'er-relationship',
  other: undefined,
};
