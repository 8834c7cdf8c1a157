/**
 * Erasing a board: a tombstone in the registry (kept 30 days, so its id
 * answers "deleted"), and its content, image payloads, lock and stored state
 * gone in the same store unit; connected clients are closed.
 */
import { CONTENT_MAPS } from '../../board/model/document-model.js';
import { DEFAULT_AUTHORS } from '../../board/mutations/board-write.js';
import type { Caller } from '../access/access.js';
import type { BoardCore, BoardsDeps } from './board-core.js';
import type { IdempotentRequest } from './idempotency.js';

export class BoardErasure {
  constructor(
    private readonly boards: BoardCore,
    private readonly deps: BoardsDeps,
  ) {}

  /** Tombstones a board: its content, payloads, lock and stored state go; connected clients are closed. */
  erase(boardId: string, caller: Caller, retry?: IdempotentRequest): Promise<{ ok: true }> {
    return this.boards.keyed<{ ok: true }>(boardId, caller, retry, async (admitted, unit) => {
      const { host } = this.deps;
      await this.boards.admit(boardId, admitted, 'write');
      await host.use(boardId, async (doc) => {
        const record = await this.boards.requireLive(boardId);
        this.deps.access.requireAccess(record, 'write', admitted);
        await unit(boardId, (tx) => {
          tx.tombstone(boardId);
          this.boards.transact(tx, doc, record, { source: 'system', author: DEFAULT_AUTHORS.system }, (w) => {
            for (const name of CONTENT_MAPS) w.maps[name].clear();
            w.maps.meta.clear(); // a reused id starts as a blank draw board
            w.counts = {};
            return { ok: true } as const;
          });
          tx.eraseDocument(boardId);
        });
      });
      host.closeConnections(boardId);
      this.deps.events.erased(boardId);
      return { ok: true };
    });
  }
}
