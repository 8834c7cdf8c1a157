/**
 * The named mutations shared by the MCP tools and the WebSocket frames (which
 * decisions.md names like the tools, with the same arguments): one table from
 * name to domain call, so both surfaces do exactly the same thing.
 */
import type { z } from 'zod';
import type { McpToolArgs } from '../../schema/index.js';
import { CARD_COLORS, toInkColor } from '../../schema/index.js';
import type { BoardWrite } from './board-write.js';
import { eraseItem, imageResult, linkResult, moveItem, strokeResult, upsertImage, upsertLink, upsertStroke, upsertText } from './draw.js';
import { isLink } from './document-model.js';
import { errors } from './errors.js';
import { deleteColumn, deleteTask, moveTask, patchColumn, patchTask, setColumnWidth, setLane, upsertColumn, upsertTask } from './todo.js';

type Args<N extends keyof typeof McpToolArgs> = Omit<z.output<(typeof McpToolArgs)[N]>, 'board_id' | 'access_key'>;

/** The kind of a draw item found by its id (for move and erase without kind). */
function kindOf(w: BoardWrite, id: string) {
  const node = w.maps.texts.get(id);
  if (node) return isLink(node) ? ('links' as const) : ('texts' as const);
  if (w.maps.lines.has(id)) return 'strokes' as const;
  if (w.maps.images.has(id)) return 'images' as const;
  throw errors.itemNotFound('item', id);
}

export const MUTATIONS = {
  add_text: (w: BoardWrite, args: Args<'add_text'>) => upsertText(w, args),
  add_link: (w: BoardWrite, args: Args<'add_link'>) => linkResult(upsertLink(w, args)),
  add_image: (w: BoardWrite, args: Args<'add_image'>) => imageResult(upsertImage(w, args)),
  draw_stroke: (w: BoardWrite, args: Args<'draw_stroke'>) => strokeResult(upsertStroke(w, args)),
  move: (w: BoardWrite, args: Args<'move'>) => moveItem(w, args.kind ?? kindOf(w, args.id), args.id, args),
  erase: (w: BoardWrite, args: Args<'erase'>) => eraseItem(w, args.kind ?? kindOf(w, args.id), args.id),
  create_column: (w: BoardWrite, args: Args<'create_column'>) => upsertColumn(w, args),
  update_column: (w: BoardWrite, args: Args<'update_column'>) => patchColumn(w, args.id, args),
  delete_column: (w: BoardWrite, args: Args<'delete_column'>) => deleteColumn(w, args.id),
  create_task: (w: BoardWrite, args: Args<'create_task'>) => upsertTask(w, args),
  update_task: (w: BoardWrite, args: Args<'update_task'>) => patchTask(w, args.id, args),
  move_task: (w: BoardWrite, args: Args<'move_task'>) => moveTask(w, args.id, args),
  delete_task: (w: BoardWrite, args: Args<'delete_task'>) => deleteTask(w, args.id),
  set_lane: (w: BoardWrite, args: Args<'set_lane'>) => setLane(w, args),
  set_column_width: (w: BoardWrite, args: Args<'set_column_width'>) => setColumnWidth(w, args.width),
};

/**
 * Recolours a selection: texts and strokes take an ink colour name (anything
 * unknown becomes auto, as on every surface), columns and tasks a card colour
 * (red, blue, green, or "" to clear). All named items must exist.
 */
export function recolor(w: BoardWrite, ids: string[], color: string): { ok: true; ids: string[]; color: string } {
  const card = color === '' ? null : (CARD_COLORS as readonly string[]).includes(color.toLowerCase()) ? color.toLowerCase() : undefined;
  for (const id of ids) {
    const text = w.maps.texts.get(id);
    const stroke = w.maps.lines.get(id);
    const column = w.maps.columns.get(id);
    const task = w.maps.tasks.get(id);
    if (text && !isLink(text)) w.maps.texts.set(id, { ...text, color: toInkColor(color), last_updated: w.now });
    else if (stroke) w.maps.lines.set(id, { ...stroke, color: toInkColor(color), last_updated: w.now });
    else if (column || task) {
      if (card === undefined) throw errors.invalidPayload('color', 'columns and tasks take red, blue, green or ""');
      const item = { ...(column ?? task)!, last_updated: w.now };
      if (card === null) delete item.color;
      else item.color = card;
      if (column) w.maps.columns.set(id, item as typeof column);
      else w.maps.tasks.set(id, item as typeof task & object);
    } else throw errors.itemNotFound('recolourable item (text, stroke, column or task)', id);
  }
  return { ok: true, ids, color };
}
