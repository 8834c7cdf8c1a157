/**
 * Translating: a drag of the selection, written as it goes (once a frame, one
 * undo step) so the people watching see it live; and the arrow keys' nudge.
 */
import type { BoardWrite } from '../../../../../board/mutations/board-write.js';
import { moveItem } from '../../../../../board/mutations/draw.js';
import { editFrame } from '../../../../../board/mutations/shapes.js';
import { duplicateSelection } from '../../clipboard.js';
import type { DrawContext } from '../../context.js';
import { withMembers } from '../../frames.js';
import type { Kind } from '../../items.js';
import { LiveWrite } from '../../live.js';
import { round, type World } from '../../view.js';
import { itemUnder } from '../press.js';
import type { Gesture, GestureState, Screen } from '../state.js';
import { Snapper } from './snapper.js';

/** How far a press must move, in screen pixels, before it is a drag and not a click. */
const DRAG_SLOP_PX = 3;

export class Translating implements GestureState {
  readonly kind = 'move';
  /** Null until the press has moved far enough to be a drag. */
  private live: LiveWrite | null = null;
  private origins: Map<string, World>;
  /** Snaps the drag to the items around it once it is a drag (snapper.ts). */
  private snapper: Snapper | null = null;

  /** `copy` (Alt held): the drag takes a copy of the selection and leaves the originals (tldraw, Excalidraw). */
  constructor(
    private readonly ctx: DrawContext,
    private readonly start: World,
    private readonly copy = false,
  ) {
    this.origins = originsOf(ctx);
  }

  onPointerMove(event: PointerEvent, world: World): void {
    const { ctx } = this;
    const [dx, dy] = [world.x - this.start.x, world.y - this.start.y];
    if (!this.live && Math.hypot(dx, dy) * ctx.view.scale > DRAG_SLOP_PX) {
      this.live = LiveWrite.ofItems(ctx.session, this.origins.size);
      if (this.copy && duplicateSelection(ctx, 0).length) this.origins = originsOf(ctx); // in the drag's undo step
      this.snapper = new Snapper(ctx, this.origins.keys());
      ctx.layer.lift(this.origins.keys());
    }
    if (!this.live || !this.snapper) return;
    const [sx, sy] = this.snapper.offset(event, dx, dy);
    ctx.layer.shiftLifted(sx, sy);
    this.live.set(moveWrite(ctx, this.origins, sx, sy));
  }

  onPointerUp(event: PointerEvent): void {
    if (!this.live || !this.snapper) return;
    const world = this.ctx.view.toWorld(event.clientX, event.clientY);
    const [dx, dy] = this.snapper.offset(event, world.x - this.start.x, world.y - this.start.y);
    this.snapper.end();
    this.live.end(event.type === 'pointerup' ? moveWrite(this.ctx, this.origins, dx, dy) : undefined);
    this.ctx.layer.land();
  }

  onCancel(): void {
    this.snapper?.end();
    this.live?.end();
    this.ctx.layer.land();
  }

  /** A finger held still on an item selects it alone (its handles show), and no longer moves it. */
  onLongPress(at: Screen): Gesture | null {
    const { ctx } = this;
    if (!ctx.editable() || ctx.toolbar.tool !== 'select' || this.live) return this;
    const id = itemUnder(ctx, document.elementFromPoint(at.x, at.y), ctx.view.toWorld(at.x, at.y));
    if (id) ctx.layer.selection.select([id]);
    return null;
  }
}

/**
 * The write that puts every moved item at its origin plus (dx, dy) (with no
 * offset, at the places given: align and distribute, actions/arrange.ts). Strokes
 * come last: a selected stroke anchored to a selected text is first pulled
 * along by the text, then set where the drag puts it. A frame is placed alone:
 * its members are among `origins` (originsOf), so each item moves once, and
 * the domain's move would carry whatever lies inside it at each step of a drag.
 */
export function moveWrite(
  ctx: DrawContext,
  origins: Map<string, World>,
  dx: number,
  dy: number,
): (w: BoardWrite) => void {
  const order = orderOf(ctx, origins);
  return (w) => {
    for (const [id, origin] of order) {
      const kind = ctx.layer.kindOf(id); // another person may have erased it meanwhile
      if (!kind) continue;
      const to = { x: round(origin.x + dx), y: round(origin.y + dy) };
      if (kind === 'frames') editFrame(w, id, to);
      else moveItem(w, kind, id, to);
    }
  };
}

/** Each origins map's items, strokes last (by their kind when the drag began): sorted once per drag, not at each of its moves. */
const orders = new WeakMap<Map<string, World>, [string, World, Kind][]>();

function orderOf(ctx: DrawContext, origins: Map<string, World>): [string, World, Kind][] {
  let order = orders.get(origins);
  if (!order) {
    order = [...origins].flatMap(([id, origin]): [string, World, Kind][] => {
      const kind = ctx.layer.kindOf(id);
      return kind ? [[id, origin, kind]] : [];
    });
    order.sort(([, , a], [, , b]) => Number(a === 'strokes') - Number(b === 'strokes'));
    orders.set(origins, order);
  }
  return order;
}

/** Moves the selection by (dx, dy) world pixels in one write: the arrow keys' nudge. */
export function nudgeSelection(ctx: DrawContext, dx: number, dy: number): void {
  const origins = originsOf(ctx);
  if (origins.size) ctx.session.write(moveWrite(ctx, origins, dx, dy));
}

/** Where each selected item's box starts now, and each selected frame's members' (they move with it). */
function originsOf(ctx: DrawContext): Map<string, World> {
  const { layer } = ctx;
  const origins = new Map<string, World>();
  for (const id of withMembers(layer, layer.selection)) {
    const element = layer.elements.get(id);
    const box = element && layer.boxOf(element);
    if (box) origins.set(id, { x: box.x, y: box.y });
  }
  return origins;
}
