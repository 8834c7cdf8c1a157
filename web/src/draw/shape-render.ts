/** How shapes, frames and a stroke's label become DOM (the contract's shapes extension, docs/browser-app.md). */

import type { FrameItem, ShapeItem, StrokeItem } from '../../../board/model/document-model.js';
import { authorName, itemName } from '../names.js';
import { renderMarkup } from './markup.js';
import { inkCss, svgElement } from './render.js';

const SHAPE_NAMES = { rectangle: 'Rectangle', ellipse: 'Ellipse', diamond: 'Diamond' } as const;

/** Places and names a shape's or frame's element, as render.ts places every item. */
function place(element: HTMLElement, item: ShapeItem | FrameItem, kind: string, name: string): void {
  element.tabIndex = -1;
  element.setAttribute('role', 'group');
  element.setAttribute('aria-label', name);
  element.dataset.id = item.id;
  element.dataset.kind = kind;
  Object.assign(element.style, {
    left: `${item.x}px`,
    top: `${item.y}px`,
    width: `${item.width}px`,
    height: `${item.height}px`,
  });
  element.classList.toggle('ai', item.author.startsWith('ai:'));
  element.title = `by ${authorName(item.author)}`;
}

/**
 * A shape: its outline as an SVG drawn at the shape's own pixel size (so the
 * line keeps its width however the shape is stretched), in its ink, filled
 * not at all, lightly or fully; its label centred inside, wrapped to its width.
 */
export function renderShape(element: HTMLElement, shape: ShapeItem): void {
  element.className = `item shape fill-${shape.fill}`;
  place(element, shape, 'shapes', itemName(SHAPE_NAMES[shape.shape], shape.author, shape.label ?? ''));
  element.dataset.shape = shape.shape;
  element.style.setProperty('--shape-ink', inkCss(shape.color));
  const svg = element.querySelector('svg') ?? element.appendChild(svgElement('svg'));
  svg.setAttribute('aria-hidden', 'true');
  const [w, h] = [shape.width, shape.height];
  const outline =
    shape.shape === 'ellipse'
      ? `M0,${h / 2} A${w / 2},${h / 2} 0 1 0 ${w},${h / 2} A${w / 2},${h / 2} 0 1 0 0,${h / 2} Z`
      : shape.shape === 'diamond'
        ? `M${w / 2},0 L${w},${h / 2} L${w / 2},${h} L0,${h / 2} Z`
        : `M0,0 H${w} V${h} H0 Z`;
  const path = svg.querySelector('path') ?? svg.appendChild(svgElement('path'));
  path.setAttribute('d', outline);
  let label = element.querySelector<HTMLElement>('.shape-label');
  if (!shape.label?.trim()) return label?.remove();
  label ??= element.appendChild(document.createElement('div'));
  label.className = 'shape-label';
  label.replaceChildren(renderMarkup(shape.label));
  for (const control of label.querySelectorAll('a, input')) control.setAttribute('tabindex', '-1');
}

/** A frame: a light area with a thin border, its title above its top-left; only its title and edge take a press. */
export function renderFrame(element: HTMLElement, frame: FrameItem): void {
  element.className = 'item frame';
  place(element, frame, 'frames', itemName('Frame', frame.author, frame.title ?? ''));
  const title =
    element.querySelector<HTMLElement>('.frame-title') ?? element.appendChild(document.createElement('div'));
  title.className = 'frame-title';
  title.textContent = frame.title?.trim() ? frame.title : 'Frame';
  title.classList.toggle('untitled', !frame.title?.trim());
  const svg = element.querySelector('svg') ?? element.appendChild(svgElement('svg'));
  svg.setAttribute('aria-hidden', 'true');
  const edge = svg.querySelector('rect') ?? svg.appendChild(svgElement('rect'));
  for (const [name, value] of Object.entries({ width: frame.width, height: frame.height }))
    edge.setAttribute(name, String(value));
}

/** A stroke's label at the middle of its points (null: it has none), as a text with a halo of the page's colour. */
export function renderStrokeLabel(existing: SVGTextElement | null, stroke: StrokeItem): SVGTextElement | null {
  if (!stroke.label?.trim()) {
    existing?.remove();
    return null;
  }
  const text = existing ?? svgElement('text');
  const { points } = stroke;
  const [x, y] = middleOf(points);
  text.setAttribute('class', 'stroke-label');
  text.setAttribute('x', String(x));
  text.setAttribute('y', String(y));
  text.dataset.labelOf = stroke.id;
  text.style.fill = inkCss(stroke.color);
  text.textContent = stroke.label;
  return text;
}

/** The point halfway along a polyline. */
function middleOf(points: [number, number][]): [number, number] {
  let length = 0;
  for (let i = 1; i < points.length; i++)
    length += Math.hypot(points[i][0] - points[i - 1][0], points[i][1] - points[i - 1][1]);
  let left = length / 2;
  for (let i = 1; i < points.length; i++) {
    const [a, b] = [points[i - 1], points[i]];
    const step = Math.hypot(b[0] - a[0], b[1] - a[1]);
    if (step >= left && step > 0) return [a[0] + ((b[0] - a[0]) * left) / step, a[1] + ((b[1] - a[1]) * left) / step];
    left -= step;
  }
  return points[0];
}
