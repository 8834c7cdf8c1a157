/**
 * A selected shape's fill (none, semi, solid), from a small bar on the canvas while the selection holds a shape, as
 * tldraw's and Excalidraw's style panels offer it; its buttons are the registry's actions (actions/shapes.ts).
 */
import type { BoardWrite } from '../../../board/mutations/board-write.js';
import { editFrame, editShape } from '../../../board/mutations/shapes.js';
import {
  type InkColor,
  MAX_SHAPE_SIDE_PX,
  MIN_FRAME_SIDE_PX,
  MIN_SHAPE_SIDE_PX,
  SHAPE_FILLS,
  type ShapeFill,
} from '../../../schema/index.js';
import { h, setHidden } from '../ui.js';
import type { DrawContext } from './context.js';
import type { ItemLayer } from './items.js';
import { svgElement } from './render.js';
import { round } from './view.js';

/** The selected shapes' ids. */
export function selectedShapes(layer: ItemLayer): string[] {
  return [...layer.selection].filter((id) => layer.kindOf(id) === 'shapes');
}

/** Sets a field of each shape `ids` names, in the write `w`. */
export function restyleShapes(w: BoardWrite, ids: string[], style: { fill?: ShapeFill; color?: InkColor }): void {
  for (const id of ids) editShape(w, id, style);
}

/**
 * Gives a shape or frame a new size (each side within its bounds) and, if `to` says, a new top-left: a handle's
 * resize and a selection's scaling. A frame's new size moves nothing (shapes.md).
 */
export function placeOutline(
  w: BoardWrite,
  kind: 'shapes' | 'frames',
  id: string,
  size: { width: number; height: number },
  to?: { x: number; y: number },
): void {
  const min = kind === 'frames' ? MIN_FRAME_SIDE_PX : MIN_SHAPE_SIDE_PX;
  const side = (value: number) => round(Math.min(MAX_SHAPE_SIDE_PX, Math.max(min, value)));
  const change = { ...to, width: side(size.width), height: side(size.height) };
  if (kind === 'shapes') editShape(w, id, change);
  else editFrame(w, id, change);
}

/** Fills every selected shape with `fill`, in one write (one undo step). */
export function fillSelection(ctx: DrawContext, fill: ShapeFill): void {
  const ids = selectedShapes(ctx.layer);
  if (ids.length) ctx.session.write((w) => restyleShapes(w, ids, { fill }));
}

/** The fill all the selected shapes share, or null when they differ (or none is selected). */
export function sharedFill(layer: ItemLayer): ShapeFill | null {
  const fills = new Set(selectedShapes(layer).map((id) => layer.maps().shapes.get(id)?.fill));
  return fills.size === 1 ? ([...fills][0] ?? null) : null;
}

/** Each fill's look on its button: a square, hollow, tinted or full. */
function swatch(fill: ShapeFill): SVGSVGElement {
  const svg = svgElement('svg');
  svg.setAttribute('viewBox', '0 0 20 20');
  svg.setAttribute('aria-hidden', 'true');
  const square = svg.appendChild(svgElement('rect'));
  for (const [name, value] of Object.entries({ x: 3, y: 3, width: 14, height: 14, rx: 2 }))
    square.setAttribute(name, String(value));
  square.setAttribute('class', `fill-${fill}`);
  return svg;
}

/** The fill bar: one button per fill, pressed for the fill the selection shares. */
export class FillBar {
  readonly element: HTMLElement;
  private readonly buttons: HTMLButtonElement[];

  constructor(
    private readonly layer: ItemLayer,
    private readonly editable: () => boolean,
    perform: (fill: ShapeFill) => void,
  ) {
    this.buttons = SHAPE_FILLS.map((fill) =>
      h(
        'button',
        {
          type: 'button',
          title: `Fill: ${fill}`,
          'aria-label': `Fill: ${fill}`,
          'data-fill': fill,
          onclick: () => perform(fill),
        },
        swatch(fill),
      ),
    );
    this.element = h(
      'div.arrange-bar.fill-bar',
      { role: 'toolbar', 'aria-label': 'Shape fill', hidden: true, 'data-testid': 'fill-bar' },
      ...this.buttons,
    );
    for (const type of ['pointerdown', 'mousedown', 'dblclick'] as const)
      this.element.addEventListener(type, (event) => event.stopPropagation());
  }

  /** Shows the bar while the selection holds a shape the person may restyle. */
  update(): void {
    setHidden(this.element, !this.editable() || selectedShapes(this.layer).length === 0);
    if (this.element.hidden) return;
    const fill = sharedFill(this.layer);
    for (const button of this.buttons) button.setAttribute('aria-pressed', String(button.dataset.fill === fill));
  }
}
