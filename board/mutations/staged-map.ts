/**
 * A write's view of one of the document's maps: reads see the write's own
 * changes, but nothing reaches the document until commit(). A mutation (or a batch
 * of them) that fails half-way therefore leaves the document exactly as it was:
 * no partial change, no update, the same ETag.
 */
import type { WritableMap } from '../model/item-map.js';

const DELETED = Symbol('deleted');

const NONE: ReadonlyMap<string, never> = new Map<string, never>();

export class StagedMap<T> {
  /** Made on the first change: a write stages every document map but changes one or two. */
  private changes: Map<string, T | typeof DELETED> | undefined;
  private cleared = false;

  constructor(private readonly base: WritableMap<T>) {}

  private get staged(): ReadonlyMap<string, T | typeof DELETED> {
    return this.changes ?? NONE;
  }

  get(key: string): T | undefined {
    const value = this.staged.get(key);
    if (value !== undefined) return value === DELETED ? undefined : value;
    return this.cleared ? undefined : this.base.get(key);
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  set(key: string, value: T): void {
    (this.changes ??= new Map()).set(key, value);
  }

  delete(key: string): void {
    (this.changes ??= new Map()).set(key, DELETED);
  }

  clear(): void {
    this.cleared = true;
    this.changes = undefined;
  }

  /** A snapshot of the entries: callers may change the map while they walk it. */
  entries(): IterableIterator<[string, T]> {
    const entries: [string, T][] = [];
    if (!this.cleared) {
      for (const [key, value] of this.base.entries()) if (!this.staged.has(key)) entries.push([key, value]);
    }
    for (const [key, value] of this.staged) if (value !== DELETED) entries.push([key, value]);
    return entries[Symbol.iterator]();
  }

  values(): IterableIterator<T> {
    return [...this.entries()].map(([, value]) => value)[Symbol.iterator]();
  }

  /** Counts by walking the map (as Y.Map does): callers cache it, see itemCount. */
  get size(): number {
    let count = 0;
    for (const _ of this.entries()) count++;
    return count;
  }

  /** The map as committed before this write (its own changes are not in it), and whether the write cleared it. */
  get committed(): { map: WritableMap<T>; cleared: boolean } {
    return { map: this.base, cleared: this.cleared };
  }

  /** The keys this write set or deleted. */
  changedKeys(): IterableIterator<string> {
    return this.staged.keys();
  }

  /** True when the write changed this map. */
  get dirty(): boolean {
    return this.cleared || this.staged.size > 0;
  }

  /** Applies the staged changes to the document's map; call inside the write's Y transaction. */
  commit(): void {
    if (this.cleared) this.base.clear();
    for (const [key, value] of this.staged) {
      if (value === DELETED) this.base.delete(key);
      else this.base.set(key, value);
    }
    this.changes = undefined;
    this.cleared = false;
  }
}
