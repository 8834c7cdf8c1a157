/**
 * Pointer input of the draw canvas: a press starts one gesture (pan, pinch,
 * move, resize, rubber-band select, pen stroke, arrow, eraser, or opening an
 * editor). A move or resize writes as it goes (once a frame, one undo step), so
 * the people watching see it live; the others write their result once, on
 * release. Also the wheel (pan, and zoom with Ctrl/⌘) and dropped image files.
 */
import type { Point } from '../../../schema/index.js';
import type { BoardWrite } from '../../../board/mutations/board-write.js';
import { eraseItem, moveItem, upsertStroke } from '../../../board/mutations/draw.js';
import { arrowStroke, ERASER_RADIUS_PX, type Node, nodeAt, strokesCrossed } from './arrows.js';
import type { DrawContext } from './context.js';
import { cancelPressDefaults, DoublePress, LongPress, wheelZoomFactor } from './gestures.js';
import { uploadImages } from './images.js';
import { LiveWrite } from './live.js';
import { inkCss, strokePath, svgElement } from './render.js';
import type { Tool } from './toolbar.js';
import { type Resize, resizeWrite } from './transform.js';
import { round, type World } from './view.js';

type Screen = { x: number; y: number };

/**
 * The gesture under way. `open` edits the text `id`, or creates an item with
 * `tool`, when the press ends: a phone opens its keyboard only for a focus made
 * during a user activation, which for a tap is its pointerup.
 */
type Gesture =
  | { type: 'pan'; last: Screen }
  | { type: 'move'; start: World; origins: Map<string, World>; live: LiveWrite | null }
  | { type: 'resize'; resize: Resize; live: LiveWrite }
  | { type: 'pen'; points: Point[]; line: SVGPolylineElement }
  | { type: 'arrow'; from: Node | null; start: World; line: SVGPolylineElement }
  | { type: 'erase'; last: World; ids: Set<string> }
  | { type: 'rubber'; start: Screen; add: boolean }
  | { type: 'pinch'; distance: number; mid: Screen }
  | { type: 'open'; at: World; id: string | null; tool: Tool };

/** Binds the pointer, wheel and drop events of the canvas's viewport. */
export function bindPointer(ctx: DrawContext): void {
  const { viewport: vp, view, layer } = ctx;
  const pointers = new Map<number, Screen>();
  const doublePress = new DoublePress();
  const longPress = new LongPress();
  let gesture: Gesture | null = null;
  cancelPressDefaults(vp, (target) => target === ctx.editing.editor);

  vp.addEventListener('pointerdown', (event) => {
    if (ctx.editing.editor && event.target === ctx.editing.editor) return;
    vp.focus({ preventScroll: true });
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (pointers.size === 2) {
      longPress.cancel();
      if (gesture) abandon(ctx, gesture);
      const [a, b] = [...pointers.values()];
      gesture = { type: 'pinch', distance: Math.hypot(a.x - b.x, a.y - b.y), mid: midpoint(a, b) };
      return;
    }
    gesture = start(ctx, event, doublePress);
    const pressed = gesture;
    longPress.press(event, (at) => {
      if (gesture === pressed && pressed) gesture = held(ctx, pressed, at);
    });
  });

  vp.addEventListener('pointermove', (event) => {
    const world = view.toWorld(event.clientX, event.clientY);
    ctx.cursors.send(world);
    ctx.input.hovered = layer.itemAt(event.target);
    if (pointers.has(event.pointerId)) {
      pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      doublePress.drag(event);
      longPress.move(event);
    }
    if (gesture) update(ctx, gesture, event, world, pointers);
  });

  const end = (event: PointerEvent) => {
    pointers.delete(event.pointerId);
    longPress.cancel();
    const current = gesture;
    gesture = null;
    if (current) finish(ctx, current, event);
  };
  vp.addEventListener('pointerup', end);
  vp.addEventListener('pointercancel', end);
  vp.addEventListener('pointerleave', () => ctx.cursors.hide());

  vp.addEventListener(
    'wheel',
    (event) => {
      event.preventDefault();
      // Trackpad pinches arrive as wheel events with ctrlKey set.
      if (event.ctrlKey || event.metaKey) view.zoomBy(wheelZoomFactor(event), { x: event.clientX, y: event.clientY });
      else view.panBy(-event.deltaX, -event.deltaY);
    },
    { passive: false },
  );

  vp.addEventListener('dragover', (event) => event.preventDefault());
  vp.addEventListener('drop', (event) => {
    event.preventDefault();
    if (!ctx.editable()) return;
    const files = [...(event.dataTransfer?.files ?? [])].filter((file) => file.type.startsWith('image/'));
    uploadImages(ctx.session.boardId, files, view.toWorld(event.clientX, event.clientY));
  });
}

/** The gesture a single pointer's press starts, from the tool, the item under it and the keys held. */
function start(ctx: DrawContext, event: PointerEvent, doublePress: DoublePress): Gesture | null {
  const { layer, toolbar } = ctx;
  const { tool } = toolbar;
  const world = ctx.view.toWorld(event.clientX, event.clientY);
  const id = itemUnder(ctx, event.target, world);
  const editable = ctx.editable();
  const spaceDown = ctx.input.spaceDown;
  // A double click or tap edits a text, or on empty canvas starts a new one (as tldraw and Excalidraw do).
  const onHandle = !!(event.target as Element | null)?.closest?.('[data-handle]');
  const double =
    editable && tool === 'select' && event.button === 0 && !spaceDown && !onHandle && doublePress.press(event, id);
  if (double && (!id || layer.kindOf(id) === 'texts')) return { type: 'open', at: world, id, tool: 'text' };
  ctx.viewport.setPointerCapture(event.pointerId);
  // A finger on empty canvas pans, as in a phone's maps; held still it draws a selection box (held()). A mouse or pen draws one at once.
  const touchOnEmpty = tool === 'select' && !id && !onHandle && event.pointerType === 'touch';
  if (!editable || spaceDown || event.button === 1 || tool === 'hand' || touchOnEmpty) {
    if (touchOnEmpty) layer.selection.select([]);
    return { type: 'pan', last: { x: event.clientX, y: event.clientY } };
  }
  const resize = onHandle ? ctx.handles.target() : null;
  const resized = resize && layer.elements.get(resize.id);
  const box = resized && layer.boxOf(resized);
  if (resize && box)
    return { type: 'resize', resize: { ...resize, start: world, box }, live: new LiveWrite(ctx.session) };
  if (tool === 'pen' || tool === 'arrow') {
    const line = svgElement('polyline');
    line.setAttribute('class', 'stroke drawing');
    line.style.stroke = inkCss(toolbar.color);
    layer.strokes.append(line);
    const at: Point = [round(world.x), round(world.y)];
    if (tool === 'arrow') return { type: 'arrow', from: nodeAt(layer, id), start: world, line };
    return { type: 'pen', points: [at], line };
  }
  if (tool === 'eraser') {
    const gesture: Gesture = { type: 'erase', last: world, ids: new Set() };
    erase(ctx, gesture, world);
    return gesture;
  }
  if (tool !== 'select') return { type: 'open', at: world, id: null, tool };
  if (!id) {
    // A plain drag on empty canvas draws a selection box (tldraw, Excalidraw); Shift adds to the selection.
    if (!event.shiftKey) layer.selection.select([]);
    return { type: 'rubber', start: { x: event.clientX, y: event.clientY }, add: event.shiftKey };
  }
  if (event.shiftKey) {
    layer.selection.select([id], true);
    return null;
  }
  if (!layer.selection.has(id)) layer.selection.select([id]);
  return { type: 'move', start: world, origins: originsOf(ctx), live: null };
}

/**
 * What a finger held still turns its gesture into (a long press, touch only):
 * on empty canvas the pan becomes a selection box from where the finger went
 * down, drawn as it moves; on an item the press selects it alone (its handles
 * show) and the finger no longer moves it. Any other gesture goes on.
 */
function held(ctx: DrawContext, gesture: Gesture, at: Screen): Gesture | null {
  const { layer } = ctx;
  if (!ctx.editable() || ctx.toolbar.tool !== 'select') return gesture;
  if (gesture.type === 'pan') {
    const rect = ctx.viewport.getBoundingClientRect();
    Object.assign(ctx.rubber.style, {
      left: `${at.x - rect.left}px`,
      top: `${at.y - rect.top}px`,
      width: '0px',
      height: '0px',
    });
    ctx.rubber.hidden = false;
    return { type: 'rubber', start: at, add: false };
  }
  if (gesture.type === 'move' && !gesture.live) {
    const id = itemUnder(ctx, document.elementFromPoint(at.x, at.y), ctx.view.toWorld(at.x, at.y));
    if (id) layer.selection.select([id]);
    return null;
  }
  return gesture;
}

/** How near a stroke a press must land to pick it, in screen pixels, on top of the stroke's own half width. */
const PICK_RADIUS_PX = 5;
const STROKE_HALF_WIDTH = 1.5;

/**
 * The item under a point: the text, link or image the browser hit, else the
 * topmost stroke within reach. Strokes take no pointer events (styles.css):
 * the browser would test the geometry of every stroke on every pointer move.
 */
function itemUnder(ctx: DrawContext, target: EventTarget | null, world: World): string | null {
  const radius = STROKE_HALF_WIDTH + PICK_RADIUS_PX / ctx.view.scale;
  return ctx.layer.itemAt(target) ?? strokesCrossed(ctx.layer, world, world, radius).at(-1) ?? null;
}

const midpoint = (a: Screen, b: Screen): Screen => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });

/**
 * The write that puts every moved item at its origin plus (dx, dy). Strokes
 * come last: a selected stroke anchored to a selected text is first pulled
 * along by the text, then set where the drag puts it.
 */
function moveWrite(ctx: DrawContext, origins: Map<string, World>, dx: number, dy: number): (w: BoardWrite) => void {
  const { layer } = ctx;
  const order = [...origins].sort(
    ([a], [b]) => Number(layer.kindOf(a) === 'strokes') - Number(layer.kindOf(b) === 'strokes'),
  );
  return (w) => {
    for (const [id, origin] of order) {
      const kind = layer.kindOf(id);
      if (kind) moveItem(w, kind, id, { x: round(origin.x + dx), y: round(origin.y + dy) });
    }
  };
}

/** Moves the selection by (dx, dy) world pixels in one write: the arrow keys' nudge. */
export function nudgeSelection(ctx: DrawContext, dx: number, dy: number): void {
  const origins = originsOf(ctx);
  if (origins.size) ctx.session.write(moveWrite(ctx, origins, dx, dy));
}

/** Where each selected item's box starts now. */
function originsOf(ctx: DrawContext): Map<string, World> {
  const { layer } = ctx;
  const origins = new Map<string, World>();
  for (const id of layer.selection) {
    const element = layer.elements.get(id);
    const box = element && layer.boxOf(element);
    if (box) origins.set(id, { x: box.x, y: box.y });
  }
  return origins;
}

/** Marks the strokes the eraser passes over on its way to `world`; they go on release. */
function erase(ctx: DrawContext, gesture: Extract<Gesture, { type: 'erase' }>, world: World): void {
  for (const id of strokesCrossed(ctx.layer, gesture.last, world, ERASER_RADIUS_PX / ctx.view.scale)) {
    gesture.ids.add(id);
    ctx.layer.elements.get(id)?.classList.add('erasing');
  }
  gesture.last = world;
}

/** Shows a gesture's progress; a move or resize also writes it, once a frame. */
function update(
  ctx: DrawContext,
  gesture: Gesture,
  event: PointerEvent,
  world: World,
  pointers: Map<number, Screen>,
): void {
  const { view } = ctx;
  if (gesture.type === 'pinch' && pointers.size === 2) {
    const [a, b] = [...pointers.values()];
    // Two fingers pan by their midpoint's motion and zoom about where it is now, as on a phone's maps.
    const distance = Math.hypot(a.x - b.x, a.y - b.y);
    const mid = midpoint(a, b);
    view.panBy(mid.x - gesture.mid.x, mid.y - gesture.mid.y);
    view.zoomBy(distance / gesture.distance, mid);
    Object.assign(gesture, { distance, mid });
  } else if (gesture.type === 'pan') {
    view.panBy(event.clientX - gesture.last.x, event.clientY - gesture.last.y);
    gesture.last = { x: event.clientX, y: event.clientY };
  } else if (gesture.type === 'pen') {
    const last = gesture.points[gesture.points.length - 1];
    if (Math.hypot(world.x - last[0], world.y - last[1]) * view.scale >= 2) {
      gesture.points.push([round(world.x), round(world.y)]);
      gesture.line.setAttribute('points', strokePath(gesture.points));
    }
  } else if (gesture.type === 'move') {
    const [dx, dy] = [world.x - gesture.start.x, world.y - gesture.start.y];
    if (!gesture.live && Math.hypot(dx, dy) * view.scale > 3) {
      gesture.live = new LiveWrite(ctx.session);
      ctx.layer.lift(gesture.origins.keys());
    }
    if (!gesture.live) return;
    ctx.layer.shiftLifted(dx, dy);
    gesture.live.set(moveWrite(ctx, gesture.origins, dx, dy));
  } else if (gesture.type === 'resize') {
    const write = resizeWrite(ctx.layer, gesture.resize, world, event.shiftKey);
    if (write) gesture.live.set(write);
  } else if (gesture.type === 'arrow') {
    gesture.line.setAttribute(
      'points',
      strokePath([
        [gesture.start.x, gesture.start.y],
        [world.x, world.y],
      ]),
    );
  } else if (gesture.type === 'erase') {
    erase(ctx, gesture, world);
  } else if (gesture.type === 'rubber') {
    const rect = ctx.viewport.getBoundingClientRect();
    const [x1, y1, x2, y2] = [gesture.start.x, gesture.start.y, event.clientX, event.clientY];
    Object.assign(ctx.rubber.style, {
      left: `${Math.min(x1, x2) - rect.left}px`,
      top: `${Math.min(y1, y2) - rect.top}px`,
      width: `${Math.abs(x2 - x1)}px`,
      height: `${Math.abs(y2 - y1)}px`,
    });
    ctx.rubber.hidden = false;
  }
}

/** Ends a gesture at its release (or cancel), writing what it made. */
function finish(ctx: DrawContext, gesture: Gesture, event: PointerEvent): void {
  const { layer, view } = ctx;
  if (gesture.type === 'open') {
    if (event.type !== 'pointerup') return;
    if (gesture.id) ctx.editing.edit(gesture.id);
    else ctx.editing.createAt(gesture.at, gesture.tool);
  } else if (gesture.type === 'pen') {
    gesture.line.remove();
    if (gesture.points.length === 1) gesture.points.push([gesture.points[0][0] + 1, gesture.points[0][1] + 1]);
    const { points } = gesture;
    ctx.session.write((w) => upsertStroke(w, { points, color: ctx.toolbar.color }));
  } else if (gesture.type === 'move') {
    if (!gesture.live) return;
    const world = view.toWorld(event.clientX, event.clientY);
    gesture.live.end(
      event.type === 'pointerup'
        ? moveWrite(ctx, gesture.origins, world.x - gesture.start.x, world.y - gesture.start.y)
        : undefined,
    );
    layer.land();
  } else if (gesture.type === 'resize') {
    const write =
      event.type === 'pointerup'
        ? resizeWrite(layer, gesture.resize, view.toWorld(event.clientX, event.clientY), event.shiftKey)
        : null;
    gesture.live.end(write ?? undefined);
  } else if (gesture.type === 'arrow') {
    gesture.line.remove();
    if (event.type !== 'pointerup') return;
    const end = view.toWorld(event.clientX, event.clientY);
    const to = nodeAt(layer, layer.itemAt(document.elementFromPoint(event.clientX, event.clientY)));
    const tooShort = Math.hypot(end.x - gesture.start.x, end.y - gesture.start.y) * view.scale < 4;
    if (tooShort && (!to || to.id === gesture.from?.id)) return; // a click is no arrow
    const arrow = arrowStroke(gesture.from, gesture.start, to, end);
    ctx.session.write((w) => upsertStroke(w, { ...arrow, color: ctx.toolbar.color }));
  } else if (gesture.type === 'erase') {
    for (const id of gesture.ids) layer.elements.get(id)?.classList.remove('erasing');
    const ids = [...gesture.ids].filter((id) => layer.kindOf(id) === 'strokes');
    // One write for the whole gesture, so one undo brings every erased stroke back.
    if (event.type === 'pointerup' && ids.length)
      ctx.session.write((w) => {
        for (const id of ids) eraseItem(w, 'strokes', id);
      });
  } else if (gesture.type === 'rubber') {
    ctx.rubber.hidden = true;
    const a = view.toWorld(gesture.start.x, gesture.start.y);
    const b = view.toWorld(event.clientX, event.clientY);
    const [x1, y1, x2, y2] = [Math.min(a.x, b.x), Math.min(a.y, b.y), Math.max(a.x, b.x), Math.max(a.y, b.y)];
    const inside = [...layer.elements.entries()]
      .filter(([, element]) => {
        const box = layer.boxOf(element);
        return box && box.x >= x1 && box.y >= y1 && box.x + box.width <= x2 && box.y + box.height <= y2;
      })
      .map(([id]) => id);
    layer.selection.select(inside, gesture.add);
  }
}

/** Ends a gesture that a second finger replaced with a pinch: what it showed goes, what it wrote stays one undo step. */
function abandon(ctx: DrawContext, gesture: Gesture): void {
  if (gesture.type === 'move' || gesture.type === 'resize') gesture.live?.end();
  if (gesture.type === 'move') ctx.layer.land();
  else if (gesture.type === 'pen' || gesture.type === 'arrow') gesture.line.remove();
  else if (gesture.type === 'rubber') ctx.rubber.hidden = true;
  else if (gesture.type === 'erase')
    for (const id of gesture.ids) ctx.layer.elements.get(id)?.classList.remove('erasing');
}
