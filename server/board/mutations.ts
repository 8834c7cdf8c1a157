/**
 * The named mutations shared by the MCP tools and the WebSocket frames (which
 * the specification's decisions name like the tools, with the same
 * arguments), taken from the operation table (operations.ts) so both surfaces do exactly the same thing,
 * and `recolor`, which only frames have.
 */
import type { BoardWrite } from './board-write.js';
import { MutationArgs } from '../../schema/index.js';
import { CARD_COLORS, toInkColor } from '../../schema/index.js';
import { isLink } from './document-model.js';
import { errors } from './errors.js';
import { OPERATIONS } from './operations.js';

type MutationName = keyof typeof MutationArgs;

/** The domain call of each frame-and-tool mutation, by name: the `mutate` of its row in OPERATIONS. */
export const MUTATIONS = Object.fromEntries(
  (Object.keys(MutationArgs) as MutationName[]).map((name) => [name, OPERATIONS[name].mutate]),
) as { [N in MutationName]: (typeof OPERATIONS)[N]['mutate'] };

/**
 * Recolours a selection: texts and strokes take an ink colour name (anything
 * unknown becomes auto, as on every surface), columns and tasks a card colour
 * (red, blue, green, or "" to clear). All named items must exist.
 */
export function recolor(w: BoardWrite, ids: string[], color: string): { ok: true; ids: string[]; color: string } {
  const card =
    color === ''
      ? null
      : (CARD_COLORS as readonly string[]).includes(color.toLowerCase())
        ? color.toLowerCase()
        : undefined;
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
