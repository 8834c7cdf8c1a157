/**
 * Mermaid layout for writes, done in the preview threads. A write sizes the
 * texts it touches (its answer's `bbox`, an anchored stroke's ends) inside
 * its store unit, which runs in one turn of the event loop: a diagram not yet
 * laid out there would hold the loop for as long as its layout takes. So a
 * write's staging notes such diagrams; the write then commits nothing, awaits
 * their layout in a thread as a step of its own, and stages with them cached.
 */
import type { TextNode } from '../../board/model/document-model.js';
import { diagramToLayOut, itemSize, type Size } from '../../board/render/item-layout.js';
import { rememberDiagram } from '../../board/render/preview-mermaid.js';
import type { PreviewPool } from '../previews/preview-pool.js';

/** What the write's sizes stand on until its diagrams are laid out: the write does not commit with it. */
const STAND_IN: Size = { width: 0, height: 0 };

/** A write's `textSize`: `itemSize`, noting in `missing` each diagram it would have to lay out here. */
export function sizeNoting(missing: Set<string>): (node: TextNode) => Size {
  return (node) => {
    const source = diagramToLayOut(node);
    if (source === undefined) return itemSize(node);
    missing.add(source);
    return STAND_IN;
  };
}

/** Lays the diagrams out in a thread and caches them where `itemSize` finds them. */
export async function layOutDiagrams(previews: PreviewPool, sources: string[]): Promise<void> {
  const diagrams = await previews.diagrams(sources);
  for (const [i, source] of sources.entries()) rememberDiagram(source, diagrams[i] ?? undefined);
}
