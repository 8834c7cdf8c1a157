/**
 * tools/list with each tool's icon, as served at a base URL: the list the MCP
 * handlers answer and, with the base URL left empty (icon paths relative to
 * the service), the list the discovery documents resolve against their own
 * base URL, so the server card lists the tools exactly as tools/list gives
 * them.
 */
import type { Tool } from '@modelcontextprotocol/server';
import type { McpToolName } from '../../host/operations/operations.js';
import { toolIcons } from './icons.js';

/** Base URLs kept: a handful of public names at most; the cache never grows with clients. */
const MAX_BASE_URLS = 16;

/** The tools with their icons at a base URL, each list built once per base URL. */
export function withIcons(tools: readonly Tool[]): (baseUrl: string) => Tool[] {
  const lists = new Map<string, Tool[]>();
  return (baseUrl) => {
    let list = lists.get(baseUrl);
    if (!list) {
      list = tools.map((tool) => ({ ...tool, icons: toolIcons(tool.name as McpToolName, baseUrl) }));
      if (lists.size < MAX_BASE_URLS) lists.set(baseUrl, list);
    }
    return list;
  };
}
