/** JSON Schema (2020-12, as OpenAPI 3.1 and MCP use) from the zod schemas of this folder. */
import { z } from 'zod';

export function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return jsonSchema;
}
