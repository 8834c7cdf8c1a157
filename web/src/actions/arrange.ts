/**
 * Align and distribute the selection (draw/arrange.ts), with tldraw's keys:
 * Alt+A, Alt+H, Alt+D align left, horizontal centres, right; Alt+W, Alt+V,
 * Alt+S top, vertical centres, bottom; Shift+Alt+H and Shift+Alt+V distribute.
 * Each is one write of the domain's moves (one undo step), as a drag is.
 */
import { type Alignment, alignBoxes, distributeBoxes } from '../draw/arrange.js';
import type { DrawContext } from '../draw/context.js';
import { withMembers } from '../draw/frames.js';
import { moveWrite } from '../draw/tools/select/translating.js';
import { type Box, round, type World } from '../draw/view.js';
import { type Action, modKey } from './action.js';

/**
 * The selected items an arrangement moves: a stroke anchored to a selected
 * item is left out, since it follows that item as it does in any move.
 */
function arranged(ctx: DrawContext): string[] {
  const { layer } = ctx;
  const { lines } = layer.maps();
  return [...layer.selection].filter((id) => {
    const anchors = lines.get(id)?.anchors;
    return !anchors || ![anchors.start?.id, anchors.end?.id].some((end) => end && layer.selection.has(end));
  });
}

/** Whether the selection has `least` items to arrange, on a board the person may edit. */
const arrangeable = (ctx: DrawContext, least: number) => ctx.editable() && arranged(ctx).length >= least;

/** Moves the arranged items where `place` puts their boxes, in one write; nothing when it has fewer than `least`. */
function arrange(ctx: DrawContext, least: number, place: (boxes: Map<string, Box>) => Map<string, World>): void {
  if (!arrangeable(ctx, least)) return;
  const boxes = new Map<string, Box>();
  for (const id of arranged(ctx)) {
    const element = ctx.layer.elements.get(id);
    const box = element && ctx.layer.boxOf(element);
    if (box) boxes.set(id, box);
  }
  if (boxes.size < least) return;
  const moves = new Map(
    [...place(boxes)].filter(([id, to]) => {
      const from = boxes.get(id) as Box;
      return round(to.x) !== round(from.x) || round(to.y) !== round(from.y);
    }),
  );
  carryMembers(ctx, boxes, moves);
  if (moves.size) ctx.session.write(moveWrite(ctx, moves, 0, 0));
}

/** A moved frame takes what it holds along by its own offset, as a drag does; a member also arranged keeps its own place. */
function carryMembers(ctx: DrawContext, arranged: Map<string, Box>, moves: Map<string, World>): void {
  const { layer } = ctx;
  const { frames } = layer.maps();
  for (const [id, to] of [...moves]) {
    const frame = frames.get(id);
    if (!frame) continue;
    for (const member of withMembers(layer, [id])) {
      const element = member === id || arranged.has(member) ? undefined : layer.elements.get(member);
      const box = element && layer.boxOf(element);
      if (box) moves.set(member, { x: box.x + to.x - frame.x, y: box.y + to.y - frame.y });
    }
  }
}

/**
 * Alt with `letter` (and Shift when `shift`). By the letter, or by the key's
 * place when Alt made the key another character (Option on a Mac gives "å").
 */
const altKey = (event: KeyboardEvent, letter: string, shift: boolean) =>
  event.altKey &&
  !modKey(event) &&
  event.shiftKey === shift &&
  (event.key.toLowerCase() === letter || (!/^[a-z]$/i.test(event.key) && event.code === `Key${letter.toUpperCase()}`));

/** An arrangement's action: its keys work whenever the board may be edited, so Alt+A never falls through to the A tool. */
function arrangeAction(
  name: string,
  label: string,
  letter: string,
  shift: boolean,
  least: number,
  place: (boxes: Map<string, Box>) => Map<string, World>,
): Action<DrawContext> {
  const keys = `${shift ? 'Shift + ' : ''}Alt + ${letter.toUpperCase()}`;
  return {
    name,
    label,
    keys,
    shortcut: keys.replaceAll(' ', ''),
    keyTest: (event, ctx) => ctx.editable() && altKey(event, letter, shift),
    enabled: (ctx) => arrangeable(ctx, least),
    perform: (ctx, event) => {
      event?.preventDefault(); // Alt+D is the browser's address bar on Linux and Windows
      arrange(ctx, least, place);
    },
  };
}

const align = (name: string, label: string, letter: string, to: Alignment) =>
  arrangeAction(name, label, letter, false, 2, (boxes) => alignBoxes(boxes, to));

const distribute = (name: string, label: string, letter: string, axis: 'x' | 'y') =>
  arrangeAction(name, label, letter, true, 3, (boxes) => distributeBoxes(boxes, axis));

/** Align and distribute, in the order the help dialog and the arrange bar show them. */
export const arrangeActions: readonly Action<DrawContext>[] = [
  // A drag snaps to other items' edges and centres (tools/select/snapping.ts); Ctrl or ⌘ held moves freely, as in Figma.
  { name: 'snap', label: 'Drag without snapping to other items', keys: 'Ctrl + drag' },
  align('align-left', 'Align left edges', 'a', 'left'),
  align('align-centre', 'Align horizontal centres', 'h', 'centre'),
  align('align-right', 'Align right edges', 'd', 'right'),
  align('align-top', 'Align top edges', 'w', 'top'),
  align('align-middle', 'Align vertical centres', 'v', 'middle'),
  align('align-bottom', 'Align bottom edges', 's', 'bottom'),
  distribute('distribute-horizontal', 'Distribute horizontally (3 or more)', 'h', 'x'),
  distribute('distribute-vertical', 'Distribute vertically (3 or more)', 'v', 'y'),
];
