/**
 * MCP: `tools/call add_text` on both eras, throughput and latency, against
 * the same write over REST in the same loop shape (10 concurrent callers,
 * each awaiting its answer before the next call): a 2025 session through the
 * v1 SDK client, and stateless 2026-07-28 requests through the v2 client.
 */
import { rm } from 'node:fs/promises';
import { tempDataDir, testEnv } from '../../test/helpers/child-server.js';
import { connectMcp, connectModernMcp, type McpClient } from '../../test/helpers/mcp.js';
import { spawnReady } from '../lib/processes.js';
import type { Section } from '../lib/report.js';
import { ms, ratio, summarize } from '../lib/stats.js';

const CALLERS = 10;

async function loop(seconds: number, call: (caller: number, i: number) => Promise<unknown>): Promise<{ rps: number; latencies: number[] }> {
  const latencies: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: CALLERS }, async (_, caller) => {
      for (let i = 0; performance.now() < deadline; i++) {
        const started = performance.now();
        await call(caller, i);
        latencies.push(performance.now() - started);
        done++;
      }
    }),
  );
  return { rps: done / seconds, latencies };
}

export async function mcpScenario(quick: boolean): Promise<Section> {
  const seconds = quick ? 3 : 10;
  const dir = await tempDataDir();
  const server = await spawnReady('server/app/main.ts', testEnv(dir));
  try {
    const legacy = await Promise.all(Array.from({ length: CALLERS }, () => connectMcp(server.url)));
    const modern: McpClient[] = await Promise.all(Array.from({ length: CALLERS }, () => connectModernMcp(server.url)));
    const { board_id } = await legacy[0].call('create_board', {});
    const texts = await Promise.all(legacy.map((c) => c.call('add_text', { board_id, x: 0, y: 0, content: 'start' })));
    const edit = (clients: McpClient[]) => (caller: number, i: number) =>
      clients[caller].call('add_text', { board_id, id: texts[caller].id, x: i % 500, y: 10, content: `an edited note, revision ${i}` });
    const viaLegacy = await loop(seconds, edit(legacy));
    const viaModern = await loop(seconds, edit(modern));
    const viaRest = await loop(seconds, (caller, i) =>
      fetch(`${server.url}/api/boards/${board_id}/texts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: texts[caller].id, x: i % 500, y: 10, content: `an edited note, revision ${i}` }) }).then((r) => r.arrayBuffer()),
    );
    await Promise.all([...legacy, ...modern].map((c) => c.close()));
    const [session, stateless, rest] = [summarize(viaLegacy.latencies), summarize(viaModern.latencies), summarize(viaRest.latencies)];
    const ofRest = (rps: number) => `${((rps / viaRest.rps) * 100).toFixed(0)}% of REST`;
    return {
      title: 'MCP tools/call add_text',
      baseline: `the same write over REST (POST /texts) in the same loop shape: ${CALLERS} concurrent callers, one request at a time each.`,
      rows: [
        { measure: 'throughput, 2025 session (calls/s)', ours: viaLegacy.rps.toFixed(0), baseline: viaRest.rps.toFixed(0), ratio: ofRest(viaLegacy.rps) },
        { measure: 'throughput, 2026-07-28 stateless (calls/s)', ours: viaModern.rps.toFixed(0), baseline: viaRest.rps.toFixed(0), ratio: ofRest(viaModern.rps) },
        { measure: 'latency p50, 2025 session', ours: ms(session.p50), baseline: ms(rest.p50), ratio: ratio(session.p50, rest.p50) },
        { measure: 'latency p50, 2026-07-28', ours: ms(stateless.p50), baseline: ms(rest.p50), ratio: ratio(stateless.p50, rest.p50) },
        { measure: 'latency p99, 2025 session', ours: ms(session.p99), baseline: ms(rest.p99), ratio: ratio(session.p99, rest.p99) },
        { measure: 'latency p99, 2026-07-28', ours: ms(stateless.p99), baseline: ms(rest.p99), ratio: ratio(stateless.p99, rest.p99) },
      ],
      notes: [`${seconds} s each; the SDK clients (v1 for the session, v2 pinned to 2026-07-28 for stateless requests; Streamable HTTP, JSON responses) and fetch run in the benchmark process, the server in its own; one board, each caller updating its own text.`],
    };
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
