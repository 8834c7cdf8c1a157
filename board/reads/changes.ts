/**
 * What changed between two board states, item by item (history.md `GET
 * /changes`): pure, over the states' item maps. Items come out in the shape
 * the `/json` snapshot gives them: images without their payload (`dataUrl:
 * null`), links inside texts with their own `kind: 'link'`.
 */
import * as Y from 'yjs';
import { boardMaps, CONTENT_MAPS, type ImageItem } from '../model/document-model.js';
import type { ChangedItem } from '../model/versions.js';

type ContentMap = (typeof CONTENT_MAPS)[number];

/** A board state's items: per content map, key -> item as the document holds it. */
export type ItemMaps = Record<ContentMap, Map<string, unknown>>;

/** The item maps of a document (copies: the document may change afterwards). */
export function itemMapsOf(doc: Y.Doc): ItemMaps {
  const maps = boardMaps(doc);
  return Object.fromEntries(
    CONTENT_MAPS.map((name) => [name, new Map(maps[name].entries() as Iterable<[string, unknown]>)]),
  ) as ItemMaps;
}

/** The item maps of a whole state given as one Y update. */
export function itemMapsOfUpdate(update: Uint8Array): ItemMaps {
  const doc = new Y.Doc();
  Y.applyUpdate(doc, update);
  const maps = itemMapsOf(doc);
  doc.destroy();
  return maps;
}

/** An empty board's item maps (the state before the first version). */
export function emptyItemMaps(): ItemMaps {
  return Object.fromEntries(CONTENT_MAPS.map((name) => [name, new Map()])) as ItemMaps;
}

/**
 * An item's `kind` in a change list: the snapshot list it belongs to (`texts`,
 * `lines`, `images`, `columns`, `tasks`, `lanes`), except that a link keeps
 * its own `kind: 'link'` (it sits in `texts`, as in the snapshot).
 */
function kindOf(map: ContentMap, item: unknown): string {
  return map === 'texts' && (item as { kind?: unknown }).kind === 'link' ? 'link' : map;
}

/** An item as the `/json` snapshot shows it, tagged with its kind and id (a lane's id is its map key). */
export function changedItem(map: ContentMap, key: string, item: unknown): ChangedItem {
  let shown = item as Record<string, unknown>;
  if (map === 'images') {
    const { blob: _blob, ...rest } = item as ImageItem;
    shown = { ...rest, dataUrl: null };
  }
  return { id: key, ...shown, kind: kindOf(map, item) };
}

export type ItemChanges = { added: ChangedItem[]; updated: ChangedItem[]; removed: { kind: string; id: string }[] };

/** Items in `after` and not `before` (added), in both but different (updated), in `before` only (removed). */
export function diffItems(before: ItemMaps, after: ItemMaps): ItemChanges {
  const changes: ItemChanges = { added: [], updated: [], removed: [] };
  for (const map of CONTENT_MAPS) {
    for (const [key, item] of after[map]) {
      const old = before[map].get(key);
      if (old === undefined) changes.added.push(changedItem(map, key, item));
      else if (JSON.stringify(old) !== JSON.stringify(item)) changes.updated.push(changedItem(map, key, item));
    }
    for (const [key, item] of before[map]) {
      if (!after[map].has(key)) changes.removed.push({ kind: kindOf(map, item), id: key });
    }
  }
  return changes;
}

/** Just the counts of diffItems, for a version's summary. */
export function countChanges(before: ItemMaps, after: ItemMaps): { added: number; updated: number; removed: number } {
  const { added, updated, removed } = diffItems(before, after);
  return { added: added.length, updated: updated.length, removed: removed.length };
}
