/**
 * The canvas's context menu (a right-click, or a long press on a touch
 * screen): the keyboard's actions on what lies under the pointer, each entry
 * an action of the one registry (actions/draw.ts, actions/export.ts) with its
 * label, its shortcut and its `enabled`. On an item or inside the selection's
 * box it acts on the selection (an item not selected is selected first); on
 * empty canvas it offers paste and select all. A visitor who may only look
 * gets the entries that change nothing.
 */
import type { Action } from '../actions/action.js';
import type { CanvasKeys } from '../actions/draw.js';
import { h } from '../ui.js';
import { unionBox } from './clipboard.js';
import { itemUnder } from './tools/press.js';
import type { Screen } from './tools/state.js';

/** The menu's entries by action name, in groups a line apart: on the selection, and on empty canvas. */
const ON_SELECTION: readonly (readonly string[])[] = [
  ['copy', 'cut', 'paste', 'duplicate'],
  ['fill-none', 'fill-semi', 'fill-solid'],
  ['delete'],
  ['select-all'],
  ['export-png-selection', 'export-svg-selection'],
  ['export-png-frame', 'export-svg-frame'],
];
/** Entries left out, rather than shown disabled, where they cannot be used: most selections hold no frame and no shape. */
const ONLY_WHEN_ENABLED: ReadonlySet<string> = new Set([
  'export-png-frame',
  'export-svg-frame',
  'fill-none',
  'fill-semi',
  'fill-solid',
]);
const ON_CANVAS: readonly (readonly string[])[] = [['paste', 'select-all']];
/** How far from the screen's edges the menu stays, in pixels. */
const EDGE_PX = 8;

export class ContextMenu {
  readonly element: HTMLElement = h('div.context-menu', {
    role: 'menu',
    'aria-label': 'Canvas actions',
    'data-testid': 'context-menu',
    hidden: true,
  });

  /** `actions` are where entries are found by name; an embed (`enabled` false) keeps the browser's own menu. */
  constructor(
    private readonly ctx: CanvasKeys,
    private readonly actions: readonly Action<CanvasKeys>[],
    private readonly enabled: () => boolean,
  ) {
    this.element.addEventListener('keydown', (event) => this.onKey(event));
    this.element.addEventListener('focusout', (event) => {
      const next = event.relatedTarget as Node | null;
      if (next && !this.element.contains(next)) this.close();
    });
  }

  /** Binds the right-click and what closes the menu; returns what unbinds them. */
  bind(): () => void {
    const { viewport } = this.ctx;
    const onMenu = (event: MouseEvent) => {
      // A finger's long press is ours already (pointer.ts); the editor keeps the browser's menu (spelling, paste).
      if ((event as PointerEvent).pointerType === 'touch' || event.target === this.ctx.editing.editor) return;
      if (!this.enabled()) return;
      event.preventDefault();
      // From the keyboard (the Menu key, Shift+F10) there is no pointer: the menu opens on the selection.
      this.open(event.button === -1 ? this.keyboardPoint() : { x: event.clientX, y: event.clientY });
    };
    const onPress = (event: PointerEvent) => {
      if (!this.element.hidden && !this.element.contains(event.target as Node)) this.close();
    };
    const close = () => this.close();
    // A key pressed elsewhere (a finger's menu leaves the focus on the canvas) acts there: the menu would be stale.
    const onKey = (event: KeyboardEvent) => {
      if (!this.element.contains(event.target as Node)) this.close();
    };
    viewport.addEventListener('contextmenu', onMenu);
    document.addEventListener('keydown', onKey, true);
    viewport.addEventListener('wheel', close, { passive: true });
    document.addEventListener('pointerdown', onPress, true);
    addEventListener('resize', close);
    addEventListener('blur', close);
    return () => {
      viewport.removeEventListener('contextmenu', onMenu);
      document.removeEventListener('keydown', onKey, true);
      viewport.removeEventListener('wheel', close);
      document.removeEventListener('pointerdown', onPress, true);
      removeEventListener('resize', close);
      removeEventListener('blur', close);
      this.element.remove();
    };
  }

  /**
   * Opens the menu at a screen point, for the item under it, the selection
   * around it, or the empty canvas. `focus`: its first entry takes the
   * keyboard; a finger's menu leaves it on the canvas (its keys still act there).
   */
  open(at: Screen, focus = true): void {
    if (!this.enabled()) return;
    const { ctx } = this;
    const { layer } = ctx;
    const world = ctx.view.toWorld(at.x, at.y);
    const target = document.elementFromPoint(at.x, at.y);
    const id = itemUnder(ctx, target, world);
    // A handle is the selection's too: a finger held on an item's edge lands on the handle that appears there.
    const onSelection = id !== null || !!target?.closest('[data-handle]') || ctx.box.holds(world);
    if (id && !layer.selection.has(id)) layer.selection.select([id]);
    else if (!onSelection && layer.selection.size) layer.selection.select([]);
    ctx.input.menuAt = world;
    this.fill(onSelection && layer.selection.size > 0 ? ON_SELECTION : ON_CANVAS);
    this.place(at);
    if (focus)
      this.entries()
        .find((entry) => !entry.disabled)
        ?.focus({ preventScroll: true });
  }

  /** Where a menu opened from the keyboard goes: the middle of the selection when it is on screen, else of the canvas. */
  private keyboardPoint(): Screen {
    const { layer, view, viewport } = this.ctx;
    const box = unionBox(layer.boxes(layer.selection));
    const at = box && view.toScreen({ x: box.x + box.width / 2, y: box.y + box.height / 2 });
    const rect = viewport.getBoundingClientRect();
    const inside = at && at.x >= rect.left && at.x <= rect.right && at.y >= rect.top && at.y <= rect.bottom;
    return inside ? at : view.centreScreen();
  }

  /** Closes the menu; `refocus` gives the keyboard back to the canvas (Escape, an entry picked). */
  close(refocus = false): void {
    if (this.element.hidden) return;
    this.element.hidden = true;
    if (refocus) this.ctx.viewport.focus({ preventScroll: true });
  }

  private entries(): HTMLButtonElement[] {
    return [...this.element.querySelectorAll<HTMLButtonElement>('button[role=menuitem]')];
  }

  /** The entries of `groups` that the person may use here, each disabled when its action says so. */
  private fill(groups: readonly (readonly string[])[]): void {
    const { ctx } = this;
    const editable = ctx.editable();
    const shown = groups
      .map((names) =>
        names
          .map((name) => this.actions.find((action) => action.name === name))
          .filter((action): action is Action<CanvasKeys> => !!action && (editable || !action.changes))
          .filter((action) => !ONLY_WHEN_ENABLED.has(action.name) || (action.enabled?.(ctx) ?? true)),
      )
      .filter((group) => group.length > 0);
    const rows = shown.flatMap((group, index) => [
      ...(index > 0 ? [h('div.menu-separator', { role: 'separator' })] : []),
      ...group.map((action) => this.entry(action)),
    ]);
    this.element.replaceChildren(...rows);
  }

  private entry(action: Action<CanvasKeys>): HTMLButtonElement {
    const { ctx } = this;
    const button = h(
      'button',
      {
        type: 'button',
        role: 'menuitem',
        tabindex: -1,
        'data-action': action.name,
        onclick: () => {
          this.close(true);
          action.perform?.(ctx, null);
        },
      },
      h('span', {}, action.label),
      action.shortcut ? h('kbd', {}, action.shortcut) : '',
    );
    button.disabled = action.enabled ? !action.enabled(ctx) : false;
    return button;
  }

  /** At the point, moved left or up as far as it must to stay on the screen (a phone's is narrow). */
  private place(at: Screen): void {
    const menu = this.element;
    Object.assign(menu.style, { left: `${at.x}px`, top: `${at.y}px` });
    menu.hidden = false;
    const { width, height } = menu.getBoundingClientRect();
    const [right, bottom] = [document.documentElement.clientWidth - EDGE_PX, innerHeight - EDGE_PX];
    const left = at.x + width > right ? Math.max(EDGE_PX, Math.min(at.x, right) - width) : at.x;
    const top = at.y + height > bottom ? Math.max(EDGE_PX, Math.min(at.y, bottom) - height) : at.y;
    Object.assign(menu.style, { left: `${left}px`, top: `${top}px` });
  }

  /** Arrows move between the entries that can be used, Enter picks (the button's own), Escape closes. */
  private onKey(event: KeyboardEvent): void {
    event.stopPropagation(); // the menu's keys are not the canvas's (no nudge, no delete)
    const entries = this.entries().filter((entry) => !entry.disabled);
    const at = entries.indexOf(document.activeElement as HTMLButtonElement);
    const go = (index: number) => {
      event.preventDefault();
      entries[(index + entries.length) % entries.length]?.focus();
    };
    if (event.key === 'ArrowDown') go(at + 1);
    else if (event.key === 'ArrowUp') go(at < 0 ? -1 : at - 1);
    else if (event.key === 'Home') go(0);
    else if (event.key === 'End') go(-1);
    else if (event.key === 'Escape' || event.key === 'Tab') {
      event.preventDefault();
      this.close(true);
    }
  }
}
