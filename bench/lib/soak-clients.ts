/**
 * The soak's clients: watchers that report every tagged write they hear (a
 * JSON-channel socket or a Yjs provider on one board), and JSON-channel
 * sockets that write with `ref` and wait for their `ack`.
 */
import WebSocket from 'ws';
import { closeProviders, contentOf, provider, textsOf, writeText } from './clients.js';

/** Every write's content ends with its sequence number, so any client can tell which write it heard. */
export const tagged = (seq: number) => `A soak note, updated in place by a steady stream of writes #${seq}`;

export function seqOf(content: unknown): number | undefined {
  const match = typeof content === 'string' ? /#(\d+)$/.exec(content) : null;
  return match ? Number(match[1]) : undefined;
}

export type Watcher = { kind: 'json' | 'yjs'; closed: boolean; close(): void };

export type YjsWatcher = Watcher & {
  kind: 'yjs';
  /** Updates this client's own text (its id is `textId`) with a Yjs edit, as a browser does. */
  edit(textId: string, content: string): void;
};

export type Heard = (seq: number, watcher: Watcher, at: number) => void;

/** Counts refusals by code: what the report lists beside the error count. */
export type Refused = (code: string) => void;

const wsUrl = (baseUrl: string) => baseUrl.replace(/^http/, 'ws');

/** Opens /ws/{board}; resolves once its snapshot is in, then hands every frame after it to `onFrame`. */
function openSocket(baseUrl: string, board: string, onFrame: (frame: any, at: number) => void): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${wsUrl(baseUrl)}/ws/${board}`);
    socket.on('message', (data) => {
      const at = performance.now();
      const frame = JSON.parse(data.toString());
      if (frame.type === 'snapshot') resolve(socket);
      else onFrame(frame, at);
    });
    socket.once('error', reject);
  });
}

export async function watchJson(baseUrl: string, board: string, heard: Heard): Promise<Watcher> {
  const watcher: Watcher = { kind: 'json', closed: false, close: () => {} };
  const socket = await openSocket(baseUrl, board, (frame, at) => {
    const seq = frame.type === 'op' ? seqOf(frame.item?.content) : undefined;
    if (seq !== undefined) heard(seq, watcher, at);
  });
  socket.on('close', () => (watcher.closed = true));
  watcher.close = () => {
    watcher.closed = true;
    socket.close();
  };
  return watcher;
}

/** A Yjs provider on the board; resolves once synced. A `compensated` message (a refused edit) is counted. */
export async function watchYjs(baseUrl: string, board: string, heard: Heard, refused: Refused): Promise<YjsWatcher> {
  const client = provider(`${wsUrl(baseUrl)}/collab`, board);
  const watcher: YjsWatcher = {
    kind: 'yjs',
    closed: false,
    close: () => {
      watcher.closed = true;
      closeProviders([client]);
    },
    edit: (id, content) => writeText(client, { id, x: 0, y: 40, content }, 'user:soak'),
  };
  textsOf(client).observe((changes, transaction) => {
    if (transaction.local) return;
    const at = performance.now();
    for (const { after } of changes) {
      const seq = seqOf(contentOf(after));
      if (seq !== undefined) heard(seq, watcher, at);
    }
  });
  client.provider.on('stateless', ({ payload }: { payload: string }) => {
    if (JSON.parse(payload).type === 'compensated') refused('compensated');
  });
  client.provider.on('close', () => {
    if (!watcher.closed) refused('yjs_disconnected');
  });
  await client.synced;
  return watcher;
}

/** A JSON-channel socket that writes: each frame carries its `ref`, answered by an `ack` or an `error`. */
export type SocketWriter = {
  board: string;
  send(frame: Record<string, unknown> & { ref: number }): Promise<void>;
  close(): void;
};

export async function socketWriter(baseUrl: string, board: string): Promise<SocketWriter> {
  const waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  const socket = await openSocket(baseUrl, board, (frame) => {
    const answer = typeof frame.ref === 'number' ? waiting.get(frame.ref) : undefined;
    if (!answer) return;
    waiting.delete(frame.ref);
    if (frame.type === 'ack') answer.resolve();
    else if (frame.type === 'error') answer.reject(new Error(frame.code));
  });
  socket.on('close', () => {
    for (const answer of waiting.values()) answer.reject(new Error('socket_closed'));
    waiting.clear();
  });
  return {
    board,
    send: (frame) =>
      new Promise((resolve, reject) => {
        waiting.set(frame.ref, { resolve, reject });
        socket.send(JSON.stringify(frame));
      }),
    close: () => socket.close(),
  };
}
