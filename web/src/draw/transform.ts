/**
 * Resizing the selected item: the handle drawn on it, the size a drag of that
 * handle gives (a text's width, an image's width and height), and the write.
 */

import { isLink } from '../../../board/model/document-model.js';
import type { BoardWrite } from '../../../board/mutations/board-write.js';
import { resizeImage, upsertText } from '../../../board/mutations/draw.js';
import { ImageResizeInput, MAX_IMAGE_SIDE_PX, MAX_TEXT_WIDTH_PX, MIN_TEXT_WIDTH_PX } from '../../../schema/index.js';
import { h } from '../ui.js';
import type { ItemLayer } from './items.js';
import { placeOutline } from './shape-style.js';
import { type Box, round, type World } from './view.js';

/** The smallest side a resize leaves an image, in world pixels: small enough for an icon, big enough to grab again. */
export const MIN_IMAGE_SIDE_PX = 8;

/** A resize under way: which item, its kind, and its box when the handle was pressed. */
export type Resize = { id: string; kind: Resizable; start: World; box: Box };

/** The kinds the handle resizes. */
type Resizable = 'texts' | 'images' | 'shapes' | 'frames';
const RESIZABLE: ReadonlySet<string | null> = new Set<Resizable>(['texts', 'images', 'shapes', 'frames']);

/**
 * The write a resize makes when the pointer is at `world`. Shift held (`free`) frees an image's ratio, and keeps a
 * shape's or frame's, which are free by default (as tldraw and Excalidraw resize each).
 */
export function resizeWrite(
  layer: ItemLayer,
  resize: Resize,
  world: World,
  free: boolean,
): ((w: BoardWrite) => void) | null {
  const [dx, dy] = [world.x - resize.start.x, world.y - resize.start.y];
  const { box, id } = resize;
  if (resize.kind === 'texts') {
    const text = layer.maps().texts.get(id);
    if (!text || isLink(text)) return null;
    const width = Math.round(Math.min(MAX_TEXT_WIDTH_PX, Math.max(MIN_TEXT_WIDTH_PX, box.width + dx)));
    return (w) => void upsertText(w, { id, x: text.x, y: text.y, content: text.content, width });
  }
  if (resize.kind === 'shapes' || resize.kind === 'frames') return outlineWrite(resize, dx, dy, free);
  const clamp = (side: number) => round(Math.min(MAX_IMAGE_SIDE_PX, Math.max(MIN_IMAGE_SIDE_PX, side)));
  let [width, height] = [box.width + dx, box.height + dy];
  if (!free) {
    // The side dragged further decides; the other follows the ratio, and neither leaves the bounds.
    const limit = Math.min(MAX_IMAGE_SIDE_PX / box.width, MAX_IMAGE_SIDE_PX / box.height);
    const floor = Math.max(MIN_IMAGE_SIDE_PX / box.width, MIN_IMAGE_SIDE_PX / box.height);
    const scale = Math.min(limit, Math.max(floor, width / box.width, height / box.height));
    [width, height] = [box.width * scale, box.height * scale];
  }
  const size = ImageResizeInput.safeParse({ width: clamp(width), height: clamp(height) });
  return size.success ? (w) => void resizeImage(w, id, size.data) : null;
}

/** A shape's or frame's new size: each side follows the pointer, or with `ratio` the side dragged further decides. */
function outlineWrite(resize: Resize, dx: number, dy: number, ratio: boolean) {
  const { box, id, kind } = resize;
  let [width, height] = [box.width + dx, box.height + dy];
  if (ratio) {
    const scale = Math.max(width / box.width, height / box.height);
    [width, height] = [box.width * scale, box.height * scale];
  }
  return (w: BoardWrite) => placeOutline(w, kind as 'shapes' | 'frames', id, { width, height });
}

/**
 * The resize handle of the one selected text or image, drawn in the world
 * layer above the items (an item's own element is redrawn from the document,
 * which would take a handle inside it along). A text has a handle on its right
 * edge (its width), an image on its bottom-right corner.
 */
export class Handles {
  readonly element: HTMLElement = h('div.handles');
  private readonly handle: HTMLElement = h('div.handle', {
    'data-handle': 'resize',
    title: 'Drag to resize (Shift: free ratio)',
  });
  private readonly resized = new ResizeObserver(() => this.update());
  private watched: Element | null = null;

  constructor(
    private readonly layer: ItemLayer,
    private readonly editable: () => boolean,
  ) {
    this.element.append(this.handle);
    this.update();
  }

  /** The item the handle resizes now, if any. */
  target(): { id: string; kind: Resizable } | null {
    if (this.layer.selection.size !== 1 || !this.editable()) return null;
    const [id] = this.layer.selection;
    const kind = this.layer.kindOf(id);
    return RESIZABLE.has(kind) ? { id, kind: kind as Resizable } : null;
  }

  /** Puts the handle on the selected item, or hides it. */
  update(): void {
    const target = this.target();
    const element = target ? (this.layer.elements.get(target.id) as HTMLElement | undefined) : undefined;
    if (element !== this.watched) {
      this.resized.disconnect();
      if (element) this.resized.observe(element);
      this.watched = element ?? null;
    }
    const box = element && this.layer.boxOf(element);
    this.handle.hidden = !box;
    if (!box || !target) return;
    this.handle.dataset.kind = target.kind;
    const y = target.kind === 'texts' ? box.y + box.height / 2 : box.y + box.height;
    Object.assign(this.handle.style, { left: `${box.x + box.width}px`, top: `${y}px` });
  }
}
