/** The tools/list answer, computed once: the MCP endpoint serves it, and the server card through MCP_DESCRIPTION. */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { McpToolArgs, McpToolOutputs, type McpToolName, toJsonSchema } from '../../schema/index.js';
import type { McpDescription } from '../kit/mcp-description.js';
import { RESOURCE_TEMPLATES } from './resources.js';
import { TOOLS } from './tools.js';

const jsonSchemaOf = (schema: Parameters<typeof toJsonSchema>[0], io: 'input' | 'output') => toJsonSchema(schema, io) as Tool['inputSchema'];

/** The schemas come from schema/, so they match what the handlers parse. */
export const TOOL_LIST: Tool[] = (Object.keys(TOOLS) as McpToolName[]).map((name) => ({
  name,
  title: TOOLS[name].title,
  description: TOOLS[name].description,
  inputSchema: jsonSchemaOf(McpToolArgs[name], 'input'),
  outputSchema: jsonSchemaOf(McpToolOutputs[name], 'output'),
  annotations: { title: TOOLS[name].title, ...TOOLS[name].annotations },
}));

/** The protocol versions /mcp negotiates. */
export const MCP_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;

/** What the discovery documents say of /mcp: handed to them by the composition root. */
export const MCP_DESCRIPTION: McpDescription = { tools: TOOL_LIST, resourceTemplates: RESOURCE_TEMPLATES, protocolVersions: MCP_PROTOCOL_VERSIONS };
