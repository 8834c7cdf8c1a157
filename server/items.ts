/** Small helpers for plain JSON items stored in the document. */
import type { BoardWrite } from './board-write.js';

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
export function setPresentFields<T extends object, I extends Partial<Record<keyof T, unknown>>>(item: T, input: I, keys: readonly (keyof T & keyof I)[]): void {
  for (const key of keys) setPresent(item, key, input[key] as T[typeof key] | null | undefined);
}

/**
 * The id, author and timestamp of an item being written: a new item gets a
 * fresh id and the given author (else the write's); an existing one keeps both.
 */
export function stamp(w: BoardWrite, current: { id: string; author: string } | undefined, author: string | undefined) {
  return { id: current?.id ?? w.newId(), author: current?.author ?? author ?? w.author, last_updated: w.now };
}
