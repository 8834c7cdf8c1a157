/**
 * The laid-out size of a draw item, as the app's stylesheet lays it out
 * (`.item.text`, `.item.link a`): the one layout the preview draws and the
 * writes answer as `width` and `height`. A text without a width takes its
 * widest line, between 40 and 480 px; a post-it is a note, 200 px wide unless
 * resized and at least 200 px high; a Mermaid text is as big as the preview
 * draws it (its diagram, or its framed source).
 */
import { type ImageItem, isLink, type LinkItem, type TextItem, type TextNode } from '../model/document-model.js';
import { textWidth } from './glyph-widths.js';
import { mermaidSource } from './markdown.js';
import { BODY_FONT_PX, type Line, lineHeight, markdownLines, naturalWidth, readMarkdown } from './preview-markdown.js';
import { type DrawnDiagram, diagramKnown, drawMermaid } from './preview-mermaid.js';

export const TEXT_PAD_X_PX = 10;
export const TEXT_PAD_Y_PX = 6;
const MIN_AUTO_WIDTH_PX = 40;
const MAX_AUTO_WIDTH_PX = 480;
/** A diagram frame's least size (`.item.text.diagram`). */
const FRAME_MIN = { width: 160, height: 60 };
/** A post-it's width unless resized, and its least height (`.item.text.postit`): a note, as tldraw's. */
export const POSTIT_SIZE_PX = 200;
/** Width of a Mermaid text without one of its own, and the tallest a diagram is drawn. */
const DIAGRAM_WIDTH_PX = 400;
const MAX_DIAGRAM_HEIGHT_PX = 900;
/** Lines of a diagram's source shown when it is not drawn. */
export const SOURCE_LINES = 12;
/** A link pill: `.item.link a` pads 4 px by 12 px inside a 1 px border; the item is one line of the page's font. */
const LINK_PAD_X_PX = 12;
const LINK_HEIGHT_PX = 32;

export type Size = { width: number; height: number };

/** A text's box, its border and its lines (at most `maxLines`; `cut` when some did not fit). */
export type TextLayout = Size & { border: number; lines: Line[]; cut: boolean };

const isAi = (author: string) => author.startsWith('ai:');

/** The border the app draws: 2 px for AI authors and diagram frames, else 1 px (a post-it's transparent). */
function borderOf(text: Pick<TextItem, 'author' | 'diagram'>): number {
  return isAi(text.author) || text.diagram ? 2 : 1;
}

/** The app's box of a text's Markdown, parsed once for its width and its lines. */
export function layoutText(
  text: Pick<TextItem, 'content' | 'width' | 'author' | 'diagram' | 'postit'>,
  maxLines = Number.POSITIVE_INFINITY,
): TextLayout {
  const border = borderOf(text);
  const chrome = 2 * (TEXT_PAD_X_PX + border);
  const rows = text.content.trim() ? readMarkdown(text.content, text.width ?? MAX_AUTO_WIDTH_PX, maxLines) : undefined;
  const natural = rows ? naturalWidth(rows) : textWidth('Empty text', BODY_FONT_PX);
  let width =
    text.width ??
    (text.postit
      ? POSTIT_SIZE_PX
      : Math.min(MAX_AUTO_WIDTH_PX, Math.max(MIN_AUTO_WIDTH_PX, Math.ceil(natural + chrome))));
  if (text.diagram) width = Math.max(width, FRAME_MIN.width);
  const { lines, cut, unread } = rows
    ? markdownLines(rows, width - chrome, maxLines)
    : {
        lines: [{ runs: [{ text: 'Empty text', italic: true }], size: BODY_FONT_PX, indent: 0 }],
        cut: false,
        unread: 0,
      };
  // A text laid out whole (maxLines unbounded) counts, estimated, what is past the lines and characters read.
  const rest = maxLines === Number.POSITIVE_INFINITY ? unread : 0;
  let height = lines.reduce((sum, line) => sum + lineHeight(line), 0) + rest + 2 * (TEXT_PAD_Y_PX + border);
  if (text.diagram) height = Math.max(height, FRAME_MIN.height);
  if (text.postit) height = Math.max(height, POSTIT_SIZE_PX);
  return { width, height, border, lines, cut };
}

/** A drawn diagram placed in its text's box: the scale it is drawn at and the box. */
export type DiagramLayout = Size & { scale: number; border: number };

/** The box of a Mermaid text whose diagram is drawn: the diagram scaled to the box's width, at most 1.5×. */
export function layoutDiagram(
  text: Pick<TextItem, 'width' | 'author' | 'diagram' | 'postit'>,
  diagram: DrawnDiagram,
): DiagramLayout {
  const border = borderOf(text);
  const width = text.width ?? DIAGRAM_WIDTH_PX;
  const inner = width - 2 * (TEXT_PAD_X_PX + border);
  const scale = Math.min(inner / diagram.width, MAX_DIAGRAM_HEIGHT_PX / diagram.height, 1.5);
  const height = diagram.height * scale + 2 * (TEXT_PAD_Y_PX + border);
  return { width, height: text.postit ? Math.max(height, POSTIT_SIZE_PX) : height, scale, border };
}

/** What a Mermaid text shows when its diagram is not drawn: its source, framed, in monospace. */
export function sourceText<T extends Pick<TextItem, 'width' | 'author' | 'diagram' | 'postit'>>(
  text: T,
  source: string,
): T & { content: string; width: number } {
  const kind =
    source
      .split('\n')
      .map((line) => line.trim())
      .find(Boolean)
      ?.split(/\s+/)[0] ?? 'diagram';
  const content = `**Mermaid: ${kind.replace(/[*_`~[\]]/g, '')}** (not drawn)\n\`\`\`\n${source}\n\`\`\``;
  return { ...text, content, width: text.width ?? DIAGRAM_WIDTH_PX };
}

/** The laid-out size of a link pill: its host name, padded. */
export function linkLabel(link: Pick<LinkItem, 'url'>): string {
  try {
    return new URL(link.url).hostname;
  } catch {
    return link.url;
  }
}

export function layoutLink(link: Pick<LinkItem, 'url' | 'author'>): Size {
  const border = isAi(link.author) ? 2 : 1;
  return {
    width: Math.ceil(textWidth(linkLabel(link), BODY_FONT_PX) + 2 * (LINK_PAD_X_PX + border)),
    height: LINK_HEIGHT_PX,
  };
}

const rounded = ({ width, height }: Size): Size => ({ width: Math.round(width), height: Math.round(height) });

/** The laid-out size of a text, link or image, in whole board pixels. */
export function itemSize(item: TextNode | ImageItem): Size {
  if ('blob' in item) return { width: item.width, height: item.height };
  if (isLink(item)) return rounded(layoutLink(item));
  const source = mermaidSource(item.content);
  if (source === undefined) return rounded(layoutText(item));
  const diagram = drawMermaid(source);
  return rounded(diagram ? layoutDiagram(item, diagram) : layoutText(sourceText(item, source), SOURCE_LINES));
}

/** The Mermaid source `itemSize` would lay out for the item first: one it has not laid out yet, or none. */
export function diagramToLayOut(item: TextNode | ImageItem): string | undefined {
  return 'blob' in item || isLink(item) ? undefined : newDiagram(item.content);
}

/** The Mermaid source of a text's content when it is one no cache has laid out yet. */
export function newDiagram(content: string): string | undefined {
  const source = mermaidSource(content);
  return source !== undefined && !diagramKnown(source) ? source : undefined;
}
