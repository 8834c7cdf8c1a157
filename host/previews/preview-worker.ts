/**
 * A thread of the preview pool (preview-pool.ts): draws a board's preview SVG
 * from a copy of its maps, renders an SVG to PNG, and lays out Mermaid
 * diagrams, so none of that work holds the event loop that answers requests.
 */

import { type PreviewMaps, type PreviewOptions, renderPreview } from '../../board/render/preview.js';
import { type DrawnDiagram, drawMermaid } from '../../board/render/preview-mermaid.js';
import type { BoardMode } from '../../schema/index.js';
import { type PreviewPngOptions, renderPreviewPng } from './preview-png.js';

export type PreviewTask =
  | { type: 'ready' }
  | { type: 'svg'; maps: PreviewMaps; mode: BoardMode; options: PreviewOptions }
  | { type: 'png'; svg: string; options: PreviewPngOptions }
  | { type: 'diagrams'; sources: string[] };

/** What each task answers, by its type. */
export type PreviewAnswer = { ready: true; svg: string; png: Uint8Array; diagrams: (DrawnDiagram | null)[] };

export default async function run(task: PreviewTask): Promise<PreviewAnswer[PreviewTask['type']]> {
  switch (task.type) {
    case 'ready':
      return true;
    case 'svg':
      return renderPreview(task.maps, task.mode, task.options);
    case 'png':
      return renderPreviewPng(task.svg, task.options);
    case 'diagrams':
      return task.sources.map((source) => drawMermaid(source) ?? null);
  }
}
