/**
 * Recolours the named items: the `recolor` row of the operation table
 * (operations.ts), which the browser also runs on its own copy of the board.
 */

import { CARD_COLORS, type CardColorName, toInkColor } from '../../schema/index.js';
import { isLink } from '../model/document-model.js';
import { errors } from '../model/errors.js';
import type { BoardWrite } from './board-write.js';

const isCardColor = (name: string): name is CardColorName => (CARD_COLORS as readonly string[]).includes(name);

/**
 * Recolours a selection: texts and strokes take an ink colour name (anything
 * unknown becomes auto, as on every surface), columns and tasks a card colour
 * (red, blue, green, or "" to clear). All named items must exist.
 */
export function recolor(w: BoardWrite, ids: string[], color: string): { ok: true; ids: string[]; color: string } {
  const lower = color.toLowerCase();
  const card = color === '' ? null : isCardColor(lower) ? lower : undefined;
  for (const id of ids) {
    const text = w.maps.texts.get(id);
    const stroke = w.maps.lines.get(id);
    const column = w.maps.columns.get(id);
    const task = w.maps.tasks.get(id);
    const cardItem = column ?? task;
    if (text && !isLink(text)) w.maps.texts.set(id, { ...text, color: toInkColor(color), last_updated: w.now });
    else if (stroke) w.maps.lines.set(id, { ...stroke, color: toInkColor(color), last_updated: w.now });
    else if (cardItem) {
      if (card === undefined) throw errors.invalidPayload('color', 'columns and tasks take red, blue, green or ""');
      const item = { ...cardItem, last_updated: w.now };
      if (card === null) delete item.color;
      else item.color = card;
      if (column) w.maps.columns.set(id, item as typeof column);
      else w.maps.tasks.set(id, item as typeof task & object);
    } else throw errors.itemNotFound('recolourable item (text, stroke, column or task)', id);
  }
  return { ok: true, ids, color };
}
