/** Load-generating clients for benchmarks: JSON-channel sockets and Yjs providers. */
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import WebSocket from 'ws';
import * as Y from 'yjs';

export type Provider = {
  doc: Y.Doc;
  provider: HocuspocusProvider;
  socket: HocuspocusProviderWebsocket;
  synced: Promise<void>;
};

export function provider(url: string, name: string): Provider {
  const socket = new HocuspocusProviderWebsocket({ url, WebSocketPolyfill: WebSocket });
  const doc = new Y.Doc();
  let synced!: () => void;
  const ready = new Promise<void>((resolve) => (synced = resolve));
  const p = new HocuspocusProvider({
    websocketProvider: socket,
    name,
    document: doc,
    token: '',
    onSynced: () => synced(),
  });
  p.attach();
  return { doc, provider: p, socket, synced: ready };
}

export function closeProviders(providers: Provider[]): void {
  for (const { provider: p, socket } of providers) {
    p.destroy();
    socket.destroy();
  }
}

/** JSON-channel sockets on one board; `onOp` hears every op frame with its arrival time. */
export async function jsonClients(
  baseUrl: string,
  boardId: string,
  count: number,
  onOp: (frame: any, at: number) => void,
): Promise<WebSocket[]> {
  const url = `${baseUrl.replace(/^http/, 'ws')}/ws/${boardId}`;
  return Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<WebSocket>((resolve, reject) => {
          const socket = new WebSocket(url);
          socket.on('message', (data) => {
            const frame = JSON.parse(data.toString());
            if (frame.type === 'op') onOp(frame, performance.now());
            if (frame.type === 'snapshot') resolve(socket);
          });
          socket.once('error', reject);
        }),
    ),
  );
}

export { startChildServer } from '../../test/helpers/child-server.js';
/** Spawns a TypeScript entry point and resolves with the URL it prints ("ready at <url>"). */
export { createBoard } from '../../test/helpers/http.js';
