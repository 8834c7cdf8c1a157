/**
 * A view token as a Yjs document name. Hocuspocus names each document in every
 * message; a provider opened with a view token names it by the token, and the
 * board's document is named by its id. So, per socket, a message naming a
 * token is renamed to the board's id on its way in (once the token is found;
 * the socket's messages keep their order meanwhile), and every message to
 * that socket naming the board is renamed back to the token on its way out:
 * the client never learns the id. A token that names nothing is passed as it
 * is, and its authentication refuses it (board_not_found).
 */
import type { WebSocketLike } from '@hocuspocus/server';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import { isViewToken } from '../../schema/index.js';

/** What the socket's view tokens stand for: board id to token and link, for the outgoing messages and the authentication. */
export type ViewNames = Map<string, { token: string; linkId: string }>;

/** The message with its document name (the part before a session's `\0`) changed by `rename`, or null when it keeps it. */
function renamed(message: Uint8Array, rename: (name: string) => string | null): Uint8Array | null {
  let key: string;
  let decoder: decoding.Decoder;
  try {
    decoder = decoding.createDecoder(message);
    key = decoding.readVarString(decoder);
  } catch {
    return null; // malformed: Hocuspocus refuses it as it is
  }
  const cut = key.indexOf('\0');
  const name = cut === -1 ? key : key.slice(0, cut);
  const other = rename(name);
  if (other === null) return null;
  const encoder = encoding.createEncoder();
  encoding.writeVarString(encoder, cut === -1 ? other : other + key.slice(cut));
  encoding.writeUint8Array(encoder, message.subarray(decoder.pos));
  return encoding.toUint8Array(encoder);
}

/** The name a message addresses, before any session suffix; null when malformed. */
function nameOf(message: Uint8Array): string | null {
  try {
    const key = decoding.readVarString(decoding.createDecoder(message));
    const cut = key.indexOf('\0');
    return cut === -1 ? key : key.slice(0, cut);
  } catch {
    return null;
  }
}

/**
 * One socket's incoming messages, renamed: `find` looks a token up (its
 * board and link, or null), `deliver` hands a message to Hocuspocus. A board
 * the socket opened by its id cannot also be opened by a token on the same
 * socket (the two would share one name on the way out): that token is
 * passed unchanged, and refused.
 */
export function viewTokenIncoming(
  names: ViewNames,
  find: (token: string) => Promise<{ boardId: string; linkId: string } | null>,
  deliver: (message: Uint8Array) => void,
): (message: Uint8Array) => void {
  const byToken = new Map<string, string>();
  const direct = new Set<string>();
  let queue: Promise<void> | undefined;
  const handle = async (message: Uint8Array) => {
    const name = nameOf(message);
    if (name === null || !isViewToken(name)) {
      if (name !== null && names.has(name)) return; // the board is this socket's by a token only
      if (name !== null) direct.add(name);
      return deliver(message);
    }
    if (!byToken.has(name)) {
      const link = await find(name).catch(() => null);
      if (link && !direct.has(link.boardId) && !names.has(link.boardId)) {
        byToken.set(name, link.boardId);
        names.set(link.boardId, { token: name, linkId: link.linkId });
      }
    }
    const boardId = byToken.get(name);
    deliver((boardId !== undefined && renamed(message, () => boardId)) || message);
  };
  return (message) => {
    if (!queue && !isViewToken(nameOf(message))) return void handle(message);
    const turn: Promise<void> = (queue ?? Promise.resolve())
      .then(() => handle(message))
      .finally(() => {
        if (queue === turn) queue = undefined;
      });
    queue = turn;
  };
}

/** The socket Hocuspocus writes to, with the board's id renamed back to the token the client knows it by. */
export function viewTokenOutgoing(socket: WebSocketLike, names: ViewNames): WebSocketLike {
  return {
    send(data) {
      const message = data as Uint8Array;
      if (names.size === 0) return socket.send(message);
      socket.send(renamed(message, (name) => names.get(name)?.token ?? null) ?? message);
    },
    close: (code, reason) => socket.close(code, reason),
    get readyState() {
      return socket.readyState;
    },
  };
}
