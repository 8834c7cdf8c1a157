/**
 * A userspace TCP proxy that can cut one process off from a service, for the
 * chaos tests: `pass` forwards, `hold` stops forwarding but keeps every socket
 * open (a partition that drops packets: the peers see nothing, not even a
 * close), `reset` destroys every socket with a reset and resets new ones at once.
 */
import { connect, createServer, type Socket } from 'node:net';

export type ProxyMode = 'pass' | 'hold' | 'reset';

export type TcpProxy = {
  /** The port to connect to instead of the service's. */
  port: number;
  /** Switches mode; back to `pass`, what was held flows again. */
  set(mode: ProxyMode): void;
  close(): Promise<void>;
};

/** A client's socket and its upstream one, forwarded to each other while the mode is `pass`. */
type Pair = { client: Socket; upstream: Socket };

export async function tcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: ProxyMode = 'pass';
  const pairs = new Set<Pair>();

  // pause() stops reading, so the kernel's buffers fill and the sender stalls, as behind a dropped link.
  const apply = ({ client, upstream }: Pair) => {
    if (mode === 'reset') {
      client.resetAndDestroy();
      upstream.resetAndDestroy();
    } else if (mode === 'hold') {
      client.pause();
      upstream.pause();
    } else {
      client.resume();
      upstream.resume();
    }
  };

  const server = createServer({ pauseOnConnect: true }, (client) => {
    if (mode === 'reset') return client.resetAndDestroy();
    const upstream = connect({ ...target, noDelay: true });
    upstream.pause();
    const pair = { client, upstream };
    pairs.add(pair);
    // Not pipe(): it resumes a paused source on its own once the other side drains, and a held pair must stay held.
    client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk) => client.write(chunk));
    client.on('end', () => upstream.end());
    upstream.on('end', () => client.end());
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    for (const socket of [client, upstream]) {
      socket.on('error', end);
      socket.on('close', end);
    }
    apply(pair);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };

  return {
    port,
    set(next) {
      mode = next;
      for (const pair of pairs) apply(pair);
    },
    close: async () => {
      for (const { client, upstream } of pairs) {
        client.destroy();
        upstream.destroy();
      }
      pairs.clear();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
