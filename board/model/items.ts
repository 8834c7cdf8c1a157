/** Small helpers for plain JSON items stored in the document. */

import type { Arrowhead } from '../../schema/index.js';
import type { BoardWrite, CountedMap } from '../mutations/board-write.js';
import type { StrokeItem } from './document-model.js';

/**
 * Applies an optional input field to an item with patch semantics:
 * undefined keeps the current value, null removes it, anything else sets it.
 * The document never stores undefined (it is not JSON).
 */
export function setPresent<T extends object, K extends keyof T>(item: T, key: K, value: T[K] | null | undefined): void {
  if (value === undefined) return;
  if (value === null) delete item[key];
  else item[key] = value;
}

/** setPresent for several optional fields of an input at once. */
export function setPresentFields<T extends object, I extends Partial<Record<keyof T, unknown>>>(
  item: T,
  input: I,
  keys: readonly (keyof T & keyof I)[],
): void {
  for (const key of keys) setPresent(item, key, input[key] as T[typeof key] | null | undefined);
}

/**
 * The id, author and timestamp of an item being written: a new item gets a
 * fresh id and the given author (else the write's); an existing one keeps both.
 * Either way the edit's author is noted among the write's (the versions' authors).
 */
export function stamp(w: BoardWrite, current: { id: string; author: string } | undefined, author: string | undefined) {
  w.authors?.add(author ?? w.author);
  return { id: current?.id ?? w.newId(), author: current?.author ?? author ?? w.author, last_updated: w.now };
}

/**
 * The number of items in a map. Y.Map's `size` walks the whole map, so a write
 * counts once and keeps the count current through putItem and dropItem; an
 * import of 2000 strokes would otherwise walk the map 2000 times.
 */
export function itemCount(w: BoardWrite, name: CountedMap): number {
  return (w.counts[name] ??= w.maps[name].size);
}

/** Sets an item in its map, counting it when it is new. */
export function putItem<K extends CountedMap>(
  w: BoardWrite,
  name: K,
  item: BoardWrite['maps'][K] extends { set(key: string, value: infer T): void } ? T & { id: string } : never,
): void {
  const map = w.maps[name] as unknown as { has(key: string): boolean; set(key: string, value: unknown): void };
  const count = w.counts[name];
  if (count !== undefined && !map.has(item.id)) w.counts[name] = count + 1;
  map.set(item.id, item);
}

/** Deletes an item from its map, keeping the count. */
export function dropItem(w: BoardWrite, name: CountedMap, id: string): void {
  const count = w.counts[name];
  if (count !== undefined && w.maps[name].has(id)) w.counts[name] = count - 1;
  w.maps[name].delete(id);
}

/** Which ends of a stroke are drawn with a head: those its `arrowhead` names, else its end when that is anchored. */
export function arrowheadOf(stroke: Pick<StrokeItem, 'anchors' | 'arrowhead'>): Arrowhead {
  return stroke.arrowhead ?? (stroke.anchors?.end ? 'end' : 'none');
}

/** arrowheadOf as the two ends a renderer marks. */
export function arrowheadEnds(stroke: Pick<StrokeItem, 'anchors' | 'arrowhead'>): { start: boolean; end: boolean } {
  const heads = arrowheadOf(stroke);
  return { start: heads === 'start' || heads === 'both', end: heads === 'end' || heads === 'both' };
}
