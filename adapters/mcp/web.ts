/**
 * The SDK's web-standard MCP handlers (a `Request` in, a `Response` out) on
 * Node's request and response, for a body Fastify already parsed. Cheaper
 * than the SDK's own Node adapters, a main cost of a `tools/call`: the
 * `Request` carries no body (the SDK reads the parsed one it is handed, so
 * it is not serialised again), and a JSON answer is written at once with its
 * length instead of being pumped chunk by chunk through a web stream. An
 * event stream (a 2025 session's GET stream, a `subscriptions/listen`) is
 * still streamed, with back-pressure, until either side ends it.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/server';

/** What the SDK's entries take beside the request: the caller's auth and the parsed body. */
export type WebHandlerOptions = { authInfo?: AuthInfo; parsedBody?: unknown };
export type WebHandler = (request: Request, options: WebHandlerOptions) => Promise<Response>;
/**
 * Node's request with what the SDK is handed beside it: the caller's auth, and
 * the headers the answer carries besides the SDK's own (CORS, the security
 * headers, the request id), which the SDK's override when both name one.
 */
export type NodeMcpRequest = IncomingMessage & {
  auth?: AuthInfo;
  answerHeaders?: Record<string, string | number | string[] | undefined>;
};
export type NodeMcpHandler = (request: NodeMcpRequest, response: ServerResponse, body: unknown) => Promise<void>;

/** Headers describing the body the Node request carried, which the body-less `Request` must not claim. */
const BODY_HEADERS = new Set(['content-length', 'transfer-encoding', 'content-encoding']);

/**
 * A `Request` whose `signal` is the one it is given, as is. Given a signal,
 * undici's `Request` follows it with one of its own, tied by a `WeakRef` and a
 * `FinalizationRegistry` entry per request: about half the cost of building the
 * `Request`, and records that outlive it. The SDK reads `signal` only to hear
 * that the client went away, which this one says (it aborts when the response
 * closes unfinished).
 */
class NodeRequest extends Request {
  readonly #signal: AbortSignal;

  constructor(url: string, init: RequestInit, signal: AbortSignal) {
    super(url, init);
    this.#signal = signal;
  }

  override get signal(): AbortSignal {
    return this.#signal;
  }
}

function webRequest(request: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || name.startsWith(':') || BODY_HEADERS.has(name)) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  return new NodeRequest(
    `http://${request.headers.host ?? 'localhost'}${request.url ?? '/'}`,
    { method: request.method, headers },
    signal,
  );
}

const isJson = (type: string | undefined) => type !== undefined && /^application\/json\b/i.test(type);

/** Serves a web-standard handler on Node's request and response; `body` is the parsed JSON body (undefined for none). */
export function nodeHandler(handler: WebHandler): NodeMcpHandler {
  return async (request, response, body) => {
    const abort = new AbortController();
    let finished = false;
    response.once('close', () => {
      if (!finished) abort.abort();
    });
    let answer: Response;
    try {
      answer = await handler(webRequest(request, abort.signal), {
        ...(request.auth !== undefined && { authInfo: request.auth }),
        ...(body !== undefined && { parsedBody: body }),
      });
    } catch {
      // What the SDK's own adapter answers when its handler throws: the handlers answer their errors themselves.
      const id = (body as { id?: unknown } | undefined)?.id;
      answer = Response.json(
        {
          jsonrpc: '2.0',
          error: { code: -32603, message: 'Internal server error' },
          id: typeof id === 'string' || typeof id === 'number' ? id : null,
        },
        { status: 500 },
      );
    }
    // One object for writeHead: a header set on the response before it sends writeHead down Node's slow path.
    const headers: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(request.answerHeaders ?? {}))
      if (value !== undefined) headers[name] = value;
    for (const [name, value] of answer.headers) headers[name] = value;
    if (answer.body === null || isJson(headers['content-type'] as string | undefined)) {
      // As text, Node sends it in one write with the headers.
      const text = answer.body === null ? undefined : await answer.text();
      if (text !== undefined) headers['content-length'] = String(Buffer.byteLength(text));
      finished = true;
      response.writeHead(answer.status, headers).end(text);
      return;
    }
    // A stream's headers go out now: Node would hold them until the first event, which may be a keep-alive 15 s later.
    response.writeHead(answer.status, headers).flushHeaders();
    await pump(answer.body, response, abort.signal);
    finished = true;
    response.end();
  };
}

/** Copies a streamed answer to the response, waiting for it to drain when it is full, until the stream or the connection ends. */
async function pump(body: ReadableStream<Uint8Array>, response: ServerResponse, closed: AbortSignal): Promise<void> {
  const ended = new Promise<void>((resolve) => closed.addEventListener('abort', () => resolve(), { once: true }));
  try {
    for await (const chunk of body) {
      if (closed.aborted) break;
      if (!response.write(chunk))
        await Promise.race([new Promise((resolve) => response.once('drain', resolve)), ended]);
    }
  } catch {
    // The stream failed or was cancelled: the response ends here.
  }
}
