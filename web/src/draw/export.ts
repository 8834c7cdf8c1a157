/**
 * Saving the board as a picture a person can keep: PNG or SVG of the whole
 * board or of the selection, drawn from the canvas's own DOM by
 * `modern-screenshot` (so rendered Markdown, drawn Mermaid and images look as
 * they do on screen), and printing (or saving as PDF) through the browser's
 * print dialogue, on one page the size of the board.
 */
import { isViewToken } from '../../../schema/view-token.js';
import type { Action } from '../actions/action.js';
import { h, toast } from '../ui.js';
import { unionBox } from './clipboard.js';
import type { DrawContext } from './context.js';
import { withMembers } from './frames.js';
import { toolbarMenu } from './menu.js';
import { diagramsDrawn } from './mermaid.js';
import type { Box } from './view.js';

/** Space around the items in an export or a print, in world pixels. */
export const EXPORT_MARGIN_PX = 24;
/** A print page is at most this long on its longer side (CSS px, about 1.3 m): a bigger board is scaled down to it. */
const MAX_PRINT_SIDE_PX = 5000;

export type ExportFormat = 'png' | 'svg';

/** Adds the Export menu of `actions` (actions/export.ts) to the toolbar and follows the print dialogue; returns what undoes both. */
export function bindExport(ctx: DrawContext, actions: readonly Action<DrawContext>[]): () => void {
  const { menu, unbind: unbindClosing } = exportMenu(ctx, actions);
  ctx.toolbar.element.append(menu);
  const style = h('style', { 'data-print': '' });
  const beforePrint = () => {
    const frame = framed(ctx, null);
    if (!frame) return;
    const scale = Math.min(1, MAX_PRINT_SIDE_PX / Math.max(frame.width, frame.height));
    // The page is the board's size, so "Save as PDF" keeps the whole board on one page; a printer scales it to its paper.
    style.textContent = `@page { size: ${Math.ceil(frame.width * scale)}px ${Math.ceil(frame.height * scale)}px; margin: 0; }`;
    document.head.append(style);
    world(ctx).style.setProperty('--print-transform', `scale(${scale}) translate(${-frame.x}px, ${-frame.y}px)`);
  };
  const afterPrint = () => {
    style.remove();
    world(ctx).style.removeProperty('--print-transform');
  };
  addEventListener('beforeprint', beforePrint);
  addEventListener('afterprint', afterPrint);
  return () => {
    menu.remove();
    unbindClosing();
    removeEventListener('beforeprint', beforePrint);
    removeEventListener('afterprint', afterPrint);
  };
}

/** The world layer: the transformed container the items are positioned in. */
const world = (ctx: DrawContext) => ctx.layer.items.parentElement as HTMLElement;

/** The box to draw, in world coordinates: the items' (or only `ids`') bounding box plus the margin; null when there are none. */
function framed(ctx: DrawContext, ids: ReadonlySet<string> | null): Box | null {
  const box = unionBox(ctx.layer.boxes(ids ?? undefined));
  if (!box) return null;
  const m = EXPORT_MARGIN_PX;
  return {
    x: Math.floor(box.x - m),
    y: Math.floor(box.y - m),
    width: Math.ceil(box.width + 2 * m),
    height: Math.ceil(box.height + 2 * m),
  };
}

/**
 * Draws the board (or the items `ids` names) as a PNG or SVG file. The world
 * layer is drawn untransformed, shifted so the frame's top-left is the
 * picture's, whatever the person's pan and zoom; other people's cursors, the
 * selection's outline and items outside `ids` are left out.
 */
/** The world layer's parts that are the app's, not the board's: never in a picture of the board. */
const NOT_CONTENT = ['cursors', 'editor', 'paper', 'handles', 'snap-guides', 'waiting-images'];

export async function exportBlob(
  ctx: DrawContext,
  format: ExportFormat,
  ids: ReadonlySet<string> | null,
): Promise<{ blob: Blob; frame: Box } | null> {
  await diagramsDrawn();
  const frame = framed(ctx, ids);
  if (!frame) return null;
  const layer = world(ctx);
  const background = getComputedStyle(document.body).backgroundColor;
  const options = {
    width: frame.width,
    height: frame.height,
    scale: format === 'png' ? Math.max(1, devicePixelRatio) : 1,
    // The PNG's canvas is filled with it; in the SVG the shifted layer would carry it off the picture's edges.
    backgroundColor: format === 'png' ? background : null,
    onCreateForeignObjectSvg: (svg: SVGSVGElement) => {
      const rect = svg.ownerDocument.createElementNS(svg.namespaceURI, 'rect');
      for (const [name, value] of Object.entries({ width: '100%', height: '100%', fill: background }))
        rect.setAttribute(name, value);
      svg.prepend(rect);
    },
    includeStyleProperties: styledProperties(layer),
    style: { transform: `translate(${-frame.x}px, ${-frame.y}px)`, left: '0', top: '0' },
    filter: (node: Node) => {
      if (!(node instanceof Element)) return true;
      if (NOT_CONTENT.some((name) => node.classList.contains(name))) return false;
      if (node.matches('.frame-layer, .shape-layer') && !node.firstElementChild) return false; // a board without any
      const { id, labelOf } = (node as HTMLElement).dataset ?? {};
      const item = id ?? labelOf; // a stroke's label goes with its stroke
      return !ids || !item || ids.has(item);
    },
    onCloneNode: (clone: Node) => {
      // The stroke layer is a 1 px SVG that lets its strokes overflow; the copied styles lose that.
      const strokes = (clone as Element).querySelector?.<SVGElement>('svg.strokes');
      if (strokes) strokes.style.overflow = 'visible';
      if (clone instanceof Element) dropRepeated(clone, new Map());
    },
  };
  // A checkbox's ticked state is not an attribute, so a copy of the DOM would lose it.
  for (const box of layer.querySelectorAll<HTMLInputElement>('input[type=checkbox]'))
    box.toggleAttribute('checked', box.checked);
  const { domToBlob, domToForeignObjectSvg } = await import('modern-screenshot'); // loaded on the first export only
  ctx.viewport.classList.add('exporting'); // no selection outlines in the picture
  try {
    if (format === 'png') return { blob: await domToBlob(layer, { ...options, type: 'image/png' }), frame };
    // The DOM itself in a foreignObject, so texts stay text and the diagrams vector; modern-screenshot's
    // domToSvg would wrap a rasterised PNG instead.
    const svg = new XMLSerializer().serializeToString(await domToForeignObjectSvg(layer, options));
    return { blob: new Blob([svg], { type: 'image/svg+xml' }), frame };
  } finally {
    ctx.viewport.classList.remove('exporting');
  }
}

/**
 * The CSS properties an export copies onto each element: those the page's
 * stylesheets (the app's and Mermaid's) and the app's inline styles set.
 * Copying every computed property made each element carry some 3 KB of
 * defaults. Custom properties are left out: computed values have them resolved.
 */
function styledProperties(layer: HTMLElement): string[] {
  const names = new Set<string>();
  const walk = (rules: CSSRuleList) => {
    for (const rule of rules) {
      if (rule instanceof CSSStyleRule) for (const name of rule.style) names.add(name);
      if ('cssRules' in rule) walk((rule as CSSGroupingRule).cssRules);
    }
  };
  for (const sheet of document.styleSheets) {
    try {
      walk(sheet.cssRules);
    } catch {
      // a stylesheet of another origin cannot be read, and styles nothing drawn here
    }
  }
  for (const element of layer.querySelectorAll<HTMLElement | SVGElement>('[style]'))
    for (const name of element.style) names.add(name);
  // Longhands only (a computed style lists exactly those): a shorthand would repeat its longhands' values.
  const longhands = new Set(Array.from(getComputedStyle(layer)));
  return [...names].filter((name) => longhands.has(name) && !name.startsWith('--') && !INERT.test(name));
}

/** Properties that change how an element behaves, not how it looks. */
const INERT =
  /^(cursor|pointer-events|(-webkit-)?user-select|will-change|touch-action|caret-|transition|animation|scroll-|overscroll-)/;
/** Inherited properties: a child that holds its parent's value gets it without saying so. */
const INHERITED =
  /^(color|color-scheme|font(-.*)?|line-height|letter-spacing|word-spacing|text-(align|indent|transform|shadow|rendering)|white-space(-collapse)?|text-wrap(-.*)?|overflow-wrap|word-break|hyphens|tab-size|visibility|direction|writing-mode|list-style-(type|position|image)|quotes|fill(-.*)?|stroke(-.*)?|paint-order|text-anchor|dominant-baseline|-webkit-font-smoothing)$/;

/** Values that draw nothing, which the copy writes out for a whole group when one of its longhands differs. */
const NOTHING: Record<string, string> = {
  'background-image': 'none',
  'background-origin': 'padding-box',
  'background-attachment': 'scroll',
  'background-clip': 'border-box',
  'background-repeat': 'repeat',
  'background-size': 'auto',
  'background-position-x': '0%',
  'background-position-y': '0%',
  'box-shadow': 'none',
  'outline-offset': '0px',
};

/**
 * Drops from each element of a copy what the copy says twice: inherited values
 * it shares with its parent, values that draw nothing, and the colour and
 * width of borders and outlines that are not drawn.
 */
function dropRepeated(element: Element, inherited: Map<string, string>): void {
  const style = (element as HTMLElement).style;
  const own = new Map(inherited);
  if (style) {
    for (const name of Array.from(style)) {
      if (style.getPropertyPriority(name)) continue;
      const value = style.getPropertyValue(name);
      const side = /^(border-(?:top|right|bottom|left)|outline)-(?:color|width)$/.exec(name)?.[1];
      if (INHERITED.test(name) ? inherited.get(name) === value : NOTHING[name] === value) style.removeProperty(name);
      else if (side && style.getPropertyValue(`${side}-style`) === 'none') style.removeProperty(name);
      else if (INHERITED.test(name)) own.set(name, value);
    }
  }
  for (const child of element.children) dropRepeated(child, own);
}

/** What an export draws: the whole board, the selection, or the one selected frame and what it holds. */
export type ExportScope = 'board' | 'selection' | 'frame';

/** The file name of an export: the board's short id (never part of a view token, a credential), and what of it is drawn. */
export function exportName(boardId: string, format: ExportFormat, scope: ExportScope): string {
  return `board-${isViewToken(boardId) ? 'shared' : boardId.slice(0, 8)}${scope === 'board' ? '' : `-${scope}`}.${format}`;
}

/** The one selected frame, if the selection is exactly one frame. */
export function selectedFrame(ctx: DrawContext): string | null {
  const [id, ...rest] = ctx.layer.selection;
  return id !== undefined && rest.length === 0 && ctx.layer.kindOf(id) === 'frames' ? id : null;
}

/** The ids an export of `scope` draws (null: every item), or undefined when there is nothing of it to draw. */
function scopeIds(ctx: DrawContext, scope: ExportScope): Set<string> | null | undefined {
  if (scope === 'board') return null;
  if (scope === 'selection') return ctx.layer.selection.size ? new Set(ctx.layer.selection) : null;
  const frame = selectedFrame(ctx);
  return frame === null ? undefined : withMembers(ctx.layer, [frame]);
}

/** Exports and downloads the board, the selection (the board when nothing is selected) or the selected frame alone. */
export async function download(ctx: DrawContext, format: ExportFormat, scope: ExportScope): Promise<void> {
  const ids = scopeIds(ctx, scope);
  if (ids === undefined) return toast('Select one frame to export it alone.', 'info');
  let result: Awaited<ReturnType<typeof exportBlob>>;
  try {
    result = await exportBlob(ctx, format, ids);
  } catch (error) {
    return toast(`The board could not be drawn as ${format.toUpperCase()}: ${(error as Error).message}`, 'error', 7000);
  }
  if (!result) return toast('There is nothing on the board to export yet.', 'info');
  const url = URL.createObjectURL(result.blob);
  h('a', { href: url, download: exportName(ctx.session.boardId, format, ids === null ? 'board' : scope) }).click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The toolbar's Export menu: PNG and SVG of the board or the selection, and Print / PDF. */
function exportMenu(
  ctx: DrawContext,
  actions: readonly Action<DrawContext>[],
): { menu: HTMLDetailsElement; unbind: () => void } {
  return toolbarMenu(
    'export-menu',
    h('summary', { title: 'Save the board as PNG, SVG or PDF' }, 'Export'),
    actions.map((action) => ({
      label: action.label,
      perform: () => action.perform?.(ctx, null),
      enabled: action.enabled && (() => action.enabled?.(ctx) ?? true),
      data: { 'data-export': action.label, ...(action.enabled ? { 'data-needs-selection': '' } : {}) },
    })),
  );
}
