/**
 * Every MCP tool: a row of the operation table (board/operations/operations.ts)
 * with its words, its annotations (from the row's effect) and a handler that
 * runs the row: a mutation or a view through Boards as REST and the frames
 * do, a host row through the Boards method that answers it. Handlers
 * translate and nothing more.
 */
import type { ToolAnnotations } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import { READ_PAGE_MAX_BYTES, UUID_IN_TEXT } from '../../schema/index.js';
import type { Boards } from '../../host/boards/boards.js';
import type { IdempotentRequest } from '../../host/boards/idempotency.js';
import { errors } from '../../board/model/errors.js';
import {
  type AnyOperation,
  type Effect,
  type McpToolArgs,
  type McpToolName,
  TOOL_OPERATIONS,
  type ToolWords,
} from '../../board/operations/operations.js';
import { boardUrl, embedUrl, mcpCaller, type RequestContext } from './context.js';
import type { AgentMemory } from './memory.js';
import { previewAnswer } from './preview-answer.js';
import { boardLinkBlocks, stateUri } from './resources.js';

type ToolText = ToolWords & { annotations: ToolAnnotations };

/**
 * Honest annotations, each hint stated where it differs from the protocol's
 * default (readOnly false, destructive true, idempotent false, openWorld
 * true), as the defaults cost 1 400 bytes of tools/list: no tool reaches
 * outside the service.
 */
const ANNOTATIONS: Record<Effect, ToolAnnotations> = {
  read: { readOnlyHint: true, openWorldHint: false },
  add: { destructiveHint: false, openWorldHint: false },
  set: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
  replace: { idempotentHint: true, openWorldHint: false },
  remove: { openWorldHint: false },
};

/** What a handler may use besides its arguments. */
export type ToolContext = {
  boards: Boards;
  request: RequestContext;
  signal: AbortSignal;
  /** What this agent's calls leave for its next ones: the keys that opened boards (a session), its subscriptions. */
  memory: AgentMemory;
  /** The call's `_meta.idempotencyKey`, for the tools that change something. */
  retry?: IdempotentRequest;
};

type ToolDefinition<N extends McpToolName> = ToolText & {
  run(args: z.output<(typeof McpToolArgs)[N]>, context: ToolContext): Promise<object>;
};

type BoardArgs = { board_id: string; access_key?: string; author?: string };

/** The caller for a board tool: its access_key argument, else the header, else the key this agent gave before for the board. */
const callerFor = (context: ToolContext, args: BoardArgs) =>
  mcpCaller(context.request, context.memory.keyFor(args.board_id, args.access_key ?? context.request.key), args.author);

/** The key a call used, remembered (by a session) once the call succeeds. */
const keyUsed = (context: ToolContext, args: BoardArgs) =>
  context.memory.keyFor(args.board_id, args.access_key ?? context.request.key);

/** Runs a row of the operation table for a tool call, under its lock rule, remembering the key that opened the board. */
async function runOperation(operation: AnyOperation, args: BoardArgs, context: ToolContext): Promise<object> {
  const remember = <T>(result: T) => {
    context.memory.used(args.board_id, keyUsed(context, args));
    return result as object;
  };
  switch (operation.kind) {
    case 'mutation':
      return remember(
        await context.boards.write(
          args.board_id,
          callerFor(context, args),
          (w) => operation.mutate(w, args as never),
          context.retry,
        ),
      );
    case 'view': {
      const result = await context.boards.read(args.board_id, callerFor(context, args), (doc, record) =>
        operation.view(doc, record, args as never),
      );
      return remember(result);
    }
    case 'host':
      return runHostOperation(operation.name as McpToolName, args, context);
  }
}

type ArgsFor<N extends McpToolName> = z.output<(typeof McpToolArgs)[N]>;

/** The operations the host answers itself (see HostOp); each host method applies the row's lock rule. */
async function runHostOperation(name: McpToolName, args: BoardArgs, context: ToolContext): Promise<object> {
  // The entries act on no board yet: no caller for a board, no key to remember before they answer.
  if (name === 'create_board') return createBoard(args as never, context);
  if (name === 'open_board') return openBoard(args as never, context);
  const { boards } = context;
  const caller = callerFor(context, args);
  const remember = <T>(result: T) => {
    context.memory.used(args.board_id, keyUsed(context, args));
    return result as object;
  };
  switch (name) {
    case 'wait_for_update': {
      // A long poll remembers no key: it opens nothing the session reads later.
      const { timeout_ms, since_etag } = args as ArgsFor<'wait_for_update'>;
      return boards.wait(args.board_id, caller, timeout_ms, context.signal, since_etag);
    }
    case 'get_preview': {
      // A picture for vision models, beside the SVG's text when it is small.
      const { svg } = await boards.preview(args.board_id, caller);
      return remember(
        await previewAnswer({ board_id: args.board_id, mimeType: 'image/svg+xml', svg }, boards.previews),
      );
    }
    case 'get_board': {
      const { board_id, access_key: _key, ...read } = args as ArgsFor<'get_board'>;
      return remember(await boards.board(board_id, caller, read));
    }
    case 'query_tasks': {
      const { board_id, access_key: _key, ...query } = args as ArgsFor<'query_tasks'>;
      return remember(await boards.queryTasks(board_id, caller, query));
    }
    case 'list_versions': {
      const { before, limit, cursor } = args as ArgsFor<'list_versions'>;
      return remember(
        await boards.history.versions(args.board_id, caller, { before, limit, cursor, budget: READ_PAGE_MAX_BYTES }),
      );
    }
    case 'get_changes': {
      const { since, since_etag, cursor } = args as ArgsFor<'get_changes'>;
      return remember(
        await boards.history.changes(
          args.board_id,
          caller,
          cursor !== undefined ? { cursor } : since !== undefined ? { since } : { since_etag },
          { budget: READ_PAGE_MAX_BYTES, points: false },
        ),
      );
    }
    case 'restore_version':
      return remember(
        await boards.history.restore(
          args.board_id,
          caller,
          (args as ArgsFor<'restore_version'>).version,
          context.retry,
        ),
      );
    default:
      throw new Error(`no host operation named ${name}`);
  }
}

/** create_board: a new board, its links, and its key once when it is locked. */
async function createBoard(args: ArgsFor<'create_board'>, context: ToolContext): Promise<object> {
  const created = await context.boards.create(
    { ...args, mode: args.mode ?? 'draw' },
    mcpCaller(context.request, undefined, args.author),
    context.retry,
  );
  const base = context.request.baseUrl;
  context.memory.used(created.id, created.access_key);
  return {
    board_id: created.id,
    url: boardUrl(base, created.id),
    ...(args.lock !== 'all' && { embed_url: embedUrl(base, created.id) }),
    mode: created.mode,
    ...(created.access_key && { access_key: created.access_key }),
    ...(created.imported && { imported: created.imported, ids: created.ids }),
    blocks: boardLinkBlocks(created.id),
  };
}

/** open_board: the board a URL or id names (a new UUID creates it), subscribed for this agent. */
async function openBoard(args: ArgsFor<'open_board'>, context: ToolContext): Promise<object> {
  const match = UUID_IN_TEXT.exec(args.board);
  if (!match) throw errors.invalidPayload('board', 'holds no board id (a UUID)');
  const boardId = match[0].toLowerCase();
  const key = context.memory.keyFor(boardId, args.access_key ?? context.request.key);
  const { record, created } = await context.boards.open(boardId, mcpCaller(context.request, key));
  context.memory.used(boardId, key);
  context.memory.subscribe?.(stateUri(boardId));
  const base = context.request.baseUrl;
  return {
    board_id: boardId,
    url: boardUrl(base, boardId),
    ...(record.lockMode !== 'all' && { embed_url: embedUrl(base, boardId) }),
    mode: record.mode,
    created,
    locked: record.lockMode !== null,
    lock_mode: record.lockMode,
    blocks: boardLinkBlocks(boardId),
  };
}

/** Every tool, in the order of tools/list: its words and its handler. */
export const TOOLS = Object.fromEntries(
  Object.values(TOOL_OPERATIONS).map((operation: AnyOperation) => [
    operation.name,
    {
      ...(operation.tool as ToolWords),
      annotations: ANNOTATIONS[operation.effect],
      run: (args: BoardArgs, context: ToolContext) => runOperation(operation, args, context),
    },
  ]),
) as unknown as { [N in McpToolName]: ToolDefinition<N> };
