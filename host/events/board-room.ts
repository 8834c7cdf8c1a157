/**
 * The JSON channel's rooms: one per board that has open `/ws` sockets, as
 * tldraw's `TLSocketRoom` owns its sessions. A room is made when its board's
 * first socket joins and disposed when its last one leaves; it keeps the
 * board loaded meanwhile, runs the board's op feed and watches the board's
 * own events (erase, lock changes),
 * so a change to a board nobody watches computes nothing here and every
 * message is sent by the room of the board it belongs to.
 */
import type { afterLoadDocumentPayload, afterUnloadDocumentPayload, Document, Extension } from '@hocuspocus/server';
import type { KeyHolder } from '../access/access.js';
import type { SocketAccess, SocketVerdict } from '../access/socket-access.js';
import type { DocumentHost } from '../documents/document-host.js';
import type { HandedOutStates } from '../history/history-recorder.js';
import type { BoardEvents, BoardSignal } from './board-events.js';
import { type BoardOp, feedOps, type OpFeedStores } from './op-feed.js';

/** A socket in a room, as the room sees it (the adapter puts each on its own wire). */
export interface RoomMember {
  /** The key the socket was admitted with, for the lock re-check. */
  readonly holder: KeyHolder;
  /** The board's net change of one settled chain of transactions, with the board's ETag after it. */
  ops(ops: BoardOp[], etag: string): void;
  /** The board was erased. */
  erased(): void;
  /** The board's lock changed: what the socket may do now. */
  accessChanged(verdict: SocketVerdict): void;
  /** The board was loaded afresh after its copy was dropped: what it holds may have reached no op. */
  reloaded(): void;
}

/** A member's place in its room: `leave` when the socket closes (idempotent). */
export type Membership = { leave(): void };

/** Told of the op feed's work, for the operator's metrics. */
export type RoomFigures = { opsComputed(count: number): void };

type RoomDeps = OpFeedStores & {
  host: DocumentHost;
  events: BoardEvents;
  socketAccess: SocketAccess;
  figures?: RoomFigures;
  /** Notes the states whose ETags `op` frames hand out (the history recorder). */
  states?: HandedOutStates;
};

/** How soon a room tries again to load a board the storage could not load. */
const HOLD_RETRY_MS = 1_000;

class BoardRoom {
  readonly members = new Set<RoomMember>();
  private document: Document | undefined;
  private stopFeed: (() => void) | undefined;
  /** Whether a copy was followed before: the next one may hold what no op carried. */
  private followed = false;
  private disposed = false;
  private readonly unwatch: () => void;
  /** Lets the board unload again: a change relayed from another instance reaches a loaded board only. */
  private release: () => void = () => {};

  constructor(
    readonly boardId: string,
    private readonly deps: RoomDeps,
  ) {
    this.unwatch = deps.events.watch(boardId, (signal) => this.heard(signal));
    const loaded = deps.host.loaded(boardId);
    // A document still loading is followed once loaded (afterLoadDocument): its stored state is no change.
    if (loaded && !loaded.isLoading && !loaded.isDestroyed) this.follow(loaded);
    this.hold();
  }

  /** Keeps the board loaded; a load the storage refuses is tried again a second later. */
  private hold(): void {
    this.release = this.deps.host.hold(this.boardId, () => {
      if (!this.disposed) setTimeout(() => !this.disposed && this.hold(), HOLD_RETRY_MS).unref();
    });
  }

  /** Feeds from the board's document as loaded now: after an unload, the next load's. */
  follow(document: Document): void {
    if (this.document === document) return;
    this.stopFeed?.();
    this.document = document;
    const { states } = this.deps;
    const stop = feedOps(
      document,
      this.boardId,
      this.deps,
      (ops, etag) => this.send(ops, etag),
      states && ((doc) => states.handedOut(this.boardId, doc)),
    );
    const dropped = () => this.dropped(document);
    document.on('destroy', dropped);
    this.stopFeed = () => {
      stop();
      document.off('destroy', dropped);
    };
    // A refused commit may have been stored after all, and relayed changes missed no copy: the sockets read the board again.
    if (this.followed) for (const member of this.members) member.reloaded();
    this.followed = true;
  }

  /**
   * The followed copy was dropped while the room held it (the storage
   * refused a change): hold the board again, so that a fresh copy is loaded
   * and followed, rather than waiting for the next write to load one.
   */
  private dropped(document: Document): void {
    if (this.document !== document || this.disposed) return;
    this.unfollow();
    this.release();
    this.hold();
  }

  /** The document was unloaded: nothing to feed from until it is loaded again. */
  unfollow(): void {
    this.stopFeed?.();
    this.stopFeed = undefined;
    this.document = undefined;
  }

  following(document: Document): boolean {
    return this.document === document;
  }

  /** Checks the given members again after a lock change, with one registry read for them all. */
  async recheck(members: RoomMember[]): Promise<void> {
    const verdicts = await this.deps.socketAccess.recheck(this.boardId, members, (member) => member.holder);
    for (const [member, verdict] of verdicts) if (this.members.has(member)) member.accessChanged(verdict);
  }

  dispose(): void {
    this.disposed = true;
    this.unwatch();
    this.unfollow();
    this.release();
  }

  private send(ops: BoardOp[], etag: string): void {
    this.deps.figures?.opsComputed(ops.length);
    for (const member of this.members) member.ops(ops, etag);
  }

  private heard(signal: BoardSignal): void {
    switch (signal) {
      case 'erased':
        for (const member of [...this.members]) member.erased();
        return;
      case 'lockChanged':
        void this.recheck([...this.members]);
        return;
      case 'settled':
      case 'closing':
        return; // ops go out as each change settles; sockets are closed by the server's own close
      default: {
        const unknown: never = signal;
        return unknown;
      }
    }
  }
}

export class BoardRooms {
  private readonly rooms = new Map<string, BoardRoom>();

  constructor(private readonly deps: RoomDeps) {}

  /** Rooms open now (boards with at least one JSON-channel socket on this instance). */
  get size(): number {
    return this.rooms.size;
  }

  /**
   * Puts a socket in its board's room, making the room if it is the first.
   * `lockMark` is the lock-change count taken before the socket's admission
   * read the board's record (SocketAccess.mark): if a lock changed since, the
   * socket is checked again at once, since it did not hear that change.
   */
  join(boardId: string, member: RoomMember, lockMark: number): Membership {
    let room = this.rooms.get(boardId);
    if (!room) {
      room = new BoardRoom(boardId, this.deps);
      this.rooms.set(boardId, room);
    }
    room.members.add(member);
    if (this.deps.socketAccess.changedSince(lockMark)) void room.recheck([member]);
    const joined = room;
    return {
      leave: () => {
        if (!joined.members.delete(member) || joined.members.size > 0) return;
        joined.dispose();
        if (this.rooms.get(boardId) === joined) this.rooms.delete(boardId);
      },
    };
  }

  /** The Hocuspocus extension that points each room at its board's document as it is loaded and unloaded. */
  extension(): Extension {
    return {
      extensionName: 'board-rooms',
      afterLoadDocument: async ({ document, documentName }: afterLoadDocumentPayload) => {
        this.rooms.get(documentName)?.follow(document);
      },
      afterUnloadDocument: async ({ documentName }: afterUnloadDocumentPayload) => {
        const room = this.rooms.get(documentName);
        const loaded = this.deps.host.loaded(documentName);
        // The unloaded copy is gone from the host; a copy loaded again meanwhile is the one to keep.
        if (room && !(loaded && room.following(loaded))) room.unfollow();
      },
    };
  }
}
