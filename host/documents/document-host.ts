/**
 * Server-side access to board documents through Hocuspocus, so that server
 * writes are broadcast, journalled and stored exactly like a client's. A
 * direct connection is opened per use and always disconnected (an open one
 * would pin its document in memory forever); the store after it is debounced,
 * so a busy board stays loaded and an idle one is stored, then unloaded once
 * it has not been used for a while (BoardHocuspocus).
 */
import type { Document } from '@hocuspocus/server';
import type { BoardHocuspocus } from './board-hocuspocus.js';

export class DocumentHost {
  constructor(private readonly hocuspocus: BoardHocuspocus) {}

  /**
   * Runs fn against the loaded document (loading it first if needed). A
   * document that is already loaded, and not on its way out, is used as it
   * is: fn runs synchronously, so nothing can unload it meanwhile, and a
   * write through it schedules the debounced store (and the unload after it)
   * exactly as a client's would. That saves a connection per request on a
   * busy board. `waited` tells fn whether anything else could have run since
   * the call (a load), so that what the caller checked before may be stale.
   * An async fn holds the document until it settles.
   */
  use<T>(boardId: string, fn: (doc: Document, waited: boolean) => T | Promise<T>): Promise<T> {
    const loaded = this.hocuspocus.documents.get(boardId);
    if (loaded && !loaded.isLoading && !loaded.isDestroyed && !this.hocuspocus.isLeaving(loaded)) {
      this.hocuspocus.used(loaded);
      try {
        return Promise.resolve(fn(loaded, false)); // fn's own promise, not wrapped in another: two microtask turns fewer a write
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return this.useLoading(boardId, fn);
  }

  private async useLoading<T>(boardId: string, fn: (doc: Document, waited: boolean) => T | Promise<T>): Promise<T> {
    const connection = await this.hocuspocus.openDirectConnection(boardId, { source: 'server' });
    try {
      const { document } = connection; // null only once the connection is closed
      if (!document) throw new Error(`board ${boardId}: its direct connection holds no document`);
      return await fn(document, true);
    } finally {
      await connection.disconnect({ unloadImmediately: false });
    }
  }

  /**
   * Keeps the board's document loaded until the returned release is called
   * (a JSON-channel room: its board must stay loaded for changes relayed from
   * other instances to reach it). Holds through a direct connection, which
   * Hocuspocus counts like a client's; the release stores the board as a
   * client's leaving does, and it is unloaded once no longer used.
   */
  hold(boardId: string, failed: (error: unknown) => void = () => {}): () => void {
    const held = this.hocuspocus.openDirectConnection(boardId, { source: 'server' });
    held.catch(failed); // meanwhile a board that cannot be loaded is refused to its sockets by their own reads
    return () => {
      held.then((connection) => connection.disconnect({ unloadImmediately: false })).catch(() => {});
    };
  }

  /** Yjs client sockets open on this instance (direct connections, such as holds, are not sockets). */
  clientSockets(): number {
    const sockets = new Set<string>();
    for (const document of this.hocuspocus.documents.values())
      for (const { socketId } of document.getConnections()) sockets.add(socketId);
    return sockets.size;
  }

  /** The document if it is loaded right now, without loading it. */
  loaded(boardId: string): Document | undefined {
    return this.hocuspocus.documents.get(boardId);
  }

  /** The boards whose documents are loaded right now. */
  loadedBoards(): string[] {
    return [...this.hocuspocus.documents.keys()];
  }

  /** Closes every client connection to a board (after its erase). */
  closeConnections(boardId: string): void {
    this.hocuspocus.closeConnections(boardId);
  }

  /**
   * Stores every loaded document now and waits for the stores (shutdown):
   * Hocuspocus stores a document at once, and waits for it, when a direct
   * connection leaves with `unloadImmediately`, which also unloads a board
   * nobody holds or keeps.
   */
  async flushAll(): Promise<void> {
    const stores = [...this.hocuspocus.documents.keys()].map(async (boardId) => {
      const connection = await this.hocuspocus.openDirectConnection(boardId, { source: 'server' });
      await connection.disconnect({ unloadImmediately: true });
    });
    await Promise.all(stores);
  }
}
