/** Small helpers for plain JSON items stored in the document. */

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
