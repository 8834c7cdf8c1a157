/** The hand-written sections of docs/api.md: what no schema says. */
import { maxHeaderSize } from 'node:http';
import { IDEMPOTENCY_RETENTION_MS } from '../../host/boards/idempotency.js';
import { MAX_IDEMPOTENCY_KEY_CHARS } from '../../schema/common.js';
import { MAX_BODY_BYTES, READ_PAGE_MAX_BYTES, RETRY_AFTER_SECONDS } from '../../schema/limits.js';

export const INTRO = `# API reference

Everything the service answers, in one page: every HTTP route, every MCP tool,
both WebSocket channels, every error code and every limit. Most of it is
generated from the code the server runs (\`npm run docs:api\`
writes this file; \`test/api-docs.test.ts\` fails when it is out of date), so it
says what the server does, not what it once meant to. The same routes are
served machine-readable at \`GET /openapi.json\` (OpenAPI 3.1), the limits at
\`GET /quotas.json\`, the MCP tools at \`tools/list\` and in the server card
\`/.well-known/mcp.json\`.

Deeper pages: [realtime.md](realtime.md) (the WebSocket channels and the long
poll), [mcp.md](mcp.md) (the MCP endpoint, its two protocol eras, its errors),
[security.md](security.md) (keys, locks, guessing), [history.md](history.md)
(versions, changes, restore), [titles.md](titles.md) (board titles) and
[choices.md](choices.md) (what this implementation chose where its contract is
silent).`;

export const CONVENTIONS = `## Conventions

- \`{base_url}\` is where the server runs (\`http://127.0.0.1:3000\` by default,
  or its \`PUBLIC_URL\`). Paths carry no version segment.
- A board id is a UUID, minted by the server. There are no accounts: whoever
  knows a board id can read and write the board, unless it is locked.
- A person opens a board at \`{base_url}/#<boardId>\`; a read-only embed is
  \`{base_url}/?embed=1#<boardId>\`.
- Request bodies are JSON (\`Content-Type: application/json\`; anything else is
  415), at most ${MAX_BODY_BYTES} bytes (${MAX_BODY_BYTES / 2 ** 20} MiB). Unknown fields are refused with
  the field named.
- Writes that take an \`id\` update the item it names, or create one with a
  fresh UUID when it is absent.
- A text or link write (REST, MCP \`add_text\`/\`add_link\`, the JSON
  channel's ack) answers the item with \`bbox: {x, y, width, height}\`: the box
  it is laid out in, in board px, as the app and the preview draw it (within a
  few px of the app; a Mermaid text as big as the preview draws it), so arrows
  and neighbours can be placed without guessing. A text's own \`width\` is
  only the one it was given; \`bbox\` sent back is taken and dropped. An image
  answers its \`width\` and \`height\`, its laid-out size.
- Every item carries an \`author\` tag, set at creation and never changed:
  \`user:<uuid>\` from the browser, \`ai:rest\` by default on REST, \`ai:…\` on
  MCP, \`ai:import\` on import. A write may pass its own \`author\`.
- Every public endpoint sends \`Access-Control-Allow-Origin: *\` and answers
  the CORS preflight; \`X-Import-Token\` is not a header a browser may send.
- Reads that return a snapshot send an \`ETag\`; with \`If-None-Match\` matching
  they answer 304.
- Pages: \`GET /json/{boardId}\` is always the whole snapshot, and
  \`GET /changes\` the whole change list unless a \`limit\` asks for pages of
  at most that many items. \`GET /items\` (find_items) answers at most ${READ_PAGE_MAX_BYTES / 1024} KB and
  \`limit\` items. A paged answer keeps its shape and adds \`next_cursor\`
  while more remain; pass it back as \`cursor\` (with the same query) for the
  next page. A cursor is opaque, bound to its route and board (another one is
  400 \`invalid_cursor\`), and continues after the last item it saw, so the
  pages hold every item once. \`GET /versions\` pages with \`before\` and
  \`next\` (docs/history.md). MCP reads page by bytes (docs/mcp.md, "Pages").`;

export const KEYS = `## Keys and locks

A board may be locked with an access key (8 letters and digits; 6-character
legacy keys still open their boards; any case). The server keeps only a hash:
the key is shown once, by \`POST /api/boards/{boardId}/lock\` or as
\`access_key\` when a board is created with \`lock\`, and cannot be recovered.

| Lock mode | Reads | Writes |
|---|---|---|
| none | anyone | anyone |
| \`write\` | anyone | with the key |
| \`all\` | with the key | with the key |

Where the key travels:

| Surface | Channel |
|---|---|
| REST | header \`X-Board-Key\` (the \`boardKey\` security scheme of /openapi.json) |
| MCP | tool argument \`access_key\` (what a model uses), or header \`X-Board-Key\` |
| \`/ws/{boardId}\` | subprotocol \`svc-key.<key>\`, echoed in the 101 (\`?key=\` works but is deprecated: it leaks into access logs) |
| \`/collab\` | the Hocuspocus token |

Without the key a locked board answers 401 \`board_locked\` with
\`{locked: true, lockMode}\` and a Bearer challenge; a wrong key to change a
lock is 403 \`invalid_key\`. Wrong keys are budgeted per client and board: past
a few, a client waits (429 \`rate_limited\` with the exact
\`retryAfterSeconds\`) before another of its keys is checked. See
[security.md](security.md).

\`X-Import-Token\` (server to server) selects higher rate tiers when it matches
the operator's secret; it never opens a lock. A token that does not match is
403 \`invalid_import_token\`.`;

export const EXAMPLES = `## Examples

\`\`\`sh
BASE=http://127.0.0.1:3000

# Create a draw board (the answer is {"id": "...", "mode": "draw"})
BOARD=$(curl -s -X POST $BASE/api/boards -H 'Content-Type: application/json' -d '{"mode":"draw"}' | sed 's/.*"id":"\\([^"]*\\)".*/\\1/')

# Add a post-it, a stroke and a link
curl -s -X POST $BASE/api/boards/$BOARD/texts -H 'Content-Type: application/json' -d '{"x":40,"y":40,"content":"Hello","postit":true}'
curl -s -X POST $BASE/api/boards/$BOARD/strokes -H 'Content-Type: application/json' -d '{"points":[[0,0],[120,40]],"color":"blue"}'
curl -s -X POST $BASE/api/boards/$BOARD/links -H 'Content-Type: application/json' -d '{"x":40,"y":200,"url":"https://example.org/"}'

# Read it: the JSON snapshot (ETag-aware) and the schematic SVG
curl -s $BASE/json/$BOARD
curl -s $BASE/svg-preview/$BOARD -o board.svg

# Wait for the next edits (long poll), then ask what changed
curl -s "$BASE/api/boards/$BOARD/wait?timeout_ms=25000"
curl -s "$BASE/api/boards/$BOARD/changes?since_etag=<etag from wait>"

# Lock it for writes: the key is in the answer, once
curl -s -X POST $BASE/api/boards/$BOARD/lock -H 'Content-Type: application/json' -d '{"mode":"write"}'
curl -s -X POST $BASE/api/boards/$BOARD/texts -H 'Content-Type: application/json' -H 'X-Board-Key: <key>' -d '{"x":0,"y":0,"content":"with the key"}'

# A todo board from a template, a task in its first column, the tasks as CSV
TODO=$(curl -s -X POST $BASE/api/boards -H 'Content-Type: application/json' -d '{"mode":"todo","template":"kanban"}' | sed 's/.*"id":"\\([^"]*\\)".*/\\1/')
COLUMN=$(curl -s $BASE/json/$TODO | sed 's/.*"columns":\\[{"id":"\\([^"]*\\)".*/\\1/')
curl -s -X POST $BASE/api/boards/$TODO/tasks -H 'Content-Type: application/json' -d "{\\"column_id\\":\\"$COLUMN\\",\\"name\\":\\"Write the docs\\",\\"priority\\":\\"H\\"}"
curl -s $BASE/api/boards/$TODO/tasks.csv

# MCP (2025 session): initialize, then call a tool with the session id
curl -si -X POST $BASE/mcp -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \\
  -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}'
curl -s -X POST $BASE/mcp -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' -H 'Mcp-Session-Id: <id>' \\
  -d '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add_text","arguments":{"board_id":"'$BOARD'","x":0,"y":0,"content":"from MCP"}}}'
\`\`\`

A JSON-channel session (\`/ws/{boardId}\`) is shown frame by frame in
[realtime.md](realtime.md#example-session); the MCP eras in [mcp.md](mcp.md).`;

export const ERRORS_INTRO = `## Errors

Every refusal has one JSON body on REST: \`{error, code, ...details, requestId}\`, where
\`error\` is for people and \`code\` for programs; details such as \`field\` and
\`reason\` sit beside them, and \`requestId\` (also in the \`X-Request-Id\` header) names
the request's line in the server log ([operations.md](operations.md#logs)). Bad input changes nothing. The same error reaches
each surface through one mapper:

- **REST**: the status below and the body; 401 adds \`WWW-Authenticate: Bearer\`,
  429 adds \`Retry-After\`, the same whole seconds as \`retryAfterSeconds\`: what is left of the
  rate limit's window, rounded up (at least 1, at most ${RETRY_AFTER_SECONDS} for the per-board limits), or
  the exact wait for a wrong-key backoff.
- **MCP**: on 2026-07-28 a refused tool call is a tool result with
  \`isError: true\` whose text is the same body plus \`next\` (what to do next); on the
  2025 revisions -32001 for a lock, -32000 for rate limits, quotas and the
  like, -32602 for an unknown board or invalid arguments
  ([mcp.md](mcp.md#errors)).
- **\`/ws/{boardId}\`**: an \`error\` frame \`{type: "error", code, message, ref?, ...details}\`;
  refusals before the upgrade are HTTP answers (401, 404, 429).
- **\`/collab\`**: a close code (below).

Beyond what each route lists, any route may answer 431 (headers or URL over
Node's ${maxHeaderSize / 1024} KiB, refused before the route runs, with Fastify's own body
\`{error, message, statusCode}\`), 500 \`internal_error\`, 503
\`storage_unavailable\` (nothing was stored; retry) and 503 \`outcome_unknown\`
(the storage stopped answering after the change was sent: it may or may not be
stored; retry with the same idempotency key, or read to find out). Another 4xx that the HTTP
framework raises itself is \`bad_request\`, with that status.

### Safe retries

Every write (REST \`POST\`/\`PUT\`/\`PATCH\`/\`DELETE\` under \`/api/boards\`
except \`verify-key\`, an MCP \`tools/call\`, a JSON-channel mutation or batch
frame) may carry an idempotency key, as the IETF httpapi Idempotency-Key draft
has it: the \`Idempotency-Key\` header (a structured-field string, quoted or
not), \`params._meta.idempotencyKey\` on MCP, \`idempotencyKey\` beside \`ref\`
on a frame (a \`ref\` is only echoed, never a key). A key is 1 to ${MAX_IDEMPOTENCY_KEY_CHARS} visible
ASCII characters (else 400 \`invalid_idempotency_key\`); use a fresh UUID per
write. The answer of a write sent with a key is stored in the same commit as the
change, for at least ${IDEMPOTENCY_RETENTION_MS / 3_600_000} hours, where every instance finds it. The same key with
the same request (method, route, board and body, keys in any order) answers that
first answer again, with \`Idempotent-Replayed: true\` on REST (a frame gets the
first \`ack\` under its own \`ref\`), and changes nothing more; with another
request, 422 \`idempotency_key_reused\`; while the first still runs, 409
\`idempotency_key_in_use\`. A refused write stores nothing, so its retry runs
afresh. A replay counts against the board's rate limit but is not checked
against a lock set since: it only repeats what its sender was already told.
Keys are scoped per board; board creation has a scope of its own. The
stored answer is sealed with a key derived from the idempotency key (it may hold
a board's access key). A restore stores its answer just after its change
rather than with it (it records versions around the change): should that fail,
its retry restores again, to the same state.

Every code, from the list in \`board/model/errors.ts\` (values in angle
brackets stand for the request's own; *Where* names the one place a code
arises, and – stands for a status that no HTTP answer carries):`;

export const LIMITS_INTRO = `## Limits

Per-board quotas are the same for the browser, REST, MCP and the JSON channel;
a write over one is refused (413 \`quota_exceeded\`, or 400 on import) and
changes nothing. Rate limits answer 429 \`rate_limited\` with \`Retry-After\`.
REST and MCP limits are counted per serving instance; WebSocket frame limits
per board. Choices behind the limits the contract leaves open are in
[choices.md](choices.md#limits-the-specification-leaves-open).`;
