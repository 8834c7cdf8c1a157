/**
 * Deterministic masonry placement for imported texts and images that come
 * without coordinates: items go, in input order, into the shortest of a fixed
 * number of grid columns (the leftmost on a tie), below any explicitly placed
 * content. Same input, same coordinates.
 */
import { POSTIT_SIZE_PX } from '../render/item-layout.js';

export const AUTOLAYOUT_COLUMNS = 4;
export const AUTOLAYOUT_COLUMN_WIDTH_PX = 320;
export const AUTOLAYOUT_GAP_PX = 40;
const LINE_HEIGHT_PX = 24;
const TEXT_PADDING_PX = 32;
const CHAR_WIDTH_PX = 8;
const DEFAULT_TEXT_WIDTH_PX = 280;
const DIAGRAM_HEIGHT_PX = 320;
const LINK_HEIGHT_PX = 40;

export type LayoutBox = { x?: number; y?: number; width: number; height: number };

const MERMAID_BLOCK = /^\s*```mermaid\s*\n[\s\S]*\n```\s*$/;

/** Rough rendered size of a text: wrapped lines at about 8 px a character; a post-it at least a note's height. */
export function estimateTextBox(text: { content?: string; width?: number; kind?: string; postit?: boolean }): {
  width: number;
  height: number;
} {
  if (text.kind === 'link') return { width: 240, height: LINK_HEIGHT_PX };
  const width = text.width ?? DEFAULT_TEXT_WIDTH_PX;
  const content = text.content ?? '';
  if (MERMAID_BLOCK.test(content)) return { width: Math.max(width, 400), height: DIAGRAM_HEIGHT_PX };
  const perLine = Math.max(1, Math.floor((width - 16) / CHAR_WIDTH_PX));
  const lines = content.split('\n').reduce((sum, line) => sum + Math.max(1, Math.ceil(line.length / perLine)), 0);
  const height = lines * LINE_HEIGHT_PX + TEXT_PADDING_PX;
  return { width, height: text.postit ? Math.max(height, POSTIT_SIZE_PX) : height };
}

const isPlaced = <T extends LayoutBox>(box: T): box is T & { x: number; y: number } =>
  box.x !== undefined && box.y !== undefined;

/**
 * Fills in x and y of the boxes that have none; boxes with both keep theirs.
 * A box wider than one grid column spans as many as it needs. Mutates and
 * returns the boxes.
 */
export function masonry<T extends LayoutBox>(boxes: T[]): T[] {
  const placed = boxes.filter(isPlaced);
  const originX = placed.length ? Math.min(...placed.map((box) => box.x)) : 0;
  const originY = placed.length ? Math.max(...placed.map((box) => box.y + box.height)) + AUTOLAYOUT_GAP_PX * 2 : 0;
  const stride = AUTOLAYOUT_COLUMN_WIDTH_PX + AUTOLAYOUT_GAP_PX;
  const heights = new Array<number>(AUTOLAYOUT_COLUMNS).fill(0);
  for (const box of boxes) {
    if (isPlaced(box)) continue;
    const span = Math.min(AUTOLAYOUT_COLUMNS, Math.max(1, Math.ceil((box.width + AUTOLAYOUT_GAP_PX) / stride)));
    let best = 0;
    let bestTop = Infinity;
    for (let column = 0; column + span <= AUTOLAYOUT_COLUMNS; column++) {
      const top = Math.max(...heights.slice(column, column + span));
      if (top < bestTop) [best, bestTop] = [column, top];
    }
    box.x = originX + best * stride;
    box.y = originY + bestTop;
    heights.fill(bestTop + Math.ceil(box.height) + AUTOLAYOUT_GAP_PX, best, best + span);
  }
  return boxes;
}
