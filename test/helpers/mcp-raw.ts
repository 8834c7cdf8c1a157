/**
 * A bare JSON-RPC client of /mcp over fetch: it sends exactly the bytes it is
 * given and returns exactly what the server answered, so tests can tell a
 * server's error code from anything an SDK client would add or check itself.
 */
import { checkedResult } from './mcp.js';

export type RpcAnswer = { status: number; body: any; text: string };

export type RawMcp = {
  sessionId: string;
  /** POSTs a JSON-RPC message (an object is serialised; a string or bytes are sent as they are). */
  send(message: unknown, init?: { contentType?: string; signal?: AbortSignal }): Promise<RpcAnswer>;
  /** tools/call with the given arguments; resolves to the answer (result or error). */
  call(name: unknown, args: unknown, signal?: AbortSignal): Promise<RpcAnswer>;
  close(): Promise<void>;
};

const PROTOCOL_VERSION = '2025-06-18';

export async function connectRawMcp(baseUrl: string, headers: Record<string, string> = {}): Promise<RawMcp> {
  let nextId = 1;
  const base = { accept: 'application/json, text/event-stream', ...headers };
  const post = async (
    body: string | Uint8Array<ArrayBuffer>,
    init: { contentType?: string; sessionId?: string; signal?: AbortSignal } = {},
  ): Promise<RpcAnswer & { headers: Headers }> => {
    const response = await fetch(`${baseUrl}/mcp`, {
      method: 'POST',
      signal: init.signal,
      headers: {
        ...base,
        'content-type': init.contentType ?? 'application/json',
        ...(init.sessionId && { 'mcp-session-id': init.sessionId, 'mcp-protocol-version': PROTOCOL_VERSION }),
      },
      body,
    });
    const text = await response.text();
    let parsed: any = text;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      // not JSON: left as text for the caller to judge
    }
    return { status: response.status, body: parsed, text, headers: response.headers };
  };
  const init = await post(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: 'raw-tests', version: '1.0.0' },
      },
    }),
  );
  const sessionId = init.headers.get('mcp-session-id');
  if (init.status !== 200 || !sessionId) throw new Error(`initialize failed: ${init.status} ${init.text}`);
  await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), { sessionId });
  const send = (message: unknown, options: { contentType?: string; signal?: AbortSignal } = {}) =>
    post(
      typeof message === 'string'
        ? message
        : message instanceof Uint8Array
          ? new Uint8Array(message)
          : JSON.stringify(message),
      { ...options, sessionId },
    );
  return {
    sessionId,
    send,
    async call(name, args, signal) {
      const answer = await send(
        { jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name, arguments: args } },
        { signal },
      );
      if (typeof name === 'string' && answer.body?.result) checkedResult(name, answer.body.result);
      return answer;
    },
    close: async () => {
      await fetch(`${baseUrl}/mcp`, {
        method: 'DELETE',
        headers: { ...base, 'mcp-session-id': sessionId, 'mcp-protocol-version': PROTOCOL_VERSION },
      });
    },
  };
}

/** A 2026-07-28 request as a client writes it by hand: the envelope in _meta and the standard headers. */
export function statelessRequest(
  baseUrl: string,
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<globalThis.Response> {
  return fetch(`${baseUrl}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
}
