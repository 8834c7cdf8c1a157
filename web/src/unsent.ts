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

/** The board item a change inside the document belongs to (`kind:id`), or null for a change outside any item. */
function itemOf(type: Shared, key: string | null): string | null {
  let child: Shared = type;
  let field = key;
  // Up to the top-level map: an item is one of its entries, its fields and their texts nest below.
  while (child._item !== null) {
    field = child._item.parentSub;
    child = child._item.parent as Shared;
  }
  const kind = [...(child.doc?.share ?? [])].find(([, shared]) => shared === child)?.[0];
  return kind === undefined || field === null ? null : `${kind}:${field}`;
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
    for (const [type, keys] of transaction.changed) {
      for (const key of keys) {
        const item = itemOf(type, key);
        if (item !== null) this.items.add(item);
      }
    }
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
