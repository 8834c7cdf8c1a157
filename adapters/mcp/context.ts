/**
 * What an MCP request carries besides its JSON-RPC message: the client IP, the
 * X-Board-Key and X-Import-Token headers and the base URL. Fastify puts it on
 * the raw request as `auth` (the SDK's channel for it), and tool handlers get
 * it back as `extra.authInfo`.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { Caller } from '../../host/access/access.js';

export type RequestContext = { ip: string; key?: string; importToken?: string; baseUrl: string };

export function toAuthInfo(context: RequestContext): AuthInfo {
  return { token: '', clientId: 'anonymous', scopes: [], extra: context };
}

export function contextOf(authInfo: AuthInfo | undefined): RequestContext {
  const extra = authInfo?.extra as RequestContext | undefined;
  return extra ?? { ip: 'unknown', baseUrl: '' };
}

/** The domain's Caller for an MCP request: `access_key` argument first, then the X-Board-Key header. */
export function mcpCaller(context: RequestContext, accessKey?: string, author?: string): Caller {
  return { surface: 'mcp', ip: context.ip, key: accessKey ?? context.key, importToken: context.importToken, author };
}

export const boardUrl = (baseUrl: string, boardId: string) => `${baseUrl}/#${boardId}`;
export const embedUrl = (baseUrl: string, boardId: string) => `${baseUrl}/?embed=1#${boardId}`;
