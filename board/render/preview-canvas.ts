/**
 * What every part of the preview shares: the purple of AI authors, rounding,
 * and the canvas the items are drawn on, which grows the drawing's bounds and,
 * for a frame's preview, drops the items that lie wholly outside its area.
 */
import { type Box, overlaps } from '../model/geometry.js';

export type { Box } from '../model/geometry.js';

export const AI_BORDER = '#8e24aa';
export const AI_WIDTH = 2;
export const MARGIN_PX = 20;

export const isAi = (author: string) => author.startsWith('ai:');
export const n = (value: number) => String(Math.round(value));

export function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : text;
}

export class Bounds {
  minX = Infinity;
  minY = Infinity;
  maxX = -Infinity;
  maxY = -Infinity;
  add(box: Box): void {
    this.minX = Math.min(this.minX, box.x);
    this.minY = Math.min(this.minY, box.y);
    this.maxX = Math.max(this.maxX, box.x + box.width);
    this.maxY = Math.max(this.maxY, box.y + box.height);
  }
  viewBox(): Box {
    if (this.minX === Infinity) return { x: 0, y: 0, width: 400, height: 300 };
    return {
      x: this.minX - MARGIN_PX,
      y: this.minY - MARGIN_PX,
      width: this.maxX - this.minX + 2 * MARGIN_PX,
      height: this.maxY - this.minY + 2 * MARGIN_PX,
    };
  }
}

/** The items' markup in drawing order and their bounds; with an `area` (a frame's box), only what reaches into it. */
export class Canvas {
  readonly parts: string[] = [];
  readonly bounds = new Bounds();

  constructor(readonly area?: Box) {}

  /** Whether an item whose top-left is (x, y) cannot reach into the area: cheap, before it is laid out. */
  pastArea(x: number, y: number): boolean {
    return !!this.area && (x > this.area.x + this.area.width || y > this.area.y + this.area.height);
  }

  /** Draws an item occupying `box`, unless it lies wholly outside the area; whether it drew it. */
  put(box: Box, markup: string): boolean {
    if (this.area && !overlaps(box, this.area)) return false;
    this.bounds.add(box);
    this.parts.push(markup);
    return true;
  }

  /** Markup that is no item (a group's opening or closing tag). */
  raw(markup: string): void {
    this.parts.push(markup);
  }
}
