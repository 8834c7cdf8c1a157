/**
 * Who is calling, as the domain needs it, read the same way on every surface:
 * the Caller of an HTTP request (IP, access key, import token) and the author
 * tag of a browser socket.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Caller } from '../../host/access/access.js';
import { isUuid } from '../../schema/index.js';

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Who is calling, as the domain needs it: IP, access key and import token from the headers. */
export function callerOf(request: FastifyRequest): Caller {
  const admitted = (request as FastifyRequest & { admitted?: boolean }).admitted === true;
  return {
    surface: 'rest',
    ip: request.ip,
    key: header(request, 'x-board-key'),
    importToken: header(request, 'x-import-token'),
    admitted,
  };
}

/** The author tag of a browser: `user:<uuid>` from its `?client=<uuid>`, else a fresh UUID (both sockets, /ws and /collab, tag alike). */
export function clientAuthor(client: string | null | undefined): string {
  return `user:${isUuid(client) ? client.toLowerCase() : randomUUID()}`;
}
