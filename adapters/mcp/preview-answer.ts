/**
 * get_preview's answer: the SVG preview rendered to PNG, as an image content
 * block a vision model can look at, beside the SVG's text when that text is
 * small enough to be worth reading. A full board's SVG runs to hundreds of
 * kilobytes, which would fill a model's context with coordinates; it is then
 * left to its resource (svc://board/{id}/preview.svg), named in the answer.
 */
import type { ContentBlock, ResourceLink } from '@modelcontextprotocol/server';
import type { PreviewPool } from '../../host/previews/preview-pool.js';
import { boardResourceLinks, previewUri, RESOURCE_TEMPLATES } from './resources.js';

/**
 * The largest SVG given inline: a sketch of a few items. Past it the SVG's
 * coordinates cost a model more than they tell beside the PNG (a board of a
 * dozen items runs to 9 KB, 2,700 tokens); get_board says the same in text.
 */
export const INLINE_SVG_MAX_BYTES = 4_096;

const PREVIEW_TEMPLATE = RESOURCE_TEMPLATES.filter((template) => template.uriTemplate.endsWith('/preview.svg'));

/** A preview, of the whole board or of `frame` alone. */
type Preview = { board_id: string; mimeType: 'image/svg+xml'; svg: string; frame?: string };

export async function previewAnswer(
  preview: Preview,
  previews: PreviewPool,
): Promise<Record<string, unknown> & { blocks: ContentBlock[] }> {
  const png = await previews.png(preview.svg);
  const picture: ContentBlock = { type: 'image', mimeType: 'image/png', data: Buffer.from(png).toString('base64') };
  const bytes = Buffer.byteLength(preview.svg);
  const { frame, ...answer } = preview;
  if (bytes <= INLINE_SVG_MAX_BYTES) return { ...answer, blocks: [picture] };
  const [{ description: _description, ...whole }] = boardResourceLinks(preview.board_id, PREVIEW_TEMPLATE) as [
    ResourceLink,
  ];
  const link = { ...whole, uri: previewUri(preview.board_id, frame) };
  return {
    board_id: preview.board_id,
    mimeType: preview.mimeType,
    svg_bytes: bytes,
    svg_uri: link.uri,
    blocks: [picture, link],
  };
}
