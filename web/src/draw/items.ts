import {
  boardMaps,
  type FrameItem,
  type ImageItem,
  isLink,
  type ShapeItem,
  type StrokeItem,
  type TextNode,
} from '../../../board/model/document-model.js';
import { strokeBBox } from '../../../board/model/geometry.js';
import type { ItemMap } from '../../../board/model/item-map.js';
import type { DrawSnapshot } from '../first-paint.js';
import type { BoardSession } from '../session.js';
import { h } from '../ui.js';
import { Paper } from './paper.js';
import { renderImage, renderLink, renderStroke, renderText, svgElement } from './render.js';
import { Selection } from './selection.js';
import { renderFrame, renderShape, renderStrokeLabel } from './shape-render.js';
import type { Box } from './view.js';

/** The kinds of draw item, as the domain mutations name them. */
export type Kind = 'texts' | 'links' | 'strokes' | 'images' | 'shapes' | 'frames';

/**
 * How far, in world pixels, a drag can carry the lifted layer, and how far from
 * the world's origin it shows them: the scroller spans twice this each way, and
 * its content as much again, within Chromium's 33.5 million pixel layout range.
 */
const LIFT_REACH_PX = 4_000_000;

/**
 * Draws every item of the document and redraws one whenever it changes, and
 * answers what the input code asks of items: which one is under a target, what
 * kind it is, where its box is. Owns the selection, since selecting marks the
 * elements drawn here.
 */
export class ItemLayer {
  /** The HTML layer: texts, links and images, plus the text editor while one is open. */
  readonly items: HTMLElement = h('div.items');
  /** Frames, behind every other item; shapes, under the strokes (an arrow or a pen line over a filled shape shows). */
  readonly frameLayer: HTMLElement = h('div.items.frame-layer');
  readonly shapeLayer: HTMLElement = h('div.items.shape-layer');
  /** The SVG layer of strokes. */
  readonly strokes: SVGSVGElement = svgElement('svg');
  /**
   * The elements of the items a person is dragging, lifted out of the item
   * layer into one layer of their own that the drag moves as a whole (see
   * `lift`), and where each came from. The layer is a scroller the drag
   * scrolls, holding the lifted items in the world's order of layers.
   */
  readonly lifted: HTMLElement = h('div.lifted', { hidden: true });
  private readonly liftedLayers = { frames: h('div'), shapes: h('div'), items: h('div') };
  private readonly liftedFrom = new Map<string, { parent: Node; next: Node | null; x: string; y: string }>();
  /** Keeps the world one composited layer (see Paper). */
  private readonly backing = new Paper();
  readonly paper: HTMLElement = this.backing.element;
  /**
   * The strokes in two groups, people's and AI-authored ones: the AI halo is one
   * filter on the whole group, since a filter per stroke is rendered per stroke;
   * strokes have no order between them to keep (docs/browser-app.md).
   */
  private readonly strokeGroups = { people: svgElement('g'), ai: svgElement('g') };
  /** The lifted strokes: an SVG of their own in the lifted layer, grouped as in the strokes layer. */
  private readonly liftedStrokes = { svg: svgElement('svg'), people: svgElement('g'), ai: svgElement('g') };
  /** The label of each labelled stroke, drawn beside its polyline and lifted with it. */
  private readonly strokeLabels = new Map<string, SVGTextElement>();
  /** Every drawn item's element by id. */
  readonly elements = new Map<string, HTMLElement | SVGElement>();
  readonly selection = new Selection(this.elements);
  /** Each drawn stroke's box, from its points when drawn: fitting and selecting read them all. */
  private readonly strokeBoxes = new Map<string, Box>();
  /** What each element was last drawn from, so a change of position alone only moves it (a live drag writes every frame). */
  private readonly drawn = new Map<string, string>();
  private readonly listeners = new Set<(id: string) => void>();
  /** While a batch draws (see batch), where its new elements wait: above and below the HTML items, and strokes. */
  private pending: {
    top: DocumentFragment;
    bottom: DocumentFragment;
    strokes: DocumentFragment;
    aiStrokes: DocumentFragment;
    shapes: DocumentFragment;
    frames: DocumentFragment;
  } | null = null;

  /** `onToggle` ticks a checkbox of a text; while the board is not `editable`, checkboxes are drawn but inert. */
  constructor(
    private readonly session: BoardSession,
    private readonly editable: () => boolean,
    private readonly onToggle: (id: string, line: number) => void,
  ) {
    this.strokes.setAttribute('class', 'strokes');
    this.strokeGroups.ai.setAttribute('class', 'ai-strokes');
    this.strokes.append(this.strokeGroups.people, this.strokeGroups.ai);
    const lifted = this.liftedStrokes;
    lifted.svg.setAttribute('class', 'strokes');
    lifted.ai.setAttribute('class', 'ai-strokes');
    lifted.svg.append(lifted.people, lifted.ai);
    const { frames, shapes, items } = this.liftedLayers;
    const [reach, span] = [`${LIFT_REACH_PX}px`, `${2 * LIFT_REACH_PX}px`];
    const content = h('div.lifted-content', {}, frames, shapes, lifted.svg, items);
    // The scroller from -reach to +reach; its content from +reach further on, so a scroll of `reach` shows it at the origin.
    Object.assign(this.lifted.style, { left: `-${reach}`, top: `-${reach}`, width: span, height: span });
    Object.assign(content.style, { left: span, top: span, width: span, height: span });
    this.lifted.append(content);
  }

  /** The document's maps of draw items. */
  maps() {
    const { texts, lines, images, shapes, frames } = boardMaps(this.session.doc);
    return { texts, lines, images, shapes, frames };
  }

  /** Draws every item and follows the document's changes; returns what stops following them. */
  follow(): () => void {
    const { texts, lines, images, shapes, frames } = this.maps();
    const follow = <T extends object>(map: ItemMap<T>, render: (id: string) => void) =>
      map.observe((changes) =>
        this.batch(() => {
          for (const { key } of changes) render(key);
        }),
      );
    const stops = [
      follow(texts, (id) => this.renderNode(id)),
      follow(lines, (id) => this.renderLine(id)),
      follow(images, (id) => this.renderPicture(id)),
      follow(shapes, (id) => this.renderOutlined(id, 'shapes')),
      follow(frames, (id) => this.renderOutlined(id, 'frames')),
    ];
    this.drawAll({
      images: images.values(),
      texts: texts.values(),
      lines: lines.values(),
      shapes: shapes.values(),
      frames: frames.values(),
    });
    return () => {
      for (const stop of stops) stop();
    };
  }

  /**
   * Runs `draw` with new elements gathered in fragments and put into the
   * layers at its end, in one insertion per layer: a board's first sync
   * brings thousands of items in one transaction.
   * Nothing in `draw` may read the new elements' layout.
   */
  private batch(draw: () => void): void {
    if (this.pending) return draw();
    const fragment = () => document.createDocumentFragment();
    const pending = {
      top: fragment(),
      bottom: fragment(),
      strokes: fragment(),
      aiStrokes: fragment(),
      shapes: fragment(),
      frames: fragment(),
    };
    this.pending = pending;
    try {
      draw();
    } finally {
      this.pending = null;
      this.items.prepend(pending.bottom);
      this.items.append(pending.top);
      this.strokeGroups.people.append(pending.strokes);
      this.strokeGroups.ai.append(pending.aiStrokes);
      this.shapeLayer.append(pending.shapes);
      this.frameLayer.append(pending.frames);
    }
  }

  /** Draws a whole board in one batch, images lowest (they lie under texts), strokes in their own layer. */
  private drawAll(content: {
    images: Iterable<ImageItem>;
    texts: Iterable<TextNode>;
    lines: Iterable<StrokeItem>;
    shapes?: Iterable<ShapeItem>;
    frames?: Iterable<FrameItem>;
  }): void {
    this.batch(() => {
      for (const frame of content.frames ?? []) this.drawOutlined(frame, 'frames');
      for (const shape of content.shapes ?? []) this.drawOutlined(shape, 'shapes');
      for (const image of content.images) this.drawPicture(image);
      for (const node of content.texts) this.drawNode(node);
      for (const stroke of content.lines) this.drawLine(stroke);
    });
  }

  /**
   * Draws a board from its JSON snapshot while the document is still empty
   * (first-paint.ts). The document's first sync then redraws every item whose
   * content differs (an unchanged one is only placed again) and drops what the
   * snapshot had and the document no longer holds. Returns what stops waiting.
   */
  seed(snapshot: DrawSnapshot): () => void {
    const { texts, lines, images, shapes, frames } = this.maps();
    if (this.session.state.synced || texts.size + lines.size + images.size + shapes.size + frames.size > 0)
      return () => {};
    this.drawAll({ ...snapshot, images: snapshot.images as ImageItem[] });
    const stop = this.session.onChange(() => {
      if (!this.session.state.synced) return;
      stop();
      for (const id of [...this.elements.keys()]) if (!this.kindOf(id)) this.drop(id);
    });
    return stop;
  }

  /** Hears of every item drawn, redrawn or dropped, by id (the hint of an empty board and the resize handle follow them). */
  onChange(listener: (id: string) => void): void {
    this.listeners.add(listener);
  }

  private changed(id: string): void {
    for (const listener of this.listeners) listener(id);
  }

  /** The kind of an item as the mutations name it, or null when the document no longer has it. */
  kindOf(id: string): Kind | null {
    const { texts, lines, images, shapes, frames } = this.maps();
    const node = texts.get(id);
    if (node) return isLink(node) ? 'links' : 'texts';
    if (lines.has(id)) return 'strokes';
    if (images.has(id)) return 'images';
    if (shapes.has(id)) return 'shapes';
    if (frames.has(id)) return 'frames';
    return null;
  }

  /** The id of the item an event's target lies in, or null for empty canvas. */
  itemAt(target: EventTarget | null): string | null {
    const id = (target as Element | null)?.closest?.<HTMLElement | SVGElement>('[data-id]')?.dataset.id;
    return id !== undefined && this.elements.has(id) ? id : null;
  }

  /** An element's box in world coordinates: a stroke's from its points, an HTML item's from its position and laid-out size. */
  boxOf(element: HTMLElement | SVGElement): Box | null {
    if (element instanceof SVGPolylineElement) {
      const { id } = element.dataset;
      return (id === undefined ? undefined : this.strokeBox(id)) ?? null;
    }
    const html = element as HTMLElement;
    return {
      x: parseFloat(html.style.left),
      y: parseFloat(html.style.top),
      width: html.offsetWidth,
      height: html.offsetHeight,
    };
  }

  /** A drawn stroke's box, kept from when it was drawn. */
  strokeBox(id: string): Box | undefined {
    return this.strokeBoxes.get(id);
  }

  /** Where a stroke's label is drawn, if it has one. */
  strokeLabelAt(id: string): { x: number; y: number } | undefined {
    const label = this.strokeLabels.get(id);
    return label && { x: Number(label.getAttribute('x')), y: Number(label.getAttribute('y')) };
  }

  /** The boxes of the drawn items among `ids` (every drawn item by default). */
  *boxes(ids: Iterable<string> = this.elements.keys()): Iterable<Box> {
    for (const id of ids) {
      const element = this.elements.get(id);
      const box = element && this.boxOf(element);
      if (box) yield box;
    }
  }

  /**
   * Lifts the items among `ids` into the `lifted` layer for a drag, which moves
   * them by scrolling it: Chromium applies a scroll offset in the compositor,
   * where a changed transform makes it lay out the layers of every lifted
   * element again each frame, 40 ms at the shapes quotas (docs/performance.md).
   * Their document positions still change as the drag writes them (the people
   * watching see them travel); the elements stay put until `land`, and a lifted
   * stroke is not drawn again from its new points until then.
   */
  lift(ids: Iterable<string>): void {
    const wasLifting = this.lifting;
    for (const id of ids) {
      const element = this.elements.get(id);
      const parent = element?.parentNode;
      if (element instanceof SVGPolylineElement && parent && !this.liftedFrom.has(id)) {
        this.liftedFrom.set(id, { parent, next: element.nextSibling, x: '', y: '' });
        const group = this.liftedStrokes[parent === this.strokeGroups.ai ? 'ai' : 'people'];
        group.append(element);
        const label = this.strokeLabels.get(id);
        if (label) group.append(label);
        continue;
      }
      if (!(element instanceof HTMLElement) || !parent || this.liftedFrom.has(id)) continue;
      const { left: x, top: y } = element.style;
      this.liftedFrom.set(id, { parent, next: element.nextSibling, x, y });
      const layers = this.liftedLayers;
      (parent === this.frameLayer ? layers.frames : parent === this.shapeLayer ? layers.shapes : layers.items).append(
        element,
      );
    }
    if (!wasLifting && this.lifting) {
      this.lifted.hidden = false;
      this.lifted.scrollTo(LIFT_REACH_PX, LIFT_REACH_PX);
    }
    this.lifted.parentElement?.classList.toggle('lifting', this.lifting);
  }

  /** Whether a drag has items lifted now (the selection box is not measured meanwhile). */
  get lifting(): boolean {
    return this.liftedFrom.size > 0;
  }

  /**
   * Moves the lifted elements by (dx, dy) world pixels from where they were
   * lifted, at the next frame: scrolling lays the page out first, which the
   * frame does anyway, where the pointer's handler would wait for it.
   */
  shiftLifted(dx: number, dy: number): void {
    const pending = this.shift;
    this.shift = { dx, dy };
    if (!pending) requestAnimationFrame(() => this.applyShift());
  }

  private shift: { dx: number; dy: number } | null = null;

  private applyShift(): void {
    if (this.shift && this.lifting) this.lifted.scrollTo(LIFT_REACH_PX - this.shift.dx, LIFT_REACH_PX - this.shift.dy);
    this.shift = null;
  }

  /** Puts the lifted elements back in their place in the item layer, where the document now has them. */
  land(): void {
    const lifted = [...this.liftedFrom].reverse(); // the last lifted goes back first, so each `next` is in place
    this.liftedFrom.clear();
    const { texts, images, shapes, frames } = this.maps();
    for (const [id, { parent, next }] of lifted) {
      const element = this.elements.get(id);
      if (!element) continue;
      parent.insertBefore(element, next?.parentNode === parent ? next : null);
      if (element instanceof SVGPolylineElement) {
        const label = this.strokeLabels.get(id);
        if (label) parent.insertBefore(label, element.nextSibling);
        this.renderLine(id); // at the points the document now has
        continue;
      }
      const item = texts.get(id) ?? images.get(id) ?? shapes.get(id) ?? frames.get(id);
      if (item) Object.assign(element.style, { left: `${item.x}px`, top: `${item.y}px` });
      this.changed(id);
    }
    this.lifted.hidden = true;
    this.shift = null;
    this.lifted.parentElement?.classList.remove('lifting');
  }

  /**
   * The size a text or link is drawn at, for routing the strokes anchored to
   * it; undefined when its element is not drawn or shows other content than
   * `node` (a write about to change it). A width being set is taken as set.
   */
  sizeOf(node: TextNode): { width: number; height: number } | undefined {
    const element = this.elements.get(node.id) as HTMLElement | undefined;
    const { width, ...rest } = node as TextNode & { width?: number };
    const drawn = this.drawn.get(node.id);
    if (!element?.offsetWidth || !drawn || drawnKey(rest) !== drawnKey({ ...JSON.parse(drawn), width: undefined }))
      return undefined;
    return { width: width ?? element.offsetWidth, height: element.offsetHeight };
  }

  private drop(id: string): void {
    this.liftedFrom.delete(id);
    this.elements.get(id)?.remove();
    this.elements.delete(id);
    this.strokeBoxes.delete(id);
    this.strokeLabels.get(id)?.remove();
    this.strokeLabels.delete(id);
    this.drawn.delete(id);
    this.selection.forget(id);
    this.changed(id);
  }

  /**
   * Whether `item` differs from what its element shows in more than its place
   * and time; if not, the element is only moved. Redrawing a text rebuilds its
   * rendered Markdown, too much for every frame of a drag of many items.
   */
  private needsDrawing(
    element: HTMLElement | undefined,
    item: { id: string; x: number; y: number; last_updated: string },
  ): boolean {
    const { x, y } = item;
    this.backing.cover(x, y);
    const key = drawnKey(item);
    if (element && this.drawn.get(item.id) === key) {
      if (!this.liftedFrom.has(item.id)) {
        element.style.left = `${x}px`;
        element.style.top = `${y}px`;
      }
      this.changed(item.id);
      return false;
    }
    this.drawn.set(item.id, key);
    return true;
  }

  /** The element of an HTML item, created at the top (`append`) or bottom (`prepend`) of the stack when new. */
  private itemElement(id: string, place: 'append' | 'prepend'): HTMLElement {
    let element = this.elements.get(id) as HTMLElement | undefined;
    if (!element) {
      element = document.createElement('div');
      if (this.pending) this.pending[place === 'append' ? 'top' : 'bottom'][place](element);
      else this.items[place](element);
      this.elements.set(id, element);
    }
    return element;
  }

  private renderNode(id: string): void {
    const node = this.maps().texts.get(id);
    if (!node) return this.drop(id);
    this.drawNode(node);
  }

  private drawNode(node: TextNode): void {
    const id = node.id;
    if (!this.needsDrawing(this.elements.get(id) as HTMLElement | undefined, node)) return;
    const element = this.itemElement(id, 'append');
    if (isLink(node)) renderLink(element, node);
    else renderText(element, node, this.editable() ? (line) => this.onToggle(id, line) : undefined);
    this.keepLifted(id, element);
    element.classList.toggle('selected', this.selection.has(id));
    this.changed(id);
  }

  /** A lifted element redrawn keeps the place it was lifted from: its layer's transform moves it. */
  private keepLifted(id: string, element: HTMLElement): void {
    const from = this.liftedFrom.get(id);
    if (from) Object.assign(element.style, { left: from.x, top: from.y });
  }

  private renderPicture(id: string): void {
    const image = this.maps().images.get(id);
    if (!image) return this.drop(id);
    this.drawPicture(image);
  }

  private drawPicture(image: ImageItem): void {
    const id = image.id;
    if (!this.needsDrawing(this.elements.get(id) as HTMLElement | undefined, image)) return;
    const element = this.itemElement(id, 'prepend'); // images lie under texts
    renderImage(element, image, this.session.boardId);
    this.keepLifted(id, element);
    element.classList.toggle('selected', this.selection.has(id));
    this.changed(id);
  }

  private renderOutlined(id: string, kind: 'shapes' | 'frames'): void {
    const item = this.maps()[kind].get(id);
    if (!item) return this.drop(id);
    this.drawOutlined(item, kind);
  }

  /** A shape in the shape layer, or a frame in the frame layer behind everything. */
  private drawOutlined(item: ShapeItem | FrameItem, kind: 'shapes' | 'frames'): void {
    const { id } = item;
    let element = this.elements.get(id) as HTMLElement | undefined;
    if (!this.needsDrawing(element, item)) return;
    if (!element) {
      element = document.createElement('div');
      (this.pending?.[kind] ?? (kind === 'shapes' ? this.shapeLayer : this.frameLayer)).append(element);
      this.elements.set(id, element);
    }
    if (kind === 'shapes') renderShape(element, item as ShapeItem);
    else renderFrame(element, item as FrameItem);
    this.keepLifted(id, element);
    element.classList.toggle('selected', this.selection.has(id));
    this.changed(id);
  }

  private renderLine(id: string): void {
    const stroke = this.maps().lines.get(id);
    if (!stroke) return this.drop(id);
    this.drawLine(stroke);
  }

  private drawLine(stroke: StrokeItem): void {
    const id = stroke.id;
    if (this.liftedFrom.has(id)) return; // moved by the lifted layer; drawn again when it lands
    const existing = this.elements.get(id) as SVGPolylineElement | undefined;
    const line = renderStroke(existing ?? null, stroke, this.strokes);
    const box = strokeBBox(stroke.points);
    this.strokeBoxes.set(id, box);
    this.backing.cover(box.x, box.y);
    const ai = line.classList.contains('ai');
    if (!existing || existing.parentNode !== this.strokeGroups[ai ? 'ai' : 'people']) {
      (this.pending?.[ai ? 'aiStrokes' : 'strokes'] ?? this.strokeGroups[ai ? 'ai' : 'people']).append(line);
      this.elements.set(id, line);
    }
    const label = renderStrokeLabel(this.strokeLabels.get(id) ?? null, stroke);
    if (label) {
      if (label.previousSibling !== line) line.after(label);
      this.strokeLabels.set(id, label);
    } else this.strokeLabels.delete(id);
    if (this.selection.has(id) || existing) line.classList.toggle('selected', this.selection.has(id));
    this.changed(id);
  }
}

/** What an item's element shows, less its place and time. */
function drawnKey(item: { x: number; y: number; last_updated?: string }): string {
  const { x, y, last_updated, ...rest } = item;
  return JSON.stringify(rest);
}
