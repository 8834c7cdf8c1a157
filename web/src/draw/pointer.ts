/**
 * Pointer input of the draw canvas: a press starts one gesture of the tool in
 * use (tools/: pan, pinch, move, resize, selection box, pen stroke, arrow,
 * eraser, or opening an editor), and every move and the release go to that
 * gesture's state; a finger's long press may open the context menu. Also the wheel (pan, and zoom with Ctrl/⌘) and dropped image files.
 */
import type { DrawContext } from './context.js';
import { cancelPressDefaults, DoublePress, LongPress, movedFrom, wheelZoomFactor } from './gestures.js';
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

  /** A finger's long press on empty canvas (a selection box from there), and where: lifted without moving, it opens the menu. */
  let held: { gesture: GestureState; at: Screen } | null = null;

  vp.addEventListener('pointerdown', (event) => {
    if (ctx.editing.editor && event.target === ctx.editing.editor) return;
    vp.focus({ preventScroll: true });
    if (event.button === 2) return doublePress.forget(); // the context menu's (context-menu.ts), no gesture
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
    held = null;
    longPress.press(event, (at) => {
      if (gesture !== pressed || !pressed) return;
      if (!ctx.editable()) {
        // One who may only look has no box to draw: the hold opens the menu (export, select all).
        pressed.onCancel();
        gesture = null;
        return ctx.openMenu(at, false);
      }
      gesture = pressed.onLongPress ? pressed.onLongPress(at) : pressed;
      if (!gesture && pressed.kind === 'move')
        ctx.openMenu(at, false); // the item held is selected alone: its menu
      else if (gesture?.kind === 'rubber' && pressed.kind === 'pan') held = { gesture, at };
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
    // A long press on empty canvas lifted where it was held is no box: it opens the menu there (paste, select all).
    if (held && current === held.gesture && event.type === 'pointerup' && !movedFrom(held.at, event))
      ctx.openMenu(held.at, false);
    held = null;
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
