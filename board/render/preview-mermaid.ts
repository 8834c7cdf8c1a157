/**
 * Mermaid diagrams drawn for the schematic preview, without a browser:
 * `beautiful-mermaid` (pure JavaScript, synchronous, ELK layout) lays the
 * diagram out and writes an SVG; this module never pastes that SVG as it is.
 * It re-reads it token by token and writes back only whitelisted shapes and
 * presentation attributes, re-escaping every text and value, resolving the
 * library's CSS custom properties to plain colours (SVG rasterisers and many
 * viewers know no `var()`), dropping its `<style>` (which would fetch a web
 * font) and giving every `id` a per-diagram prefix. Anything it does not
 * recognise makes the diagram fall back to its source, so a library bug cannot
 * become markup injection.
 */
import { parseMermaid, renderMermaidSVG } from 'beautiful-mermaid';
import { LRUCache } from 'lru-cache';
import { type Expected, LINK_CLASS, prepareMermaid } from './preview-mermaid-source.js';
import { xml as escapeXml } from './xml.js';

/** Longest source drawn; longer ones show their source (layout time grows fast with the node count). */
export const MAX_DIAGRAM_SOURCE_CHARS = 3_000;
/** Most nodes and links drawn: a write answers a diagram's size, so its layout must stay short. */
const MAX_DIAGRAM_PARTS = 120;

/** A diagram as preview markup: `body` holds `ID_SLOT` where each id's per-diagram prefix goes. */
export type DrawnDiagram = { body: string; width: number; height: number };
/** The library's classes of a diagram's parts, kept on the drawing so its structure can be counted and checked. */
const PART_CLASSES = new Set([
  'node',
  'edge',
  'edge-label',
  'subgraph',
  'actor',
  'message',
  'note',
  'block',
  'class-node',
  'class-relationship',
  'entity',
  'er-relationship',
]);
const ID_SLOT = '\u0001';

/** The palette of the app's Mermaid theme (mermaid's default), for the library's custom properties. */
const PALETTE: Record<string, string> = {
  '--bg': '#ffffff',
  '--fg': '#27272a',
  '--_text': '#27272a',
  '--_text-sec': '#52525b',
  '--_text-muted': '#71717a',
  '--_text-faint': '#a1a1aa',
  '--_line': '#333333',
  '--_arrow': '#333333',
  '--_node-fill': '#ececff',
  '--_node-stroke': '#9370db',
  '--_group-fill': '#ffffde',
  '--_group-hdr': '#f4f4c8',
  '--_inner-stroke': '#c8c8e6',
  '--_key-badge': '#e4e4f7',
};
const SERIES = ['#3b82f6', '#0d5ba5', '#16a34a', '#ea580c', '#9333ea', '#db2777'];

const ELEMENTS = new Set([
  'svg',
  'defs',
  'marker',
  'g',
  'rect',
  'text',
  'tspan',
  'polyline',
  'polygon',
  'line',
  'ellipse',
  'circle',
  'path',
]);
/** Elements skipped with everything inside them. */
const DROPPED = new Set(['style', 'title', 'desc']);
const ATTRIBUTES = new Set([
  'x',
  'y',
  'x1',
  'y1',
  'x2',
  'y2',
  'cx',
  'cy',
  'r',
  'rx',
  'ry',
  'dx',
  'dy',
  'width',
  'height',
  'points',
  'd',
  'transform',
  'fill',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'stroke-linejoin',
  'stroke-linecap',
  'opacity',
  'fill-opacity',
  'font-size',
  'font-weight',
  'font-style',
  'text-anchor',
  'dominant-baseline',
  'text-decoration',
  'id',
  'markerWidth',
  'markerHeight',
  'refX',
  'refY',
  'orient',
  'marker-start',
  'marker-end',
  'marker-mid',
  'viewBox',
]);
/** A presentation value as the library writes it: numbers, names, colours, lists, transforms; no quotes, no markup. */
const PLAIN_VALUE = /^[\w#.,%\s()+-]*$/;
const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'", '#39': "'" };

class Unexpected extends Error {}

function decode(text: string): string {
  return text.replace(/&([a-z]+|#\d+|#x[\da-f]+);|&/gi, (whole, name: string | undefined) => {
    if (!name) throw new Unexpected('bare &');
    if (ENTITIES[name.toLowerCase()]) return ENTITIES[name.toLowerCase()];
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      if (code > 0 && code <= 0x10ffff) return String.fromCodePoint(code);
    }
    throw new Unexpected(`entity ${whole}`);
  });
}

/** Colours and paints of the chart classes the library styles with a stylesheet. */
function classPaint(element: string, classes: string[]): Record<string, string> {
  const series = classes.map((name) => /^xychart-color-(\d+)$/.exec(name)).find(Boolean);
  const color = SERIES[Number(series?.[1] ?? 0) % SERIES.length];
  if (classes.includes('xychart-bar')) return { fill: color, 'fill-opacity': '0.3', stroke: color };
  if (series && element === 'circle') return { fill: color };
  if (series) return { stroke: color };
  if (classes.includes('xychart-title')) return { fill: PALETTE['--_text'] };
  if (classes.includes('xychart-axis-title')) return { fill: PALETTE['--_text-sec'] };
  if (classes.includes('xychart-label')) return { fill: PALETTE['--_text-muted'] };
  return {};
}

function paintValue(value: string): string | undefined {
  const variable = /^var\((--[\w-]+)(?:,[^)]*)?\)$/.exec(value);
  if (variable) return PALETTE[variable[1]];
  const reference = /^url\(#([\w-]+)\)$/.exec(value);
  if (reference) return `url(#${ID_SLOT}${reference[1]})`;
  if (value.includes('(') && !/^(?:translate|scale|rotate|matrix)\(/.test(value)) return undefined;
  // The library writes 15 decimals; a tenth of a unit is plenty and keeps the preview small.
  return PLAIN_VALUE.test(value)
    ? value.replace(/-?\d+\.\d{2,}/g, (number) => String(Math.round(Number(number) * 10) / 10))
    : undefined;
}

const TOKEN = /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<(\/?)([a-zA-Z][\w-]*)((?:\s+[\w:-]+\s*=\s*"[^"]*")*)\s*(\/?)>|[^<]+/y;
const ATTRIBUTE = /([\w:-]+)\s*=\s*"([^"]*)"/g;

/** Re-writes the library's SVG from whitelisted parts; throws `Unexpected` on anything else. */
function sanitize(svg: string): DrawnDiagram & { parts: Map<string, number> } {
  const out: string[] = [];
  const parts = new Map<string, number>();
  const open: string[] = [];
  let dropDepth = 0;
  let size: { width: number; height: number; viewBox: string } | undefined;
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < svg.length) {
    const start = TOKEN.lastIndex;
    const token = TOKEN.exec(svg);
    if (!token) throw new Unexpected(`at ${start}`);
    const [whole, closing, rawName, rawAttributes, selfClosing] = token;
    if (whole.startsWith('<!--') || whole.startsWith('<?')) continue;
    if (!rawName) {
      if (!dropDepth && open.length && (open.at(-1) === 'text' || open.at(-1) === 'tspan'))
        out.push(escapeXml(decode(whole)));
      else if (whole.trim() && !dropDepth) throw new Unexpected('text outside a text element');
      continue;
    }
    const name = rawName;
    if (closing) {
      if (open.pop() !== name) throw new Unexpected(`unbalanced </${name}>`);
      if (dropDepth) dropDepth--;
      else if (name !== 'svg') out.push(`</${name}>`);
      continue;
    }
    if (!selfClosing) open.push(name);
    if (dropDepth || DROPPED.has(name) || (!ELEMENTS.has(name) && !closing)) {
      if (!ELEMENTS.has(name) && !DROPPED.has(name)) throw new Unexpected(`element ${name}`);
      if (!selfClosing) dropDepth++;
      continue;
    }
    const attributes = new Map<string, string>();
    let classes: string[] = [];
    for (const [, key, rawValue] of rawAttributes.matchAll(ATTRIBUTE)) {
      const value = decode(rawValue).trim();
      if (key === 'class') classes = value.split(/\s+/);
      if (!ATTRIBUTES.has(key)) continue;
      const safe = key === 'id' ? (/^[\w-]+$/.test(value) ? ID_SLOT + value : undefined) : paintValue(value);
      if (safe !== undefined) attributes.set(key, safe);
    }
    if (classes.includes('xychart-grid')) {
      if (!selfClosing) dropDepth++;
      continue;
    }
    for (const [key, value] of Object.entries(classPaint(name, classes)))
      if (!attributes.has(key)) attributes.set(key, value);
    if (name === 'svg') {
      if (size) throw new Unexpected('nested svg');
      const viewBox = attributes.get('viewBox') ?? '';
      const [, , width, height] = viewBox.split(/[\s,]+/).map(Number);
      if (!(width > 0 && height > 0)) throw new Unexpected('no viewBox');
      size = { width, height, viewBox };
      continue;
    }
    const part = classes.find((name) => PART_CLASSES.has(name));
    if (part) parts.set(part, (parts.get(part) ?? 0) + 1);
    const written = [...(part ? [['class', part]] : []), ...attributes]
      .map(([key, value]) => ` ${key}="${escapeXml(value)}"`)
      .join('');
    out.push(`<${name}${written}${selfClosing ? '/' : ''}>`);
  }
  if (open.length || !size) throw new Unexpected('unclosed elements');
  return { body: out.join(''), width: size.width, height: size.height, parts };
}

/** Whether the renderer read the source as mermaid does: the same nodes and labels, as many links. */
function faithful(source: string, expected: Expected, parts: Map<string, number>): boolean {
  const linkClass = LINK_CLASS[expected.kind];
  if (linkClass && (parts.get(linkClass) ?? 0) !== expected.links) return false;
  if (expected.kind !== 'flowchart') return true;
  const graph = parseMermaid(source);
  if (graph.edges.length !== expected.links || graph.nodes.size !== expected.nodes.size) return false;
  for (const [id, label] of expected.nodes) if (graph.nodes.get(id)?.label !== label) return false;
  const labels = graph.edges.map((edge) => edge.label ?? '').sort();
  return labels.join('\u0000') === [...expected.linkLabels].sort().join('\u0000');
}

const drawn = new LRUCache<string, DrawnDiagram | false>({
  max: 500,
  maxSize: 8_000_000,
  sizeCalculation: (value) => (value ? value.body.length + 1 : 1),
});

/**
 * A Mermaid source laid out and drawn as whitelisted SVG shapes in its own
 * coordinates (`width` × `height`), or `undefined` when the library cannot
 * draw it as mermaid reads it (a diagram type it lacks such as pie or gantt,
 * syntax it reads otherwise, a syntax error, a source over
 * `MAX_DIAGRAM_SOURCE_CHARS`). Results are cached by source.
 */
export function drawMermaid(source: string): DrawnDiagram | undefined {
  if (source.length > MAX_DIAGRAM_SOURCE_CHARS) return undefined;
  let result = drawn.get(source);
  if (result === undefined) {
    result = false;
    const prepared = prepareMermaid(source);
    try {
      if (prepared && prepared.expected.links + (prepared.expected.nodes?.size ?? 0) <= MAX_DIAGRAM_PARTS) {
        const { parts, ...diagram } = sanitize(
          renderMermaidSVG(prepared.source, { bg: PALETTE['--bg'], fg: PALETTE['--fg'] }),
        );
        if (faithful(prepared.source, prepared.expected, parts)) result = diagram;
      }
    } catch {
      result = false;
    }
    drawn.set(source, result);
  }
  return result || undefined;
}

/** Whether `drawMermaid(source)` answers without a layout: its result is cached, or it is never drawn. */
export function diagramKnown(source: string): boolean {
  return source.length > MAX_DIAGRAM_SOURCE_CHARS || drawn.has(source);
}

/** A diagram laid out elsewhere (a worker thread), remembered as `drawMermaid` remembers its own. */
export function rememberDiagram(source: string, diagram: DrawnDiagram | undefined): void {
  if (source.length <= MAX_DIAGRAM_SOURCE_CHARS) drawn.set(source, diagram ?? false);
}

/** The diagram's markup with its ids made unique within the preview. */
export function placeDiagram(diagram: DrawnDiagram, idPrefix: string): string {
  return diagram.body.replaceAll(ID_SLOT, idPrefix);
}
