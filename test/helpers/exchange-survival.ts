/**
 * Run by test/sdk-patches.test.ts in a child process under `--trace-gc-nvp`:
 * stateless 2026-07-28 `tools/call` exchanges through the SDK's
 * `createMcpHandler` and our board server (its `add_text` answering at once,
 * so no board is needed), ten in flight, between two markers, so the test can
 * sum what the young-generation collections in between kept alive. Prints
 * `MARK-START`, then `MARK-END <calls>`.
 */
import { createMcpHandler } from '@modelcontextprotocol/server';
import { boardServer, MODERN_REVISION } from '../../adapters/mcp/handlers.js';
import { RequestMemory } from '../../adapters/mcp/memory.js';
import { TOOLS } from '../../adapters/mcp/tools.js';

const boardId = crypto.randomUUID();
const id = crypto.randomUUID();
const answer = { id, kind: 'text', x: 1, y: 10, content: 'an edited note', etag: '"e"', board_id: boardId };
(TOOLS as Record<string, unknown>).add_text = { ...TOOLS.add_text, run: async () => answer };
const handler = createMcpHandler(() => boardServer({} as never, new RequestMemory(), 'modern', 'http://localhost'), {
  legacy: 'reject',
});
const meta = {
  'io.modelcontextprotocol/protocolVersion': MODERN_REVISION,
  'io.modelcontextprotocol/clientInfo': { name: 'survival', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const headers = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-method': 'tools/call',
  'mcp-name': 'add_text',
  'mcp-protocol-version': MODERN_REVISION,
};
let next = 0;
async function call(): Promise<void> {
  const n = ++next;
  const body = {
    jsonrpc: '2.0',
    id: n,
    method: 'tools/call',
    params: {
      name: 'add_text',
      arguments: { board_id: boardId, id, x: n % 500, y: 10, content: `revision ${n}` },
      _meta: meta,
    },
  };
  const response = await handler.fetch(new Request('http://localhost/mcp', { method: 'POST', headers }), {
    parsedBody: body,
  });
  if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
}
const run = (calls: number) =>
  Promise.all(
    Array.from({ length: 10 }, async () => {
      for (let k = 0; k < calls / 10; k++) await call();
    }),
  );
const CALLS = Number(process.argv[2] ?? 20_000);
await run(CALLS / 2);
console.log('MARK-START');
await run(CALLS);
console.log(`MARK-END ${CALLS} 0`);
await handler.close();
