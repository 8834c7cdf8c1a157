/** What a frame holds in the app: its members by geometry, as the server finds them (board/mutations/shapes.ts). */
import type { TextNode } from '../../../board/model/document-model.js';
import { frameMembers } from '../../../board/mutations/shapes.js';
import type { ItemLayer } from './items.js';

/**
 * `ids` and the members of every frame among them, each once: what a drag, a nudge or a copy of a selection holding
 * a frame takes along. Read once when the gesture starts, never per pointer move.
 */
export function withMembers(layer: ItemLayer, ids: Iterable<string>): Set<string> {
  const all = new Set(ids);
  const { frames } = layer.maps();
  const selected = [...all].filter((id) => frames.has(id));
  if (!selected.length || all.size >= layer.elements.size) return all; // nothing more to add (Ctrl+A)
  // A text's laid-out size is read once however many frames ask (sizeOf compares what its element shows).
  const sizes = new Map<string, ReturnType<ItemLayer['sizeOf']>>();
  const sizeOf = (node: TextNode) => {
    if (!sizes.has(node.id)) sizes.set(node.id, layer.sizeOf(node));
    return sizes.get(node.id);
  };
  for (const id of selected) {
    const frame = frames.get(id);
    if (frame) for (const member of frameMembers(layer.maps(), sizeOf, frame)) all.add(member.id);
  }
  return all;
}
