/** Load-generating clients for benchmarks: JSON-channel sockets and Yjs providers. */
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { boardMaps, type TextItem, type TextNode } from '../../board/model/document-model.js';
import { upsertText } from '../../board/mutations/draw.js';
import { localWrite } from '../../board/mutations/local-write.js';
import type { TextInput } from '../../schema/index.js';

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

/** The content of a text or link as a plain item, if it has one. */
export const contentOf = (item: TextNode | undefined): string | undefined =>
  item && 'content' in item ? item.content : undefined;

/** A provider's texts as plain items: the document holds each as a nested map of its fields (docs/document-model.md). */
export const textsOf = (p: Provider) => boardMaps(p.doc).texts;

/** Writes a text on a provider's board as the app does: the domain's upsert, one transaction in the document's layout. */
export function writeText(p: Provider, input: TextInput, author = 'user:bench'): TextItem {
  return localWrite(
    p.doc,
    { boardId: 'bench', mode: 'draw', author, textSize: () => undefined },
    (w) => upsertText(w, input),
    null,
  );
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
