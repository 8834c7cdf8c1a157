/** The table both SQL engines keep view-only links in (board-store.ts `ViewLinkStore`): the same SQL in SQLite and PostgreSQL. */
import type { StoredViewLink } from './board-store.js';

/**
 * A token is found by its hash alone, a board's links by the index, in the
 * order they were made (`seq`: SQLite's rowid, PostgreSQL's BIGSERIAL).
 */
export function viewLinksTable(seq: 'INTEGER' | 'BIGSERIAL'): string {
  return `
CREATE TABLE IF NOT EXISTS view_links (
  seq ${seq} PRIMARY KEY,
  token_hash TEXT NOT NULL UNIQUE,
  id TEXT NOT NULL UNIQUE,
  board_id TEXT NOT NULL,
  label TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS view_links_by_board ON view_links (board_id, seq);
`;
}

export type ViewLinkRow = { id: string; board_id: string; label: string | null; created_at: string };

export const viewLinkOf = (row: ViewLinkRow): StoredViewLink => ({
  id: row.id,
  boardId: row.board_id,
  label: row.label,
  createdAt: row.created_at,
});

export const VIEW_LINK_COLUMNS = 'id, board_id, label, created_at';
