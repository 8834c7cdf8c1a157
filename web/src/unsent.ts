/**
 * The items this browser changed and the server has not acknowledged: what
 * "N edit(s) waiting" counts. The provider's own count is of update messages
 * (a drag is dozens) and starts again at nothing on a reload, though the edits
 * wait in IndexedDB; this one counts items and is kept beside the board's copy.
 */
import type * as Y from 'yjs';

/** Any shared type of the document, as `transaction.changed` keys them. */
type Shared = Y.Transaction['changed'] extends Map<infer T, unknown> ? T : never;

const storageKey = (boardId: string) => `board-unsent:${boardId}`;

/** The name a top-level map has in its document. */
const nameOf = (map: Shared) => [...(map.doc?.share ?? [])].find(([, shared]) => shared === map)?.[0];

/**
 * The board items (`kind:id`) a change to `type` at `keys` belongs to: each key
 * of a top-level map is an item; a change below one (its fields, their texts)
 * is that item's, whatever its keys.
 */
function itemsOf(type: Shared, keys: Set<string | null>): string[] {
  if (type._item === null) {
    const kind = nameOf(type);
    return kind === undefined ? [] : [...keys].flatMap((key) => (key === null ? [] : [`${kind}:${key}`]));
  }
  let child: Shared = type;
  let id: string | null = null;
  while (child._item !== null) {
    id = child._item.parentSub;
    child = child._item.parent as Shared;
  }
  const kind = nameOf(child);
  return kind === undefined || id === null ? [] : [`${kind}:${id}`];
}

export class UnsentEdits {
  private readonly items: Set<string>;

  constructor(private readonly boardId: string) {
    let stored: unknown = [];
    try {
      stored = JSON.parse(localStorage.getItem(storageKey(boardId)) ?? '[]');
    } catch {
      // unreadable: counted again from the next edit
    }
    this.items = new Set(Array.isArray(stored) ? stored.filter((entry) => typeof entry === 'string') : []);
  }

  get count(): number {
    return this.items.size;
  }

  /** Adds the items a local transaction changed; true when the count grew. */
  add(transaction: Y.Transaction): boolean {
    const before = this.items.size;
    for (const [type, keys] of transaction.changed) for (const item of itemsOf(type, keys)) this.items.add(item);
    if (this.items.size === before) return false;
    this.save();
    return true;
  }

  /** Everything sent has been acknowledged. */
  settle(): void {
    if (this.items.size === 0) return;
    this.items.clear();
    this.save();
  }

  private save(): void {
    try {
      if (this.items.size === 0) localStorage.removeItem(storageKey(this.boardId));
      else localStorage.setItem(storageKey(this.boardId), JSON.stringify([...this.items]));
    } catch {
      // storage full or refused: the count is kept for this page only
    }
  }
}
