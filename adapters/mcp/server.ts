/**
 * The SDK's MCP Server, except that a request its method's schema refuses is
 * answered -32602 Invalid params. The SDK parses every request with its
 * handler's schema before the handler runs and answers a failed parse with
 * -32603 Internal error (`tools/call` without `params`, `resources/read` with
 * a numeric `uri`, `ping` with a string for `params`): a client's mistake
 * reported as the server's fault.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { type AnyObjectSchema, getLiteralValue, getObjectShape, safeParse, type SchemaOutput } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ErrorCode, type Notification, type Request, type Result, type ServerNotification, type ServerRequest, type ServerResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { RpcError } from './errors.js';

type Extra = RequestHandlerExtra<ServerRequest | Request, ServerNotification | Notification>;

/** The first problem of a failed parse, as `path: message`. */
function firstIssue(error: unknown): string {
  const issue = (error as { issues?: { path: PropertyKey[]; message: string }[] }).issues?.[0];
  return issue ? `${issue.path.map(String).join('.') || 'request'}: ${issue.message}` : 'malformed request';
}

export class StrictParamsServer extends Server {
  /**
   * Registers the handler behind a schema that checks only the method, and
   * parses with the real schema here. Also applies to the handlers the SDK
   * registers itself (ping, initialize): they are registered through this
   * method from the base constructors.
   */
  override setRequestHandler<T extends AnyObjectSchema>(
    requestSchema: T,
    handler: (request: SchemaOutput<T>, extra: Extra) => ServerResult | Result | Promise<ServerResult | Result>,
  ): void {
    const method = getLiteralValue(getObjectShape(requestSchema)!.method!) as string;
    super.setRequestHandler(z.looseObject({ method: z.literal(method) }), (request, extra) => {
      const parsed = safeParse(requestSchema, request);
      if (!parsed.success) throw new RpcError(ErrorCode.InvalidParams, `invalid ${method} request: ${firstIssue(parsed.error)}`);
      return handler(parsed.data, extra);
    });
  }
}
