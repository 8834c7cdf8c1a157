/**
 * Glyph advances of DejaVu Sans, the font both the PNG preview (resvg) and
 * the app on Linux (system-ui) draw with, in thousandths of an em, for
 * printable ASCII; other glyphs take an average advance. Kerning is ignored:
 * a line comes out a pixel or two wider than drawn, never narrower.
 */
const REGULAR = [
  318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, 636, 636, 636, 636, 636, 636, 636,
  636, 636, 636, 337, 337, 838, 838, 838, 531, 1000, 684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863,
  748, 787, 603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500, 500, 613, 635, 550, 635,
  615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612, 635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636,
  337, 636, 838,
];
const BOLD = [
  348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365, 696, 696, 696, 696, 696, 696, 696,
  696, 696, 696, 400, 400, 838, 838, 838, 580, 1000, 774, 762, 734, 830, 683, 683, 821, 837, 372, 372, 775, 637, 995,
  837, 850, 733, 850, 770, 720, 682, 812, 774, 1103, 771, 724, 725, 457, 365, 457, 838, 500, 500, 675, 716, 593, 716,
  678, 435, 716, 712, 343, 343, 665, 343, 1042, 712, 687, 716, 716, 493, 595, 478, 712, 652, 924, 645, 652, 582, 712,
  365, 712, 838,
];
const MONO = 602;
/** Glyphs outside ASCII: wide scripts (CJK and beyond) a full em, the rest an average Latin advance. */
const WIDE_FROM = 0x2e80;
const OTHER = 620;
const OTHER_BOLD = 690;

export type GlyphStyle = { bold?: boolean; code?: boolean };

/** The advance of `text` in px at `sizePx`. */
export function textWidth(text: string, sizePx: number, style: GlyphStyle = {}): number {
  let units = 0;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (style.code) units += code >= WIDE_FROM ? 1000 : MONO;
    else if (code >= 32 && code <= 126) units += (style.bold ? BOLD : REGULAR)[code - 32];
    else if (code === 9) units += 4 * (style.bold ? BOLD[0] : REGULAR[0]);
    else units += code >= WIDE_FROM ? 1000 : style.bold ? OTHER_BOLD : OTHER;
  }
  return (units * sizePx) / 1000;
}
