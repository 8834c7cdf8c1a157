/**
 * The tools/list answer, computed once: the MCP endpoint serves it, and the
 * server card through MCP_DESCRIPTION. A host hands each tool's name, title,
 * description and input schema to the model before its first call, so those
 * are kept within TOOL_LIST_BUDGET_BYTES (test/mcp-tool-list.test.ts): every
 * argument typed and described, the limits a model needs said once in the
 * tool's description, the rest checked by the server when a call comes.
 */
import type { Tool } from '@modelcontextprotocol/server';
import { type McpToolName, TOOL_OPERATIONS } from '../../host/operations/operations.js';
import { toJsonSchema } from '../../schema/index.js';
import type { McpDescription } from '../kit/mcp-description.js';
import { RESOURCE_TEMPLATES } from './resources.js';
import { withIcons } from './tool-icons-list.js';
import { TOOLS } from './tools.js';

/**
 * Validation detail the server applies that a model does not need to be told
 * (an id's 128 characters, the author tag's character class, a coordinate's
 * ±10^9): left out of the advertised schema, not out of the check. So is
 * `additionalProperties: false` (800 bytes over the list): an unknown
 * argument is refused all the same, naming the one meant.
 */
const UNADVERTISED = new Set(['pattern', 'minLength', 'maxLength', 'additionalProperties']);
const isFarBound = (key: string, value: unknown) =>
  (key === 'minimum' || key === 'maximum') && typeof value === 'number' && Math.abs(value) >= 1e9;

/** A board id's `format: "uuid"` costs 750 bytes over the list; its description says it is a UUID. */
const isUuidFormat = (key: string, value: unknown) => key === 'format' && value === 'uuid';

/** An enum says its type: `"type": "string"` beside one adds nothing. */
const isTypeOfEnum = (key: string, node: object) => key === 'type' && Array.isArray((node as { enum?: unknown }).enum);

/**
 * An object argument whose schema is its earlier sibling's, word for word (a
 * stroke's `anchors.end` is its `anchors.start`), is listed once: the second
 * says "As <sibling>" (200 bytes for the anchors). The server checks both alike.
 */
function sharingSiblings(properties: Record<string, unknown>): Record<string, unknown> {
  const seen = new Map<string, string>();
  return Object.fromEntries(
    Object.entries(properties).map(([name, schema]) => {
      const text = JSON.stringify({ ...(schema as object), description: undefined });
      const earlier = seen.get(text);
      if (earlier === undefined) seen.set(text, name);
      const isObject = (schema as { type?: unknown }).type === 'object';
      return [name, earlier !== undefined && isObject ? { type: 'object', description: `As ${earlier}` } : schema];
    }),
  );
}

/**
 * The arguments every board tool takes, whose meaning the server's
 * instructions say once (adapters/kit/agent-guidance.ts, ARGUMENTS): listed by
 * name and type in each tool, without a description repeated 34 times.
 */
const SAID_ONCE = new Set(['board_id', 'access_key']);

const plain = (text: string) => text.toLowerCase().replaceAll('_', ' ');

/**
 * A description that is its property's name again ("Author" for author, "Item
 * id" for id), or says it is optional (the schema's `required` says so), tells
 * a model nothing.
 */
function restatesName(name: string, description: unknown): boolean {
  if (typeof description !== 'string') return false;
  const said = plain(description);
  return said === plain(name) || said === `item ${plain(name)}` || said === 'optional';
}

/** An object's properties without the descriptions above. */
function withoutRepeatedWords(properties: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(properties).map(([name, property]) => {
      const { description, ...rest } = property as { description?: unknown };
      return [name, SAID_ONCE.has(name) || restatesName(name, description) ? rest : property];
    }),
  );
}

function advertised(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(advertised);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(
        ([key, child]) =>
          !(UNADVERTISED.has(key) && typeof child !== 'object') &&
          !isFarBound(key, child) &&
          !isUuidFormat(key, child) &&
          !isTypeOfEnum(key, value),
      )
      .map(([key, child]) => [
        key,
        key === 'properties' && child !== null && typeof child === 'object'
          ? sharingSiblings(
              advertised(withoutRepeatedWords(child as Record<string, unknown>)) as Record<string, unknown>,
            )
          : advertised(child),
      ]),
  );
}

/**
 * The schemas are the rows' (operation table), so they match what the
 * handlers parse and answer. Every tool lists its outputSchema, which a host
 * keeps for its client (which checks each result against it) rather than
 * handing it to the model; a title is the tool's name for people in a host's
 * interface.
 */
export const TOOL_LIST: Tool[] = (Object.keys(TOOLS) as McpToolName[]).map((name) => ({
  name,
  title: TOOLS[name].title,
  description: TOOLS[name].description,
  inputSchema: advertised(toJsonSchema(TOOL_OPERATIONS[name].args, 'input')) as Tool['inputSchema'],
  outputSchema: toJsonSchema(TOOL_OPERATIONS[name].result, 'output') as Tool['outputSchema'],
  annotations: TOOLS[name].annotations,
}));

/** The bytes tools/list may take of a model's context: what a host hands it (docs/mcp.md). */
export const TOOL_LIST_BUDGET_BYTES = 20_000;

/**
 * What a host hands the model of a tool list, in bytes: the JSON of each
 * tool's name, title, description and input schema. Icons, annotations and
 * output schemas stay with the host and its client.
 */
export function modelFacingBytes(tools: readonly Tool[]): number {
  const read = tools.map(({ name, title, description, inputSchema }) => ({ name, title, description, inputSchema }));
  return new TextEncoder().encode(JSON.stringify(read)).length;
}

/** tools/list as served at a base URL: the tools with their icons there. */
export const toolListAt = withIcons(TOOL_LIST);

/** What the discovery documents say of /mcp: handed to them by the composition root. */
export const MCP_DESCRIPTION: McpDescription = {
  tools: toolListAt(''),
  resourceTemplates: RESOURCE_TEMPLATES,
};
