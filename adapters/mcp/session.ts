/**
 * One MCP session: its SDK Server (handlers for tools and resources), its
 * Streamable HTTP transport, the board resources it subscribed to and the keys
 * that opened locked boards for it.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema, ErrorCode, ListResourcesRequestSchema, ListResourceTemplatesRequestSchema, ListToolsRequestSchema,
  ReadResourceRequestSchema, SubscribeRequestSchema, UnsubscribeRequestSchema, type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { McpToolArgs, type McpToolName } from '../../schema/index.js';
import type { Boards } from '../../server/host/boards.js';
import { errors, fromZodIssues } from '../../server/board/errors.js';
import { SERVICE_INFO } from '../../server/host/service-info.js';
import { contextOf, mcpCaller } from './context.js';
import { resourceFailure, RpcError, toolFailure } from './errors.js';
import { parseUri, PER_BOARD_TEMPLATES, readResource, RESOURCE_TEMPLATES, SUBSCRIBABLE } from './resources.js';
import { StrictParamsServer } from './server.js';
import { TOOL_LIST } from './tool-list.js';
import { TOOLS } from './tools.js';

const INSTRUCTIONS = [
  'Shared boards with no accounts: whoever has a board id can read and write it, unless it is locked.',
  'A draw board is an infinite canvas (texts, post-its, Mermaid diagrams, strokes, images, links); a todo board is a kanban (columns in lanes, tasks).',
  'Start with create_board or open_board (a board URL or id), read with get_board or get_preview, then edit with the add_*/draw_stroke/move/erase or column/task tools.',
  'Every edit reaches the people and agents on the board live. Subscribe to svc://board/{id}/state.json, or call wait_for_update, to hear of their edits; then get_changes with since_etag tells what changed.',
  'Every settled burst of edits is a version: list_versions, svc://board/{id}/versions/{version}/state.json and restore_version bring a board back.',
].join(' ');


export type SessionHooks = {
  subscribed(session: McpSession, boardId: string): void;
  unsubscribed(session: McpSession, boardId: string): void;
  closed(session: McpSession): void;
};

export class McpSession {
  readonly server: Server;
  readonly transport: StreamableHTTPServerTransport;
  /** Subscribed resource URIs. */
  readonly subscriptions = new Set<string>();
  /** Keys that opened locked boards in this session, by board id. */
  private readonly keys = new Map<string, string>();
  /** Boards this session has used, for resources/list. */
  private readonly boardsSeen = new Set<string>();
  lastSeen = Date.now();
  openStreams = 0;

  constructor(
    private readonly boards: Boards,
    private readonly hooks: SessionHooks,
    onInitialized: (session: McpSession) => void,
  ) {
    this.transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      enableJsonResponse: true, // answers are plain JSON; notifications use the GET stream
      onsessioninitialized: () => onInitialized(this),
    });
    this.transport.onclose = () => this.hooks.closed(this);
    this.server = new StrictParamsServer(
      { name: SERVICE_INFO.name, title: SERVICE_INFO.title, version: SERVICE_INFO.version },
      { capabilities: { tools: { listChanged: false }, resources: { subscribe: true, listChanged: false } }, instructions: INSTRUCTIONS },
    );
    this.registerHandlers();
  }

  get id(): string | undefined {
    return this.transport.sessionId;
  }

  private keyFor(boardId: string, headerKey: string | undefined): string | undefined {
    return headerKey ?? this.keys.get(boardId);
  }

  private registerHandlers(): void {
    const { server, boards } = this;
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOL_LIST }));

    server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
      const name = request.params.name as McpToolName;
      if (!Object.hasOwn(TOOLS, name)) throw new RpcError(ErrorCode.InvalidParams, `unknown tool ${request.params.name}`);
      const parsed = McpToolArgs[name].safeParse(request.params.arguments ?? {}, { reportInput: true });
      if (!parsed.success) {
        // A board id that is not a UUID names no board: invalid params, as for an unknown one.
        if (parsed.error.issues.some((issue) => issue.path.length === 1 && issue.path[0] === 'board_id')) return toolFailure(errors.invalidBoardId());
        return toolFailure(fromZodIssues(parsed.error.issues));
      }
      const context = contextOf(extra.authInfo);
      try {
        const result = await TOOLS[name].run(parsed.data as never, {
          boards,
          request: context,
          signal: extra.signal,
          rememberKey: (boardId, key) => {
            this.boardsSeen.add(boardId);
            if (key !== undefined) this.keys.set(boardId, key);
          },
          subscribe: (uri) => this.subscribe(uri),
        });
        return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result as Record<string, unknown> };
      } catch (error) {
        return toolFailure(error);
      }
    });

    server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: RESOURCE_TEMPLATES }));
    server.setRequestHandler(ListResourcesRequestSchema, () => ({
      resources: [...this.boardsSeen].flatMap((boardId) =>
        PER_BOARD_TEMPLATES.map((template) => ({
          uri: template.uriTemplate.replace('{id}', boardId),
          name: `${template.name}-${boardId}`,
          title: template.title,
          mimeType: template.mimeType,
        })),
      ),
    }));

    server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
      try {
        const context = contextOf(extra.authInfo);
        const { boardId } = parseUri(request.params.uri);
        return await readResource(boards, request.params.uri, mcpCaller(context, this.keyFor(boardId, context.key)));
      } catch (error) {
        resourceFailure(error);
      }
    });

    server.setRequestHandler(SubscribeRequestSchema, async (request, extra) => {
      try {
        const context = contextOf(extra.authInfo);
        const { boardId, name } = parseUri(request.params.uri);
        if (!SUBSCRIBABLE.has(name)) throw new RpcError(ErrorCode.InvalidParams, `${name} is not subscribable; subscribe to state.json or tasks.json`);
        // Only a reader of the board may hear of its changes.
        await boards.read(boardId, mcpCaller(context, this.keyFor(boardId, context.key)), () => null);
        if (context.key !== undefined) this.keys.set(boardId, context.key);
        this.boardsSeen.add(boardId);
        this.subscribe(request.params.uri);
        return {};
      } catch (error) {
        resourceFailure(error);
      }
    });

    server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
      this.unsubscribe(request.params.uri);
      return {};
    });
  }

  subscribe(uri: string): void {
    if (this.subscriptions.has(uri)) return;
    this.subscriptions.add(uri);
    this.hooks.subscribed(this, parseUri(uri).boardId);
  }

  unsubscribe(uri: string): void {
    if (!this.subscriptions.delete(uri)) return;
    const { boardId } = parseUri(uri);
    if (![...this.subscriptions].some((other) => parseUri(other).boardId === boardId)) this.hooks.unsubscribed(this, boardId);
  }

  /** Sends `notifications/resources/updated` for this session's subscriptions to a board. */
  async notifyChanged(boardId: string): Promise<void> {
    for (const uri of this.subscriptions) {
      if (parseUri(uri).boardId === boardId) await this.server.sendResourceUpdated({ uri });
    }
  }

  async close(): Promise<void> {
    await this.transport.close();
  }
}
