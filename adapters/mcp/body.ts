/**
 * The JSON body of `POST /mcp`, read under the 5 MiB cap like every body
 * (checked against Content-Length and while it streams in), with one
 * difference: a body over the cap is answered with the JSON-RPC id of its
 * request when its first bytes show it, not with `id: null`, which clients
 * cannot match to the request they sent.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors } from '../../board/model/errors.js';
import { MAX_BODY_BYTES } from '../../schema/index.js';

/** How much of an oversized body is searched for its id. */
const ID_PREFIX_BYTES = 16 * 1024;
/** How long a body that Content-Length already puts over the cap may take to show its first bytes. */
const ID_WAIT_MS = 1_000;

type RpcId = string | number | null;

/** Ids read from the first bytes of bodies too large to parse. */
const leadingIds = new WeakMap<FastifyRequest, RpcId>();

/** The JSON-RPC id of a request as far as it can be read (the parsed body, or the first bytes of one too large), else null. */
export function rpcIdOf(request: FastifyRequest): RpcId {
  const leading = leadingIds.get(request);
  if (leading !== undefined) return leading;
  const id = (request.body as { id?: unknown } | null | undefined)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** The first `bytes` bytes of what was received. */
function head(chunks: Buffer[], bytes: number): string {
  const taken: Buffer[] = [];
  let length = 0;
  for (const chunk of chunks) {
    if (length >= bytes) break;
    taken.push(chunk);
    length += chunk.length;
  }
  return Buffer.concat(taken).subarray(0, bytes).toString('utf8');
}

/**
 * Registers the parser in the /mcp scope: Fastify's JSON parser (prototype
 * keys refused) on the bytes read, an empty body as no body, as on REST.
 */
export function parseMcpBodies(scope: FastifyInstance): void {
  const json = scope.getDefaultJsonParser('error', 'error');
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', (request, payload, done) => {
    // Over the cap by its Content-Length: refused once its first bytes are in (or after a moment), the rest unread.
    const declaredTooLarge = Number(request.headers['content-length']) > MAX_BODY_BYTES;
    const chunks: Buffer[] = [];
    let received = 0;
    let timer: NodeJS.Timeout | undefined;
    const settle = (error: Error | null, body?: unknown) => {
      clearTimeout(timer);
      payload.removeListener('data', onData);
      payload.removeListener('end', onEnd);
      payload.removeListener('error', settle);
      done(error, body);
    };
    const refuse = () => {
      if (declaredTooLarge) payload.pause();
      leadingIds.set(request, leadingRpcId(head(chunks, ID_PREFIX_BYTES)));
      settle(errors.payloadTooLarge(MAX_BODY_BYTES));
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      received += chunk.length;
      if (received > MAX_BODY_BYTES || (declaredTooLarge && received >= ID_PREFIX_BYTES)) refuse();
    };
    const onEnd = () => {
      if (declaredTooLarge) return refuse();
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() === '') return settle(null, undefined);
      json(request, text, settle);
    };
    if (declaredTooLarge) timer = setTimeout(refuse, ID_WAIT_MS);
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', settle);
  });
}

const STRING = /"(?:[^"\\]|\\.)*"/y;
const SCALAR = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?=[\s,}\]])|true|false|null/y;

function skipSpace(text: string, at: number): number {
  while (at < text.length && /\s/.test(text[at])) at++;
  return at;
}

/** The end of the string token at `at`, or -1 when the text ends inside it. */
function stringEnd(text: string, at: number): number {
  STRING.lastIndex = at;
  return STRING.test(text) ? STRING.lastIndex : -1;
}

/** The end of the JSON value at `at`, or -1 when the text ends (or breaks) inside it. */
function valueEnd(text: string, at: number): number {
  if (text[at] === '"') return stringEnd(text, at);
  if (text[at] !== '{' && text[at] !== '[') {
    SCALAR.lastIndex = at;
    return SCALAR.test(text) ? SCALAR.lastIndex : -1;
  }
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const end = stringEnd(text, i);
      if (end === -1) return -1;
      i = end - 1;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/**
 * The `id` member of the JSON-RPC object a text starts with, read from as
 * much of it as there is: the members before it are skipped, so it is found
 * wherever it comes before the text ends. Null when it cannot be read (a
 * batch, an id after a long `params`, broken JSON).
 */
export function leadingRpcId(text: string): RpcId {
  try {
    return idMember(text);
  } catch {
    return null; // an escape JSON does not know, in a key or the id
  }
}

function idMember(text: string): RpcId {
  let at = skipSpace(text, 0);
  if (text[at] !== '{') return null;
  at++;
  for (;;) {
    at = skipSpace(text, at);
    const keyEnd = text[at] === '"' ? stringEnd(text, at) : -1;
    if (keyEnd === -1) return null;
    const key = JSON.parse(text.slice(at, keyEnd)) as string;
    at = skipSpace(text, keyEnd);
    if (text[at] !== ':') return null;
    at = skipSpace(text, at + 1);
    const end = valueEnd(text, at);
    if (end === -1) return null;
    if (key === 'id') {
      const id: unknown = JSON.parse(text.slice(at, end));
      return typeof id === 'string' || typeof id === 'number' ? id : null;
    }
    at = skipSpace(text, end);
    if (text[at] !== ',') return null;
    at++;
  }
}
