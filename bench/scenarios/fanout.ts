/**
 * Live fan-out: a REST write on a board, then the time until its `op` frame
 * reaches each of N JSON-channel clients and its update each of N Yjs clients.
 * Baseline: a plain Hocuspocus server relaying an update of the same size from
 * one provider to N others. The server runs in a child process; all clients
 * in this one.
 */
import { rm } from 'node:fs/promises';
import { tempDataDir, testEnv } from '../../test/helpers/child-server.js';
import { closeProviders, contentOf, jsonClients, type Provider, provider, textsOf, writeText } from '../lib/clients.js';
import { spawnReady, spawnService } from '../lib/processes.js';
import type { Row, Section } from '../lib/report.js';
import { ms, ratio, summarize } from '../lib/stats.js';

const CONTENT = 'A sticky note of about a hundred characters, the size of a typical edit on a board, no more.';

async function waitFor(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('fan-out did not complete in time');
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/** Pushes the time at which each provider first sees a text with this content; returns the unsubscribers. */
function recordArrivals(providers: Provider[], content: string, got: number[]): (() => void)[] {
  return providers.map((p) => {
    let heard = false;
    return textsOf(p).observe((changes) => {
      if (!heard && changes.some((change) => contentOf(change.after) === content)) {
        heard = true;
        got.push(performance.now());
      }
    });
  });
}

type Fanout = { fromSend: number[]; fromResponse: number[] };

/**
 * Ours: a REST write, then its arrival at each of N clients of one kind, from
 * when the request was sent and from when its response came back. The clients
 * connect to `clientUrl`: another instance than the writer's, for the
 * cross-instance figure.
 */
export async function measureOurs(
  baseUrl: string,
  kind: 'json' | 'yjs',
  n: number,
  rounds: number,
  clientUrl = baseUrl,
): Promise<Fanout> {
  const board = (await (await fetch(`${baseUrl}/api/boards`, { method: 'POST' })).json()).id as string;
  const arrivals = new Map<string, number[]>();
  const sockets =
    kind === 'json'
      ? await jsonClients(clientUrl, board, n, (frame, at) => arrivals.get(frame.item?.content)?.push(at))
      : [];
  const providers: Provider[] =
    kind === 'yjs'
      ? Array.from({ length: n }, () => provider(`${clientUrl.replace(/^http/, 'ws')}/collab`, board))
      : [];
  await Promise.all(providers.map((p) => p.synced));
  const result: Fanout = { fromSend: [], fromResponse: [] };
  for (let round = 0; round < rounds; round++) {
    const content = `${CONTENT} #${round}`;
    const got: number[] = [];
    arrivals.set(content, got);
    const listeners = recordArrivals(providers, content, got);
    const sent = performance.now();
    await fetch(`${baseUrl}/api/boards/${board}/texts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ x: round, y: 0, content }),
    }).then((r) => r.arrayBuffer());
    const answered = performance.now();
    await waitFor(() => got.length >= n);
    result.fromSend.push(...got.map((at) => at - sent));
    result.fromResponse.push(...got.map((at) => at - answered));
    for (const off of listeners) off();
  }
  for (const socket of sockets) socket.close();
  closeProviders(providers);
  return result;
}

/** Baseline: one provider writes an update of the same size; N others receive it through plain Hocuspocus. */
async function measureBaseline(url: string, n: number, rounds: number) {
  const name = `baseline-${n}`;
  const writer = provider(url, name);
  const readers = Array.from({ length: n }, () => provider(url, name));
  await Promise.all([writer, ...readers].map((p) => p.synced));
  const samples: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const content = `${CONTENT} #${round}`;
    const got: number[] = [];
    const listeners = recordArrivals(readers, content, got);
    const sent = performance.now();
    writeText(writer, { x: round, y: 0, content });
    await waitFor(() => got.length >= n);
    samples.push(...got.map((at) => at - sent));
    for (const off of listeners) off();
  }
  closeProviders([writer, ...readers]);
  return summarize(samples);
}

export async function fanoutScenario(quick: boolean): Promise<Section> {
  const sizes = quick ? [1, 100] : [1, 100, 500];
  const rounds = quick ? 5 : 100;
  const dataDir = await tempDataDir();
  const ours = await spawnService(
    testEnv(dataDir, { RATE_LIMITS: 'off', MAX_SOCKETS_PER_IP: '5000', MAX_CONNECTIONS_PER_IP: '5000' }),
  );
  const plain = await spawnReady('bench/baselines/plain-hocuspocus.ts');
  const rows: Row[] = [];
  try {
    for (const n of sizes) {
      const baseline = await measureBaseline(plain.url, n, rounds);
      for (const kind of ['json', 'yjs'] as const) {
        const measured = await measureOurs(ours.url, kind, n, rounds);
        const [send, response] = [summarize(measured.fromSend), summarize(measured.fromResponse)];
        const label = kind === 'json' ? 'JSON-channel' : 'Yjs';
        const target =
          kind === 'json' ? (n === 500 ? 'target p99 < 50 ms' : '') : 'target within 1.5x of plain Hocuspocus';
        // A negative time means the update reached the client before the response reached the writer.
        const versus = (value: number, base: number) => (value <= 0 ? 'before the response' : ratio(value, base));
        rows.push({
          measure: `${label} clients, N=${n}: from the response, p50`,
          ours: ms(response.p50),
          baseline: ms(baseline.p50),
          ratio: versus(response.p50, baseline.p50),
          note: `${response.n} deliveries`,
        });
        rows.push({
          measure: `${label} clients, N=${n}: from the response, p99`,
          ours: ms(response.p99),
          baseline: ms(baseline.p99),
          ratio: versus(response.p99, baseline.p99),
          note: target,
        });
        rows.push({
          measure: `${label} clients, N=${n}: from the request, p99`,
          ours: ms(send.p99),
          baseline: ms(baseline.p99),
          ratio: ratio(send.p99, baseline.p99),
          note: 'includes the whole REST write',
        });
      }
    }
  } finally {
    ours.process.kill('SIGTERM');
    await ours.exited;
    await plain.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
  return {
    title: 'Live fan-out',
    baseline:
      'a plain Hocuspocus server (no persistence, rules or JSON channel) relaying an update of the same size from one provider to N providers, timed from the write.',
    rows,
    notes: [
      'Ours: a REST `POST /texts`, then the time until its `op` frame reaches each JSON-channel client, or its update each Yjs client (one kind connected at a time), from when its response came back (the measure the targets are set on) and from when the request was sent (which adds validation, the journal commit and the HTTP round trip).',
      'A negative time from the response means the update reached the client before the response reached the writer: the server broadcasts before it answers.',
      'Clients and the measuring run in the benchmark process; each server in its own process; loopback only.',
    ],
  };
}
