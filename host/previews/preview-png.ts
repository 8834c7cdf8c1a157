/**
 * The board preview as a PNG, for vision models: the schematic SVG
 * of `board/render/preview.ts` rasterised by resvg (Rust, through its
 * prebuilt napi package; no browser, no system library). Text is drawn with
 * the DejaVu fonts shipped in the `dejavu-fonts-ttf` package and system fonts
 * are never loaded, so the picture is the same on every machine. It runs in
 * the preview pool's worker threads (preview-pool.ts), which caches its PNGs.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type ResvgRenderOptions, renderAsync } from '@resvg/resvg-js';
import { BODY_FONT_PX } from '../../board/render/preview-markdown.js';

/** Widest and tallest picture, in px: what vision models take in without downscaling much. */
export const PREVIEW_PNG_MAX_WIDTH_PX = 1200;
export const PREVIEW_PNG_MAX_HEIGHT_PX = 2400;
/** Small boards are drawn larger than 1:1 up to this zoom, so their text stays crisp. */
const MAX_ZOOM = 2;

const fontDir = join(dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const FONT_FILES = [
  'DejaVuSans.ttf',
  'DejaVuSans-Bold.ttf',
  'DejaVuSans-Oblique.ttf',
  'DejaVuSans-BoldOblique.ttf',
  'DejaVuSansMono.ttf',
  'DejaVuSansMono-Bold.ttf',
].map((file) => join(fontDir, file));
const FONT: ResvgRenderOptions['font'] = {
  loadSystemFonts: false,
  fontFiles: FONT_FILES,
  defaultFontFamily: 'DejaVu Sans',
  sansSerifFamily: 'DejaVu Sans',
  serifFamily: 'DejaVu Sans',
  monospaceFamily: 'DejaVu Sans Mono',
  defaultFontSize: BODY_FONT_PX,
};

export type PreviewPngOptions = {
  /** Widest picture in px (default 1200). */
  maxWidth?: number;
  /** Tallest picture in px (default 2400). */
  maxHeight?: number;
  /** Fill behind the drawing (default white). */
  background?: string;
};

/** The drawing's size in user units, from the root `<svg>`'s viewBox (the preview always writes one). */
function declaredSize(svg: string): { width: number; height: number } | undefined {
  const root = /<svg\b[^>]*>/.exec(svg)?.[0] ?? '';
  const [, , width, height] = (/\bviewBox="([^"]*)"/.exec(root)?.[1] ?? '').split(/[\s,]+/).map(Number);
  return width > 0 && height > 0 ? { width, height } : undefined;
}

/** The width that fits the picture in the bounds, aspect kept, without growing it more than `MAX_ZOOM`. */
function fitting(svg: string, options: PreviewPngOptions): { fitTo: ResvgRenderOptions['fitTo']; zoom: number } {
  const maxWidth = options.maxWidth ?? PREVIEW_PNG_MAX_WIDTH_PX;
  const maxHeight = options.maxHeight ?? PREVIEW_PNG_MAX_HEIGHT_PX;
  const size = declaredSize(svg);
  if (!size) return { fitTo: { mode: 'width', value: maxWidth }, zoom: 1 };
  const zoom = Math.min(MAX_ZOOM, maxWidth / size.width, maxHeight / size.height);
  // A width, not a zoom: resvg zooms the root's declared `width` (the preview caps it at 1600), not the viewBox.
  return { fitTo: { mode: 'width', value: Math.max(1, Math.round(size.width * zoom)) }, zoom };
}

/** Text drawn smaller than this many px is unreadable: it is drawn as grey bars instead (and shaping 3000 lines costs seconds). */
const MIN_READABLE_TEXT_PX = 5;
const TEXT_ELEMENT = /<text\b([^>]*)>([\s\S]*?)<\/text>/g;

/**
 * Replaces every `<text>` by a grey bar of about its length ("greeking"), for
 * a picture so reduced that no glyph could be read. Relies on the preview's
 * own markup: user text is escaped, so `<` inside a text element only opens a
 * `<tspan>`, and text elements never nest.
 */
function greeked(svg: string): string {
  return svg.replace(TEXT_ELEMENT, (_, attributes: string, inner: string) => {
    const number = (name: string, fallback: number) =>
      Number(new RegExp(`\\b${name}="(-?[\\d.]+)"`).exec(attributes)?.[1] ?? fallback);
    const size = number('font-size', BODY_FONT_PX);
    const chars = [...inner.replace(/<[^>]*>/g, '').replace(/&[^;]+;/g, '_')].length;
    if (!chars) return '';
    const width = chars * size * 0.55;
    const anchor = /text-anchor="middle"/.test(attributes) ? width / 2 : 0;
    return `<rect x="${number('x', 0) - anchor}" y="${number('y', 0) - size * 0.7}" width="${width}" height="${size * 0.6}" fill="#9e9e9e"/>`;
  });
}

/**
 * Renders an SVG (the board preview) to PNG bytes, at most 1200 × 2400 px by
 * default with the aspect kept, on a white background.
 */
export async function renderPreviewPng(svg: string, options: PreviewPngOptions = {}): Promise<Uint8Array> {
  const { fitTo, zoom } = fitting(svg, options);
  const drawn = BODY_FONT_PX * zoom < MIN_READABLE_TEXT_PX ? greeked(svg) : svg;
  const image = await renderAsync(drawn, {
    fitTo,
    background: options.background ?? '#ffffff',
    font: FONT,
    logLevel: 'off',
  });
  return new Uint8Array(image.asPng());
}
