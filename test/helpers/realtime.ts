/** Real WebSocket clients for the tests: the JSON frame channel (ws) and Yjs through @hocuspocus/provider. */
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import WebSocket from 'ws';
import * as Y from 'yjs';

export type Frame = Record<string, any>;

export type JsonClient = {
  socket: WebSocket;
  frames: Frame[];
  send(frame: Frame): void;
  /** Resolves with the first frame (from `from` on) that matches. */
  next(match: (frame: Frame) => boolean, timeoutMs?: number, from?: number): Promise<Frame>;
  closed: Promise<{ code: number; reason: string }>;
  close(): void;
};

const wsUrl = (baseUrl: string) => baseUrl.replace(/^http/, 'ws');

/** Opens /ws/{boardId}; resolves once the socket is open (or rejects with the HTTP status of a refused upgrade). */
export function connectJson(
  baseUrl: string,
  boardId: string,
  options: { key?: string; query?: string; protocols?: string[]; headers?: Record<string, string> } = {},
): Promise<JsonClient> {
  const protocols = options.protocols ?? (options.key ? [`svc-key.${options.key}`] : []);
  const socket = new WebSocket(`${wsUrl(baseUrl)}/ws/${boardId}${options.query ?? ''}`, protocols, {
    headers: options.headers,
  });
  const frames: Frame[] = [];
  const waiters = new Set<() => void>();
  socket.on('message', (data) => {
    frames.push(JSON.parse(data.toString()));
    for (const wake of waiters) wake();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  const client: JsonClient = {
    socket,
    frames,
    closed,
    send: (frame) => socket.send(JSON.stringify(frame)),
    close: () => socket.close(),
    next: (match, timeoutMs = 5_000, from = 0) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = frames.slice(from).find(match);
          if (!found) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching frame within ${timeoutMs} ms; got ${JSON.stringify(frames.slice(-5))}`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      }),
  };
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(client));
    // A refused upgrade is a plain HTTP answer: its status, headers (Retry-After) and JSON body.
    socket.once('unexpected-response', (request, response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => {
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {}
        request.destroy();
        reject(
          Object.assign(new Error(`upgrade refused: ${response.statusCode}`), {
            status: response.statusCode,
            headers: response.headers,
            body,
          }),
        );
      });
    });
    socket.once('error', reject);
  });
}

/** connectJson, resolved once the board's snapshot frame has arrived; the frame is `snapshot`. */
export async function openJson(
  baseUrl: string,
  boardId: string,
  options: Parameters<typeof connectJson>[2] = {},
): Promise<JsonClient & { snapshot: Frame }> {
  const client = await connectJson(baseUrl, boardId, options);
  return Object.assign(client, { snapshot: await client.next((f) => f.type === 'snapshot') });
}

export type YjsClient = {
  provider: HocuspocusProvider;
  doc: Y.Doc;
  /** Stateless messages the server sent (compensation reports). */
  stateless: any[];
  /** Reasons of refused authentications, in order. */
  refusals: string[];
  synced: Promise<void>;
  destroy(): void;
};

/** A WebSocket class that sends `headers` with its upgrade request. */
function withHeaders(headers: Record<string, string>): typeof WebSocket {
  return class extends WebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols, { headers });
    }
  } as typeof WebSocket;
}

/** A Yjs client of /collab for one board. */
export function connectYjs(
  baseUrl: string,
  boardId: string,
  options: {
    token?: string;
    client?: string;
    board?: string;
    headers?: Record<string, string>;
    /** A document that was offline, to bring its changes back. */
    doc?: Y.Doc;
  } = {},
): YjsClient {
  const doc = options.doc ?? new Y.Doc();
  const stateless: any[] = [];
  const refusals: string[] = [];
  let resolveSynced!: () => void;
  let rejectSynced!: (error: Error) => void;
  const synced = new Promise<void>((resolve, reject) => {
    resolveSynced = resolve;
    rejectSynced = reject;
  });
  const socket = new HocuspocusProviderWebsocket({
    // `board` as the browser app sends it, for a balancer that routes by board.
    url: `${wsUrl(baseUrl)}/collab?${new URLSearchParams({ ...(options.client && { client: options.client }), ...(options.board && { board: options.board }) })}`,
    // Extra upgrade headers (X-Forwarded-For in tests that speak from several addresses).
    WebSocketPolyfill: options.headers ? withHeaders(options.headers) : WebSocket,
  });
  const provider = new HocuspocusProvider({
    websocketProvider: socket,
    name: boardId,
    document: doc,
    token: options.token ?? '',
    onSynced: () => resolveSynced(),
    onAuthenticationFailed: ({ reason }) => {
      refusals.push(reason);
      rejectSynced(new Error(`authentication failed: ${reason}`));
    },
    onStateless: ({ payload }) => stateless.push(JSON.parse(payload)),
  });
  provider.attach();
  return {
    provider,
    doc,
    stateless,
    refusals,
    synced,
    destroy: () => {
      provider.destroy();
      socket.destroy();
    },
  };
}

export async function eventually(check: () => void | Promise<void>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}
