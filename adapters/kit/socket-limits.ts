/**
 * Limits on connections, shared by the HTTP server and both WebSocket
 * endpoints: how many a single client address may hold open at once, so that
 * one client cannot exhaust the server's sockets.
 */
import type { Server } from 'node:http';
import { type BoardError, errors } from '../../board/model/errors.js';
import { MAX_CONNECTIONS_PER_IP, MAX_SOCKETS_PER_IP } from '../../schema/index.js';

/** Counts open things per key and refuses one over the limit. */
export class OpenCounter {
  private readonly open = new Map<string, number>();

  constructor(readonly limit: number) {}

  /** Takes a slot for `key`; returns its release, or null when the key is at its limit. */
  take(key: string): (() => void) | null {
    const count = this.open.get(key) ?? 0;
    if (count >= this.limit) return null;
    this.open.set(key, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(key) ?? 1) - 1;
      if (left <= 0) this.open.delete(key);
      else this.open.set(key, left);
    };
  }
}

/** WebSockets per client IP, one counter for both endpoints of a server. */
export function socketCounter(limit = MAX_SOCKETS_PER_IP): OpenCounter {
  return new OpenCounter(limit);
}

export function tooManySockets(limit: number): BoardError {
  return errors.tooManyConnections(limit);
}

/**
 * Caps open TCP connections per remote address. Behind a trusted proxy every
 * connection comes from the proxy, so the cap is left to the proxy there.
 */
export function capConnections(server: Server, trustProxy: boolean, limit = MAX_CONNECTIONS_PER_IP): void {
  if (trustProxy) return;
  const perAddress = new OpenCounter(limit);
  server.on('connection', (socket) => {
    const release = perAddress.take(socket.remoteAddress ?? 'unknown');
    if (!release) return void socket.destroy();
    socket.once('close', release);
  });
}

/** Takes a WebSocket slot for a request's client, released when its TCP socket closes (upgraded or not). */
export function takeSocketSlot(
  sockets: OpenCounter,
  ip: string,
  raw: { socket: { once(event: 'close', listener: () => void): unknown } },
): void {
  const release = sockets.take(ip);
  if (!release) throw tooManySockets(sockets.limit);
  raw.socket.once('close', release);
}
