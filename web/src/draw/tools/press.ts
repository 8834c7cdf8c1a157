/** What every tool's press shares: what lies under it, and the pan and resize that come before the tool's own gesture. */
import { strokesCrossed } from '../arrows.js';
import type { DrawContext } from '../context.js';
import { LiveWrite } from '../live.js';
import { scaleOf } from '../selection-scale.js';
import type { World } from '../view.js';
import { Panning } from './shared/panning.js';
import { Resizing } from './shared/resizing.js';
import { Scaling } from './shared/scaling.js';
import type { Gesture, Press } from './state.js';

/** How near a stroke a press must land to pick it, in screen pixels, on top of the stroke's own half width. */
const PICK_RADIUS_PX = 5;
const STROKE_HALF_WIDTH = 1.5;

/**
 * The item under a point: the text, link or image the browser hit, else the
 * topmost stroke within reach. Strokes take no pointer events (styles.css):
 * the browser would test the geometry of every stroke on every pointer move.
 */
export function itemUnder(ctx: DrawContext, target: EventTarget | null, world: World): string | null {
  const radius = STROKE_HALF_WIDTH + PICK_RADIUS_PX / ctx.view.scale;
  return ctx.layer.itemAt(target) ?? strokesCrossed(ctx.layer, world, world, radius).at(-1) ?? null;
}

/** What a single pointer's press found, from the event. */
export function pressOf(ctx: DrawContext, event: PointerEvent): Press {
  const world = ctx.view.toWorld(event.clientX, event.clientY);
  return {
    event,
    world,
    id: itemUnder(ctx, event.target, world),
    onHandle: !!(event.target as Element | null)?.closest?.('[data-handle]'),
    editable: ctx.editable(),
    spaceDown: ctx.input.spaceDown,
  };
}

/**
 * Captures the pointer, then the gestures any tool's press makes before its
 * own: a pan (a read-only board, Space held, the middle button, or `pan` for
 * the tool), a resize from the selected item's handle and a scale from a
 * corner of the selection's box; undefined: none of them,
 * the tool's own gesture starts.
 */
export function panOrResize(ctx: DrawContext, press: Press, pan = false): Gesture | undefined {
  const { event } = press;
  ctx.viewport.setPointerCapture(event.pointerId);
  if (!press.editable || press.spaceDown || event.button === 1 || pan)
    return new Panning(ctx, { x: event.clientX, y: event.clientY });
  const corner = press.onHandle ? ctx.box.cornerOf(event.target) : null;
  const box = corner && ctx.box.box;
  if (corner && box) return new Scaling(ctx, scaleOf(ctx.layer, corner, box, press.world));
  const resize = press.onHandle ? ctx.handles.target() : null;
  const resized = resize && ctx.layer.elements.get(resize.id);
  const itemBox = resized && ctx.layer.boxOf(resized);
  if (resize && itemBox)
    return new Resizing(ctx, { ...resize, start: press.world, box: itemBox }, new LiveWrite(ctx.session));
  return undefined;
}
