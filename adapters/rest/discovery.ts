/**
 * Documents that describe the service to machines and agents: /quotas.json,
 * /llms.txt, the MCP server card and /openapi.json. Absolute URLs use
 * PUBLIC_URL, else the request's own origin.
 */
import type { Tool } from '@modelcontextprotocol/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { quotasDocument } from '../../board/model/quotas.js';
import type { OperationGroup, RestRoute } from '../../board/operations/operations.js';
import { OPERATION_LIST } from '../../host/operations/operations.js';
import { SERVICE_INFO } from '../../host/operator/service-info.js';
import { toJsonSchema } from '../../schema/json-schema.js';
import * as L from '../../schema/limits.js';
import { KEYS, LIVE, READING, REFUSALS, START } from '../kit/agent-guidance.js';
import type { McpDescription } from '../kit/mcp-description.js';
import { LEGACY_REVISIONS, MCP_PROTOCOL_VERSIONS, MODERN_REVISION } from '../kit/mcp-revisions.js';
import { openApiDocument } from './openapi.js';

/** Clients may cache these for at most 5 minutes (the specification's bound for quotas.json). */
const DISCOVERY_MAX_AGE_SECONDS = 300;

/** A shared cache keeps one copy per `vary` header value: a document that names the request's host must say so. */
function sendDocument(reply: FastifyReply, type: string, body: string, vary?: string) {
  const already = reply.getHeader('Vary');
  if (vary) reply.header('Vary', already ? `${already}, ${vary}` : vary);
  return reply
    .type(`${type}; charset=utf-8`)
    .header('Cache-Control', `public, max-age=${DISCOVERY_MAX_AGE_SECONDS}`)
    .send(body);
}

/**
 * The description's tools with their icon paths (relative to the service)
 * made absolute at a base URL, as tools/list served there gives them.
 */
function toolsAt(baseUrl: string, tools: readonly Tool[]): Tool[] {
  return tools.map((tool) =>
    tool.icons
      ? {
          ...tool,
          icons: tool.icons.map((icon) => ({
            ...icon,
            src: icon.src.startsWith('/') ? `${baseUrl}${icon.src}` : icon.src,
          })),
        }
      : tool,
  );
}

/**
 * The MCP server card: who the server is, where /mcp is, how each protocol
 * era connects to it, what it can do, and its tools exactly as tools/list
 * gives them.
 */
export function serverCard(baseUrl: string, mcp: McpDescription) {
  return {
    name: SERVICE_INFO.name,
    title: SERVICE_INFO.title,
    version: SERVICE_INFO.version,
    description: SERVICE_INFO.description,
    serverInfo: { name: SERVICE_INFO.name, title: SERVICE_INFO.title, version: SERVICE_INFO.version },
    protocolVersion: MODERN_REVISION,
    remotes: [
      { type: 'streamable-http', url: `${baseUrl}/mcp`, supportedProtocolVersions: [...MCP_PROTOCOL_VERSIONS] },
    ],
    transport: { type: 'streamable-http', endpoint: `${baseUrl}/mcp` },
    connection: [
      {
        protocolVersions: [MODERN_REVISION],
        stateless: true,
        description:
          'Call server/discover, then send the _meta envelope (io.modelcontextprotocol/protocolVersion and io.modelcontextprotocol/clientCapabilities) on every request, with the MCP-Protocol-Version and Mcp-Method headers (and Mcp-Name for the tool or resource named). No session: any instance answers any request. subscriptions/listen {notifications: {resourceSubscriptions: [...]}} holds a stream of notifications/resources/updated.',
      },
      {
        protocolVersions: [...LEGACY_REVISIONS],
        stateless: false,
        description:
          'Call initialize, then send its Mcp-Session-Id header on every request. GET /mcp holds the notification stream, resources/subscribe chooses what it carries, DELETE /mcp ends the session.',
      },
    ],
    authentication: { required: false, description: `No accounts. ${KEYS}` },
    usage: READING,
    capabilities: {
      tools: { listChanged: false },
      resources: { subscribe: true, listChanged: false },
      completions: {},
    },
    documentationUrl: `${baseUrl}/llms.txt`,
    tools: toolsAt(baseUrl, mcp.tools),
    resourceTemplates: mcp.resourceTemplates,
  };
}

/** A REST route as one llms.txt line: method, path and body fields, from the operation table. */
function routeLine(route: RestRoute): string {
  const path = `/api/boards/<id>${route.path.replace(/:(\w+)/g, '<$1>')}`;
  const shape = route.body instanceof z.ZodObject ? (route.body.shape as Record<string, z.ZodType>) : {};
  const fields = Object.entries(shape).map(([name, field]) => (field.safeParse(undefined).success ? `${name}?` : name));
  const query = route.query && Object.keys(toJsonSchema(route.query, 'output').properties ?? {});
  if (query) return `\`${route.method} ${path}\` \`?${query.join('&')}\``;
  return `\`${route.method} ${path}\`${fields.length ? ` \`{${fields.join(', ')}}\`` : ''}`;
}

/** The edit routes of one group of rows, so llms.txt lists what REST serves and nothing else (the host's, reads and entries, have lines of their own). */
function editLines(group: OperationGroup, label: string): string {
  const routes = OPERATION_LIST.filter((row) => row.group === group && row.kind !== 'host').flatMap((row) => row.rest);
  return `- ${label}: ${routes.map(routeLine).join('; ')}.`;
}

/** llms.txt (llmstxt.org): what the service is and how an agent reaches it. */
export function llmsTxt(baseUrl: string, mcp: McpDescription): string {
  const ws = baseUrl.replace(/^http/, 'ws');
  return `# ${SERVICE_INFO.title}

> Shared boards with no accounts. A board is a \`draw\` board (an infinite canvas of texts, post-its, Mermaid diagrams, shapes, frames, connectors, strokes, images and links) or a \`todo\` board (a kanban of columns, lanes and tasks). People in a browser, AI agents over MCP and scripts over REST edit the same board and see each other's changes live.

Whoever knows a board id can read and write it, unless the board is locked with an access key: a model passes it as the MCP tool argument \`access_key\`; a program sends the \`X-Board-Key\` header. A person opens a board at \`${baseUrl}/#<boardId>\`; a read-only embed is \`${baseUrl}/?embed=1#<boardId>\`. Items written by agents carry an author tag starting with \`ai:\`.

## Start

- [Create a board over REST](${baseUrl}/openapi.json): \`POST ${baseUrl}/api/boards\` with an optional JSON body \`{"mode": "draw"|"todo", "template": "kanban"|"sprint"|"bugs"|"none", "content": {...}, "lock": "write"|"all"}\` answers \`{"id", "mode"}\`.
- [Connect over MCP](${baseUrl}/.well-known/mcp.json): Streamable HTTP at \`${baseUrl}/mcp\`, protocol ${MCP_PROTOCOL_VERSIONS.map((version) => `\`${version}\``).join(', ')}. A ${MODERN_REVISION} client calls \`server/discover\`, then sends the \`_meta\` envelope on every request: no session, and \`subscriptions/listen\` streams \`notifications/resources/updated\`. A 2025 client calls \`initialize\` and sends its \`Mcp-Session-Id\` on every request, holds \`GET /mcp\` as its notification stream and calls \`resources/subscribe\`. Tools: ${mcp.tools.map((tool) => tool.name).join(', ')}. Resources: ${mcp.resourceTemplates.map((template) => `\`${template.uriTemplate}\``).join(', ')} (state.json and tasks.json subscribable). ${START} ${READING} ${LIVE} On ${MODERN_REVISION}: ${REFUSALS.modern} In a 2025 session: ${REFUSALS.legacy}
- [Read a board](${baseUrl}/openapi.json): \`GET ${baseUrl}/json/<boardId>\` (ETag-aware) or the schematic \`GET ${baseUrl}/svg-preview/<boardId>\`; \`GET ${baseUrl}/api/boards/<boardId>/wait\` long-polls for the next edits.
- History: \`GET ${baseUrl}/api/boards/<boardId>/versions\` lists versions (one per settled burst of edits), \`/versions/<version>\` is the board then, \`/changes?since_etag=<etag>\` (or \`since=<version>\`) what changed since, and \`POST /versions/<version>/restore\` brings a version back (the state before it stays a version). Follow \`wait?since_etag=<etag>\` with \`changes\` to miss no edit.

## Edit

${editLines('draw', 'Draw boards')}
  A text whose whole content is one fenced \`mermaid\` block renders as a diagram.
${editLines('todo', 'Todo boards')} Exports: \`/api/boards/<id>/tasks.csv\` and \`tasks.md\`.
${editLines('board', 'Any board')}
  Many edits in one call: \`batch\` (MCP too), ops \`{type: <tool name>, ref?, ...its args}\`, up to ${L.MAX_BATCH_OPS}, all or none, one result each; \`"$<ref>"\` as a later op's id, column_id or anchor id is the id that op made.
- Colours: ${[...'auto black red blue green orange yellow pink purple maroon brown gray lightgray teal sage sky lavender'.split(' ')].join(', ')}.

## Live

- [Yjs sync](${ws}/collab): Hocuspocus protocol, document name = board id, token = access key.
- [JSON frames](${ws}/ws/<boardId>): \`hello\`, \`snapshot\`, then an \`op\` frame per change; send frames named like the MCP tools (\`add_text\`, \`draw_stroke\`, \`batch\`, ...).

## Limits

- [quotas.json](${baseUrl}/quotas.json): the machine-readable list.
- Per board: ${L.MAX_TEXT_NODES} text nodes of at most ${L.MAX_TEXT_CHARS} characters, ${L.MAX_STROKES} strokes, ${L.MAX_IMAGES} images (${L.MAX_IMAGE_BYTES} bytes each, ${L.MAX_IMAGE_BYTES_TOTAL} in all), ${L.MAX_SHAPES} shapes, ${L.MAX_FRAMES} frames, ${L.MAX_COLUMNS} columns, ${L.MAX_TASKS} tasks.
- ${L.RATE_BOARD_STANDARD} REST/MCP requests per ${L.RATE_WINDOW_BOARD_MS / 1000} s per board; ${L.RATE_CREATE_STANDARD} board creations per ${L.RATE_WINDOW_CREATE_MS / 1000} s per client; bodies up to ${L.MAX_BODY_BYTES} bytes. Over a limit: 429 with \`Retry-After\`.

## Optional

- [OpenAPI 3.1 description](${baseUrl}/openapi.json)
- [MCP server card](${baseUrl}/.well-known/mcp/server-card)
`;
}

export type DiscoveryOptions = {
  rateLimits: boolean;
  baseUrl: (request: FastifyRequest) => string;
  /** The `Vary` of a document that names the base URL (`baseUrlVary`). */
  baseUrlVary: string | undefined;
  mcp: McpDescription;
};

/** The document without /metrics when it is served on a port of its own (METRICS_PORT), not this one. */
function servedOnly(app: FastifyInstance, document: Record<string, unknown>): Record<string, unknown> {
  if (app.hasRoute({ method: 'GET', url: '/metrics' })) return document;
  const { '/metrics': _metrics, ...paths } = document.paths as Record<string, unknown>;
  return { ...document, paths };
}

export function discoveryRoutes(app: FastifyInstance, options: DiscoveryOptions): void {
  // Liveness for load balancers and orchestrators: cheap, uncached, never rate limited, and telling a stranger
  // nothing of the load (figures are on /metrics).
  app.get('/healthz', async (_request, reply) => reply.header('Cache-Control', 'no-store').send({ status: 'ok' }));
  const quotas = JSON.stringify(quotasDocument(options), null, 2);
  app.get('/quotas.json', async (_request, reply) => sendDocument(reply, 'application/json', quotas));
  app.get('/llms.txt', async (request, reply) =>
    sendDocument(reply, 'text/plain', llmsTxt(options.baseUrl(request), options.mcp), options.baseUrlVary),
  );
  const card = async (request: FastifyRequest, reply: FastifyReply) =>
    sendDocument(
      reply,
      'application/json',
      JSON.stringify(serverCard(options.baseUrl(request), options.mcp), null, 2),
      options.baseUrlVary,
    );
  app.get('/.well-known/mcp.json', card);
  app.get('/.well-known/mcp/server-card', card);
  app.get('/openapi.json', async (request, reply) =>
    sendDocument(
      reply,
      'application/json',
      JSON.stringify(servedOnly(app, openApiDocument(options.baseUrl(request)))),
      options.baseUrlVary,
    ),
  );
}
