/**
 * What the MCP surface says about itself (its tools exactly as tools/list
 * gives them, its resource templates), as a value: the MCP adapter builds it, the composition root hands it to the
 * discovery documents, so neither adapter imports the other.
 */
import type { ResourceTemplateType as ResourceTemplate, Tool } from '@modelcontextprotocol/server';

export type McpDescription = {
  tools: Tool[];
  resourceTemplates: ResourceTemplate[];
};
