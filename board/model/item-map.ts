/**
 * One kind's items in a board document (docs/document-model.md): each item a
 * nested Y.Map of its fields, the fields people type into a Y.Text, so that
 * concurrent changes to different fields of one item both survive and
 * concurrent typing in one text merges character by character. Readers see
 * plain JSON items, from a mirror kept in step by the map's deep observer; a
 * write changes only the fields that differ, and a text only where it differs.
 * A value in the former layout (one plain object per item) reads as it is.
 */
import { equalityDeep } from 'lib0/function';
import * as Y from 'yjs';

/** One item's change in a transaction: its value before and after (undefined: absent). */
export type ItemChange<T> = { key: string; before: T | undefined; after: T | undefined };

export type ItemListener<T> = (changes: ItemChange<T>[], transaction: Y.Transaction) => void;

/** The plain item a stored value stands for: a nested map's fields (texts as strings), or a former plain object. */
export function plainItem<T>(value: unknown): T | undefined {
  if (!(value instanceof Y.Map)) return value as T | undefined;
  const item: Record<string, unknown> = {};
  for (const [field, fieldValue] of value.entries()) {
    item[field] = fieldValue instanceof Y.Text ? fieldValue.toString() : fieldValue;
  }
  return item as T;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** Where `next` differs from `current`: one range of `current` (start..end) replaced by `text`, never splitting a surrogate pair. */
export function textSplice(current: string, next: string): { start: number; end: number; text: string } {
  let start = 0;
  const shortest = Math.min(current.length, next.length);
  while (start < shortest && current.charCodeAt(start) === next.charCodeAt(start)) start++;
  if (start > 0 && isHighSurrogate(current.charCodeAt(start - 1))) start--;
  let end = 0;
  while (
    end < shortest - start &&
    current.charCodeAt(current.length - 1 - end) === next.charCodeAt(next.length - 1 - end)
  )
    end++;
  if (end > 0 && isLowSurrogate(current.charCodeAt(current.length - end))) end--;
  return { start, end: current.length - end, text: next.slice(start, next.length - end) };
}

/** Changes `text` into `next` by one deletion and one insertion where they differ. */
export function spliceText(text: Y.Text, next: string): void {
  const current = text.toString();
  if (current === next) return;
  const { start, end, text: inserted } = textSplice(current, next);
  if (end > start) text.delete(start, end - start);
  if (inserted) text.insert(start, inserted);
}

/** What a write needs of a map: the item maps and the document's plain `meta` map both give it. */
export type WritableMap<T> = {
  get(key: string): T | undefined;
  entries(): IterableIterator<[string, T]>;
  set(key: string, value: T): void;
  delete(key: string): void;
  clear(): void;
};

export class ItemMap<T extends object> implements WritableMap<T> {
  /**
   * The plain items by key, in the map's own order: a deleted key keeps its
   * place (undefined), as it does in the Y.Map, so an item erased and put back
   * (a restore) is listed where it was.
   */
  private readonly mirror = new Map<string, T | undefined>();
  private count = 0;
  /** Values before this transaction's own writes, for the keys it wrote; the deep observer reports and clears them. */
  private readonly before = new Map<string, T | undefined>();
  private readonly listeners = new Set<ItemListener<T>>();

  /** `textFields`: the fields stored as Y.Text. */
  constructor(
    readonly y: Y.Map<unknown>,
    private readonly textFields: ReadonlySet<string>,
  ) {
    for (const [key, value] of y.entries()) this.put(key, plainItem<T>(value));
    y.observeDeep((events, transaction) => this.settle(events, transaction));
  }

  get(key: string): T | undefined {
    return this.mirror.get(key);
  }

  has(key: string): boolean {
    return this.mirror.get(key) !== undefined;
  }

  get size(): number {
    return this.count;
  }

  *keys(): IterableIterator<string> {
    for (const [key, value] of this.mirror) if (value !== undefined) yield key;
  }

  *values(): IterableIterator<T> {
    for (const value of this.mirror.values()) if (value !== undefined) yield value;
  }

  *entries(): IterableIterator<[string, T]> {
    for (const [key, value] of this.mirror) if (value !== undefined) yield [key, value];
  }

  private put(key: string, item: T | undefined): void {
    const had = this.mirror.get(key) !== undefined;
    if (item === undefined) {
      if (had) this.mirror.set(key, undefined);
    } else this.mirror.set(key, item);
    this.count += (item !== undefined ? 1 : 0) - (had ? 1 : 0);
  }

  /** Follows the items' changes: every transaction that changed any, after the mirror has them. */
  observe(listener: ItemListener<T>): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Writes an item, changing only the fields that differ; call inside a Y transaction. */
  set(key: string, next: T): void {
    const stored = this.y.get(key);
    if (stored instanceof Y.Map) {
      // The mirror is untouched until the fields are written, so the value before is still there to remember.
      if (!this.writeFields(stored, next as Record<string, unknown>)) return;
      this.remember(key);
    } else {
      this.remember(key);
      this.y.set(key, this.newItem(next as Record<string, unknown>));
    }
    this.put(key, next);
  }

  delete(key: string): void {
    if (!this.y.has(key)) return;
    this.remember(key);
    this.y.delete(key);
    this.put(key, undefined);
  }

  clear(): void {
    for (const key of this.keys()) this.remember(key);
    this.y.clear();
    for (const key of [...this.keys()]) this.put(key, undefined);
  }

  /** Rewrites every item still in the former layout as a nested map; call inside a Y transaction. True when one was. */
  migrate(): boolean {
    let migrated = false;
    for (const [key, value] of this.y.entries()) {
      if (value instanceof Y.Map || typeof value !== 'object' || value === null) continue;
      this.remember(key);
      this.y.set(key, this.newItem(value as Record<string, unknown>));
      migrated = true;
    }
    return migrated;
  }

  private remember(key: string): void {
    if (!this.before.has(key)) this.before.set(key, this.mirror.get(key));
  }

  private newItem(fields: Record<string, unknown>): Y.Map<unknown> {
    const item = new Y.Map<unknown>();
    for (const [field, value] of Object.entries(fields)) {
      item.set(field, this.textFields.has(field) && typeof value === 'string' ? new Y.Text(value) : value);
    }
    return item;
  }

  /** True when a field changed (and so the map will report it). */
  private writeFields(item: Y.Map<unknown>, next: Record<string, unknown>): boolean {
    let changed = false;
    for (const [field, value] of Object.entries(next)) {
      const current = item.get(field);
      if (this.textFields.has(field) && typeof value === 'string') {
        if (!(current instanceof Y.Text)) item.set(field, new Y.Text(value));
        else if (current.toString() !== value) spliceText(current, value);
        else continue;
        changed = true;
      } else if (!equalityDeep(current, value)) {
        item.set(field, value);
        changed = true;
      }
    }
    for (const field of [...item.keys()]) {
      if (Object.hasOwn(next, field)) continue;
      item.delete(field);
      changed = true;
    }
    return changed;
  }

  private settle(events: Y.YEvent<Y.AbstractType<unknown>>[], transaction: Y.Transaction): void {
    const keys = new Set<string>();
    for (const event of events) {
      if (event.target === this.y) for (const key of (event as Y.YMapEvent<unknown>).keysChanged) keys.add(key);
      else keys.add(String(event.path[0]));
    }
    const changes: ItemChange<T>[] = [];
    for (const key of keys) {
      const before = this.before.has(key) ? this.before.get(key) : this.mirror.get(key);
      const after = plainItem<T>(this.y.get(key));
      this.put(key, after);
      changes.push({ key, before, after });
    }
    this.before.clear();
    for (const listener of this.listeners) listener(changes, transaction);
  }
}
