/**
 * MCP: `tools/call add_text` on both eras, throughput and latency, against
 * the same write over REST in the same loop shape (10 concurrent callers,
 * each awaiting its answer before the next call). The target rows send the
 * SDK clients' own requests with `fetch`, as REST is sent (bench/lib/mcp-wire.ts):
 * the load generator shares the 2 cores with the server, and the SDK clients'
 * own CPU (about 1.5x fetch's per call) would otherwise be charged to the
 * server. The rows through the SDK clients (v1 for a 2025 session, v2 pinned
 * to 2026-07-28) are kept for reference.
 */
import { rm } from 'node:fs/promises';
import { tempDataDir, testEnv } from '../../test/helpers/child-server.js';
import { connectMcp, connectModernMcp, type McpClient } from '../../test/helpers/mcp.js';
import { sessionCalls, statelessCalls, type WireCall } from '../lib/mcp-wire.js';
import { spawnService } from '../lib/processes.js';
import type { Section } from '../lib/report.js';
import { ms, ratio, summarize } from '../lib/stats.js';

const CALLERS = 10;
/** Turns each way takes, its time split evenly between them. */
const ROUNDS = 3;

/** CALLERS callers, each calling again as soon as its answer is in, for `seconds`: calls a second and each call's latency. */
export async function loop(
  seconds: number,
  call: (caller: number, i: number) => Promise<unknown>,
): Promise<{ rps: number; latencies: number[] }> {
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
  const server = await spawnService(testEnv(dir));
  try {
    const legacy = await Promise.all(Array.from({ length: CALLERS }, () => connectMcp(server.url)));
    const modern: McpClient[] = await Promise.all(Array.from({ length: CALLERS }, () => connectModernMcp(server.url)));
    const { board_id } = await legacy[0].call('create_board', {});
    const texts = await Promise.all(legacy.map((c) => c.call('add_text', { board_id, x: 0, y: 0, content: 'start' })));
    const edited = (caller: number, i: number) => ({
      board_id,
      id: texts[caller].id,
      x: i % 500,
      y: 10,
      content: `an edited note, revision ${i}`,
    });
    const viaSdk = (clients: McpClient[]) => (caller: number, i: number) =>
      clients[caller].call('add_text', edited(caller, i));
    const viaWire = (calls: WireCall[]) => (caller: number, i: number) => calls[caller]('add_text', edited(caller, i));
    const sessions = legacy.map(({ transport }) =>
      sessionCalls(server.url, transport.sessionId!, transport.protocolVersion!),
    );
    const stateless = legacy.map(() => statelessCalls(server.url));
    const viaRest = (caller: number, i: number) => {
      const { board_id: _board, ...body } = edited(caller, i);
      return fetch(`${server.url}/api/boards/${board_id}/texts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.arrayBuffer());
    };
    const ways = {
      rest: viaRest,
      session: viaWire(sessions),
      stateless: viaWire(stateless),
      sdkSession: viaSdk(legacy),
      sdkStateless: viaSdk(modern),
    };
    // Every way warms up first, so the first measured one does not pay for the JIT alone; then the ways
    // take turns, so a slower spell of this shared machine (or a board grown by the earlier turns) is shared by all.
    for (const way of Object.values(ways)) await loop(0.5, way);
    const measured: Partial<Record<keyof typeof ways, { rps: number; latencies: number[] }>> = {};
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, way] of Object.entries(ways) as [keyof typeof ways, (typeof ways)[keyof typeof ways]][]) {
        const turn = await loop(seconds / ROUNDS, way);
        const sum = (measured[name] ??= { rps: 0, latencies: [] });
        sum.rps += turn.rps / ROUNDS;
        sum.latencies.push(...turn.latencies);
      }
    }
    await Promise.all([...legacy, ...modern].map((c) => c.close()));
    const rest = measured.rest!;
    const restLatency = summarize(rest.latencies);
    const ofRest = (rps: number) => `${((rps / rest.rps) * 100).toFixed(0)}% of REST`;
    const rows = (
      [
        ['2025 session', measured.session!],
        ['2026-07-28 stateless', measured.stateless!],
        ['2025 session, SDK v1 client', measured.sdkSession!],
        ['2026-07-28, SDK v2 client', measured.sdkStateless!],
      ] as const
    ).flatMap(([label, run]) => {
      const latency = summarize(run.latencies);
      return [
        {
          measure: `throughput, ${label} (calls/s)`,
          ours: run.rps.toFixed(0),
          baseline: rest.rps.toFixed(0),
          ratio: ofRest(run.rps),
        },
        {
          measure: `latency p50, ${label}`,
          ours: ms(latency.p50),
          baseline: ms(restLatency.p50),
          ratio: ratio(latency.p50, restLatency.p50),
        },
        {
          measure: `latency p99, ${label}`,
          ours: ms(latency.p99),
          baseline: ms(restLatency.p99),
          ratio: ratio(latency.p99, restLatency.p99),
        },
      ];
    });
    return {
      title: 'MCP tools/call add_text',
      baseline: `the same write over REST (POST /texts) with fetch in the same loop shape: ${CALLERS} concurrent callers, one request at a time each.`,
      rows,
      notes: [
        `${seconds} s each, in ${ROUNDS} turns taken in order by every way after a 0.5 s warm-up of each; the server in its own process, the callers in the benchmark's; one board, each caller updating its own text.`,
        "The first two rows (the target) send the JSON-RPC requests the SDK clients send, with fetch as REST is sent: the 2025 session is one the v1 client opened, the 2026-07-28 requests carry the same _meta envelope and Mcp-Method/Mcp-Name headers. The SDK-client rows add the clients' own CPU, on the 2 cores the server uses.",
      ],
    };
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
