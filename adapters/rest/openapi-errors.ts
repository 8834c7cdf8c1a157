/**
 * The error responses of /openapi.json, from the one error list
 * (board/model/errors.ts): each status names every code the list gives it,
 * in the list's order, and where a code arises when that is one place. The
 * words here only add what a code carries and what a client does about it.
 */
import { type ErrorScope, errors } from '../../board/model/errors.js';
import { MAX_BODY_BYTES } from '../../schema/limits.js';
import { MODERN_REVISION } from '../kit/mcp-revisions.js';

type Entry = { status: number; code: string; scope?: ErrorScope };

/** What follows a code: the body fields it adds in braces, what it means in parentheses. */
const NOTES: Partial<Record<keyof typeof errors, string>> = {
  invalidPayload: '({field, reason})',
  importQuotaExceeded: '(import)',
  invalidCursor: '(a cursor of another read or board)',
  badRequest: '(a 4xx the HTTP framework raised itself, with its own status)',
  boardLocked: '{locked, lockMode, keyState: missing|wrong} (send the access key in X-Board-Key)',
  invalidKey: '{keyState: missing|wrong} (lock changes)',
  hostNotAllowed: "(a Host that is not this server's: DNS-rebinding check)",
  lockConflict: '(the lock changed meanwhile: reload and retry)',
  idempotencyKeyInUse: '(a request with this idempotency key still runs: retry once it has answered)',
  historyGone: '(the version or ETag a change list starts from is no longer stored: read the whole board again)',
  quotaExceeded: '{kind, detail}',
  payloadTooLarge: `(body over ${MAX_BODY_BYTES / 2 ** 20} MiB)`,
  unsupportedMediaType: '(send JSON)',
  idempotencyKeyReused: '(the idempotency key came with another request)',
  rateLimited: '{retryAfterSeconds}',
  tooManyConnections: '(too many sockets from one client)',
  storageUnavailable: '(the change was not stored; retry later)',
  outcomeUnknown:
    '(the storage stopped answering after the change was sent: it may be stored; retry with the same Idempotency-Key, or read)',
  previewUnavailable:
    '{reason: timeout|crashed|busy} (a preview, or a write or import of a Mermaid diagram not laid out before: not done in time, its thread stopped, too many waiting; nothing was stored; retry later)',
  notReady: '{reasons}',
};

/** The statuses with a response of their own; every other one is the `Failure` default. */
export const ERROR_STATUSES = [400, 401, 403, 404, 405, 409, 410, 413, 415, 429] as const;

/** Words of a status beyond its codes: before them, and after. */
const AROUND: Partial<Record<number, { before?: string; after?: string }>> = {
  400: { before: 'Invalid request: ' },
  404: { after: '; on a WebSocket route, a plain GET (no Upgrade) gets 404 with no body' },
  405: { before: `GET or DELETE /mcp without a 2025 session: the ${MODERN_REVISION} revision uses POST only` },
};

/** The codes an HTTP answer carries, with their status: those of frames, JSON-RPC bodies and the browser are not. */
const ANSWERED = (Object.entries(errors) as [keyof typeof errors, Entry][]).filter(
  ([, entry]) => entry.scope?.statusSent !== false,
);

function item(name: keyof typeof errors, { code, scope }: Entry, status?: number): string {
  return [scope && `on ${scope.on}`, status, `\`${code}\``, NOTES[name]].filter(Boolean).join(' ');
}

const or = (items: string[]) =>
  items.length > 1 ? `${items.slice(0, -1).join(', ')}, or ${items.at(-1)}` : items.join('');

/** The description of a status's response. */
export function errorDescription(status: number): string {
  const items = ANSWERED.filter(([, entry]) => entry.status === status).map(([name, entry]) => item(name, entry));
  const { before = '', after = '' } = AROUND[status] ?? {};
  return `${before}${or(items)}${after}`;
}

/** The `default` response: every code of a status without a response of its own, its status before it. */
export const FAILURE = `Any other failure, with the same body: ${or(
  ANSWERED.filter(([, entry]) => !(ERROR_STATUSES as readonly number[]).includes(entry.status))
    .sort(([, a], [, b]) => a.status - b.status)
    .map(([name, entry]) => item(name, entry, entry.status)),
)}`;
