/**
 * JSON Schema (2020-12, as OpenAPI 3.1 and MCP use) from the zod schemas of
 * this folder. What zod writes is tidied here, in one place, for every
 * document that advertises a schema (tools/list, the OpenAPI description):
 * a schema marked with `advertise` is written as given, UUID patterns become
 * `format: "uuid"` (the server still checks the pattern), and bounds that say
 * nothing (an integer's ±2^53, `additionalProperties: {}`) are left out.
 */
import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

/** The metadata key under which `advertise` keeps the JSON Schema to write. */
const ADVERTISED = 'x-advertised';

/**
 * The JSON Schema to advertise for a schema whose zod form says too little
 * (an `unknown` that is normalised, a transform, a lenient union): e.g. the
 * colour names of a field that maps any value to a colour. Only what is
 * advertised changes; the schema accepts what it accepted before.
 */
export function advertise<T extends z.ZodType>(schema: T, jsonSchema: JsonSchema): T {
  return schema.meta({ [ADVERTISED]: jsonSchema });
}

/** The metadata key of a schema left out of what is advertised (a key taken and dropped, common.ts). */
const UNADVERTISED = 'x-unadvertised';

/** A schema that is accepted but not advertised: the object property it is drops out of the JSON Schema. */
export function unadvertised<T extends z.ZodType>(schema: T): T {
  return schema.meta({ [UNADVERTISED]: true });
}

const UUID_PATTERNS = new Set([
  '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
  '^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$',
]);

/** An object's properties without those marked `unadvertised`. */
function advertisedProperties(properties: JsonSchema): JsonSchema {
  return Object.fromEntries(
    Object.entries(properties).filter(([, child]) => !(child as JsonSchema | null)?.[UNADVERTISED]),
  );
}

/** One node, then its children: the rewrites described at the top of this file. */
function tidy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(tidy);
  if (value === null || typeof value !== 'object') return value;
  let node = value as JsonSchema;
  if (node[ADVERTISED])
    node = {
      ...(node[ADVERTISED] as JsonSchema),
      ...(node.description !== undefined && { description: node.description }),
    };
  const out: JsonSchema = {};
  for (const [key, child] of Object.entries(node)) {
    if (key === 'pattern' && typeof child === 'string' && UUID_PATTERNS.has(child)) out.format = 'uuid';
    else if (
      (key === 'minimum' || key === 'maximum') &&
      node.type === 'integer' &&
      Math.abs(child as number) === Number.MAX_SAFE_INTEGER
    )
      continue;
    else if (key === 'properties' && child !== null && typeof child === 'object')
      out.properties = tidy(advertisedProperties(child as JsonSchema));
    else if (
      key === 'additionalProperties' &&
      child !== null &&
      typeof child === 'object' &&
      Object.keys(child).length === 0
    )
      continue;
    else out[key] = tidy(child);
  }
  return out;
}

export function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return tidy(jsonSchema) as JsonSchema;
}
