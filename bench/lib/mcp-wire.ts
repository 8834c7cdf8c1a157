/**
 * `tools/call` sent as bytes on the wire, with `fetch`: the same JSON-RPC
 * request and headers the SDK clients send (captured from them), without
 * their client-side work (zod parsing of every message, output-schema
 * checks, request bookkeeping). It lets a benchmark measure the server's
 * MCP path against REST sent with the same `fetch`, when both load
 * generators share the machine with the server.
 */
import { MODERN_REVISION } from '../../adapters/kit/mcp-revisions.js';

export type WireCall = (name: string, args: Record<string, unknown>) => Promise<Record<string, unknown>>;

/** The structured result of a successful answer; throws on a JSON-RPC error or an `isError` result, as the SDK helpers do. */
async function resultOf(response: Response, name: string): Promise<Record<string, unknown>> {
  const message = (await response.json()) as {
    result?: { isError?: boolean; structuredContent?: Record<string, unknown>; content?: unknown };
    error?: unknown;
  };
  if (!response.ok || message.error || !message.result)
    throw new Error(`tools/call ${name} failed: HTTP ${response.status} ${JSON.stringify(message.error ?? message)}`);
  if (message.result.isError) throw new Error(`tool ${name} failed: ${JSON.stringify(message.result.content)}`);
  return message.result.structuredContent ?? {};
}

const HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

/** Calls on a 2025 session an SDK client opened (its `Mcp-Session-Id` and negotiated version). */
export function sessionCalls(baseUrl: string, sessionId: string, protocolVersion: string): WireCall {
  let id = 0;
  const headers = { ...HEADERS, 'mcp-protocol-version': protocolVersion, 'mcp-session-id': sessionId };
  return async (name, args) => {
    const body = JSON.stringify({ method: 'tools/call', params: { name, arguments: args }, jsonrpc: '2.0', id: ++id });
    return resultOf(await fetch(`${baseUrl}/mcp`, { method: 'POST', headers, body }), name);
  };
}

/** Stateless 2026-07-28 calls: the `_meta` envelope in every request, the method and tool name repeated in headers. */
export function statelessCalls(baseUrl: string, clientInfo = { name: 'board-bench', version: '1.0.0' }): WireCall {
  let id = 0;
  const meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN_REVISION,
    'io.modelcontextprotocol/clientInfo': clientInfo,
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  return async (name, args) => {
    const headers = {
      ...HEADERS,
      'mcp-method': 'tools/call',
      'mcp-name': name,
      'mcp-protocol-version': MODERN_REVISION,
    };
    const body = JSON.stringify({
      method: 'tools/call',
      params: { name, arguments: args, _meta: meta },
      jsonrpc: '2.0',
      id: ++id,
    });
    return resultOf(await fetch(`${baseUrl}/mcp`, { method: 'POST', headers, body }), name);
  };
}
