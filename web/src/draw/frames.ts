/** What a frame holds in the app: its members by geometry, as the server finds them (board/mutations/shapes.ts). */
import { frameMembers } from '../../../board/mutations/shapes.js';
import type { ItemLayer } from './items.js';

/**
 * `ids` and the members of every frame among them, each once: what a drag, a nudge or a copy of a selection holding
 * a frame takes along. Read once when the gesture starts, never per pointer move.
 */
export function withMembers(layer: ItemLayer, ids: Iterable<string>): Set<string> {
  const all = new Set(ids);
  const { frames } = layer.maps();
  for (const id of [...all]) {
    const frame = frames.get(id);
    if (!frame) continue;
    for (const member of frameMembers(layer.maps(), (node) => layer.sizeOf(node), frame)) all.add(member.id);
  }
  return all;
}
