/**
 * Live fan-out: a REST write on a board, then the time until its `op` frame
 * reaches each of N JSON-channel clients and its update each of N Yjs clients.
 * Baseline: a plain Hocuspocus server relaying an update of the same size from
 * one provider to N others. The server runs in a child process; all clients
 * in this one.
 */
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { startChildServer, tempDataDir } from '../../test/helpers/child-server.js';
import { closeProviders, jsonClients, provider, type Provider } from '../lib/clients.js';
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

async function startPlainHocuspocus(): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(process.cwd(), 'bench/baselines/plain-hocuspocus.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).on('line', (line) => {
    const match = /ready at (\S+)/.exec(line);
    if (match) resolve(match[1]);
  }));
  return { url, stop: () => new Promise((resolve) => { child.once('exit', () => resolve()); child.kill('SIGTERM'); }) };
}

/** Ours: REST write → op frames at N JSON clients, and the update at N Yjs clients. */
async function measureOurs(baseUrl: string, n: number, rounds: number) {
  const board = (await (await fetch(`${baseUrl}/api/boards`, { method: 'POST' })).json()).id as string;
  const arrivals = new Map<string, number[]>();
  const sockets = await jsonClients(baseUrl, board, n, (frame, at) => arrivals.get(frame.item?.content)?.push(at));
  const providers: Provider[] = Array.from({ length: n }, () => provider(`${baseUrl.replace(/^http/, 'ws')}/collab`, board));
  await Promise.all(providers.map((p) => p.synced));
  const json: number[] = [];
  const yjs: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const content = `${CONTENT} #${round}`;
    arrivals.set(content, []);
    const yjsArrivals: number[] = [];
    const listeners = providers.map((p) => {
      const listener = () => {
        for (const item of p.doc.getMap<any>('texts').values()) if (item.content === content) return void yjsArrivals.push(performance.now());
      };
      p.doc.getMap('texts').observe(listener);
      return () => p.doc.getMap('texts').unobserve(listener);
    });
    const sent = performance.now();
    await fetch(`${baseUrl}/api/boards/${board}/texts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ x: round, y: 0, content }) }).then((r) => r.arrayBuffer());
    await waitFor(() => arrivals.get(content)!.length >= n && yjsArrivals.length >= n);
    json.push(...arrivals.get(content)!.map((at) => at - sent));
    yjs.push(...yjsArrivals.map((at) => at - sent));
    listeners.forEach((off) => off());
  }
  sockets.forEach((socket) => socket.close());
  closeProviders(providers);
  return { json: summarize(json), yjs: summarize(yjs) };
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
    const listeners = readers.map((p) => {
      const listener = () => {
        for (const item of p.doc.getMap<any>('texts').values()) if (item.content === content) return void got.push(performance.now());
      };
      p.doc.getMap('texts').observe(listener);
      return () => p.doc.getMap('texts').unobserve(listener);
    });
    const sent = performance.now();
    writer.doc.getMap('texts').set(`t${round}`, { id: `t${round}`, x: round, y: 0, content, author: 'user:bench', last_updated: new Date().toISOString() });
    await waitFor(() => got.length >= n);
    samples.push(...got.map((at) => at - sent));
    listeners.forEach((off) => off());
  }
  closeProviders([writer, ...readers]);
  return summarize(samples);
}

export async function fanoutScenario(quick: boolean): Promise<Section> {
  const sizes = quick ? [1, 100] : [1, 100, 500];
  const rounds = quick ? 5 : 20;
  const dataDir = await tempDataDir();
  const ours = await startChildServer(dataDir, { RATE_LIMITS: 'off' });
  const plain = await startPlainHocuspocus();
  const rows: Row[] = [];
  try {
    for (const n of sizes) {
      const measured = await measureOurs(ours.url, n, rounds);
      const baseline = await measureBaseline(plain.url, n, rounds);
      for (const [label, summary] of [['JSON', measured.json], ['Yjs', measured.yjs]] as const) {
        rows.push({ measure: `${label} clients, N=${n}: p50`, ours: ms(summary.p50), baseline: ms(baseline.p50), ratio: ratio(summary.p50, baseline.p50), note: `${summary.n} deliveries` });
        rows.push({ measure: `${label} clients, N=${n}: p99`, ours: ms(summary.p99), baseline: ms(baseline.p99), ratio: ratio(summary.p99, baseline.p99), note: label === 'JSON' ? 'target p99 < 50 ms at N=500' : 'target within 1.5x of plain Hocuspocus' });
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
    baseline: 'a plain Hocuspocus server (no persistence, rules or JSON channel) relaying an update of the same size from one provider to N providers.',
    rows,
    notes: [
      'Ours: time from sending a REST `POST /texts` to the `op` frame at each JSON client and the update at each Yjs client (both kinds connected at once, so each figure includes the other\'s fan-out); the REST path adds validation, the journal commit and the HTTP response.',
      'Clients and the measuring run in the benchmark process; each server in its own process; loopback only.',
    ],
  };
}
