/** The canvas's view of the world: pan, zoom and fit, and the mapping between screen and world coordinates. */
import { diagramsDrawn } from './mermaid.js';

/** A position in world coordinates, the ones items are stored in. */
export type World = { x: number; y: number };
/** An item's box in world coordinates. */
export type Box = { x: number; y: number; width: number; height: number };

const MIN_SCALE = 0.05;
const MAX_SCALE = 8;
/** One press of a zoom button or key. */
const ZOOM_STEP = 1.25;
const FIT_MARGIN_PX = 40;
/** How long a zoom must rest before the world is drawn again at its new scale. */
const REDRAW_AFTER_ZOOM_MS = 200;
/** Fitting a small board never blows it up past this. */
const MAX_FIT_SCALE = 2;
/** Below this scale a text's letters are too small to type in (a 14 px font under 10 px on the screen). */
const READABLE_SCALE = 0.7;

/** A world coordinate as stored: to a tenth of a pixel, which no zoom shows and keeps the document small. */
export const round = (value: number) => Math.round(value * 10) / 10;

/**
 * Where the world lies in the viewport: an offset in screen pixels and a scale,
 * applied to the world layer as one CSS transform, which the compositor moves
 * without painting anything again. `--scale` (so that handles and cursors keep
 * their screen size) is set only on the elements that use it: set on the
 * viewport, every item of the board would have its style computed again.
 */
export class CanvasView {
  private x = 40;
  private y = 40;
  private zoom = 1;
  /** Bumped by every fit and by every pan or zoom, so a late re-fit never undoes the person's own move. */
  private changes = 0;
  /** Whether the person has panned or zoomed since the board opened. */
  private moved = false;

  /** `bounds` is the box around every item, for fitting; `scaled` are the elements drawn at the screen's size, which read `--scale`. */
  constructor(
    private readonly viewport: HTMLElement,
    private readonly world: HTMLElement,
    private readonly bounds: () => Box | null,
    private readonly scaled: HTMLElement[],
    /** Told the new scale whenever it changes (the zoom menu shows it). */
    private readonly onZoom: (scale: number) => void = () => {},
  ) {
    this.apply();
  }

  /** Screen pixels per world unit. */
  get scale(): number {
    return this.zoom;
  }

  /** The world position under a point of the screen (client coordinates). */
  toWorld(clientX: number, clientY: number): World {
    const rect = this.viewport.getBoundingClientRect();
    return { x: (clientX - rect.left - this.x) / this.zoom, y: (clientY - rect.top - this.y) / this.zoom };
  }

  /** The point of the screen (client coordinates) a world position is drawn at. */
  toScreen(world: World): { x: number; y: number } {
    const rect = this.viewport.getBoundingClientRect();
    return { x: rect.left + this.x + world.x * this.zoom, y: rect.top + this.y + world.y * this.zoom };
  }

  /** The centre of the viewport on the screen, where the zoom buttons and keys zoom around. */
  centreScreen(): { x: number; y: number } {
    const rect = this.viewport.getBoundingClientRect();
    return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
  }

  /** The world position at the centre of the viewport, where pasted and picked things land. */
  centre(): World {
    const { x, y } = this.centreScreen();
    return this.toWorld(x, y);
  }

  /** Zooms by `factor`, keeping the world point under the screen point `around` where it is. */
  zoomBy(factor: number, around: { x: number; y: number }): void {
    const rect = this.viewport.getBoundingClientRect();
    const scale = Math.min(MAX_SCALE, Math.max(MIN_SCALE, this.zoom * factor));
    const px = around.x - rect.left;
    const py = around.y - rect.top;
    [this.x, this.y] = [px - ((px - this.x) * scale) / this.zoom, py - ((py - this.y) * scale) / this.zoom];
    this.zoom = scale;
    this.changes++;
    this.moved = true;
    this.apply();
  }

  /** Zooms one step in (1) or out (-1) around the centre of the viewport: the zoom buttons and the + and - keys. */
  zoomStep(direction: 1 | -1): void {
    this.zoomBy(direction === 1 ? ZOOM_STEP : 1 / ZOOM_STEP, this.centreScreen());
  }

  /** Zooms to `scale` (1 is 100%) around the centre of the viewport. */
  zoomTo(scale: number): void {
    this.zoomBy(scale / this.zoom, this.centreScreen());
  }

  /** Fits `box` (the selection's) into the viewport, never above 100%: what "Zoom to selection" shows. */
  fitBox(box: Box): void {
    this.changes++;
    this.moved = true;
    this.fitNow(1, box);
  }

  /**
   * Makes `box` (a text being edited) readable: below READABLE_SCALE the view
   * goes to 100%, keeping the box where it was on the screen as far as it fits
   * (and in the upper half, above a phone's keyboard). Returns what puts the
   * view back when the editing ends, unless the person moved it meanwhile.
   */
  zoomToEdit(box: Box): () => void {
    if (this.zoom >= READABLE_SCALE) return () => {};
    const before = { x: this.x, y: this.y, zoom: this.zoom };
    const rect = this.viewport.getBoundingClientRect();
    const margin = FIT_MARGIN_PX / 2;
    const clamp = (value: number, low: number, high: number) => Math.max(low, Math.min(value, Math.max(low, high)));
    const left = clamp(box.x * this.zoom + this.x, margin, rect.width - margin - box.width);
    const top = clamp(box.y * this.zoom + this.y, margin, rect.height / 2 - box.height);
    this.zoom = 1;
    [this.x, this.y] = [left - box.x, top - box.y];
    const change = ++this.changes;
    this.apply();
    return () => {
      if (change !== this.changes) return;
      [this.x, this.y, this.zoom] = [before.x, before.y, before.zoom];
      this.changes++;
      this.apply();
    };
  }

  /** Moves the world by screen pixels. */
  panBy(dx: number, dy: number): void {
    this.x += dx;
    this.y += dy;
    this.changes++;
    this.moved = true;
    this.apply();
  }

  /**
   * Fits every item into the viewport, now and again once the diagrams being
   * drawn have their size (until then a diagram is a one-line placeholder);
   * unless the person has moved the view meanwhile.
   */
  fit(): void {
    this.fitNow();
    const change = ++this.changes;
    void diagramsDrawn().then(() => change === this.changes && this.fitNow());
  }

  /**
   * Opens the board on its content, as the embed does: fits it (never above
   * 100%) when some of it lies outside the viewport, now and once its diagrams
   * are laid out, unless the person has moved the view since the board opened.
   */
  fitOnOpen(): void {
    if (this.moved) return;
    this.fitIfOutside();
    // A diagram is a one-line placeholder until it is laid out: once it has its size, the board is looked at again.
    void diagramsDrawn().then(() => !this.moved && this.fitIfOutside());
  }

  private fitIfOutside(): void {
    const rect = this.viewport.getBoundingClientRect();
    const box = this.bounds();
    const outside =
      box &&
      (box.x * this.zoom + this.x < 0 ||
        box.y * this.zoom + this.y < 0 ||
        (box.x + box.width) * this.zoom + this.x > rect.width ||
        (box.y + box.height) * this.zoom + this.y > rect.height);
    if (outside) this.fitNow(1);
  }

  private fitNow(maxScale = MAX_FIT_SCALE, box = this.bounds()): void {
    const rect = this.viewport.getBoundingClientRect();
    if (!box) return;
    const [minX, minY, maxX, maxY] = [box.x, box.y, box.x + box.width, box.y + box.height];
    if (rect.width === 0) return;
    const margin = FIT_MARGIN_PX;
    const scale = Math.min(
      MAX_SCALE,
      Math.max(
        MIN_SCALE,
        Math.min(
          (rect.width - 2 * margin) / (maxX - minX || 1),
          (rect.height - 2 * margin) / (maxY - minY || 1),
          maxScale,
        ),
      ),
    );
    this.zoom = scale;
    [this.x, this.y] = [
      (rect.width - (maxX - minX) * scale) / 2 - minX * scale,
      (rect.height - (maxY - minY) * scale) / 2 - minY * scale,
    ];
    this.apply();
  }

  private appliedZoom = NaN;
  private redraw = 0;

  private apply(): void {
    this.world.style.transform = `translate(${this.x}px, ${this.y}px) scale(${this.zoom}) translateZ(0)`;
    // styles.css's hint, while the view moves: the picture is kept as the scale changes, and not drawn again
    // at each fraction of a pixel a pan moves it
    this.world.style.removeProperty('will-change');
    if (this.zoom === this.appliedZoom) return;
    this.appliedZoom = this.zoom;
    this.onZoom(this.zoom);
    for (const element of this.scaled) element.style.setProperty('--scale', String(this.zoom));
    clearTimeout(this.redraw);
    this.redraw = window.setTimeout(() => this.redrawAtScale(), REDRAW_AFTER_ZOOM_MS);
  }

  /**
   * Has the browser draw the world again at the scale it is shown at. While it
   * carries `will-change: transform` (from the first step of a zoom) the world's
   * layer keeps the scale it was drawn at, so a pinch or a wheel's notches cost
   * no drawing; but the world would stay blurred after zooming in, and zoomed
   * out every frame would scale down a picture drawn far larger than the
   * screen. Dropping the hint at rest has Chromium draw the layer once at its
   * new scale, and the `translateZ(0)` in its transform keeps it a layer of its
   * own meanwhile (dropping the hint alone would draw it twice: once into the
   * page and once again as a layer, docs/performance.md).
   */
  private redrawAtScale(): void {
    this.world.style.willChange = 'auto';
  }
}
