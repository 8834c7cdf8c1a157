/**
 * `/ws/{boardId}`: the JSON frame channel. The lock, tombstone and existence
 * checks run before the upgrade (an `all`-locked board without its key is
 * answered 401 and never upgraded); the key travels as the `svc-key.<code>`
 * subprotocol (echoed in the 101) or, deprecated, as `?key=`.
 */
import type {} from '@fastify/websocket'; // its types add the websocket route option
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Access } from '../../host/access/access.js';
import type { SocketAccess } from '../../host/access/socket-access.js';
import type { Boards } from '../../host/boards/boards.js';
import type { BoardRooms } from '../../host/events/board-room.js';
import { clientAuthor } from '../kit/caller.js';
import { boardIdParam } from '../kit/params.js';
import { type OpenCounter, takeSocketSlot } from '../kit/socket-limits.js';
import { type Admission, JsonChannelConnection } from './connection.js';

export const KEY_SUBPROTOCOL_PREFIX = 'svc-key.';

/** The subprotocol to echo: the key one, if the client offered it. */
export function pickSubprotocol(protocols: Set<string>): string | false {
  return [...protocols].find((protocol) => protocol.startsWith(KEY_SUBPROTOCOL_PREFIX)) ?? false;
}

function keyOf(request: FastifyRequest<{ Querystring: { key?: string | string[] } }>): string | undefined {
  const offered = String(request.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((p) => p.trim());
  const fromProtocol = offered.find((protocol) => protocol.startsWith(KEY_SUBPROTOCOL_PREFIX));
  if (fromProtocol) return fromProtocol.slice(KEY_SUBPROTOCOL_PREFIX.length);
  if (request.query.key !== undefined) {
    request.log.warn(
      { boardId: (request.params as { boardId?: string }).boardId },
      'deprecated ?key= used on the WebSocket channel; send the svc-key.<code> subprotocol instead',
    );
    // `?key=a&key=b` parses to an array (which the key hash cannot take): the first one counts.
    return [request.query.key].flat()[0];
  }
  return undefined;
}

type WsRoute = { Params: { boardId: string }; Querystring: { key?: string | string[]; client?: string } };
type WsRequest = FastifyRequest<WsRoute> & { admission?: Admission };

/**
 * Each socket joins its board's room (host/events/board-room.ts). `opened`
 * counts an open socket in and returns what to call when it closes (the
 * operator's metrics).
 */
export function registerJsonChannel(
  app: FastifyInstance,
  deps: {
    boards: Boards;
    access: Access;
    rooms: BoardRooms;
    socketAccess: SocketAccess;
    sockets: OpenCounter;
    opened?: () => () => void;
  },
): void {
  const { socketAccess } = deps;
  app.get<WsRoute>(
    '/ws/:boardId',
    {
      websocket: true,
      // Runs before the upgrade: refusals are plain HTTP answers (404, 401).
      preValidation: async (request: WsRequest) => {
        const boardId = boardIdParam(request.params.boardId, 'read');
        const caller: Admission['caller'] = {
          surface: 'ws',
          ip: request.ip,
          key: keyOf(request),
          author: clientAuthor(request.query.client),
        };
        const lockChanges = socketAccess.mark();
        const { record, readOnly, viewLink } = await deps.boards.admitSocket(boardId, caller);
        // Only an upgrade opens a WebSocket; a plain GET here would hold its slot until its keep-alive connection closed.
        if (request.ws) takeSocketSlot(deps.sockets, request.ip, request.raw);
        request.admission = {
          boardId: record.id,
          shownId: boardId,
          mode: record.mode,
          lockMode: record.lockMode,
          readOnly,
          caller: viewLink === undefined ? caller : { ...caller, viewLink },
          lockChanges,
        };
      },
    },
    (socket, request: WsRequest) => {
      const closed = deps.opened?.();
      if (closed) socket.once('close', closed);
      if (!request.admission) throw new Error('a JSON channel opened without passing its admission');
      void new JsonChannelConnection(socket, request.admission, deps).start();
    },
  );
}
