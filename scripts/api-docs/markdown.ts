/** Small Markdown and JSON Schema helpers for the generated API reference (docs/api.md). */

export type JsonSchema = Record<string, unknown> & {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  description?: string;
};

/** A table cell: one line, pipes escaped. */
export const cell = (text: unknown) =>
  String(text ?? '')
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\|/g, '\\|');

export function table(head: string[], rows: unknown[][]): string {
  if (rows.length === 0) return '';
  return [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
  ].join('\n');
}

const BOUNDS: [string, string][] = [
  ['minimum', '≥'],
  ['exclusiveMinimum', '>'],
  ['maximum', '≤'],
  ['exclusiveMaximum', '<'],
  ['minLength', 'chars ≥'],
  ['maxLength', 'chars ≤'],
  ['minItems', 'items ≥'],
  ['maxItems', 'items ≤'],
];

/** A short human type of a schema: `string`, `integer ≥ 1`, `"write" \| "all"`, `array of number`. */
export function typeOf(schema: JsonSchema | undefined): string {
  if (!schema || Object.keys(schema).length === 0) return 'any';
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' or ');
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return [...new Set(variants.map(typeOf))].join(' or ');
  const types = [schema.type ?? (schema.properties ? 'object' : 'any')].flat();
  let text = types.map((type) => (type === 'array' ? `array of ${typeOf(schema.items)}` : type)).join(' or ');
  if (typeof schema.format === 'string') text += ` (${schema.format})`;
  const bounds = BOUNDS.filter(([key]) => typeof schema[key] === 'number').map(
    ([key, sign]) => `${sign} ${schema[key]}`,
  );
  if (bounds.length) text += `, ${bounds.join(', ')}`;
  if (schema.default !== undefined) text += `, default ${JSON.stringify(schema.default)}`;
  return text;
}

/** The fields of an object schema, merging the members of a union (a field is required only where every member requires it). */
export function fieldsOf(schema: JsonSchema | undefined): { name: string; schema: JsonSchema; required: boolean }[] {
  if (!schema) return [];
  const members = schema.properties
    ? [schema]
    : [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])].filter((member) => member.properties);
  const fields = new Map<string, { name: string; schema: JsonSchema; required: boolean }>();
  for (const member of members) {
    for (const [name, property] of Object.entries(member.properties ?? {})) {
      const required =
        (member.required ?? []).includes(name) &&
        members.every((other) => (other.required ?? []).includes(name) || !other.properties?.[name]);
      const known = fields.get(name);
      fields.set(name, {
        name,
        schema: known?.schema ?? property,
        required: known ? known.required && required : required,
      });
    }
  }
  return [...fields.values()];
}

/** A table of an object schema's fields: name, type, required, description. */
export function fieldTable(schema: JsonSchema | undefined): string {
  return table(
    ['Field', 'Type', 'Required', 'Description'],
    fieldsOf(schema).map(({ name, schema: field, required }) => [
      `\`${name}\``,
      typeOf(field),
      required ? 'yes' : '',
      field.description ?? '',
    ]),
  );
}

/** `{type: "hello", boardId, mode?}`: an object schema written as its shape, optional fields marked. */
export function shapeOf(schema: JsonSchema): string {
  const parts = fieldsOf(schema).map(({ name, schema: field, required }) =>
    field.const !== undefined ? `${name}: ${JSON.stringify(field.const)}` : `${name}${required ? '' : '?'}`,
  );
  return `{${parts.join(', ')}}`;
}

/** The leaf object schemas of a (possibly nested) union. */
export function variantsOf(schema: JsonSchema): JsonSchema[] {
  const variants = schema.anyOf ?? schema.oneOf;
  return variants ? variants.flatMap(variantsOf) : [schema];
}

/** A GitHub-style heading anchor. */
export const anchor = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-');
