/** The MCP SDK's own client, connected over Streamable HTTP to a test server. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { TOOL_OPERATIONS } from '../../host/operations/operations.js';

/**
 * Every tool result a test gets is checked against its row's result schema
 * (the tool's outputSchema): a result that drifts from it fails the test
 * that made it. A refusal promises no schema.
 */
export function checkedResult<R>(name: string, result: R): R {
  const { isError, structuredContent } = result as { isError?: boolean; structuredContent?: unknown };
  if (isError || !Object.hasOwn(TOOL_OPERATIONS, name)) return result;
  const parsed = TOOL_OPERATIONS[name as keyof typeof TOOL_OPERATIONS].result.safeParse(structuredContent);
  if (!parsed.success) throw new Error(`${name} answered outside its outputSchema:\n${z.prettifyError(parsed.error)}`);
  return result;
}

export type McpClient = {
  client: Client;
  transport: StreamableHTTPClientTransport;
  /** URIs of every resources/updated notification received, in order. */
  updates: string[];
  /** Calls a tool and returns its structured result; throws the JSON-RPC error if there is one. */
  call(name: string, args: Record<string, unknown>): Promise<any>;
  /** Calls a tool and returns the whole result (for isError results). */
  raw(name: string, args: Record<string, unknown>): Promise<any>;
  close(): Promise<void>;
};

export async function connectMcp(baseUrl: string, headers: Record<string, string> = {}): Promise<McpClient> {
  const client = new Client({ name: 'board-tests', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers } });
  await client.connect(transport);
  const updates: string[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
    updates.push(notification.params.uri);
  });
  return {
    client,
    transport,
    updates,
    raw: async (name, args) => checkedResult(name, await client.callTool({ name, arguments: args })),
    async call(name, args) {
      const result = checkedResult(name, await client.callTool({ name, arguments: args }));
      if (result.isError) throw new Error(`tool ${name} failed: ${JSON.stringify(result.content)}`);
      return result.structuredContent;
    },
    close: () => client.close(),
  };
}

/** The error body of an isError result (`{error, code, ..., next}`): its text, as a refusal carries no structuredContent. */
export function refusalOf(result: { isError?: boolean; content?: unknown }): any {
  if (!result.isError) throw new Error(`expected an isError result, got ${JSON.stringify(result)}`);
  return JSON.parse((result.content as { text: string }[])[0].text);
}

/** The JSON-RPC error a call rejects with (code, data, message); fails if it resolves. */
export async function rpcError(promise: Promise<unknown>): Promise<{ code: number; data: any; message: string }> {
  try {
    await promise;
  } catch (error: any) {
    return { code: error.code, data: error.data, message: error.message };
  }
  throw new Error('expected a JSON-RPC error');
}

/**
 * The SDK v2 client pinned to the 2026-07-28 revision: no session, a `_meta`
 * envelope on every request. `fetch` may send each request to a different
 * instance (no sticky routing).
 */
export async function connectModernMcp(
  baseUrl: string,
  options: { headers?: Record<string, string>; fetch?: typeof fetch } = {},
): Promise<McpClient & { modern: ModernClient }> {
  const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
  const client = new Client(
    { name: 'board-tests-2026', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
    requestInit: { headers: options.headers },
    fetch: options.fetch,
  });
  await client.connect(transport);
  const updates: string[] = [];
  client.setNotificationHandler('notifications/resources/updated', (notification) => {
    updates.push(notification.params.uri);
  });
  const raw = async (name: string, args: Record<string, unknown>): Promise<any> =>
    checkedResult(name, await client.callTool({ name, arguments: args }));
  return {
    client: client as never,
    transport: transport as never,
    modern: client,
    updates,
    raw,
    async call(name, args) {
      const result = await raw(name, args);
      if (result.isError) throw new Error(`tool ${name} failed: ${JSON.stringify(result.content)}`);
      return result.structuredContent;
    },
    close: () => client.close(),
  };
}

export type ModernClient = InstanceType<typeof import('@modelcontextprotocol/client').Client>;
