/**
 * `/collab`: the Yjs sync protocol, served by Hocuspocus on a Fastify
 * WebSocket route. A document name is a board id, or a view token that reads
 * it only (view-names.ts renames it); the provider's token is the board's access key. Lock and tombstone state come from the registry, never
 * from the document. Updates pass the same rules as every other surface
 * (accept-then-compensate, host/documents/compensation.ts) and a per-board rate limit.
 */

import type {} from '@fastify/websocket'; // its types add the websocket route option
import type {
  afterLoadDocumentPayload,
  beforeHandleMessagePayload,
  Connection,
  connectedPayload,
  Extension,
  Hocuspocus,
  onAuthenticatePayload,
  WebSocketLike,
} from '@hocuspocus/server';
import { isTransactionOrigin, MessageType } from '@hocuspocus/server';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import type { WebSocket } from 'ws';
import { messageYjsSyncStep2, messageYjsUpdate, writeUpdate } from 'y-protocols/sync';
import { BoardError, CLOSE } from '../../board/model/errors.js';
import type { Access } from '../../host/access/access.js';
import { SocketAccess } from '../../host/access/socket-access.js';
import type { Boards } from '../../host/boards/boards.js';
import { attachCompensator, type Repair } from '../../host/documents/compensation.js';
import type { DocumentHost } from '../../host/documents/document-host.js';
import { attachPresence } from '../../host/documents/presence.js';
import { undoRefused } from '../../host/documents/refused-updates.js';
import type { BoardEvents } from '../../host/events/board-events.js';
import {
  type CollabStateless,
  isUuid,
  MAX_COLLAB_REPAIRS_PER_MINUTE,
  MAX_WS_BUFFERED_BYTES,
} from '../../schema/index.js';
import type { BlobStore, Registry } from '../../store/board-store.js';
import { clientAuthor } from '../kit/caller.js';
import { type OpenCounter, takeSocketSlot } from '../kit/socket-limits.js';
import { type ViewNames, viewTokenIncoming, viewTokenOutgoing } from './view-names.js';

/** A Hocuspocus message's document address and type, with the decoder at its payload; null if malformed. */
function messageHeader(message: Uint8Array): { name: string; type: number; decoder: decoding.Decoder } | null {
  try {
    const decoder = decoding.createDecoder(message);
    const name = decoding.readVarString(decoder);
    return { name, type: decoding.readVarUint(decoder), decoder };
  } catch {
    return null;
  }
}

/** The Yjs update a message carries (a sync step 2 or an update; not awareness, auth or a state request), else null. */
function updateOf(message: Uint8Array): Uint8Array | null {
  const header = messageHeader(message);
  if (!header || (header.type !== MessageType.Sync && header.type !== MessageType.SyncReply)) return null;
  try {
    const step = decoding.readVarUint(header.decoder);
    return step === messageYjsSyncStep2 || step === messageYjsUpdate
      ? decoding.readVarUint8Array(header.decoder)
      : null;
  } catch {
    return null;
  }
}

/** True for a message that carries document changes (not awareness, auth or a state request). */
export function carriesUpdate(message: Uint8Array): boolean {
  return updateOf(message) !== null;
}

/** A sync message that applies `update` to the client's copy of the named document. */
function updateMessage(documentName: string, update: Uint8Array): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarString(encoder, documentName);
  encoding.writeVarUint(encoder, MessageType.Sync);
  writeUpdate(encoder, update);
  return encoding.toUint8Array(encoder);
}

/** The board whose document a message changes or acknowledges (sync and sync-status messages), else null. */
function documentMessageBoard(message: Uint8Array): string | null {
  const header = messageHeader(message);
  if (!header) return null;
  const { type } = header;
  return type === MessageType.Sync || type === MessageType.SyncReply || type === MessageType.SyncStatus
    ? header.name
    : null;
}

type CollabDeps = {
  boards: Boards;
  access: Access;
  registry: Registry;
  blobs: BlobStore;
  events: BoardEvents;
  host: DocumentHost;
  now: () => number;
};

type Offenses = { count: number; since: number };

/**
 * What onAuthenticate keeps on a connection for later checks; `retryLater`
 * (set by registerCollab) closes the socket once a refusal is sent.
 */
type CollabContext = {
  ip?: string;
  author?: string;
  key?: string;
  lockChanges?: number;
  retryLater?: () => void;
  /** The socket's view tokens, shared by its documents' contexts (Hocuspocus copies a context shallowly). */
  viewNames?: ViewNames;
  /** The view link this document was opened with: it reads only, while the link lives. */
  viewLink?: string;
};

/**
 * Why authentication failed, as the provider's `reason`: the error's machine
 * code; a rate limit adds the exact wait (`rate_limited; retryAfterSeconds=37`),
 * since the reason is all a refused provider is told.
 */
function refusalReason(error: unknown): string {
  if (!(error instanceof BoardError)) return 'forbidden';
  const { retryAfterSeconds } = error.details;
  return typeof retryAfterSeconds === 'number' ? `${error.code}; retryAfterSeconds=${retryAfterSeconds}` : error.code;
}

/** The Hocuspocus extension that applies the board's rules to Yjs clients. */
export function collabExtension(deps: CollabDeps): Extension {
  const offenses = new WeakMap<Connection, Offenses>();

  const tellClient = (origin: unknown, repairs: Repair[]) => {
    if (!isTransactionOrigin(origin) || origin.source !== 'connection') return;
    const connection = origin.connection;
    const message: CollabStateless = {
      type: 'compensated',
      repairs: repairs.map(({ offense: _o, ...repair }) => repair),
    };
    connection.sendStateless(JSON.stringify(message));
    const now = deps.now();
    const record = offenses.get(connection);
    const window = record && now - record.since < 60_000 ? record : { count: 0, since: now };
    window.count += repairs.filter((repair) => repair.offense).length;
    offenses.set(connection, window);
    if (window.count > MAX_COLLAB_REPAIRS_PER_MINUTE) connection.close(CLOSE.invalidUpdates);
  };

  /**
   * A connection whose access a lock change changed is closed, so that its
   * provider reconnects and is authorised afresh (read-only, writable, or
   * refused and asked for the key), and knows which it is.
   */
  const socketAccess = new SocketAccess(deps);
  const recheckAccess = async (boardId: string, connections: Connection[]) => {
    const verdicts = await socketAccess.recheck(boardId, connections, (connection) => {
      const { ip, key, viewLink } = connection.context as CollabContext;
      return { ip: ip ?? 'unknown', key, viewLink };
    });
    for (const [connection, verdict] of verdicts) {
      const readOnly = verdict.admitted ? verdict.readOnly : null; // null: refused
      if (readOnly === connection.readOnly) continue;
      const close = (connection.context as CollabContext).viewLink ? CLOSE.viewLinkRevoked : CLOSE.boardLocked;
      connection.webSocket.close(close.code, close.reason);
    }
  };
  socketAccess.onLockChanged(
    (boardId) => void recheckAccess(boardId, deps.host.loaded(boardId)?.getConnections() ?? []),
  );

  return {
    extensionName: 'board-rules',

    async onAuthenticate({ documentName, token, connectionConfig, context, requestParameters }: onAuthenticatePayload) {
      if (!isUuid(documentName)) throw { reason: 'board_not_found' };
      context.lockChanges = socketAccess.mark();
      const view = (context as CollabContext).viewNames?.get(documentName);
      try {
        const { readOnly, viewLink } = await deps.boards.admitSocket(view?.token ?? documentName, {
          surface: 'yjs',
          ip: context.ip ?? 'unknown',
          key: token || undefined,
        });
        connectionConfig.readOnly = readOnly;
        context.viewLink = viewLink;
        context.author = clientAuthor(requestParameters.get('client'));
        context.key = token || undefined; // checked again when the lock changes
      } catch (error) {
        // The provider takes a refused authentication as final, but reconnects after a close: a storage briefly away must not refuse for good.
        if (error instanceof BoardError && error.code === 'storage_unavailable')
          (context as CollabContext).retryLater?.();
        throw { reason: refusalReason(error) };
      }
    },

    /** A lock change between this connection's authentication and now did not see it: it checks itself. */
    async connected({ documentName, connection, context }: connectedPayload) {
      if (socketAccess.changedSince((context as CollabContext).lockChanges ?? -1))
        await recheckAccess(documentName, [connection]);
    },

    async beforeHandleMessage({ update, documentName, connection }: beforeHandleMessagePayload) {
      if (connection.readOnly) {
        // Dropped by Hocuspocus as for any read-only connection; a view link's client is also repaired (refused-updates.ts).
        const refused = (connection.context as CollabContext).viewLink && updateOf(update);
        const undone = refused && undoRefused(connection.document, refused);
        if (undone) {
          connection.send(updateMessage(documentName, undone.undo));
          tellClient({ source: 'connection', connection }, undone.repairs);
        }
        return;
      }
      if (!carriesUpdate(update)) return;
      try {
        await deps.access.admitCollabUpdate(documentName);
      } catch {
        // Dropping the update would leave the client believing it was stored. Closing the whole
        // socket instead makes the provider reconnect with backoff and send what it holds in its
        // next sync, so nothing is lost; throwing stops this message from being applied.
        connection.webSocket.close(CLOSE.rateLimited.code, CLOSE.rateLimited.reason);
        throw CLOSE.rateLimited;
      }
    },

    async afterLoadDocument({ document, documentName }: afterLoadDocumentPayload) {
      attachCompensator(
        document,
        () => {
          const record = deps.registry.peek(documentName);
          if (!record || record.deletedAt) return null;
          return { mode: record.mode, blobExists: (hash) => deps.blobs.get(documentName, hash) !== null };
        },
        tellClient,
      );
      attachPresence(document);
    },
  };
}

/**
 * The socket Hocuspocus writes to: a client that cannot keep up (too much
 * unsent data) is dropped, so it never holds up memory or anyone else.
 */
function boundedSocket(socket: WebSocket): WebSocketLike {
  return {
    send(data) {
      if (socket.bufferedAmount > MAX_WS_BUFFERED_BYTES)
        return socket.close(CLOSE.slowConsumer.code, CLOSE.slowConsumer.reason);
      socket.send(data as Uint8Array);
    },
    close: (code, reason) => socket.close(code, reason),
    get readyState() {
      return socket.readyState;
    },
  };
}

/**
 * Holds a Yjs client's document messages (updates, and acknowledgements of its
 * own) while the journal commit of its board is on its way, in order: a group
 * commit (PostgreSQL's, or the embedded SQLite's when the change shared a turn
 * with others) is still in flight when Hocuspocus sends, and a change the
 * storage refuses must neither be acknowledged nor reach anyone: its document
 * is dropped, its clients are disconnected and what they were to be sent is not.
 */
function durableSends(socket: WebSocketLike, pending: (boardId: string) => Promise<void> | undefined): WebSocketLike {
  let queue: Promise<void> | undefined;
  return {
    send(data) {
      const boardId = documentMessageBoard(data as Uint8Array);
      const commit = boardId === null ? undefined : pending(boardId);
      if (!commit && !queue) return socket.send(data);
      const turn: Promise<void> = (queue ?? Promise.resolve())
        .then(() => commit)
        .then(
          () => socket.send(data),
          () => {},
        )
        .finally(() => {
          if (queue === turn) queue = undefined;
        });
      queue = turn;
    },
    close: (code, reason) => socket.close(code, reason),
    get readyState() {
      return socket.readyState;
    },
  };
}

/**
 * Hands `/collab` WebSocket connections to Hocuspocus. With `pending`, document
 * messages wait for the journal's commit still on its way; `opened` counts an
 * open socket in and returns what to call when it closes.
 */
export function registerCollab(
  app: FastifyInstance,
  hocuspocus: Hocuspocus,
  sockets: OpenCounter,
  findViewLink: (token: string) => Promise<{ boardId: string; linkId: string } | null>,
  pending?: (boardId: string) => Promise<void> | undefined,
  opened?: () => () => void,
): void {
  // Only an upgrade opens a WebSocket; a plain GET here would hold its slot until its keep-alive connection closed.
  const preValidation = async (request: FastifyRequest) => {
    if (request.ws) takeSocketSlot(sockets, request.ip, request.raw);
  };
  app.get('/collab', { websocket: true, preValidation }, (socket, request: FastifyRequest) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === 'string') headers.set(name, value);
    }
    const url = new URL(request.url, 'http://collab.invalid');
    const closed = opened?.();
    if (closed) socket.once('close', closed);
    const viewNames: ViewNames = new Map();
    const bounded = viewTokenOutgoing(boundedSocket(socket), viewNames);
    // After the refusal Hocuspocus sends once onAuthenticate has thrown: having heard from the server, the
    // provider reconnects after its fixed delay (a second) instead of its growing backoff.
    const retryLater = () =>
      setTimeout(() => socket.close(CLOSE.storageUnavailable.code, CLOSE.storageUnavailable.reason), 0);
    const context: CollabContext = { ip: request.ip, retryLater, viewNames };
    const connection = hocuspocus.handleConnection(
      pending ? durableSends(bounded, pending) : bounded,
      new Request(url, { headers }),
      context,
    );
    const incoming = viewTokenIncoming(viewNames, findViewLink, (message) => connection.handleMessage(message));
    socket.on('message', (data: Buffer) => incoming(new Uint8Array(data.buffer, data.byteOffset, data.byteLength)));
    socket.on('close', (code: number, reason: Buffer) => connection.handleClose({ code, reason: reason.toString() }));
  });
}
