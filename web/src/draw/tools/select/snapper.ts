/**
 * The DOM side of snapping a drag (snapping.ts): the candidates are the items
 * on screen that are not being dragged, read once when the drag starts, and
 * the guides are thin lines in the world layer while the drag snaps.
 */
import { unionBox } from '../../clipboard.js';
import type { DrawContext } from '../../context.js';
import { svgElement } from '../../render.js';
import type { Box } from '../../view.js';
import { type Guide, SNAP_PX, type SnapTargets, snapBox, snapTargets } from './snapping.js';

/** How far from the world's origin, each way, the guides' layer keeps its bounds. */
const GUIDE_AREA_PX = 4_000_000;

/** The guide lines, one SVG in the world layer; each line keeps one screen pixel at any zoom (non-scaling stroke). */
export class SnapGuides {
  readonly element: SVGSVGElement = svgElement('svg');
  /** What is drawn, so a pointer move that snaps to the same lines touches no element. */
  private drawn = '';

  constructor() {
    this.element.setAttribute('class', 'snap-guides');
    this.element.setAttribute('aria-hidden', 'true');
    // Painted over a fixed area, one 255th opaque as the paper (paper.ts): a layer whose painted bounds change
    // at each move has Chromium lay out every layer of the page again, 10 ms a frame at the quotas (docs/performance.md).
    const area = svgElement('rect');
    const [at, size] = [-GUIDE_AREA_PX, 2 * GUIDE_AREA_PX];
    for (const [name, value] of Object.entries({ x: at, y: at, width: size, height: size }))
      area.setAttribute(name, String(value));
    area.setAttribute('class', 'snap-area');
    this.element.append(area);
  }

  show(guides: readonly Guide[]): void {
    const key = JSON.stringify(guides);
    if (key === this.drawn) return;
    this.drawn = key;
    const lines = [...this.element.querySelectorAll('line')];
    for (const line of lines.slice(guides.length)) line.remove();
    for (const [i, { axis, at, from, to }] of guides.entries()) {
      const line = lines[i] ?? this.element.appendChild(svgElement('line'));
      const [x1, y1, x2, y2] = axis === 'x' ? [at, from, at, to] : [from, at, to, at];
      for (const [name, value] of Object.entries({ x1, y1, x2, y2 })) line.setAttribute(name, String(value));
      line.setAttribute('vector-effect', 'non-scaling-stroke');
      line.dataset.axis = axis;
    }
  }

  hide(): void {
    this.show([]);
  }
}

/**
 * Snaps one drag of the items `dragged`: their box as the drag started, and the
 * lines of every other item on screen, sorted once here so that each pointer
 * move is a binary search, never a walk over the board's elements.
 */
export class Snapper {
  private readonly box: Box | null;
  private readonly targets: SnapTargets | null;

  constructor(
    private readonly ctx: DrawContext,
    dragged: Iterable<string>,
  ) {
    const ids = new Set(dragged);
    const candidates = [...onScreen(ctx, ids)];
    // With nothing else on screen (every item dragged, after Ctrl+A) the dragged items' boxes are not even read.
    this.targets = candidates.length ? snapTargets(candidates) : null;
    this.box = this.targets && unionBox(ctx.layer.boxes(ids));
  }

  /** The drag's offset snapped, and its guides shown; with Ctrl/⌘ held nothing snaps (as in Figma). */
  offset(event: MouseEvent, dx: number, dy: number): [number, number] {
    const { ctx, box, targets } = this;
    if (!box || !targets || event.ctrlKey || event.metaKey) {
      ctx.guides.hide();
      return [dx, dy];
    }
    const snap = snapBox(targets, box, dx, dy, SNAP_PX / ctx.view.scale);
    ctx.guides.show(snap.guides);
    return [snap.dx, snap.dy];
  }

  /** The drag ended: its guides go. */
  end(): void {
    this.ctx.guides.hide();
  }
}

/** The boxes of the items not in `skip` that the viewport shows, wholly or in part. */
function* onScreen(ctx: DrawContext, skip: ReadonlySet<string>): Iterable<Box> {
  const { layer, view, viewport } = ctx;
  const rect = viewport.getBoundingClientRect();
  const [a, b] = [view.toWorld(rect.left, rect.top), view.toWorld(rect.right, rect.bottom)];
  for (const [id, element] of layer.elements) {
    if (skip.has(id)) continue;
    const box = layer.boxOf(element);
    if (box && box.x <= b.x && box.y <= b.y && box.x + box.width >= a.x && box.y + box.height >= a.y) yield box;
  }
}
