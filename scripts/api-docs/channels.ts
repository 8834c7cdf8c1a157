/** The MCP tools and resources, the JSON frame channel and the Yjs messages of docs/api.md, from the schemas the server uses. */

import { MCP_PROTOCOL_VERSIONS } from '../../adapters/kit/mcp-revisions.js';
import { RESOURCE_TEMPLATES } from '../../adapters/mcp/resources.js';
import { TOOL_LIST } from '../../adapters/mcp/tool-list.js';
import { CLOSE } from '../../board/model/errors.js';
import { FRAME_OPERATIONS, MUTATION_FRAME_TYPES, MUTATION_FRAMES } from '../../board/operations/operations.js';
import { type McpToolName, TOOL_OPERATIONS } from '../../host/operations/operations.js';
import { CollabStateless, ServerFrame, toJsonSchema } from '../../schema/index.js';
import { BatchFrame } from '../../schema/ws.js';
import { fieldTable, type JsonSchema, shapeOf, table, variantsOf } from './markdown.js';

const json = (schema: Parameters<typeof toJsonSchema>[0], io: 'input' | 'output' = 'input') =>
  toJsonSchema(schema, io) as JsonSchema;

/** The MCP tool a mutation frame shares its arguments with: its row's, when the row is a tool. */
function toolOfFrame(type: (typeof MUTATION_FRAME_TYPES)[number]): McpToolName | undefined {
  const row = FRAME_OPERATIONS[type];
  return row.tool ? (row.name as McpToolName) : undefined;
}

export function mcpMarkdown(): string {
  const index = table(
    ['Tool', 'Title', 'What it does'],
    TOOL_LIST.map((tool) => [
      `[\`${tool.name}\`](#${tool.name})`,
      TOOL_OPERATIONS[tool.name as McpToolName].tool.title,
      tool.description,
    ]),
  );
  const tools = TOOL_LIST.map((tool) => {
    const hints = Object.entries(tool.annotations ?? {})
      .map(([hint, value]) => `${hint}: ${value}`)
      .join(', ');
    // The full argument schema (with the bounds tools/list leaves out for size): the same one the server parses with.
    const args = fieldTable(json(TOOL_OPERATIONS[tool.name as McpToolName].args));
    return [
      `### ${tool.name}`,
      '',
      `${tool.description}`,
      '',
      ...(hints ? [`Annotations: ${hints}.`, ''] : []),
      args || 'No arguments.',
    ].join('\n');
  });
  const resources = table(
    ['URI template', 'Type', 'What it is'],
    RESOURCE_TEMPLATES.map((template) => [`\`${template.uriTemplate}\``, template.mimeType, template.description]),
  );
  return [
    '## MCP tools',
    '',
    `Protocol versions: ${MCP_PROTOCOL_VERSIONS.map((version) => `\`${version}\``).join(', ')}. Each tool below lists its arguments as the server checks them (\`tools/list\` leaves out some bounds to stay small; the server applies them all the same).`,
    '',
    index,
    '',
    ...tools.map((tool) => `${tool}\n`),
    '## MCP resources',
    '',
    resources,
  ].join('\n');
}

export function framesMarkdown(): string {
  const clientRows = MUTATION_FRAME_TYPES.map((type) => {
    const tool = toolOfFrame(type);
    const args = tool
      ? `the arguments of MCP [\`${tool}\`](#${tool}) (without \`board_id\` and \`access_key\`)`
      : `\`${shapeOf(json(MUTATION_FRAMES[type]))}\``;
    return [`\`${type}\``, args];
  });
  clientRows.push([
    '`batch`',
    `\`${shapeOf(json(BatchFrame))}\`: \`ops\` are \`{type, ref?, ...args}\`, named like the frames or their MCP tools, applied all or none, as MCP [\`batch\`](#batch)`,
  ]);
  const serverRows = variantsOf(json(ServerFrame, 'output')).map((variant) => [`\`${shapeOf(variant)}\``]);
  const close = table(
    ['Code', 'Reason', 'When'],
    Object.values(CLOSE).map(({ code, reason }) => [code, `\`${reason}\``, CLOSE_WHEN[reason]]),
  );
  const stateless = variantsOf(json(CollabStateless, 'output'))
    .map((variant) => `\`${shapeOf(variant)}\``)
    .join(', ');
  return [
    '## WebSocket: the JSON frame channel `/ws/{boardId}`',
    '',
    'One JSON object per text frame, discriminated on `type`. Any client frame may carry `ref` (a string or a number), echoed in its `ack` or `error`. Details: [realtime.md](realtime.md#wsboardid-the-json-frame-channel).',
    '',
    '### Client frames',
    '',
    table(['Frame', 'Fields'], clientRows),
    '',
    '`recolor` fields:',
    '',
    fieldTable(json(MUTATION_FRAMES.recolor)),
    '',
    '### Server frames',
    '',
    table(['Frame'], serverRows),
    '',
    '## WebSocket: Yjs sync `/collab`',
    '',
    `The Hocuspocus protocol: the document name is the board id (or a view token, which reads only: docs/sharing.md), the token is the access key of a locked board (empty otherwise). Besides the Yjs sync and awareness messages, the server sends one stateless message: ${stateless}, the repairs it made to a change that broke a quota or an item rule. Details: [realtime.md](realtime.md#collab-yjs-sync-hocuspocus).`,
    '',
    '## WebSocket close codes',
    '',
    'One list for both WebSocket endpoints (`CLOSE` in `board/model/errors.ts`).',
    '',
    close,
  ].join('\n');
}

/** When each close code is sent, in the words of docs/realtime.md. */
const CLOSE_WHEN: Record<(typeof CLOSE)[keyof typeof CLOSE]['reason'], string> = {
  invalid_updates: 'a Yjs client kept sending changes the server had to repair',
  board_locked:
    'the board was locked and this connection may no longer read it (or, on /collab, its token was refused)',
  board_erased: 'the board was erased',
  view_link_revoked: 'the view-only link this connection was opened with was revoked (docs/sharing.md)',
  rate_limited: "over the board's Yjs update budget: the provider reconnects with backoff and resyncs",
  storage_unavailable:
    'the storage refused a change, or could not be read to authorise the connection (the refusal `storage_unavailable` comes first): reconnect, as the provider does by itself, to read what is stored',
  slow_consumer: 'the client could not keep up with what it was sent',
  frame_too_large: 'a frame or message over the size limit',
};
