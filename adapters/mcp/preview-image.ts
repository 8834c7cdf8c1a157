/** The get_preview picture: the SVG preview rendered to PNG, as an image content block a vision model can look at. */
import type { ImageContent } from '@modelcontextprotocol/server';
import { renderPreviewPng } from '../../server/host/preview-png.js';

export async function previewImage(preview: { svg: string }): Promise<ImageContent> {
  const png = await renderPreviewPng(preview.svg);
  return { type: 'image', mimeType: 'image/png', data: Buffer.from(png).toString('base64') };
}
