/** The HTTP routes of docs/api.md, rendered from the OpenAPI document the server serves. */
import { openApiDocument } from '../../adapters/rest/openapi.js';
import { anchor, fieldsOf, fieldTable, type JsonSchema, table, typeOf } from './markdown.js';

type Operation = {
  summary: string;
  description?: string;
  tags: string[];
  parameters?: { name: string; in: string; required: boolean; schema: JsonSchema; description: string }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<
    string,
    {
      $ref?: string;
      description?: string;
      content?: Record<string, { schema: JsonSchema }>;
      headers?: Record<string, unknown>;
    }
  >;
  security: Record<string, string[]>[];
};
type Document = {
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { responses: Record<string, { description: string }>; securitySchemes: Record<string, { name: string }> };
};

/** Every operation of the document as [method, path, operation], in the document's order. */
export function operationsOf(document: Document): [string, string, Operation][] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]): [string, string, Operation] => [method.toUpperCase(), path, op]),
  );
}

/** The document as the server builds it; the server URL is a placeholder. */
export const apiDocument = () => openApiDocument('{base_url}') as unknown as Document;

function keyLine(op: Operation, document: Document): string {
  const schemes = op.security.flatMap((requirement) => Object.keys(requirement));
  if (schemes.length === 0) return 'Key: none.';
  const header = document.components.securitySchemes[schemes[0]].name;
  return header === 'X-Board-Key'
    ? 'Key: `X-Board-Key`, only on a locked board.'
    : 'Key: the subprotocol `svc-key.<key>`, only on a locked board.';
}

const EVERY_ROUTE = new Set(['431', 'default']);

function responseRows(op: Operation, document: Document): string[][] {
  // 431 and `default` are the same on every route: the Errors section says them once.
  return Object.entries(op.responses)
    .filter(([status]) => !EVERY_ROUTE.has(status))
    .map(([status, response]) => {
      const ref = response.$ref?.split('/').pop();
      const shared = ref ? document.components.responses[ref] : undefined;
      if (shared) return [status, shared.description];
      const [type, body] = Object.entries(response.content ?? {})[0] ?? [];
      const fields = body && type === 'application/json' ? fieldsOf(body.schema).map((field) => field.name) : [];
      const shape = fields.length
        ? ` \`{${fields.join(', ')}}\``
        : type && type !== 'application/json'
          ? ` (${type})`
          : '';
      return [status, `${response.description}${shape}`];
    });
}

function renderOperation(method: string, path: string, op: Operation, document: Document): string {
  const parts = [
    `### ${method} ${path}`,
    '',
    op.summary + (op.description ? `. ${op.description}` : '.'),
    '',
    keyLine(op, document),
  ];
  const parameters = (op.parameters ?? []).map((p) => [
    `\`${p.name}\``,
    p.in,
    typeOf(p.schema),
    p.required ? 'yes' : '',
    p.description,
  ]);
  if (parameters.length) parts.push('', table(['Parameter', 'In', 'Type', 'Required', 'Description'], parameters));
  const body = op.requestBody?.content['application/json']?.schema;
  if (body) parts.push('', 'Body (JSON):', '', fieldTable(body) || `\`${typeOf(body)}\``);
  parts.push('', table(['Status', 'Answer'], responseRows(op, document)));
  return parts.join('\n');
}

/** The route index (one table) and a section per tag with every operation in it. */
export function routesMarkdown(): string {
  const document = apiDocument();
  const operations = operationsOf(document);
  const index = table(
    ['Method', 'Path', 'What it does'],
    operations.map(([method, path, op]) => [method, `[\`${path}\`](#${anchor(`${method} ${path}`)})`, op.summary]),
  );
  const sections = document.tags.map(({ name, description }) => {
    const inTag = operations.filter(([, , op]) => op.tags.includes(name));
    return [
      `## Routes: ${name}`,
      '',
      `${description}.`,
      '',
      ...inTag.map(([method, path, op]) => `${renderOperation(method, path, op, document)}\n`),
    ].join('\n');
  });
  return [`## Route index\n\n${index}`, ...sections].join('\n\n');
}
