/**
 * The draw board: an infinite canvas with pan and zoom, tools (select, text,
 * post-it, framed text, shapes, frames, pen, arrow, link), colours, images, undo, and live cursors.
 * Every change is a domain mutation on the shared document (BoardSession.write).
 *
 * This file only assembles the canvas from its parts: the item layer
 * (items.ts), the view (view.ts), the toolbar, text editing (editing.ts),
 * live cursors, and the pointer and keyboard handlers.
 */

import { actionNamed } from '../actions/action.js';
import { arrangeActions } from '../actions/arrange.js';
import { type CanvasKeys, drawActions } from '../actions/draw.js';
import { EXPORT_ACTIONS } from '../actions/export.js';
import { fillActionName, fillActions } from '../actions/fill.js';
import { takeSnapshot } from '../first-paint.js';
import type { BoardSession } from '../session.js';
import { h, setHidden } from '../ui.js';
import { ArrangeBar } from './arrange-bar.js';
import { unionBox } from './clipboard.js';
import type { DrawContext } from './context.js';
import { ContextMenu } from './context-menu.js';
import { Cursors } from './cursors.js';
import { Editing } from './editing.js';
import { uploadImages } from './images.js';
import { ItemFocus } from './item-focus.js';
import { ItemLayer } from './items.js';
import { bindKeyboard } from './keyboard.js';
import { bindPointer } from './pointer.js';
import { SelectionBox } from './selection-box.js';
import { FillBar } from './shape-style.js';
import { Toolbar } from './toolbar.js';
import { SnapGuides } from './tools/select/snapper.js';
import { Handles } from './transform.js';
import { CanvasView } from './view.js';
import { WaitingImages } from './waiting-images.js';

/** A draw board's whole interface, for a session; `embed` shows it read-only without a toolbar. */
export class DrawBoard {
  readonly element: HTMLElement;
  private readonly view: CanvasView;
  private readonly toolbar: Toolbar;
  private readonly cleanup: (() => void)[] = [];
  /** The one line of what to do, on an empty board that the person may edit. */
  private readonly hint: HTMLElement;
  private readonly layer: ItemLayer;
  private readonly arrangeBar: ArrangeBar;

  constructor(
    private readonly session: BoardSession,
    private readonly options: { embed: boolean },
  ) {
    const editable = () => this.editable;
    const layer: ItemLayer = new ItemLayer(session, editable, (id, line) => editing.toggleLine(id, line));
    session.textSize = (node) => layer.sizeOf(node);
    const cursors = new Cursors(session, (id) => layer.maps().texts.get(id));
    const handles = new Handles(layer, editable);
    const box = new SelectionBox(layer, editable);
    handles.element.append(box.element); // drawn at the screen's size (--scale) and hidden with the handle
    const waiting = new WaitingImages(session);
    const guides = new SnapGuides();
    const world = h('div.world', {}, layer.items, waiting.element, layer.lifted, handles.element, cursors.element);
    world.append(guides.element);
    world.prepend(layer.paper, layer.frameLayer, layer.shapeLayer, layer.strokes);
    const rubber = h('div.rubber', { hidden: true });
    const hint = h(
      'p.canvas-hint',
      { hidden: true, 'data-testid': 'canvas-hint' },
      matchMedia('(pointer: coarse)').matches
        ? 'Double-tap to write, Pen to draw'
        : 'Double-click to write, P to draw, A for arrows, or paste or drop an image',
    );
    const viewport = h(
      'div.viewport',
      { tabindex: 0, 'aria-label': 'Canvas', 'data-testid': 'canvas' },
      world,
      rubber,
      hint,
    );
    // Its actions act on `keys`, made below; the bar first asks them once the selection changes.
    const arrangeBar = new ArrangeBar(
      arrangeActions.flatMap(({ perform, ...action }) =>
        perform
          ? [
              {
                name: action.name,
                label: action.label,
                shortcut: action.shortcut,
                perform: () => perform(keys, null),
                enabled: () => action.enabled?.(keys) ?? true,
              },
            ]
          : [],
      ),
      () => this.editable && layer.selection.size >= 2,
    );
    viewport.append(arrangeBar.element);
    const fillBar = new FillBar(layer, editable, (fill) =>
      actionNamed(fillActions, fillActionName(fill)).perform?.(context, null),
    );
    viewport.append(fillBar.element);
    this.arrangeBar = arrangeBar;
    this.hint = hint;
    this.layer = layer;
    layer.selection.onChange(() => {
      handles.update();
      arrangeBar.update();
      fillBar.update();
      box.update();
      world.classList.toggle('multi', layer.selection.size > 1); // one box, lighter outlines of its items
    });
    // Once per write, not once per selected item it changed: the fill bar reads the whole selection.
    let selectedChanged = false;
    layer.onChange((id) => {
      if (layer.selection.has(id) && !selectedChanged) {
        selectedChanged = true;
        queueMicrotask(() => {
          selectedChanged = false;
          handles.update();
          box.update();
          fillBar.update();
        });
      }
      this.refreshHint();
    });
    const view = new CanvasView(
      viewport,
      world,
      () => unionBox(layer.boxes()),
      [handles.element, cursors.element],
      (scale) => this.toolbar?.showZoom(scale),
    );
    const toolbar: Toolbar = new Toolbar(viewport, {
      colorPicked: (color) => editing.recolorSelection(color),
      upload: (files) => uploadImages(session.boardId, files, view.centre()),
      action: (name) => {
        const action = actionNamed(drawActions, name);
        return {
          label: action.label,
          shortcut: action.shortcut,
          perform: () => action.perform?.(keys, null),
          enabled: action.enabled && (() => action.enabled?.(keys) ?? true),
        };
      },
    });
    const editing = new Editing(session, layer, toolbar, viewport, (box) => view.zoomToEdit(box));
    this.view = view;
    this.toolbar = toolbar;
    toolbar.showZoom(view.scale);
    this.element = h('div.draw', {}, toolbar.element, viewport);

    const context: DrawContext = {
      session,
      viewport,
      rubber,
      view,
      layer,
      handles,
      guides,
      box,
      toolbar,
      editing,
      cursors,
      editable,
      embed: options.embed,
      input: { spaceDown: false, hovered: null, menuAt: null },
      openMenu: (at, focus) => menu.open(at, focus),
    };
    const keys: CanvasKeys = { ...context, focus: new ItemFocus(context) };
    const menu = new ContextMenu(keys, [...drawActions, ...EXPORT_ACTIONS], () => !options.embed);
    this.element.append(menu.element);
    bindPointer(context);
    this.cleanup.push(bindKeyboard(keys), menu.bind(), layer.follow(), cursors.follow(), waiting.follow());
    // A board opens on its content (view.ts fitOnOpen) as soon as some of it is drawn: from the snapshot, this browser's copy or the sync.
    const fitOnOpen = () => !options.embed && requestAnimationFrame(() => !this.destroyed && view.fitOnOpen()); // the app fits an embed itself
    void takeSnapshot(session.boardId).then((snapshot) => {
      if (!snapshot || this.destroyed) return;
      this.cleanup.push(layer.seed(snapshot));
      fitOnOpen();
    });
    void session.localCopyLoaded.then(fitOnOpen);
    const stopAtSync = session.onChange(() => {
      if (!session.state.synced) return;
      stopAtSync();
      fitOnOpen();
    });
    this.cleanup.push(stopAtSync);
    if (session.state.synced) fitOnOpen();
    this.session.onChange(() => this.refreshMode());
    this.refreshMode();
  }

  private get editable(): boolean {
    return !this.options.embed && !this.session.readOnly;
  }

  private refreshMode(): void {
    // A person who may only look keeps the zoom and Export (styles.css hides the rest); an embed is the board alone.
    this.toolbar.element.hidden = this.options.embed;
    this.element.classList.toggle('readonly', !this.editable);
    this.arrangeBar.update();
    this.refreshHint();
  }

  private refreshHint(): void {
    setHidden(this.hint, !this.editable || this.layer.elements.size > 0); // each changed item asks
  }

  /**
   * Fits every item into the viewport, now and again once the diagrams being
   * drawn have their size; unless the person has moved the view meanwhile.
   */
  fit(): void {
    this.view.fit();
  }

  private destroyed = false;

  destroy(): void {
    this.destroyed = true;
    for (const undo of this.cleanup) undo();
    this.element.remove();
  }
}
