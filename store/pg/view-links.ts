/** View-only links in PostgreSQL, where every instance finds them. */
import type { StoredViewLink, ViewLinkStore } from '../board-store.js';
import { VIEW_LINK_COLUMNS, type ViewLinkRow, viewLinkOf } from '../view-link-rows.js';
import { type Pool, query, transaction } from './database.js';

export class PgViewLinks implements ViewLinkStore {
  constructor(private readonly pool: Pool) {}

  async add(link: StoredViewLink, tokenHash: string, max: number): Promise<boolean> {
    return transaction(this.pool, async (client) => {
      // The board's row, locked, orders the makers of its links: two at once never pass the limit together.
      await client.query('SELECT 1 FROM boards WHERE id = $1 FOR UPDATE', [link.boardId]);
      const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM view_links WHERE board_id = $1', [
        link.boardId,
      ]);
      if (Number(rows[0].n) >= max) return false;
      await client.query(
        'INSERT INTO view_links (token_hash, id, board_id, label, created_at) VALUES ($1, $2, $3, $4, $5)',
        [tokenHash, link.id, link.boardId, link.label, link.createdAt],
      );
      return true;
    });
  }

  async list(boardId: string): Promise<StoredViewLink[]> {
    const { rows } = await query<ViewLinkRow>(
      this.pool,
      `SELECT ${VIEW_LINK_COLUMNS} FROM view_links WHERE board_id = $1 ORDER BY seq`,
      [boardId],
    );
    return rows.map(viewLinkOf);
  }

  async find(tokenHash: string): Promise<StoredViewLink | null> {
    const { rows } = await query<ViewLinkRow>(
      this.pool,
      `SELECT ${VIEW_LINK_COLUMNS} FROM view_links WHERE token_hash = $1`,
      [tokenHash],
    );
    return rows[0] ? viewLinkOf(rows[0]) : null;
  }

  async revoke(boardId: string, id: string): Promise<boolean> {
    const { rowCount } = await query(this.pool, 'DELETE FROM view_links WHERE board_id = $1 AND id = $2', [
      boardId,
      id,
    ]);
    return rowCount === 1;
  }
}
