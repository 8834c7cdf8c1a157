/** How each kind of draw item becomes DOM: texts and links as positioned elements, strokes as SVG polylines. */

import type { ImageItem, LinkItem, StrokeItem, TextItem } from '../../../board/model/document-model.js';
import { arrowheadEnds } from '../../../board/model/items.js';
import { INK_HEX, type InkColor, tintsNote } from '../../../schema/index.js';
import { keys } from '../api.js';
import { authorName, itemName } from '../names.js';
import { readAsDataUrl } from './images.js';
import { MERMAID_ONLY, renderMarkup } from './markup.js';
import { renderMermaid } from './mermaid.js';

const SVG = 'http://www.w3.org/2000/svg';
const isAi = (author: string) => author.startsWith('ai:');

/** The colour a name is drawn in, a CSS variable per ink so the theme can lighten it (styles.css); auto and black are the theme's ink. */
export function inkCss(color: InkColor | undefined): string {
  return !color || color === 'auto' || color === 'black' ? 'var(--ink)' : `var(--ink-${color}, ${INK_HEX[color]})`;
}

/** Places an item's element and names it: it takes the focus from the keyboard (keyboard.ts), never a tab stop of its own. */
function place(
  element: HTMLElement,
  item: { id: string; x: number; y: number; author: string },
  kind: string,
  name: string,
): void {
  element.tabIndex = -1;
  element.setAttribute('role', 'group');
  element.setAttribute('aria-label', name);
  element.dataset.id = item.id;
  element.dataset.kind = kind;
  element.style.left = `${item.x}px`;
  element.style.top = `${item.y}px`;
  element.classList.toggle('ai', isAi(item.author));
  element.title = `by ${authorName(item.author)}`;
}

/** A text node (or a Mermaid diagram); checkboxes call `onToggle`. */
export function renderText(element: HTMLElement, text: TextItem, onToggle?: (line: number) => void): void {
  element.className = 'item text';
  const kind = text.postit ? 'Post-it' : text.diagram ? 'Frame' : 'Text';
  place(element, text, 'texts', itemName(kind, text.author, text.content));
  element.classList.toggle('postit', text.postit === true);
  element.classList.toggle('diagram', text.diagram === true);
  element.style.width = text.width ? `${text.width}px` : '';
  element.style.maxWidth = text.width ? 'none' : ''; // a width set by a resize beats the stylesheet's auto-fit cap
  // A coloured post-it is a note of that colour (as sticky notes are), its words in the note's ink.
  const tinted = text.postit === true && tintsNote(text.color);
  element.classList.toggle('tinted', tinted);
  if (tinted) element.style.setProperty('--note', inkCss(text.color));
  else element.style.removeProperty('--note');
  element.style.color = tinted ? '' : inkCss(text.color);
  const mermaid = MERMAID_ONLY.exec(text.content);
  if (mermaid) {
    element.classList.add('mermaid');
    if (element.dataset.source === text.content) return;
    element.dataset.source = text.content;
    element.textContent = 'Drawing diagram…';
    void renderMermaid(mermaid[1], element);
    return;
  }
  delete element.dataset.source;
  element.replaceChildren(text.content.trim() ? renderMarkup(text.content, onToggle) : placeholder());
  // The text is the tab stop: its links and checkboxes are reached through it, not one by one.
  for (const control of element.querySelectorAll('a, input')) control.setAttribute('tabindex', '-1');
}

function placeholder(): HTMLElement {
  const hint = document.createElement('span');
  hint.className = 'placeholder';
  hint.textContent = 'Empty text';
  return hint;
}

export function renderLink(element: HTMLElement, link: LinkItem): void {
  element.className = 'item link';
  let host = link.url;
  try {
    host = new URL(link.url).hostname;
  } catch {
    // shown as written
  }
  place(element, link, 'links', itemName('Link', link.author, host));
  const anchor = element.querySelector('a') ?? element.appendChild(document.createElement('a'));
  anchor.tabIndex = -1;
  anchor.href = link.url;
  anchor.target = '_blank';
  anchor.rel = 'noopener noreferrer';
  anchor.textContent = host;
}

/** Object URLs of images fetched with a key (an <img> cannot send one). */
const imageUrls = new Map<string, string>();

export function renderImage(element: HTMLElement, image: ImageItem, boardId: string): void {
  element.className = 'item image';
  place(element, image, 'images', itemName('Image', image.author));
  element.style.width = `${image.width}px`;
  element.style.height = `${image.height}px`;
  const img = element.querySelector('img') ?? element.appendChild(document.createElement('img'));
  img.alt = 'image';
  img.draggable = false;
  if (img.dataset.blob === image.blob) return;
  img.dataset.blob = image.blob;
  const thumb = image.thumbDataUrl;
  if (thumb) img.src = thumb;
  // Offline, an image the service worker has not kept shows its stored thumbnail, if any.
  const unavailable = () => {
    if (thumb && img.getAttribute('src') !== thumb) img.src = thumb;
    else img.classList.add('broken');
  };
  img.onerror = unavailable;
  img.onload = () => img.classList.remove('broken');
  const path = `/api/boards/${boardId}/images/${image.id}`;
  const key = keys.get(boardId);
  if (!key) {
    img.src = path;
    return;
  }
  const cached = imageUrls.get(image.blob);
  if (cached) {
    img.src = cached;
    return;
  }
  void fetch(path, { headers: { 'x-board-key': key } })
    .then((response) => (response.ok ? response.blob() : Promise.reject(new Error(String(response.status)))))
    // An SVG's blob: URL, opened on its own ("Open image in new tab"), is a page of our origin; a data: URL's is opaque.
    .then((blob) => (blob.type === 'image/svg+xml' ? readAsDataUrl(blob) : URL.createObjectURL(blob)))
    .then((url) => {
      imageUrls.set(image.blob, url);
      img.src = url;
    })
    .catch(unavailable);
}

/** A polyline's `points`; a plain loop, since a board's first render builds thousands of them. */
export function strokePath(points: [number, number][]): string {
  let path = '';
  for (let i = 0; i < points.length; i++) path += `${i ? ' ' : ''}${points[i][0]},${points[i][1]}`;
  return path;
}

/**
 * A stroke; one with an arrowhead (its `arrowhead`, else an end anchored to an
 * item) is drawn as an arrow, with heads from `layer`'s markers. The document
 * has no "arrow" kind: the arrow tool, REST and MCP all draw a stroke with a
 * head (docs/browser-app.md).
 */
export function renderStroke(
  element: SVGPolylineElement | null,
  stroke: StrokeItem,
  layer: SVGSVGElement,
): SVGPolylineElement {
  const line = element ?? (document.createElementNS(SVG, 'polyline') as SVGPolylineElement);
  line.setAttribute('points', strokePath(stroke.points));
  line.setAttribute('class', `stroke${isAi(stroke.author) ? ' ai' : ''}`);
  line.style.stroke = inkCss(stroke.color);
  const ends = arrowheadEnds(stroke);
  for (const [end, headed] of [
    ['marker-start', ends.start],
    ['marker-end', ends.end],
  ] as const)
    if (headed) line.setAttribute(end, `url(#${arrowhead(layer, stroke.color)})`);
    else line.removeAttribute(end);
  line.dataset.id = stroke.id;
  line.dataset.kind = 'strokes';
  line.setAttribute('tabindex', '-1');
  line.setAttribute('role', 'img');
  line.setAttribute('aria-label', itemName(ends.start || ends.end ? 'Arrow' : 'Stroke', stroke.author));
  return line;
}

/** The id of the arrowhead marker of an ink colour in `layer`, made on first use (a marker takes its colour from where it is defined, not from the line); its tip is the stroke's end, on the item's edge. */
function arrowhead(layer: SVGSVGElement, color: InkColor | undefined): string {
  const id = `arrowhead-${color ?? 'auto'}`;
  if (layer.querySelector(`#${id}`)) return id;
  const defs = layer.querySelector('defs') ?? layer.insertBefore(svgElement('defs'), layer.firstChild);
  const marker = svgElement('marker');
  for (const [name, value] of Object.entries({
    id,
    viewBox: '0 0 10 10',
    refX: '10',
    refY: '5',
    markerWidth: '4',
    markerHeight: '4',
    orient: 'auto-start-reverse',
  }))
    marker.setAttribute(name, value);
  const head = svgElement('path');
  head.setAttribute('d', 'M0,0 L10,5 L0,10 z');
  head.style.fill = inkCss(color);
  marker.append(head);
  defs.append(marker);
  return id;
}

export function svgElement<K extends keyof SVGElementTagNameMap>(name: K): SVGElementTagNameMap[K] {
  return document.createElementNS(SVG, name);
}
