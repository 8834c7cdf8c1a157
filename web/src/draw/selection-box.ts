/**
 * The one box of a multi-selection, as tldraw and Excalidraw draw it: the
 * bounding box of every selected item, with a handle on each corner that
 * scales the whole selection (tools/shared/scaling.ts). A press inside it
 * drags the selection (tools/select). It is measured at most once a frame,
 * and not at all while a drag lifts the items (it hides then, as the resize
 * handle does), so a drag of a full board costs it nothing per pointer move.
 */
import { h } from '../ui.js';
import { unionBox } from './clipboard.js';
import type { ItemLayer } from './items.js';
import type { Box, World } from './view.js';

/** A corner of the box, by compass point: the handle pressed, the opposite one stays put. */
export type Corner = 'nw' | 'ne' | 'sw' | 'se';
const CORNERS: readonly Corner[] = ['nw', 'ne', 'sw', 'se'];

export class SelectionBox {
  readonly element: HTMLElement = h(
    'div.selection-box',
    { hidden: true, 'data-testid': 'selection-box' },
    ...CORNERS.map((corner) =>
      h('div.box-handle', { 'data-handle': corner, title: 'Drag to resize the selection (Shift: free ratio)' }),
    ),
  );
  /** The box drawn now, in world pixels; null when there is none (fewer than two items selected). */
  private shown: Box | null = null;
  private frame = 0;
  /** Set while a gesture draws the box itself (a resize), so measuring does not fight it. */
  private pinned = false;

  constructor(
    private readonly layer: ItemLayer,
    private readonly editable: () => boolean,
  ) {}

  /** The box of the selection, when it has one. */
  get box(): Box | null {
    return this.shown;
  }

  /** Whether a world point lies inside the box (a press there drags the selection). */
  holds(at: World): boolean {
    const box = this.shown;
    return !!box && at.x >= box.x && at.x <= box.x + box.width && at.y >= box.y && at.y <= box.y + box.height;
  }

  /** The corner a press's target is the handle of, if any. */
  cornerOf(target: EventTarget | null): Corner | null {
    const handle = (target as Element | null)?.closest?.<HTMLElement>('.selection-box [data-handle]');
    return handle && this.shown && this.editable() ? (handle.dataset.handle as Corner) : null;
  }

  /** The selection or one of its items changed: measured again at the next frame, or hidden at once. */
  update(): void {
    if (this.layer.selection.size < 2) {
      cancelAnimationFrame(this.frame);
      this.frame = 0;
      if (this.shown) this.draw(null);
      return;
    }
    if (this.frame || this.pinned) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      // Hidden while lifted (styles.css); landing the items tells of each, which measures it again.
      if (!this.pinned && !this.layer.lifting && this.layer.selection.size >= 2)
        this.draw(unionBox(this.layer.boxes(this.layer.selection)));
    });
  }

  /** Draws `box` while a gesture sets it (a resize shows where the selection goes before its write lands). */
  pin(box: Box): void {
    this.pinned = true;
    this.draw(box);
  }

  /** The gesture is over: the box is measured from the items again. */
  unpin(): void {
    this.pinned = false;
    this.update();
  }

  private draw(box: Box | null): void {
    this.shown = box;
    this.element.hidden = !box;
    this.element.classList.toggle('readonly', !this.editable());
    if (!box) return;
    Object.assign(this.element.style, {
      left: `${box.x}px`,
      top: `${box.y}px`,
      width: `${box.width}px`,
      height: `${box.height}px`,
    });
  }
}
