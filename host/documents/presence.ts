/**
 * Who is on a board, by connection: each person's awareness state (their name
 * in the list of people, their cursor) is owned by the `/collab` connection
 * that last set it, and removed the moment that connection closes.
 *
 * Hocuspocus 4.7 removes, on close, only the states a connection *added*. A
 * provider that reconnects (a lock change, a rate limit, a network blip) keeps
 * its Yjs client id, so its state comes back as an *update* of one the
 * document already knew, is filed under no connection, and outlived the
 * person by Yjs's 30 s awareness timeout: a ghost in the list and on the canvas.
 */
import { type Connection, type Document, isTransactionOrigin } from '@hocuspocus/server';
import { removeAwarenessStates } from 'y-protocols/awareness';

type AwarenessChange = { added: number[]; updated: number[]; removed: number[] };

/** Follows the owners of `document`'s awareness states for as long as the document is loaded. */
export function attachPresence(document: Document): void {
  const owners = new Map<number, Connection>();
  const watched = new WeakSet<Connection>();

  const leave = (connection: Connection) => {
    const gone = [...owners].filter(([, owner]) => owner === connection).map(([clientId]) => clientId);
    for (const clientId of gone) owners.delete(clientId);
    removeAwarenessStates(document.awareness, gone, null);
  };

  document.awareness.on('update', ({ added, updated, removed }: AwarenessChange, origin: unknown) => {
    for (const clientId of removed) owners.delete(clientId);
    if (!isTransactionOrigin(origin) || origin.source !== 'connection') return;
    const { connection } = origin;
    for (const clientId of [...added, ...updated]) owners.set(clientId, connection);
    if (!document.hasConnection(connection)) return leave(connection); // it closed while its message was applied
    if (watched.has(connection)) return;
    watched.add(connection);
    connection.onClose(() => leave(connection));
  });
}
