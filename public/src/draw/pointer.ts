/**
 * Pointer input of the draw canvas: a press starts one gesture (pan, pinch,
 * move, rubber-band select, pen stroke, or opening an editor), moves update it
 * on screen only, and the release writes its result to the document once.
 * Also the wheel (pan, and zoom with Ctrl/⌘) and dropped image files.
 */
import type { Point } from '../../../schema/index.js';
import { moveItem, upsertStroke } from '../../../server/board/draw.js';
import type { DrawContext } from './context.js';
import { cancelPressDefaults, DoublePress, wheelZoomFactor } from './gestures.js';
import { uploadImages } from './images.js';
import { inkCss, strokePath, svgElement } from './render.js';
import type { Tool } from './toolbar.js';
import { round, type World } from './view.js';

type Screen = { x: number; y: number };

/**
 * The gesture under way. `open` edits the text `id`, or creates an item with
 * `tool`, when the press ends: a phone opens its keyboard only for a focus made
 * during a user activation, which for a tap is its pointerup.
 */
type Gesture =
  | { type: 'pan'; last: Screen }
  | { type: 'move'; start: World; origins: Map<string, World>; moved: boolean }
  | { type: 'pen'; points: Point[]; line: SVGPolylineElement }
  | { type: 'rubber'; start: Screen; add: boolean }
  | { type: 'pinch'; distance: number }
  | { type: 'open'; at: World; id: string | null; tool: Tool };

/** Binds the pointer, wheel and drop events of the canvas's viewport. */
export function bindPointer(ctx: DrawContext): void {
  const { viewport: vp, view, layer } = ctx;
  const pointers = new Map<number, Screen>();
  const doublePress = new DoublePress();
  let gesture: Gesture | null = null;
  cancelPressDefaults(vp, (target) => target === ctx.editing.editor);

  vp.addEventListener('pointerdown', (event) => {
    if (ctx.editing.editor && event.target === ctx.editing.editor) return;
    vp.focus({ preventScroll: true });
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      gesture = { type: 'pinch', distance: Math.hypot(a.x - b.x, a.y - b.y) };
      return;
    }
    gesture = start(ctx, event, doublePress);
  });

  vp.addEventListener('pointermove', (event) => {
    const world = view.toWorld(event.clientX, event.clientY);
    ctx.cursors.send(world);
    ctx.input.hovered = layer.itemAt(event.target);
    if (pointers.has(event.pointerId)) {
      pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      doublePress.drag(event);
    }
    if (gesture) update(ctx, gesture, event, world, pointers);
  });

  const end = (event: PointerEvent) => {
    pointers.delete(event.pointerId);
    const current = gesture;
    gesture = null;
    if (current) finish(ctx, current, event);
  };
  vp.addEventListener('pointerup', end);
  vp.addEventListener('pointercancel', end);
  vp.addEventListener('pointerleave', () => ctx.cursors.hide());

  vp.addEventListener('wheel', (event) => {
    event.preventDefault();
    // Trackpad pinches arrive as wheel events with ctrlKey set.
    if (event.ctrlKey || event.metaKey) view.zoomBy(wheelZoomFactor(event), { x: event.clientX, y: event.clientY });
    else view.panBy(-event.deltaX, -event.deltaY);
  }, { passive: false });

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
  const id = layer.itemAt(event.target);
  const editable = ctx.editable();
  const spaceDown = ctx.input.spaceDown;
  // A double click or tap edits a text, or on empty canvas starts a new one (as tldraw and Excalidraw do).
  const double = editable && tool === 'select' && event.button === 0 && !spaceDown && doublePress.press(event, id);
  if (double && (!id || layer.kindOf(id) === 'texts')) return { type: 'open', at: world, id, tool: 'text' };
  ctx.viewport.setPointerCapture(event.pointerId);
  const onEmpty = tool === 'select' && !id && !event.shiftKey;
  if (!editable || spaceDown || event.button === 1 || onEmpty) {
    if (onEmpty) layer.selection.select([]);
    return { type: 'pan', last: { x: event.clientX, y: event.clientY } };
  }
  if (tool === 'pen') {
    const line = svgElement('polyline');
    line.setAttribute('class', 'stroke drawing');
    line.style.stroke = inkCss(toolbar.color);
    layer.strokes.append(line);
    return { type: 'pen', points: [[round(world.x), round(world.y)]], line };
  }
  if (tool !== 'select') return { type: 'open', at: world, id: null, tool };
  if (!id) return { type: 'rubber', start: { x: event.clientX, y: event.clientY }, add: true };
  if (event.shiftKey) {
    layer.selection.select([id], true);
    return null;
  }
  if (!layer.selection.has(id)) layer.selection.select([id]);
  const origins = new Map<string, World>();
  for (const selected of layer.selection) {
    const box = layer.boxOf(layer.elements.get(selected)!);
    if (box) origins.set(selected, { x: box.x, y: box.y });
  }
  return { type: 'move', start: world, origins, moved: false };
}

/** Shows a gesture's progress: nothing reaches the document before the release. */
function update(ctx: DrawContext, gesture: Gesture, event: PointerEvent, world: World, pointers: Map<number, Screen>): void {
  const { view } = ctx;
  if (gesture.type === 'pinch' && pointers.size === 2) {
    const [a, b] = [...pointers.values()];
    const distance = Math.hypot(a.x - b.x, a.y - b.y);
    view.zoomBy(distance / gesture.distance, { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });
    gesture.distance = distance;
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
    gesture.moved ||= Math.hypot(dx, dy) * view.scale > 3;
    for (const [id, origin] of gesture.origins) {
      const element = ctx.layer.elements.get(id);
      if (element instanceof HTMLElement) {
        element.style.left = `${origin.x + dx}px`;
        element.style.top = `${origin.y + dy}px`;
      } else if (element) element.setAttribute('transform', `translate(${dx} ${dy})`);
    }
  } else if (gesture.type === 'rubber') {
    const rect = ctx.viewport.getBoundingClientRect();
    const [x1, y1, x2, y2] = [gesture.start.x, gesture.start.y, event.clientX, event.clientY];
    Object.assign(ctx.rubber.style, { left: `${Math.min(x1, x2) - rect.left}px`, top: `${Math.min(y1, y2) - rect.top}px`, width: `${Math.abs(x2 - x1)}px`, height: `${Math.abs(y2 - y1)}px` });
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
    for (const id of gesture.origins.keys()) (layer.elements.get(id) as SVGElement | undefined)?.removeAttribute?.('transform');
    if (!gesture.moved) return;
    const world = view.toWorld(event.clientX, event.clientY);
    const [dx, dy] = [world.x - gesture.start.x, world.y - gesture.start.y];
    const { origins } = gesture;
    ctx.session.write((w) => {
      for (const [id, origin] of origins) {
        const kind = layer.kindOf(id);
        if (kind) moveItem(w, kind, id, { x: round(origin.x + dx), y: round(origin.y + dy) });
      }
    });
    for (const id of origins.keys()) layer.rerender(id);
  } else if (gesture.type === 'rubber') {
    ctx.rubber.hidden = true;
    const a = view.toWorld(gesture.start.x, gesture.start.y);
    const b = view.toWorld(event.clientX, event.clientY);
    const [x1, y1, x2, y2] = [Math.min(a.x, b.x), Math.min(a.y, b.y), Math.max(a.x, b.x), Math.max(a.y, b.y)];
    const inside = [...layer.elements.entries()].filter(([, element]) => {
      const box = layer.boxOf(element);
      return box && box.x >= x1 && box.y >= y1 && box.x + box.width <= x2 && box.y + box.height <= y2;
    }).map(([id]) => id);
    layer.selection.select(inside, gesture.add);
  }
}
