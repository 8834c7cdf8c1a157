/**
 * The board service's MCP surface, written once for both protocol eras: the
 * request handlers every SDK Server instance gets, whether it serves one
 * 2026-07-28 request (modern.ts) or a 2025 session (legacy.ts). What differs
 * between the eras is passed in: what the agent's memory holds (a session
 * remembers keys and boards; a stateless request only what it carries) and
 * how a refused tool call is answered (errors.ts).
 */
import {
  type CallToolResult,
  type CompleteResult,
  type ContentBlock,
  Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { errors, fromZodIssues } from '../../board/model/errors.js';
import type { Boards } from '../../host/boards/boards.js';
import { type McpToolName, TOOL_OPERATIONS } from '../../host/operations/operations.js';
import { SERVICE_INFO } from '../../host/operator/service-info.js';
import { instructionsFor } from '../kit/agent-guidance.js';
import { idempotencyKey } from '../kit/idempotency.js';
import { LEGACY_REVISIONS, MCP_PROTOCOL_VERSIONS } from '../kit/mcp-revisions.js';
import { contextOf, mcpCaller } from './context.js';
import {
  asBoardError,
  type Era,
  failureOutcome,
  INVALID_PARAMS,
  RpcError,
  resourceFailure,
  type ToolCalls,
  type ToolOutcome,
  toolFailure,
} from './errors.js';
import { serverIcons } from './icons.js';
import type { AgentMemory } from './memory.js';
import {
  boardResourceLinks,
  PER_BOARD_TEMPLATES,
  parseUri,
  RESOURCE_TEMPLATES,
  readResource,
  SUBSCRIBABLE,
} from './resources.js';
import { toolListAt } from './tool-list.js';
import { TOOLS } from './tools.js';

/** The first problem of a failed parse, as `path: message`. */
function firstIssue(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.map(String).join('.') || 'request'}: ${issue.message}` : 'malformed request';
}

/** The issues of the SDK's failed request parse, which it throws as an Error whose message is their JSON. */
function parseIssues(error: unknown): { path: PropertyKey[]; message: string }[] | undefined {
  if (!(error instanceof Error) || !error.message.startsWith('[')) return undefined;
  try {
    const issues: unknown = JSON.parse(error.message);
    return Array.isArray(issues) &&
      issues.every((issue) => Array.isArray(issue?.path) && typeof issue?.message === 'string')
      ? issues
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The SDK's Server, except that a request its method's schema refuses
 * (`resources/read` with a numeric `uri`, `resources/unsubscribe` without
 * params) is answered -32602 Invalid params: the SDK lets the parse error
 * through as -32603 Internal error, a client's mistake reported as the
 * server's fault. No public option does it: the SDK is pinned for this
 * protected hook (docs/dependencies.md, "The one hook we override").
 */
class BoardServer extends Server {
  protected override _wrapHandler(
    method: string,
    handler: Parameters<Server['_wrapHandler']>[1],
  ): ReturnType<Server['_wrapHandler']> {
    const wrapped = super._wrapHandler(method, handler);
    return async (request, ctx) => {
      try {
        return await wrapped(request, ctx);
      } catch (error) {
        const issues = typeof (error as { code?: unknown }).code === 'number' ? undefined : parseIssues(error);
        if (issues) throw new RpcError(INVALID_PARAMS, `invalid ${method} request: ${firstIssue({ issues })}`);
        throw error;
      }
    };
  }
}

/**
 * The request methods a server instance gets handlers for: every one (a 2025
 * session's server answers many requests), or only the one a 2026-07-28
 * request names (its server answers that request and is closed), since
 * registering the rest would be a stateless call's largest lasting allocation.
 */
export type Serves = (method: string) => boolean;
export const SERVES_ALL: Serves = () => true;

/** A server instance for one era, with the board handlers on it; `calls` hears of every tool call's outcome. */
export function boardServer(
  boards: Boards,
  memory: AgentMemory,
  era: Era,
  baseUrl: string,
  calls?: ToolCalls,
  serves: Serves = SERVES_ALL,
): Server {
  const server = new BoardServer(
    {
      name: SERVICE_INFO.name,
      title: SERVICE_INFO.title,
      version: SERVICE_INFO.version,
      websiteUrl: baseUrl || undefined,
      icons: serverIcons(baseUrl),
    },
    {
      supportedProtocolVersions: era === 'modern' ? [...MCP_PROTOCOL_VERSIONS] : [...LEGACY_REVISIONS],
      capabilities: {
        tools: { listChanged: false },
        resources: { subscribe: true, listChanged: false },
        completions: {},
        ...(era === 'legacy' && { logging: {} }),
      },
      instructions: instructionsFor(era),
      // The tool list and templates change only with a release; a resource read is this caller's view of a live board.
      cacheHints: {
        'tools/list': { ttlMs: 3_600_000, cacheScope: 'public' },
        'resources/templates/list': { ttlMs: 3_600_000, cacheScope: 'public' },
        'server/discover': { ttlMs: 3_600_000, cacheScope: 'public' },
        'resources/list': { ttlMs: 0, cacheScope: 'private' },
        'resources/read': { ttlMs: 0, cacheScope: 'private' },
      },
    },
  );
  registerTools(server, boards, memory, era, baseUrl, serves, calls);
  registerResources(server, boards, memory, era, serves);
  registerCompletions(server, memory, serves);
  return server;
}

function registerTools(
  server: Server,
  boards: Boards,
  memory: AgentMemory,
  era: Era,
  baseUrl: string,
  serves: Serves,
  calls?: ToolCalls,
): void {
  if (serves('tools/list')) server.setRequestHandler('tools/list', () => ({ tools: toolListAt(baseUrl) }));
  if (!serves('tools/call')) return;

  server.setRequestHandler('tools/call', async (request, ctx): Promise<CallToolResult> => {
    const name = request.params.name as McpToolName;
    // An unknown name is counted as `unknown`: a label must not take whatever a client sends.
    const known = Object.hasOwn(TOOLS, name);
    try {
      const { result, outcome } = await callTool(name, request.params.arguments, request.params._meta, ctx);
      calls?.(era, known ? name : 'unknown', outcome);
      return result;
    } catch (error) {
      calls?.(era, known ? name : 'unknown', failureOutcome(error));
      throw error;
    }
  });

  /** A refused call's answer and how it ended; on the 2025 revisions it may be a thrown JSON-RPC error. */
  const refused = (error: unknown) => {
    const boardError = asBoardError(error);
    return { result: toolFailure(boardError, era), outcome: failureOutcome(boardError.code) };
  };

  /** One call's answer (a result, an `isError` result, or a thrown JSON-RPC error) and how it ended. */
  const callTool = async (
    name: McpToolName,
    args: unknown,
    meta: Record<string, unknown> | undefined,
    ctx: ServerContext,
  ): Promise<{ result: CallToolResult; outcome: ToolOutcome }> => {
    if (!Object.hasOwn(TOOLS, name))
      throw new RpcError(INVALID_PARAMS, `unknown tool ${name}: tools/list names the tools`);
    // A retry is the client's transport concern, not the model's: its key travels in _meta, not in the arguments.
    let key: string | undefined;
    try {
      key = idempotencyKey(meta?.idempotencyKey);
    } catch (error) {
      return refused(error);
    }
    const parsed = TOOL_OPERATIONS[name].args.safeParse(args ?? {}, { reportInput: true });
    if (!parsed.success) {
      // A board id that is not a UUID names no board.
      if (parsed.error.issues.some((issue) => issue.path.length === 1 && issue.path[0] === 'board_id'))
        return refused(errors.invalidBoardId());
      return refused(fromZodIssues(parsed.error.issues, TOOL_OPERATIONS[name].fieldError));
    }
    const context = contextOf(ctx.http?.authInfo);
    try {
      const result = await TOOLS[name].run(parsed.data, {
        boards,
        request: context,
        signal: ctx.mcpReq.signal,
        memory,
        retry: key === undefined ? undefined : { key, request: ['mcp', name, args ?? {}] },
      });
      return { result: toolResult(result), outcome: 'ok' };
    } catch (error) {
      return refused(error);
    }
  };
}

/** A tool's answer: its JSON as text and as structuredContent, plus the blocks a model reads best (links, pictures). */
function toolResult(result: object & { blocks?: ContentBlock[] }): CallToolResult {
  const { blocks = [], ...structured } = result;
  return {
    content: [{ type: 'text', text: JSON.stringify(structured) }, ...blocks],
    structuredContent: structured as Record<string, unknown>,
  };
}

function registerResources(server: Server, boards: Boards, memory: AgentMemory, era: Era, serves: Serves): void {
  if (serves('resources/templates/list'))
    server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: RESOURCE_TEMPLATES }));
  if (serves('resources/list')) {
    server.setRequestHandler('resources/list', () => ({
      resources: [...memory.boards()].flatMap((boardId) =>
        boardResourceLinks(boardId, PER_BOARD_TEMPLATES).map(({ type: _type, ...resource }) => resource),
      ),
    }));
  }

  if (serves('resources/read'))
    server.setRequestHandler('resources/read', async (request, ctx) => {
      try {
        const context = contextOf(ctx.http?.authInfo);
        const { boardId } = parseUri(request.params.uri);
        return await readResource(boards, request.params.uri, mcpCaller(context, memory.keyFor(boardId, context.key)));
      } catch (error) {
        return resourceFailure(error, request.params.uri, era);
      }
    });

  const { subscribe, unsubscribe } = memory;
  if (!subscribe || !unsubscribe) return; // 2026-07-28 subscribes with subscriptions/listen (modern.ts)
  if (serves('resources/subscribe'))
    server.setRequestHandler('resources/subscribe', async (request, ctx) => {
      try {
        const context = contextOf(ctx.http?.authInfo);
        const { boardId, name } = parseUri(request.params.uri);
        if (!SUBSCRIBABLE.has(name))
          throw new RpcError(INVALID_PARAMS, `${name} is not subscribable; subscribe to state.json or tasks.json`);
        // Only a reader of the board may hear of its changes.
        const key = memory.keyFor(boardId, context.key);
        await boards.read(boardId, mcpCaller(context, key), () => null);
        memory.used(boardId, key);
        subscribe.call(memory, request.params.uri);
        return {};
      } catch (error) {
        return resourceFailure(error, request.params.uri, era);
      }
    });
  if (serves('resources/unsubscribe'))
    server.setRequestHandler('resources/unsubscribe', (request) => {
      unsubscribe.call(memory, request.params.uri);
      return {};
    });
}

/** Board ids this agent used complete a template's {id}; nothing else is offered (a board id is a credential). */
function registerCompletions(server: Server, memory: AgentMemory, serves: Serves): void {
  if (!serves('completion/complete')) return;
  server.setRequestHandler('completion/complete', (request): CompleteResult => {
    const { ref, argument } = request.params;
    const values =
      ref.type === 'ref/resource' &&
      argument.name === 'id' &&
      RESOURCE_TEMPLATES.some((template) => template.uriTemplate === ref.uri)
        ? [...memory.boards()].filter((boardId) => boardId.startsWith(argument.value.toLowerCase()))
        : [];
    return { completion: { values: values.slice(0, 100), total: values.length, hasMore: values.length > 100 } };
  });
}
