/** Keyed updates: an element per id, rebuilt only when what it shows changed, and put in place without touching the rest. */

/** Makes `parent`'s children `wanted`, in order, moving only the ones out of place and removing the rest. */
export function placeChildren(parent: Element, wanted: readonly Element[]): void {
  wanted.forEach((element, index) => {
    const at = parent.children[index];
    if (at !== element) parent.insertBefore(element, at ?? null);
  });
  while (parent.children.length > wanted.length) parent.lastElementChild?.remove();
}

/**
 * What is shown for a set of ids (an element, or a view that holds one). `get`
 * returns an id's, built (or drawn again, from the previous one) only when its
 * `key`, what it shows as a string, differs from the one it was built with;
 * `keep` forgets the ids not shown any more.
 */
export class Keyed<T> {
  private readonly shown = new Map<string, { value: T; key: string }>();

  get(id: string, key: string, build: (previous: T | undefined) => T): T {
    const entry = this.shown.get(id);
    if (entry && entry.key === key) return entry.value;
    const value = build(entry?.value);
    this.shown.set(id, { value, key });
    return value;
  }

  keep(ids: ReadonlySet<string>): void {
    for (const id of this.shown.keys()) if (!ids.has(id)) this.shown.delete(id);
  }
}
