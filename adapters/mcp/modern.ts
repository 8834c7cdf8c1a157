/**
 * The 2026-07-28 revision, served statelessly by the SDK's own entry
 * (`createMcpHandler`): every request carries its `_meta` envelope and is
 * answered by a fresh server instance, so any instance answers any request
 * and no routing is sticky. `server/discover`, the envelope and header
 * validation, cache hints and the removed methods' answers are the SDK's.
 *
 * Ours: the instance a request gets (handlers.ts, with a memory that lasts
 * the request), the event bus `subscriptions/listen` streams hear (fed by
 * BoardEvents, which hears edits made on every instance over Redis), the
 * read check a listen for a board's resources passes first (the SDK's router
 * honours any URI it is given; a locked board's changes are for its readers),
 * and the same check at every lock change of a board a stream listens to,
 * which ends a stream that may no longer read it (listen-stream.ts).
 */
import type { ServerResponse } from 'node:http';
import {
  type AuthInfo,
  createMcpHandler,
  InMemoryServerEventBus,
  type McpHttpHandler,
} from '@modelcontextprotocol/server';
import { errors } from '../../board/model/errors.js';
import type { Boards } from '../../host/boards/boards.js';
import type { BoardEvents } from '../../host/events/board-events.js';
import { MAX_LISTENS_PER_IP } from '../../schema/limits.js';
import { knownError } from '../../store/storage-errors.js';
import { OpenCounter } from '../kit/socket-limits.js';
import { BoardListeners } from './board-listeners.js';
import { contextOf, mcpCaller, type RequestContext } from './context.js';
import { asBoardError, INVALID_PARAMS, RpcError, type ToolCalls, toMcpError } from './errors.js';
import { boardServer, SERVES_ALL, type Serves } from './handlers.js';
import { ListenStream } from './listen-stream.js';
import { RequestMemory } from './memory.js';
import { parseUri, SUBSCRIBABLE, stateUri, tasksUri } from './resources.js';
import { type NodeMcpHandler, type NodeMcpRequest, nodeHandler } from './web.js';

/**
 * A 2026-07-28 request's server needs the handler of the one method it
 * serves: the one its Mcp-Method header names, which the SDK has checked
 * against the body's method before it asks for the server. Without the
 * header, the server gets every handler.
 */
function servesOnly(request: Request | undefined): Serves {
  const method = request?.headers.get('mcp-method');
  return method ? (wanted) => wanted === method : SERVES_ALL;
}

/** The JSON-RPC error of a URI a listen cannot subscribe; a lock names the header that carries its key. */
function listenRefusal(uri: string, error: unknown): RpcError {
  if (error instanceof RpcError) return error;
  const boardError = knownError(error);
  if (!boardError) throw error;
  // A listen takes no access_key: a lock is told to send the key in the header.
  const rpc = toMcpError(boardError, 'header');
  return new RpcError(rpc.code, `${uri}: ${rpc.message}`, rpc.data);
}

/** The URIs a listen (checked by checkListen) names. */
function listenedUris(body: unknown): string[] {
  const uris = (body as { params?: { notifications?: { resourceSubscriptions?: unknown } } }).params?.notifications
    ?.resourceSubscriptions;
  return Array.isArray(uris) ? uris.map(String) : [];
}

/** The JSON-RPC error that ends a listen stream whose URIs of a board it may no longer read (`uris`). */
function listenEnded(uris: string[], error: unknown): RpcError {
  const rpc = toMcpError(asBoardError(error), 'header');
  return new RpcError(rpc.code, `No longer listening to ${uris.join(', ')}: ${rpc.message}`, { ...rpc.data, uris });
}

export class ModernMcp {
  private readonly handler: McpHttpHandler;
  private readonly serveRequest: NodeMcpHandler;

  /** Per board some open listen stream names, its streams: its changes feed the bus, its lock changes check them. */
  private readonly listened: BoardListeners<ListenStream>;

  constructor(
    private readonly boards: Boards,
    events: BoardEvents,
    calls?: ToolCalls,
  ) {
    const bus = new InMemoryServerEventBus();
    this.handler = createMcpHandler(
      (ctx) =>
        boardServer(
          boards,
          new RequestMemory(),
          'modern',
          contextOf(ctx.authInfo).baseUrl,
          calls,
          servesOnly(ctx.requestInfo),
        ),
      { legacy: 'reject', bus },
    );
    this.listened = new BoardListeners(
      { boards, events },
      {
        holder: (stream) => stream.holder,
        // The SDK's router picks the streams that listen to the URI.
        changed: (boardId) => {
          bus.publish({ kind: 'resource_updated', uri: stateUri(boardId) });
          bus.publish({ kind: 'resource_updated', uri: tasksUri(boardId) });
        },
        refused: (stream, boardId, error) => stream.end(listenEnded(stream.urisOf(boardId), error)),
      },
    );
    this.serveRequest = nodeHandler((request, options) => this.handler.fetch(request, options));
  }

  /** Serves a 2026-07-28 request; a listen stream's answer goes through the stream's guard, which a lock change can end. */
  serve(request: NodeMcpRequest, response: ServerResponse, body: unknown, listen?: ListenStream): Promise<void> {
    if (!listen) return this.serveRequest(request, response, body);
    return nodeHandler(async (webRequest, options) => listen.guard(await this.handler.fetch(webRequest, options)))(
      request,
      response,
      body,
    );
  }

  /**
   * The board URIs a `subscriptions/listen` asks for, checked as
   * `resources/subscribe` checks them: subscribable names of boards the
   * caller may read (with the X-Board-Key header). Returns the body with the
   * URIs that pass, in their canonical form: the acknowledgment lists those,
   * and leaves out the refused ones, as the 2026-07-28 revision does with what
   * a server does not honour. Throws the JSON-RPC error to answer when no URI
   * passes (the first one's refusal).
   */
  async checkListen(body: unknown, auth: AuthInfo): Promise<unknown> {
    const message = body as { method?: unknown; params?: { notifications?: { resourceSubscriptions?: unknown } } };
    const params = message?.params;
    const uris = params?.notifications?.resourceSubscriptions;
    if (message?.method !== 'subscriptions/listen' || !params || !Array.isArray(uris)) return body;
    const context = contextOf(auth);
    const canonical: string[] = [];
    let refused: RpcError | undefined;
    for (const uri of uris) {
      if (typeof uri !== 'string') throw new RpcError(INVALID_PARAMS, 'resourceSubscriptions must hold resource URIs');
      try {
        canonical.push(await this.listenable(uri, context));
      } catch (error) {
        refused ??= listenRefusal(uri, error);
      }
    }
    if (refused && canonical.length === 0) throw refused;
    return {
      ...message,
      params: { ...params, notifications: { ...params.notifications, resourceSubscriptions: canonical } },
    };
  }

  /** The canonical URI of a board resource the caller may listen to; throws why it may not. */
  private async listenable(uri: string, context: ReturnType<typeof contextOf>): Promise<string> {
    const { boardId, name } = parseUri(uri);
    if (!SUBSCRIBABLE.has(name))
      throw new RpcError(INVALID_PARAMS, `${name} is not subscribable; listen to state.json or tasks.json`);
    await this.boards.read(boardId, mcpCaller(context, context.key), () => null);
    return name === 'state.json' ? stateUri(boardId) : tasksUri(boardId);
  }

  /** Open listen streams by client address: one client cannot take the instance's 1024. */
  private readonly listens = new OpenCounter(MAX_LISTENS_PER_IP);

  /**
   * Counts a listen stream of a client address in, or throws the JSON-RPC
   * error to answer when it already holds its share. Returns the stream, to
   * be released when its response ends.
   */
  admitListen(body: unknown, context: RequestContext): ListenStream | undefined {
    const message = body as { method?: unknown; id?: unknown };
    if (message?.method !== 'subscriptions/listen') return undefined;
    const release = this.listens.take(context.ip);
    if (!release) {
      const refused = errors.tooManyStreams(MAX_LISTENS_PER_IP);
      throw new RpcError(-32000, refused.message, { code: refused.code, ...refused.details });
    }
    const stream = new ListenStream(
      message.id as string | number,
      { ip: context.ip, key: context.key },
      listenedUris(body),
      () => {
        release();
        for (const boardId of stream.boards()) this.listened.remove(boardId, stream);
      },
    );
    for (const boardId of stream.boards()) this.listened.add(boardId, stream);
    return stream;
  }

  close(): Promise<void> {
    return this.handler.close();
  }
}
