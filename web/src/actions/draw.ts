/**
 * The draw canvas's actions, in the help dialog's order. Viewing keys work on
 * every board; the ones that change it only where the person may edit. The
 * keys are listened for on the whole document (keys.ts), so that they work
 * without first clicking the canvas.
 */
import { duplicateSelection, pasteFromClipboard, unionBox } from '../draw/clipboard.js';
import type { DrawContext } from '../draw/context.js';
import { focusedItem, type ItemFocus } from '../draw/item-focus.js';
import { TOOLS } from '../draw/tools/names.js';
import { nudgeSelection } from '../draw/tools/select/translating.js';
import { type Action, modKey } from './action.js';
import { arrangeActions } from './arrange.js';
import { fillActions } from './fill.js';
import { redo, undo } from './history.js';

/** What the canvas's actions act on: the canvas, and the keyboard focus among its items. */
export type CanvasKeys = DrawContext & { focus: ItemFocus };

type CanvasAction = Action<CanvasKeys>;

/** How far an arrow key pans, in screen pixels. */
const ARROW_PAN_PX = 60;

/** The pan of each arrow key; a nudge goes the other way. */
const ARROWS: Record<string, [number, number]> = {
  ArrowLeft: [ARROW_PAN_PX, 0],
  ArrowRight: [-ARROW_PAN_PX, 0],
  ArrowUp: [0, ARROW_PAN_PX],
  ArrowDown: [0, -ARROW_PAN_PX],
};

/** A key that changes the board: only where the person may edit, and without Ctrl/⌘ (those are the browser's or their own). */
const plainEdit = (event: KeyboardEvent, ctx: CanvasKeys) => ctx.editable() && !modKey(event);
const modEdit = (event: KeyboardEvent, ctx: CanvasKeys, key: string) =>
  ctx.editable() && modKey(event) && event.key.toLowerCase() === key;
/** A menu entry on the selection: only while there is one (and, for `edits`, only where the person may edit). */
const onSelection = (edits: boolean) => (ctx: CanvasKeys) => ctx.layer.selection.size > 0 && (!edits || ctx.editable());

/** Moves the selection by one arrow key: `step` world pixels the other way of its pan. */
function nudge(ctx: CanvasKeys, event: KeyboardEvent, step: number): void {
  event.preventDefault();
  const [dx, dy] = ARROWS[event.key].map((pan) => -Math.sign(pan) * step);
  nudgeSelection(ctx, dx, dy);
}

/** A toolbar tool picked by its key. */
const toolActions: CanvasAction[] = TOOLS.map(({ tool, label, key }) => ({
  name: `tool-${tool}`,
  label: `${label} tool`,
  keys: key.toUpperCase(),
  shortcut: key.toUpperCase(),
  keyTest: (event, ctx) => plainEdit(event, ctx) && event.key.toLowerCase() === key,
  perform: (ctx) => ctx.toolbar.setTool(tool),
}));

const canvasActions: CanvasAction[] = [
  {
    // An open menu of the toolbar (Export, Zoom: draw/menu.ts) closes first; the Escape goes on to drop the selection.
    name: 'close-menu',
    label: 'Close the menu',
    keys: 'Escape',
    anywhere: true,
    passThrough: true,
    hidden: true,
    keyTest: (event, ctx) =>
      event.key === 'Escape' && ctx.toolbar.element.querySelector('details.toolbar-menu[open]') !== null,
    perform: (ctx) => {
      const menu = ctx.toolbar.element.querySelector<HTMLDetailsElement>('details.toolbar-menu[open]');
      if (!menu) return;
      menu.open = false;
      menu.querySelector('summary')?.focus();
    },
  },
  {
    name: 'pan',
    label: 'Pan',
    keys: 'Space + drag, middle button, H',
    keyTest: (event) => event.key === ' ',
    perform: (ctx) => {
      ctx.input.spaceDown = true; // a press while it is held pans (tools/press.ts); keyup lets go (keyboard.ts)
    },
  },
  {
    // With a selection, arrow keys nudge it instead: 1 px, or 10 px with Shift (tldraw, Excalidraw).
    name: 'arrows',
    label: 'Pan (nothing selected) or nudge the selection by 1 px',
    keys: 'Arrow keys',
    keyTest: (event, ctx) =>
      event.key in ARROWS && (!ctx.layer.selection.size || (plainEdit(event, ctx) && !event.shiftKey)),
    perform: (ctx, event) => {
      if (!event) return;
      if (ctx.layer.selection.size) return nudge(ctx, event, 1);
      event.preventDefault();
      ctx.view.panBy(...ARROWS[event.key]);
    },
  },
  {
    name: 'nudge-far',
    label: 'Nudge the selection by 10 px',
    keys: 'Shift + arrow keys',
    keyTest: (event, ctx) =>
      event.key in ARROWS && event.shiftKey && ctx.layer.selection.size > 0 && plainEdit(event, ctx),
    perform: (ctx, event) => event && nudge(ctx, event, 10),
  },
  {
    name: 'zoom-in',
    label: 'Zoom',
    keys: 'Ctrl + wheel, pinch, + / −',
    shortcut: '+',
    keyTest: (event) => event.key === '+' || event.key === '=',
    perform: (ctx) => ctx.view.zoomStep(1),
  },
  {
    name: 'zoom-out',
    label: 'Zoom out',
    keys: '-',
    hidden: true, // listed with zoom-in
    shortcut: '-',
    keyTest: (event) => event.key === '-',
    perform: (ctx) => ctx.view.zoomStep(-1),
  },
  {
    name: 'fit',
    label: 'Fit the board',
    keys: '0',
    shortcut: '0',
    keyTest: (event) => event.key === '0',
    perform: (ctx) => ctx.view.fit(),
  },
  {
    // By the key's place, not its character: Shift+0 is ")" on one layout and "=" on another.
    name: 'zoom-100',
    label: 'Zoom to 100%',
    keys: 'Shift + 0',
    shortcut: 'Shift+0',
    keyTest: (event) => event.shiftKey && !modKey(event) && event.code === 'Digit0',
    perform: (ctx) => ctx.view.zoomTo(1),
  },
  {
    name: 'zoom-selection',
    label: 'Zoom to the selection',
    keys: 'Shift + 2',
    shortcut: 'Shift+2',
    keyTest: (event) => event.shiftKey && !modKey(event) && event.code === 'Digit2',
    enabled: (ctx) => ctx.layer.selection.size > 0,
    perform: (ctx) => {
      const box = unionBox(ctx.layer.boxes(ctx.layer.selection));
      if (box) ctx.view.fitBox(box);
    },
  },
  { name: 'select-click', label: 'Select, add to the selection', keys: 'Click, Shift + click' }, // tools/select
  { name: 'select-box', label: 'Selection box', keys: 'Drag on empty canvas (Select tool), Shift + drag' },
  // Gestures of the selection's box (tools/shared/scaling.ts, tools/select) and the context menu (draw/context-menu.ts).
  {
    name: 'scale-selection',
    label: 'Resize the whole selection (Shift: free ratio); drag inside its box to move it',
    keys: 'Drag a corner of the selection box',
  },
  { name: 'drag-copy', label: 'Drag a copy of the selection', keys: 'Alt + drag' },
  { name: 'context-menu', label: 'The menu of these actions', keys: 'Right-click, long press (touch)' },
  {
    // Select all means every item on the canvas, never the text of the page around it; a visitor who may only look selects too (to export).
    name: 'select-all',
    label: 'Select every item',
    keys: 'Ctrl + A',
    shortcut: 'Ctrl+A',
    keyTest: (event) => modKey(event) && event.key.toLowerCase() === 'a',
    enabled: (ctx) => ctx.layer.elements.size > 0,
    perform: (ctx, event) => {
      event?.preventDefault();
      if (!ctx.embed) ctx.layer.selection.select([...ctx.layer.elements.keys()]);
    },
  },
  {
    name: 'focus-next',
    label: 'Select and focus the next or previous item; Escape goes back to the canvas',
    keys: 'Tab, Shift + Tab (on the canvas)',
    keyTest: (event, ctx) =>
      event.key === 'Tab' &&
      (event.target === ctx.viewport || focusedItem(ctx) !== null) &&
      !modKey(event) &&
      !event.altKey,
    perform: (ctx, event) => {
      if (event && ctx.focus.next(event.shiftKey)) event.preventDefault();
    },
  },
  // The keys are the clipboard's own events (clipboard.ts), so they work between boards and with other apps; a menu runs them.
  { name: 'clipboard', label: 'Copy, cut, paste (also between boards)', keys: 'Ctrl + C / Ctrl + X / Ctrl + V' },
  {
    name: 'copy',
    hidden: true, // the help lists it in the clipboard's row
    label: 'Copy',
    keys: 'Ctrl + C',
    shortcut: 'Ctrl+C',
    enabled: onSelection(false),
    perform: () => document.execCommand('copy'),
  },
  {
    name: 'cut',
    hidden: true, // the help lists it in the clipboard's row
    label: 'Cut',
    keys: 'Ctrl + X',
    shortcut: 'Ctrl+X',
    changes: true,
    enabled: onSelection(true),
    perform: () => document.execCommand('cut'),
  },
  {
    // A page may not paste by execCommand: the menu reads the clipboard (the browser may ask), at where it was opened.
    name: 'paste',
    hidden: true, // the help lists it in the clipboard's row
    label: 'Paste',
    keys: 'Ctrl + V',
    shortcut: 'Ctrl+V',
    changes: true,
    enabled: (ctx) => ctx.editable(),
    perform: (ctx) => void pasteFromClipboard(ctx, ctx.input.menuAt ?? ctx.view.centre()),
  },
  {
    name: 'duplicate',
    label: 'Duplicate the selection',
    keys: 'Ctrl + D',
    shortcut: 'Ctrl+D',
    changes: true,
    enabled: onSelection(true),
    keyTest: (event, ctx) => modEdit(event, ctx, 'd'),
    perform: (ctx, event) => {
      event?.preventDefault(); // not the browser's bookmark
      duplicateSelection(ctx);
    },
  },
  {
    // A Delete that takes the focused item away leaves the focus on the canvas rather than on the page.
    name: 'delete',
    label: 'Delete the selection',
    keys: 'Delete, Backspace',
    shortcut: 'Del',
    changes: true,
    enabled: onSelection(true),
    keyTest: (event, ctx) => (event.key === 'Delete' || event.key === 'Backspace') && ctx.editable(),
    perform: (ctx, event) => {
      if (focusedItem(ctx)) ctx.viewport.focus({ preventScroll: true });
      if (!event || !modKey(event)) ctx.editing.deleteSelection();
    },
  },
  {
    name: 'edit',
    label: 'Edit a text (double-click on empty canvas makes one)',
    keys: 'Double-click, Enter',
    keyTest: (event, ctx) => event.key === 'Enter' && ctx.layer.selection.size === 1 && plainEdit(event, ctx),
    perform: (ctx, event) => {
      event?.preventDefault();
      ctx.editing.edit([...ctx.layer.selection][0]);
    },
  },
  {
    // Escape leaves a focused item for the canvas, on every board; Ctrl+Enter is the editor's own (editor.ts).
    name: 'escape',
    label: 'Finish editing; Escape also drops the selection and picks Select',
    keys: 'Escape, Ctrl + Enter',
    keyTest: (event) => event.key === 'Escape',
    perform: (ctx, event) => {
      if (focusedItem(ctx)) ctx.viewport.focus({ preventScroll: true });
      if (ctx.embed || (event && modKey(event))) return;
      ctx.layer.selection.select([]); // a visitor who may only look selects for the menu's export, so drops it too
      if (ctx.editable()) ctx.toolbar.setTool('select');
    },
  },
  {
    name: 'postit',
    label: 'Post-it on and off',
    keys: 'Y (over a text)',
    keyTest: (event, ctx) =>
      plainEdit(event, ctx) &&
      event.key.toLowerCase() === 'y' &&
      ctx.input.hovered !== null &&
      ctx.layer.kindOf(ctx.input.hovered) === 'texts',
    perform: (ctx) => ctx.input.hovered && ctx.editing.togglePostit(ctx.input.hovered),
  },
  undo,
  redo,
];

/** The help dialog's sections of the draw board, and the order keys are tried in. */
export const DRAW_ACTIONS = {
  tools: toolActions,
  canvas: canvasActions,
  arrange: arrangeActions,
  fill: fillActions,
} as const;

/** Every draw action, for the keyboard; Alt+A aligns before A picks the Arrow tool. */
export const drawActions: readonly CanvasAction[] = [
  ...canvasActions,
  ...arrangeActions,
  ...fillActions,
  ...toolActions,
];
