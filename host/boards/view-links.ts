/**
 * View-only links (docs/sharing.md): a second, weaker link to a board that
 * reads and never writes, made, listed and revoked by its editors. Making and
 * revoking are writes of the board (its key under a `write` or `all` lock),
 * listing a read; a view token may do none of them. A revocation counts as a
 * lock change: every open socket and listener of the board, here and on the
 * other instances, is checked again and one opened with the revoked link closes.
 */
import { randomUUID } from 'node:crypto';
import { errors } from '../../board/model/errors.js';
import { sqlTimestamp } from '../../board/model/record.js';
import { isViewToken, MAX_VIEW_LINKS, type ViewLink } from '../../schema/index.js';
import type { StoredViewLink } from '../../store/board-store.js';
import type { Caller } from '../access/access.js';
import { generateViewToken, hashViewToken } from '../access/view-tokens.js';
import type { BoardCore, BoardsDeps } from './board-core.js';

export type MadeLink = ViewLink & { token: string };

const listed = (link: StoredViewLink): ViewLink => ({ id: link.id, label: link.label, created_at: link.createdAt });

export class BoardViewLinks {
  constructor(
    private readonly boards: BoardCore,
    private readonly deps: BoardsDeps,
  ) {}

  /** Makes a link; its token is in this answer only. */
  async create(boardId: string, caller: Caller, label: string | undefined): Promise<MadeLink> {
    const record = await this.boards.admit(boardId, caller, 'write');
    const token = generateViewToken();
    const link: StoredViewLink = {
      id: randomUUID(),
      boardId: record.id,
      label: label?.trim() || null,
      createdAt: sqlTimestamp(this.deps.now()),
    };
    if (!(await this.deps.store.viewLinks.add(link, hashViewToken(token), MAX_VIEW_LINKS)))
      throw errors.tooManyViewLinks(MAX_VIEW_LINKS);
    return { ...listed(link), token };
  }

  /** The board's live links, without their tokens; a token may not list them. */
  async list(boardId: string, caller: Caller): Promise<{ links: ViewLink[] }> {
    if (isViewToken(boardId)) await this.boards.boardOf(boardId, 'write');
    const record = await this.boards.admit(boardId, caller, 'read');
    return { links: (await this.deps.store.viewLinks.list(record.id)).map(listed) };
  }

  /** Revokes one link: its token answers 404 from now on, and what was opened with it is closed. */
  async revoke(boardId: string, caller: Caller, id: string): Promise<{ ok: true; id: string }> {
    const record = await this.boards.admit(boardId, caller, 'write');
    if (!(await this.deps.store.viewLinks.revoke(record.id, id))) throw errors.viewLinkNotFound(id);
    this.deps.events.lockChanged(record.id);
    return { ok: true, id };
  }

  /** The live link a token names, or null. */
  find(token: string): Promise<StoredViewLink | null> {
    return this.deps.store.viewLinks.find(hashViewToken(token));
  }

  /** The ids of the board's live links: one read for every socket a recheck looks at. */
  async liveIds(boardId: string): Promise<Set<string>> {
    return new Set((await this.deps.store.viewLinks.list(boardId)).map((link) => link.id));
  }
}
