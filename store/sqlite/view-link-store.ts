/** View-only links in the embedded SQLite: each change commits on its own, after the group's open commit. */
import type { StoredViewLink, ViewLinkStore } from '../board-store.js';
import { VIEW_LINK_COLUMNS, type ViewLinkRow, viewLinkOf } from '../view-link-rows.js';
import type { Db } from './database.js';
import type { GroupCommit } from './group-commit.js';

export class SqliteViewLinks implements ViewLinkStore {
  private readonly insert;
  private readonly countOf;
  private readonly byBoard;
  private readonly byHash;
  private readonly remove;
  private readonly removeAll;
  private readonly addIfRoom;

  constructor(
    db: Db,
    private readonly group: GroupCommit,
  ) {
    this.insert = db.prepare<[string, string, string, string | null, string]>(
      'INSERT INTO view_links (token_hash, id, board_id, label, created_at) VALUES (?, ?, ?, ?, ?)',
    );
    this.countOf = db.prepare<[string], number>('SELECT count(*) FROM view_links WHERE board_id = ?').pluck();
    this.byBoard = db.prepare<[string], ViewLinkRow>(
      `SELECT ${VIEW_LINK_COLUMNS} FROM view_links WHERE board_id = ? ORDER BY seq`,
    );
    this.byHash = db.prepare<[string], ViewLinkRow>(`SELECT ${VIEW_LINK_COLUMNS} FROM view_links WHERE token_hash = ?`);
    this.remove = db.prepare<[string, string]>('DELETE FROM view_links WHERE board_id = ? AND id = ?');
    this.removeAll = db.prepare<[string]>('DELETE FROM view_links WHERE board_id = ?');
    // The count and the insert in one transaction: two makers at once never pass the limit together.
    this.addIfRoom = db.transaction((link: StoredViewLink, tokenHash: string, max: number) => {
      if ((this.countOf.get(link.boardId) ?? 0) >= max) return false;
      this.insert.run(tokenHash, link.id, link.boardId, link.label, link.createdAt);
      return true;
    });
  }

  async add(link: StoredViewLink, tokenHash: string, max: number): Promise<boolean> {
    this.group.settle();
    return this.addIfRoom(link, tokenHash, max);
  }

  async list(boardId: string): Promise<StoredViewLink[]> {
    return this.byBoard.all(boardId).map(viewLinkOf);
  }

  async find(tokenHash: string): Promise<StoredViewLink | null> {
    const row = this.byHash.get(tokenHash);
    return row ? viewLinkOf(row) : null;
  }

  async revoke(boardId: string, id: string): Promise<boolean> {
    this.group.settle();
    return this.remove.run(boardId, id).changes === 1;
  }

  /** Inside an erase's transaction: the board's links go with its document. */
  eraseNow(boardId: string): void {
    this.group.beforeWrite();
    this.removeAll.run(boardId);
  }
}
