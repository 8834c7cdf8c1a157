/**
 * Pointer input of the draw canvas: a press starts one gesture of the tool in
 * use (tools/: pan, pinch, move, resize, selection box, pen stroke, arrow,
 * eraser, or opening an editor), and every move and the release go to that
 * gesture's state. Also the wheel (pan, and zoom with Ctrl/⌘) and dropped image files.
 */
import type { DrawContext } from './context.js';
import { cancelPressDefaults, DoublePress, LongPress, wheelZoomFactor } from './gestures.js';
import { uploadImages } from './images.js';
import { toolStates } from './tools/index.js';
import { pressOf } from './tools/press.js';
import { Pinching } from './tools/shared/pinching.js';
import type { GestureState, Screen } from './tools/state.js';

/** Binds the pointer, wheel and drop events of the canvas's viewport. */
export function bindPointer(ctx: DrawContext): void {
  const { viewport: vp, view, layer } = ctx;
  const pointers = new Map<number, Screen>();
  const doublePress = new DoublePress();
  const longPress = new LongPress();
  const tools = toolStates(doublePress);
  let gesture: GestureState | null = null;
  /** The selection before the first finger's press: a pinch is not a tap, so it gives it back. */
  let selectionBefore: string[] = [];
  cancelPressDefaults(vp, (target) => target === ctx.editing.editor);

  vp.addEventListener('pointerdown', (event) => {
    if (ctx.editing.editor && event.target === ctx.editing.editor) return;
    vp.focus({ preventScroll: true });
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (pointers.size === 1 && event.pointerType === 'touch') selectionBefore = [...layer.selection]; // only fingers pinch
    if (pointers.size === 2) {
      longPress.cancel();
      gesture?.onCancel();
      layer.selection.select(selectionBefore);
      const [a, b] = [...pointers.values()];
      gesture = new Pinching(ctx, [a, b]);
      return;
    }
    gesture = tools[ctx.toolbar.tool].onPointerDown(ctx, pressOf(ctx, event));
    const pressed = gesture;
    longPress.press(event, (at) => {
      if (gesture === pressed && pressed) gesture = pressed.onLongPress ? pressed.onLongPress(at) : pressed;
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
    gesture?.onPointerMove(event, world, pointers);
  });

  const end = (event: PointerEvent) => {
    pointers.delete(event.pointerId);
    longPress.cancel();
    const current = gesture;
    gesture = null;
    current?.onPointerUp(event);
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
