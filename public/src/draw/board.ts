/**
 * The draw board: an infinite canvas with pan and zoom, tools (select, text,
 * post-it, diagram frame, pen, link), colours, images, undo, and live cursors.
 * Every change is a domain mutation on the shared document (BoardSession.write).
 */
import * as Y from 'yjs';
import { INK_COLORS, INK_HEX, type InkColor, type Point } from '../../../schema/index.js';
import { isLink, type ImageItem, type StrokeItem, type TextNode } from '../../../server/board/document-model.js';
import { eraseItem, moveItem, upsertLink, upsertStroke, upsertText } from '../../../server/board/draw.js';
import { recolor } from '../../../server/board/mutations.js';
import type { BoardSession } from '../session.js';
import { h, isTyping, toast } from '../ui.js';
import { openEditor, type EditorOptions } from './editor.js';
import { cancelPressDefaults, DoublePress, wheelZoomFactor } from './gestures.js';
import { uploadImage } from './images.js';
import { asUrl, toggleCheckbox } from './markup.js';
import { diagramsDrawn } from './mermaid.js';
import { renderImage, renderLink, renderStroke, renderText, strokePath, svgElement } from './render.js';

type Tool = 'select' | 'text' | 'postit' | 'diagram' | 'pen' | 'link';
type World = { x: number; y: number };
type Kind = 'texts' | 'links' | 'strokes' | 'images';
type View = { x: number; y: number; scale: number };

const TOOLS: { tool: Tool; label: string; key: string }[] = [
  { tool: 'select', label: 'Select', key: 'v' },
  { tool: 'text', label: 'Text', key: 't' },
  { tool: 'postit', label: 'Post-it', key: 'n' },
  { tool: 'diagram', label: 'Frame', key: 'f' },
  { tool: 'pen', label: 'Pen', key: 'p' },
  { tool: 'link', label: 'Link', key: 'l' },
];
const MIN_SCALE = 0.05;
const MAX_SCALE = 8;

export class DrawBoard {
  readonly element: HTMLElement;
  private readonly viewport: HTMLElement;
  private readonly world: HTMLElement;
  private readonly items: HTMLElement;
  private readonly strokes: SVGSVGElement;
  private readonly cursors: HTMLElement;
  private readonly rubber: HTMLElement;
  private readonly toolbar: HTMLElement;
  private view: View = { x: 40, y: 40, scale: 1 };
  private tool: Tool = 'select';
  private color: InkColor = 'auto';
  private readonly selection = new Set<string>();
  private hovered: string | null = null;
  private readonly elements = new Map<string, HTMLElement | SVGElement>();
  private editing: HTMLTextAreaElement | null = null;
  private spaceDown = false;
  /** Bumped by every fit and by every pan or zoom, so a late re-fit never undoes the person's own move. */
  private viewChanges = 0;
  private readonly cleanup: (() => void)[] = [];

  constructor(
    private readonly session: BoardSession,
    private readonly options: { embed: boolean },
  ) {
    this.strokes = svgElement('svg');
    this.strokes.setAttribute('class', 'strokes');
    this.items = h('div.items');
    this.cursors = h('div.cursors');
    this.world = h('div.world', {}, this.items, this.cursors);
    this.world.prepend(this.strokes);
    this.rubber = h('div.rubber', { hidden: true });
    this.viewport = h('div.viewport', { tabindex: 0, 'aria-label': 'Canvas', 'data-testid': 'canvas' }, this.world, this.rubber);
    this.toolbar = this.buildToolbar();
    this.element = h('div.draw', {}, this.toolbar, this.viewport);
    this.bindInput();
    this.observe();
    this.renderAll();
    this.applyView();
    this.session.onChange(() => this.refreshMode());
    this.refreshMode();
  }

  private get editable(): boolean {
    return !this.options.embed && !this.session.readOnly;
  }

  private refreshMode(): void {
    this.toolbar.hidden = !this.editable;
    this.element.classList.toggle('readonly', !this.editable);
  }

  // ---- toolbar -------------------------------------------------------------

  private buildToolbar(): HTMLElement {
    const tools = TOOLS.map(({ tool, label, key }) =>
      h('button.tool', { type: 'button', 'data-tool': tool, title: `${label} (${key.toUpperCase()})`, 'aria-pressed': String(tool === this.tool), onclick: () => this.setTool(tool) }, label),
    );
    const swatches = INK_COLORS.filter((c) => c !== 'black').map((color) =>
      h('button.swatch', { type: 'button', 'data-color': color, title: color, 'aria-label': `colour ${color}`, style: `--swatch: ${color === 'auto' ? 'var(--ink)' : INK_HEX[color]}`, 'aria-pressed': String(color === this.color), onclick: () => this.setColor(color) }),
    );
    const file = h('input', { type: 'file', accept: 'image/png,image/jpeg,image/gif,image/webp,image/svg+xml', hidden: true, onchange: () => this.uploadFiles([...(file.files ?? [])], this.centre()) });
    return h('div.toolbar', { role: 'toolbar', 'aria-label': 'Drawing tools' },
      ...tools,
      h('span.sep'),
      ...swatches,
      h('span.sep'),
      h('button', { type: 'button', title: 'Add an image', onclick: () => file.click() }, 'Image'),
      file,
      h('button', { type: 'button', title: 'Delete the selection (Del)', onclick: () => this.deleteSelection() }, 'Delete'),
      h('span.sep'),
      h('button', { type: 'button', title: 'Undo (Ctrl+Z)', onclick: () => this.session.undo.undo() }, 'Undo'),
      h('button', { type: 'button', title: 'Redo (Ctrl+Shift+Z)', onclick: () => this.session.undo.redo() }, 'Redo'),
      h('span.sep'),
      h('button', { type: 'button', title: 'Zoom out (-)', onclick: () => this.zoomBy(1 / 1.25, this.centreScreen()) }, '−'),
      h('button', { type: 'button', title: 'Fit the board (0)', onclick: () => this.fit() }, 'Fit'),
      h('button', { type: 'button', title: 'Zoom in (+)', onclick: () => this.zoomBy(1.25, this.centreScreen()) }, '+'),
    );
  }

  private setTool(tool: Tool): void {
    this.tool = tool;
    for (const button of this.toolbar.querySelectorAll<HTMLElement>('[data-tool]')) button.setAttribute('aria-pressed', String(button.dataset.tool === tool));
    this.viewport.dataset.tool = tool;
  }

  /** Picks the pen colour; with a selection, recolours it too. */
  private setColor(color: InkColor): void {
    this.color = color;
    for (const button of this.toolbar.querySelectorAll<HTMLElement>('[data-color]')) button.setAttribute('aria-pressed', String(button.dataset.color === color));
    const ids = [...this.selection].filter((id) => this.kindOf(id) === 'texts' || this.kindOf(id) === 'strokes');
    if (ids.length) this.session.write((w) => recolor(w, ids, color));
  }

  // ---- rendering -------------------------------------------------------------

  private maps() {
    const doc = this.session.doc;
    return { texts: doc.getMap<TextNode>('texts'), lines: doc.getMap<StrokeItem>('lines'), images: doc.getMap<ImageItem>('images') };
  }

  private observe(): void {
    const { texts, lines, images } = this.maps();
    const onTexts = (event: Y.YMapEvent<TextNode>) => event.keysChanged.forEach((id) => this.renderNode(id));
    const onLines = (event: Y.YMapEvent<StrokeItem>) => event.keysChanged.forEach((id) => this.renderLine(id));
    const onImages = (event: Y.YMapEvent<ImageItem>) => event.keysChanged.forEach((id) => this.renderPicture(id));
    texts.observe(onTexts);
    lines.observe(onLines);
    images.observe(onImages);
    const awareness = this.session.provider.awareness;
    const onAwareness = () => this.renderCursors();
    awareness?.on('change', onAwareness);
    this.cleanup.push(() => {
      texts.unobserve(onTexts);
      lines.unobserve(onLines);
      images.unobserve(onImages);
      awareness?.off('change', onAwareness);
    });
  }

  private renderAll(): void {
    const { texts, lines, images } = this.maps();
    for (const id of images.keys()) this.renderPicture(id);
    for (const id of texts.keys()) this.renderNode(id);
    for (const id of lines.keys()) this.renderLine(id);
  }

  private drop(id: string): void {
    this.elements.get(id)?.remove();
    this.elements.delete(id);
    this.selection.delete(id);
  }

  /** The element of an HTML item, created at the top (`append`) or bottom (`prepend`) of the stack when new. */
  private itemElement(id: string, place: 'append' | 'prepend'): HTMLElement {
    let element = this.elements.get(id) as HTMLElement | undefined;
    if (!element) {
      element = h('div');
      this.items[place](element);
      this.elements.set(id, element);
    }
    return element;
  }

  private renderNode(id: string): void {
    const node = this.maps().texts.get(id);
    if (!node) return this.drop(id);
    const element = this.itemElement(id, 'append');
    if ((node as { kind?: string }).kind === 'link') renderLink(element, node as never);
    else renderText(element, node as never, this.editable ? (line) => this.toggleLine(id, line) : undefined);
    element.classList.toggle('selected', this.selection.has(id));
  }

  private renderPicture(id: string): void {
    const image = this.maps().images.get(id);
    if (!image) return this.drop(id);
    const element = this.itemElement(id, 'prepend'); // images lie under texts
    renderImage(element, image, this.session.boardId);
    element.classList.toggle('selected', this.selection.has(id));
  }

  private renderLine(id: string): void {
    const stroke = this.maps().lines.get(id);
    if (!stroke) return this.drop(id);
    const existing = this.elements.get(id) as SVGPolylineElement | undefined;
    const line = renderStroke(existing ?? null, stroke);
    if (!existing) {
      this.strokes.append(line);
      this.elements.set(id, line);
    }
    line.classList.toggle('selected', this.selection.has(id));
  }

  private renderCursors(): void {
    this.cursors.replaceChildren(
      ...this.session.people().filter((person) => person.cursor).map((person) =>
        h('div.cursor', { style: `left:${person.cursor!.x}px;top:${person.cursor!.y}px;--who:${person.color}` }, h('span', {}, person.name)),
      ),
    );
  }

  private applyView(): void {
    const { x, y, scale } = this.view;
    this.world.style.transform = `translate(${x}px, ${y}px) scale(${scale})`;
    this.viewport.style.setProperty('--scale', String(scale));
  }

  // ---- geometry --------------------------------------------------------------

  private toWorld(clientX: number, clientY: number): { x: number; y: number } {
    const rect = this.viewport.getBoundingClientRect();
    return { x: (clientX - rect.left - this.view.x) / this.view.scale, y: (clientY - rect.top - this.view.y) / this.view.scale };
  }

  private centreScreen(): { x: number; y: number } {
    const rect = this.viewport.getBoundingClientRect();
    return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
  }

  private centre(): { x: number; y: number } {
    const { x, y } = this.centreScreen();
    return this.toWorld(x, y);
  }

  private zoomBy(factor: number, around: { x: number; y: number }): void {
    const rect = this.viewport.getBoundingClientRect();
    const scale = Math.min(MAX_SCALE, Math.max(MIN_SCALE, this.view.scale * factor));
    const px = around.x - rect.left;
    const py = around.y - rect.top;
    this.view = { scale, x: px - ((px - this.view.x) * scale) / this.view.scale, y: py - ((py - this.view.y) * scale) / this.view.scale };
    this.viewChanges++;
    this.applyView();
  }

  private panBy(dx: number, dy: number): void {
    this.view = { ...this.view, x: this.view.x + dx, y: this.view.y + dy };
    this.viewChanges++;
    this.applyView();
  }

  /**
   * Fits every item into the viewport, now and again once the diagrams being
   * drawn have their size (until then a diagram is a one-line placeholder);
   * unless the person has moved the view meanwhile.
   */
  fit(): void {
    this.fitNow();
    const change = ++this.viewChanges;
    void diagramsDrawn().then(() => change === this.viewChanges && this.fitNow());
  }

  private fitNow(): void {
    const rect = this.viewport.getBoundingClientRect();
    let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const element of this.elements.values()) {
      const box = this.boxOf(element);
      if (!box) continue;
      [minX, minY, maxX, maxY] = [Math.min(minX, box.x), Math.min(minY, box.y), Math.max(maxX, box.x + box.width), Math.max(maxY, box.y + box.height)];
    }
    if (minX === Infinity || rect.width === 0) return;
    const margin = 40;
    const scale = Math.min(MAX_SCALE, Math.max(MIN_SCALE, Math.min((rect.width - 2 * margin) / (maxX - minX || 1), (rect.height - 2 * margin) / (maxY - minY || 1), 2)));
    this.view = { scale, x: (rect.width - (maxX - minX) * scale) / 2 - minX * scale, y: (rect.height - (maxY - minY) * scale) / 2 - minY * scale };
    this.applyView();
  }

  /** An element's box in world coordinates. */
  private boxOf(element: HTMLElement | SVGElement): { x: number; y: number; width: number; height: number } | null {
    if (element instanceof SVGPolylineElement) {
      const stroke = this.maps().lines.get(element.dataset.id!);
      if (!stroke) return null;
      const xs = stroke.points.map((p) => p[0]);
      const ys = stroke.points.map((p) => p[1]);
      return { x: Math.min(...xs), y: Math.min(...ys), width: Math.max(...xs) - Math.min(...xs), height: Math.max(...ys) - Math.min(...ys) };
    }
    const html = element as HTMLElement;
    return { x: parseFloat(html.style.left), y: parseFloat(html.style.top), width: html.offsetWidth, height: html.offsetHeight };
  }

  private kindOf(id: string): Kind | null {
    const { texts, lines, images } = this.maps();
    const node = texts.get(id) as { kind?: string } | undefined;
    if (node) return node.kind === 'link' ? 'links' : 'texts';
    if (lines.has(id)) return 'strokes';
    if (images.has(id)) return 'images';
    return null;
  }

  private itemAt(target: EventTarget | null): string | null {
    const element = (target as Element | null)?.closest?.('[data-id]') as HTMLElement | SVGElement | null;
    return element && this.elements.has(element.dataset.id!) ? element.dataset.id! : null;
  }

  private select(ids: string[], add = false): void {
    if (!add) this.selection.clear();
    for (const id of ids) {
      if (add && this.selection.has(id)) this.selection.delete(id);
      else this.selection.add(id);
    }
    for (const [id, element] of this.elements) element.classList.toggle('selected', this.selection.has(id));
  }

  // ---- input -----------------------------------------------------------------

  private bindInput(): void {
    const vp = this.viewport;
    const pointers = new Map<number, { x: number; y: number }>();
    // `open` edits the text `id`, or creates an item with `tool`, when the press ends: a phone opens
    // its keyboard only for a focus made during a user activation, which for a tap is its pointerup.
    let gesture: null | { type: 'pan'; last: { x: number; y: number } } | { type: 'move'; start: { x: number; y: number }; origins: Map<string, { x: number; y: number }>; moved: boolean } | { type: 'pen'; points: Point[]; line: SVGPolylineElement } | { type: 'rubber'; start: { x: number; y: number }; add: boolean } | { type: 'pinch'; distance: number } | { type: 'open'; at: World; id: string | null; tool: Tool } = null;
    const doublePress = new DoublePress();
    cancelPressDefaults(vp, (target) => target === this.editing);

    vp.addEventListener('pointerdown', (event) => {
      if (this.editing && event.target === this.editing) return;
      vp.focus({ preventScroll: true });
      pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      if (pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        gesture = { type: 'pinch', distance: Math.hypot(a.x - b.x, a.y - b.y) };
        return;
      }
      const world = this.toWorld(event.clientX, event.clientY);
      const id = this.itemAt(event.target);
      // A double click or tap edits a text, or on empty canvas starts a new one (as tldraw and Excalidraw do).
      const double = this.editable && this.tool === 'select' && event.button === 0 && !this.spaceDown && doublePress.press(event, id);
      if (double && (!id || this.kindOf(id) === 'texts')) {
        gesture = { type: 'open', at: world, id, tool: 'text' };
        return;
      }
      vp.setPointerCapture(event.pointerId);
      if (!this.editable || this.spaceDown || event.button === 1 || (this.tool === 'select' && !id && !event.shiftKey)) {
        if (this.tool === 'select' && !id && !event.shiftKey) this.select([]);
        gesture = { type: 'pan', last: { x: event.clientX, y: event.clientY } };
        return;
      }
      if (this.tool === 'pen') {
        const line = svgElement('polyline');
        line.setAttribute('class', 'stroke drawing');
        line.style.stroke = this.color === 'auto' || this.color === 'black' ? 'var(--ink)' : INK_HEX[this.color];
        this.strokes.append(line);
        gesture = { type: 'pen', points: [[round(world.x), round(world.y)]], line };
        return;
      }
      if (this.tool === 'select') {
        if (!id) {
          gesture = { type: 'rubber', start: { x: event.clientX, y: event.clientY }, add: true };
          return;
        }
        if (event.shiftKey) return this.select([id], true);
        if (!this.selection.has(id)) this.select([id]);
        const origins = new Map<string, { x: number; y: number }>();
        for (const selected of this.selection) {
          const box = this.boxOf(this.elements.get(selected)!);
          if (box) origins.set(selected, { x: box.x, y: box.y });
        }
        gesture = { type: 'move', start: world, origins, moved: false };
        return;
      }
      gesture = { type: 'open', at: world, id: null, tool: this.tool };
    });

    vp.addEventListener('pointermove', (event) => {
      const world = this.toWorld(event.clientX, event.clientY);
      this.throttledCursor(world);
      this.hovered = this.itemAt(event.target);
      if (pointers.has(event.pointerId)) {
        pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
        doublePress.drag(event);
      }
      if (!gesture) return;
      if (gesture.type === 'pinch' && pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        const distance = Math.hypot(a.x - b.x, a.y - b.y);
        this.zoomBy(distance / gesture.distance, { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });
        gesture.distance = distance;
      } else if (gesture.type === 'pan') {
        this.panBy(event.clientX - gesture.last.x, event.clientY - gesture.last.y);
        gesture.last = { x: event.clientX, y: event.clientY };
      } else if (gesture.type === 'pen') {
        const last = gesture.points[gesture.points.length - 1];
        if (Math.hypot(world.x - last[0], world.y - last[1]) * this.view.scale >= 2) {
          gesture.points.push([round(world.x), round(world.y)]);
          gesture.line.setAttribute('points', strokePath(gesture.points));
        }
      } else if (gesture.type === 'move') {
        const [dx, dy] = [world.x - gesture.start.x, world.y - gesture.start.y];
        gesture.moved ||= Math.hypot(dx, dy) * this.view.scale > 3;
        for (const [id, origin] of gesture.origins) {
          const element = this.elements.get(id);
          if (element instanceof HTMLElement) {
            element.style.left = `${origin.x + dx}px`;
            element.style.top = `${origin.y + dy}px`;
          } else if (element) element.setAttribute('transform', `translate(${dx} ${dy})`);
        }
      } else if (gesture.type === 'rubber') {
        const rect = this.viewport.getBoundingClientRect();
        const [x1, y1, x2, y2] = [gesture.start.x, gesture.start.y, event.clientX, event.clientY];
        Object.assign(this.rubber.style, { left: `${Math.min(x1, x2) - rect.left}px`, top: `${Math.min(y1, y2) - rect.top}px`, width: `${Math.abs(x2 - x1)}px`, height: `${Math.abs(y2 - y1)}px` });
        this.rubber.hidden = false;
      }
    });

    const end = (event: PointerEvent) => {
      pointers.delete(event.pointerId);
      const current = gesture;
      gesture = null;
      if (!current) return;
      if (current.type === 'open') {
        if (event.type !== 'pointerup') return;
        if (current.id) this.edit(current.id);
        else this.createAt(current.at, current.tool);
      } else if (current.type === 'pen') {
        current.line.remove();
        if (current.points.length === 1) current.points.push([current.points[0][0] + 1, current.points[0][1] + 1]);
        this.session.write((w) => upsertStroke(w, { points: current.points, color: this.color }));
      } else if (current.type === 'move') {
        for (const id of current.origins.keys()) (this.elements.get(id) as SVGElement | undefined)?.removeAttribute?.('transform');
        if (!current.moved) return;
        const world = this.toWorld(event.clientX, event.clientY);
        const [dx, dy] = [world.x - current.start.x, world.y - current.start.y];
        this.session.write((w) => {
          for (const [id, origin] of current.origins) {
            const kind = this.kindOf(id);
            if (kind) moveItem(w, kind, id, { x: round(origin.x + dx), y: round(origin.y + dy) });
          }
        });
        for (const id of current.origins.keys()) this.rerender(id);
      } else if (current.type === 'rubber') {
        this.rubber.hidden = true;
        const a = this.toWorld(current.start.x, current.start.y);
        const b = this.toWorld(event.clientX, event.clientY);
        const [x1, y1, x2, y2] = [Math.min(a.x, b.x), Math.min(a.y, b.y), Math.max(a.x, b.x), Math.max(a.y, b.y)];
        const inside = [...this.elements.entries()].filter(([, element]) => {
          const box = this.boxOf(element);
          return box && box.x >= x1 && box.y >= y1 && box.x + box.width <= x2 && box.y + box.height <= y2;
        }).map(([id]) => id);
        this.select(inside, current.add);
      }
    };
    vp.addEventListener('pointerup', end);
    vp.addEventListener('pointercancel', end);
    vp.addEventListener('pointerleave', () => this.session.setCursor(null));

    vp.addEventListener('wheel', (event) => {
      event.preventDefault();
      // Trackpad pinches arrive as wheel events with ctrlKey set.
      if (event.ctrlKey || event.metaKey) this.zoomBy(wheelZoomFactor(event), { x: event.clientX, y: event.clientY });
      else this.panBy(-event.deltaX, -event.deltaY);
    }, { passive: false });

    vp.addEventListener('dragover', (event) => event.preventDefault());
    vp.addEventListener('drop', (event) => {
      event.preventDefault();
      if (!this.editable) return;
      const files = [...(event.dataTransfer?.files ?? [])].filter((file) => file.type.startsWith('image/'));
      this.uploadFiles(files, this.toWorld(event.clientX, event.clientY));
    });

    const onPaste = (event: ClipboardEvent) => this.paste(event);
    const onKey = (event: KeyboardEvent) => this.key(event);
    const onKeyUp = (event: KeyboardEvent) => {
      if (event.key === ' ') this.spaceDown = false;
    };
    document.addEventListener('paste', onPaste);
    document.addEventListener('keydown', onKey);
    document.addEventListener('keyup', onKeyUp);
    this.cleanup.push(() => {
      document.removeEventListener('paste', onPaste);
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('keyup', onKeyUp);
    });
  }

  private lastCursor = 0;
  private throttledCursor(world: { x: number; y: number }): void {
    const now = performance.now();
    if (now - this.lastCursor < 50) return;
    this.lastCursor = now;
    this.session.setCursor({ x: Math.round(world.x), y: Math.round(world.y) });
  }

  private rerender(id: string): void {
    const kind = this.kindOf(id);
    if (kind === 'texts' || kind === 'links') this.renderNode(id);
    else if (kind === 'images') this.renderPicture(id);
    else if (kind === 'strokes') this.renderLine(id);
  }

  /** Places an item made with `tool`: a link asks for its address, a text opens the editor and is stored only once something is typed. */
  private createAt(world: World, tool: Tool): void {
    const at = { x: round(world.x), y: round(world.y) };
    this.setTool('select');
    if (tool === 'link') {
      const url = prompt('Link address (http or https)');
      if (url) this.session.write((w) => upsertLink(w, { ...at, url: url.trim() }));
      return;
    }
    const style = { postit: tool === 'postit' || undefined, diagram: tool === 'diagram' || undefined, color: this.color === 'auto' ? undefined : this.color };
    this.openEditor({ ...at, width: 200, minHeight: 60, content: '', variant: style.postit ? 'postit' : style.diagram ? 'diagram' : undefined }, (content) => {
      const url = asUrl(content);
      if (!url && !content.trim()) return; // an empty new text is no item at all
      const item = this.session.write((w) => (url ? upsertLink(w, { ...at, url }) : upsertText(w, { ...at, content, ...style })));
      if (item) this.select([item.id]);
    });
  }

  /** Edits a text in place; a text that ends up as a bare URL becomes a link pill, an empty one goes. */
  private edit(id: string): void {
    const text = this.maps().texts.get(id);
    const element = this.elements.get(id) as HTMLElement | undefined;
    if (!text || !element || isLink(text)) return;
    element.style.visibility = 'hidden'; // the editor stands in for it
    this.openEditor({ x: text.x, y: text.y, width: Math.max(element.offsetWidth, 200), minHeight: Math.max(element.offsetHeight, 60), content: text.content, variant: text.postit ? 'postit' : text.diagram ? 'diagram' : undefined }, (content) => {
      element.style.visibility = '';
      const current = this.maps().texts.get(id);
      if (!current || isLink(current)) return; // erased or replaced meanwhile
      const url = asUrl(content);
      this.session.write((w) => {
        if (url) {
          eraseItem(w, 'texts', id);
          upsertLink(w, { x: current.x, y: current.y, url });
        } else if (!content.trim()) eraseItem(w, 'texts', id);
        else if (content !== current.content) upsertText(w, { id, x: current.x, y: current.y, content });
      });
    });
  }

  /** Opens the one text editor (closing any other); `save` decides what its text becomes. */
  private openEditor(options: Omit<EditorOptions, 'onDone'>, save: (content: string) => void): void {
    this.editing?.blur();
    this.editing = openEditor(this.items, {
      ...options,
      onDone: (content, byKey) => {
        this.editing = null;
        save(content);
        // Ended by a key, the canvas takes the keyboard back; ended by a press elsewhere, focus goes there.
        if (byKey) this.viewport.focus({ preventScroll: true });
      },
    });
  }

  private toggleLine(id: string, line: number): void {
    const text = this.maps().texts.get(id) as { x: number; y: number; content: string } | undefined;
    if (!text) return;
    this.session.write((w) => upsertText(w, { id, x: text.x, y: text.y, content: toggleCheckbox(text.content, line) }));
  }

  private deleteSelection(): void {
    const ids = [...this.selection];
    if (!ids.length) return;
    this.session.write((w) => {
      for (const id of ids) {
        const kind = this.kindOf(id);
        if (kind) eraseItem(w, kind, id);
      }
    });
    this.select([]);
  }

  private uploadFiles(files: File[], at: { x: number; y: number }): void {
    files.forEach((file, index) => void uploadImage(this.session.boardId, file, at.x + index * 24, at.y + index * 24));
  }

  private paste(event: ClipboardEvent): void {
    if (!this.editable || this.editing || isTyping(event.target)) return;
    const files = [...(event.clipboardData?.files ?? [])].filter((file) => file.type.startsWith('image/'));
    const at = this.centre();
    if (files.length) {
      event.preventDefault();
      this.uploadFiles(files, at);
      return;
    }
    const text = event.clipboardData?.getData('text/plain') ?? '';
    const url = asUrl(text);
    if (url) {
      event.preventDefault();
      this.session.write((w) => upsertLink(w, { x: round(at.x), y: round(at.y), url }));
    } else if (text.trim()) {
      event.preventDefault();
      this.session.write((w) => upsertText(w, { x: round(at.x), y: round(at.y), content: text }));
    }
  }

  private key(event: KeyboardEvent): void {
    if (isTyping(event.target) || document.querySelector('dialog[open]')) return;
    const mod = event.ctrlKey || event.metaKey;
    if (event.key === ' ') this.spaceDown = true;
    if (event.key === '+' || event.key === '=') return this.zoomBy(1.25, this.centreScreen());
    if (event.key === '-') return this.zoomBy(1 / 1.25, this.centreScreen());
    if (event.key === '0') return this.fit();
    const arrows: Record<string, [number, number]> = { ArrowLeft: [60, 0], ArrowRight: [-60, 0], ArrowUp: [0, 60], ArrowDown: [0, -60] };
    if (arrows[event.key] && !this.selection.size) {
      event.preventDefault();
      return this.panBy(...arrows[event.key]);
    }
    if (mod && event.key.toLowerCase() === 'a') {
      // Select all means every item on the canvas, never the text of the page around it.
      event.preventDefault();
      if (this.editable) this.select([...this.elements.keys()]);
      return;
    }
    if (!this.editable) return;
    if (mod && event.key.toLowerCase() === 'z') {
      event.preventDefault();
      return void (event.shiftKey ? this.session.undo.redo() : this.session.undo.undo());
    }
    if (mod && event.key.toLowerCase() === 'y') {
      event.preventDefault();
      return void this.session.undo.redo();
    }
    if (mod) return;
    if (event.key === 'Delete' || event.key === 'Backspace') return this.deleteSelection();
    if (event.key === 'Escape') {
      this.select([]);
      return this.setTool('select');
    }
    if (event.key === 'Enter' && this.selection.size === 1) {
      event.preventDefault();
      return this.edit([...this.selection][0]);
    }
    if (event.key.toLowerCase() === 'y' && this.hovered && this.kindOf(this.hovered) === 'texts') {
      const id = this.hovered;
      const text = this.maps().texts.get(id) as { x: number; y: number; content: string; postit?: boolean; diagram?: boolean };
      this.session.write((w) => upsertText(w, { id, x: text.x, y: text.y, content: text.content, postit: !text.postit, diagram: text.postit ? text.diagram : false }));
      return;
    }
    const tool = TOOLS.find((entry) => entry.key === event.key.toLowerCase());
    if (tool) this.setTool(tool.tool);
  }

  destroy(): void {
    for (const undo of this.cleanup) undo();
    this.element.remove();
  }
}

const round = (value: number) => Math.round(value * 10) / 10;
