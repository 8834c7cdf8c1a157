/** Which items of the canvas are selected, shown by the `selected` class on their elements. */

/**
 * The selected item ids. It reads the canvas's element map rather than owning
 * one, so an item drawn later picks up its state through `has`.
 */
export class Selection implements Iterable<string> {
  private readonly ids = new Set<string>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly elements: ReadonlyMap<string, Element>) {}

  get size(): number {
    return this.ids.size;
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }

  [Symbol.iterator](): Iterator<string> {
    return this.ids[Symbol.iterator]();
  }

  /** Hears of every change of the selection (the resize handle follows it). */
  onChange(listener: () => void): void {
    this.listeners.add(listener);
  }

  /** Selects `ids` in place of the selection; with `add`, toggles each of them in or out of it instead (Shift). */
  select(ids: string[], add = false): void {
    if (!add) this.ids.clear();
    for (const id of ids) {
      if (add && this.ids.has(id)) this.ids.delete(id);
      else this.ids.add(id);
    }
    for (const [id, element] of this.elements) element.classList.toggle('selected', this.ids.has(id));
    for (const listener of this.listeners) listener();
  }

  /** Forgets an item that has left the board; its element has gone with it, so no class needs updating. */
  forget(id: string): void {
    if (!this.ids.delete(id)) return;
    for (const listener of this.listeners) listener();
  }
}
