/** The preview's colours: post-it fills, and ink darkened or chosen so text reads on what is behind it (WCAG 4.5:1). */
import { INK_HEX, type InkColor, NOTE_TINT, tintsNote } from '../../schema/index.js';

export const POSTIT_FILL = '#fff59d';
/** The least contrast of text with what is behind it (WCAG AA for body text). */
const READABLE_CONTRAST = 4.5;

const channels = (hex: string) => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));

function rgbHex(r: number, g: number, b: number): string {
  return `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

/** `hex` laid over `background` at `opacity`, as the eye sees it. */
export function blend(hex: string, background: string, opacity: number): string {
  const [top, bottom] = [channels(hex), channels(background)];
  return rgbHex(
    ...(top.map((c, i) => Math.round(c * opacity + bottom[i] * (1 - opacity))) as [number, number, number]),
  );
}

/** A post-it's fill: the note's yellow, or its colour as a light tint, as coloured sticky notes are (the app's .postit.tinted). */
export function postitFill(color: InkColor | undefined): string {
  return tintsNote(color) ? blend(INK_HEX[color], '#ffffff', NOTE_TINT) : POSTIT_FILL;
}

/** Relative luminance (WCAG) of a #rrggbb colour. */
export function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map((value) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two #rrggbb colours. */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** An ink on `background`: darkened until it reads, when it is too light for it. */
export function readableOn(hex: string, background: string): string {
  let [r, g, b] = channels(hex);
  for (let step = 0; step < 20 && contrast(background, rgbHex(r, g, b)) < READABLE_CONTRAST; step++)
    [r, g, b] = [r, g, b].map((c) => Math.round(c * 0.85));
  return rgbHex(r, g, b);
}

/** Ink on a post-it: a colour too light for the yellow fill is darkened until it reads. */
export const postitInk = (hex: string): string => readableOn(hex, POSTIT_FILL);

/** Text on a solid fill: the board's dark ink or white, whichever reads better, black when neither reads enough. */
export function inkOnFill(fill: string): string {
  const best = [INK_HEX.auto, '#ffffff'].sort((a, b) => contrast(fill, b) - contrast(fill, a))[0];
  return contrast(fill, best) >= READABLE_CONTRAST ? best : '#000000';
}
