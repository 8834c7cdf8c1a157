/**
 * Every MCP tool: a row of the operation table (host/operations/operations.ts)
 * with its words, its annotations (from the row's effect) and a handler that
 * runs the row: a mutation or a view through Boards as REST and the frames
 * do, a host row through its own `run`. Handlers translate and nothing more:
 * what only MCP answers (a board's links, the preview's picture) is added to
 * the row's result by the tool's answer below.
 */
import type { ToolAnnotations } from '@modelcontextprotocol/server';
import type { BoardRecord } from '../../board/model/record.js';
import type { Effect, ToolWords } from '../../board/operations/operations.js';
import type { Boards } from '../../host/boards/boards.js';
import type { CreatedBoard } from '../../host/boards/creation.js';
import type { IdempotentRequest } from '../../host/boards/idempotency.js';
import {
  type AnyOperation,
  type HostCall,
  type McpToolName,
  TOOL_OPERATIONS,
} from '../../host/operations/operations.js';
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

type BoardArgs = { board_id: string; access_key?: string; author?: string };

/** A tool: its words, and its handler, which takes the arguments its row's schema parsed. */
type ToolDefinition = ToolText & { run(args: BoardArgs, context: ToolContext): Promise<object> };

/** The key a call gives for a board: its access_key argument, else the header, else the key this agent gave before. */
const keyFor = (context: ToolContext, args: BoardArgs, boardId = args.board_id) =>
  context.memory.keyFor(boardId, args.access_key ?? context.request.key);

/** The caller for a board tool, with the key it gives for the board. */
const callerFor = (context: ToolContext, args: BoardArgs, boardId = args.board_id) =>
  mcpCaller(context.request, keyFor(context, args, boardId), args.author);

/**
 * What MCP adds to a host row's result, and what the call leaves in the
 * agent's memory. A row not named here answers its result, and a board it
 * opened is remembered with the key that opened it.
 */
const ANSWERS: Partial<
  Record<McpToolName, (result: never, args: never, context: ToolContext) => Promise<object> | object>
> = {
  // A long poll remembers no key: it opens nothing the session reads later.
  wait_for_update: (result: object) => result,
  create_board: (created: CreatedBoard, args: { lock?: string }, context: ToolContext) => {
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
  },
  open_board: (
    { boardId, record, created }: { boardId: string; record: BoardRecord; created: boolean },
    args: BoardArgs,
    context: ToolContext,
  ) => {
    context.memory.used(boardId, keyFor(context, args, boardId));
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
  },
  // A picture for vision models, beside the SVG's text when it is small.
  get_preview: async ({ svg }: { svg: string }, args: BoardArgs & { frame?: string }, context: ToolContext) => {
    context.memory.used(args.board_id, keyFor(context, args));
    const preview = { board_id: args.board_id, mimeType: 'image/svg+xml' as const, svg, frame: args.frame };
    return previewAnswer(preview, context.boards.previews);
  },
};

/** Runs a row of the operation table for a tool call, under its lock rule, remembering the key that opened the board. */
async function runOperation(operation: AnyOperation, args: BoardArgs, context: ToolContext): Promise<object> {
  const { boards } = context;
  let result: object;
  switch (operation.kind) {
    case 'mutation':
      result = (await boards.write(
        args.board_id,
        callerFor(context, args),
        (w) => operation.mutate(w, args),
        context.retry,
      )) as object;
      break;
    case 'view':
      result = (await boards.read(args.board_id, callerFor(context, args), (doc, record) =>
        operation.view(doc, record, args),
      )) as object;
      break;
    case 'host': {
      const call: HostCall = {
        caller: (boardId) => callerFor(context, args, boardId),
        signal: context.signal,
        retry: context.retry,
        baseUrl: context.request.baseUrl,
      };
      result = await operation.run(boards, args, call);
      const answer = ANSWERS[operation.name as McpToolName];
      // ANSWERS holds each tool's answer at its own types (`never` takes them all); the row's run made this result.
      if (answer) return answer(result as never, args as never, context);
      break;
    }
  }
  context.memory.used(args.board_id, keyFor(context, args));
  return result;
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
) as Record<McpToolName, ToolDefinition>;
