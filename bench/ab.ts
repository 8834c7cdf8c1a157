/**
 * `npm run bench:ab -- <checkout A> <checkout B>`: the user-facing figures of two
 * built checkouts of the service (`npm ci` and `npm run build` done in each),
 * measured in alternating turns on this machine, and a table of A's median,
 * B's median, B/A and each side's spread over its turns. Writes
 * bench/AB-RESULTS.md. Timings are measured, never asserted.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { NOTIFICATION_DEBOUNCE_MS } from '../schema/limits.js';
import { tempDataDir, testEnv } from '../test/helpers/child-server.js';
import { connectMcp } from '../test/helpers/mcp.js';
import { sessionCalls, statelessCalls, type WireCall } from './lib/mcp-wire.js';
import { type Spawned, spawnCheckout } from './lib/processes.js';
import { machine } from './lib/report.js';
import { summarize } from './lib/stats.js';
import { measureOurs } from './scenarios/fanout.js';
import { loop } from './scenarios/mcp.js';
import { load, prepare } from './scenarios/writes.js';

/** Turns per checkout; each turn starts both services afresh, so a turn's figures are independent of the last's. */
const TURNS = 4;
const LOAD_SECONDS = 5;
/** V8 is still optimising a new load's paths during its first seconds (the writes scenario's warm-up). */
const WARM_UP_SECONDS = 3;
/** What a load's bursts leave for later (stores, versions, notifications) is done before the other checkout's. */
const QUIET_MS = NOTIFICATION_DEBOUNCE_MS + 1_000;
const FANOUT_CLIENTS = 100;
const FANOUT_ROUNDS = 30;
const MCP_CALLERS = 10;

type Figure = { name: string; higherIsBetter: boolean };
const FIGURES: Figure[] = [
  { name: 'REST write, one board: req/s', higherIsBetter: true },
  { name: 'REST write, one board: p99 ms', higherIsBetter: false },
  { name: 'REST write, one board: server CPU µs/write', higherIsBetter: false },
  { name: 'REST write, 100 boards: req/s', higherIsBetter: true },
  { name: 'REST write, 100 boards: p99 ms', higherIsBetter: false },
  { name: 'REST write, 100 boards: server CPU µs/write', higherIsBetter: false },
  { name: 'MCP add_text, 2025 session: calls/s', higherIsBetter: true },
  { name: 'MCP add_text, 2025 session: server CPU µs/call', higherIsBetter: false },
  { name: 'MCP add_text, 2026-07-28 stateless: calls/s', higherIsBetter: true },
  { name: 'MCP add_text, 2026-07-28 stateless: server CPU µs/call', higherIsBetter: false },
  { name: `fan-out, ${FANOUT_CLIENTS} JSON clients: p99 ms from the response`, higherIsBetter: false },
  { name: `fan-out, ${FANOUT_CLIENTS} Yjs clients: p99 ms from the response`, higherIsBetter: false },
];
type Turn = Record<string, number>;

const TICK_SECONDS = 1 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));

/** User and system CPU seconds a process has used so far (Linux). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_SECONDS;
}

/** One checkout's service, fresh, with what each figure loads prepared. */
type Service = {
  server: Spawned;
  dir: string;
  oneBoard: { path: string; id: string }[];
  hundredBoards: { path: string; id: string }[];
  session: (caller: number, i: number) => Promise<unknown>;
  stateless: (caller: number, i: number) => Promise<unknown>;
  close(): Promise<void>;
};

async function startService(root: string): Promise<Service> {
  const dir = await tempDataDir();
  const server = await spawnCheckout(
    root,
    testEnv(dir, { MAX_SOCKETS_PER_IP: '5000', MAX_CONNECTIONS_PER_IP: '5000' }),
  );
  const oneBoard = await prepare(server.url, 1);
  const hundredBoards = await prepare(server.url, 100);
  const mcpTexts = await prepare(server.url, 1).then(([{ path }]) =>
    Promise.all(Array.from({ length: MCP_CALLERS }, () => prepareText(server.url, path))),
  );
  const clients = await Promise.all(Array.from({ length: MCP_CALLERS }, () => connectMcp(server.url)));
  const edited = (caller: number, i: number) => ({
    board_id: mcpTexts[caller].board,
    id: mcpTexts[caller].id,
    x: i % 500,
    y: 10,
    content: `an edited note, revision ${i}`,
  });
  const via = (calls: WireCall[]) => (caller: number, i: number) => calls[caller]('add_text', edited(caller, i));
  const sessions = clients.map(({ transport }) =>
    sessionCalls(server.url, transport.sessionId!, transport.protocolVersion!),
  );
  const stateless = clients.map(() => statelessCalls(server.url));
  return {
    server,
    dir,
    oneBoard,
    hundredBoards,
    session: via(sessions),
    stateless: via(stateless),
    async close() {
      await Promise.all(clients.map((client) => client.close()));
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function prepareText(url: string, path: string): Promise<{ board: string; id: string }> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ x: 0, y: 0, content: 'start' }),
  });
  return { board: path.split('/')[3], id: (await response.json()).id };
}

/** A load's figures: its rate, and the server's CPU per operation over it. */
async function withCpu<T extends { rps: number }>(pid: number, run: () => Promise<T>) {
  const before = cpuSeconds(pid);
  const result = await run();
  const perOp = ((cpuSeconds(pid) - before) / (result.rps * LOAD_SECONDS)) * 1e6;
  return { ...result, perOp };
}

/** Each figure of one turn, taken on one service and then on the other, in `order`. */
async function turn(services: Service[], order: number[], turns: Turn[]): Promise<void> {
  const each = async (measure: (service: Service, into: Turn) => Promise<void>) => {
    for (const i of order) {
      await sleep(QUIET_MS);
      await measure(services[i], turns[i]);
    }
  };
  for (const [label, pick] of [
    ['one board', (s: Service) => s.oneBoard],
    ['100 boards', (s: Service) => s.hundredBoards],
  ] as const) {
    await each(async (service, into) => {
      await load(service.server.url, pick(service), WARM_UP_SECONDS);
      const measured = await withCpu(service.server.process.pid!, () =>
        load(service.server.url, pick(service), LOAD_SECONDS),
      );
      into[`REST write, ${label}: req/s`] = measured.rps;
      into[`REST write, ${label}: p99 ms`] = measured.p99;
      into[`REST write, ${label}: server CPU µs/write`] = measured.perOp;
    });
  }
  for (const [label, pick] of [
    ['2025 session', (s: Service) => s.session],
    ['2026-07-28 stateless', (s: Service) => s.stateless],
  ] as const) {
    await each(async (service, into) => {
      await loop(WARM_UP_SECONDS, pick(service));
      const measured = await withCpu(service.server.process.pid!, () => loop(LOAD_SECONDS, pick(service)));
      into[`MCP add_text, ${label}: calls/s`] = measured.rps;
      into[`MCP add_text, ${label}: server CPU µs/call`] = measured.perOp;
    });
  }
  for (const kind of ['json', 'yjs'] as const) {
    await each(async (service, into) => {
      const { fromResponse } = await measureOurs(service.server.url, kind, FANOUT_CLIENTS, FANOUT_ROUNDS);
      into[`fan-out, ${FANOUT_CLIENTS} ${kind === 'json' ? 'JSON' : 'Yjs'} clients: p99 ms from the response`] =
        summarize(fromResponse).p99;
    });
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const shown = (value: number) => (value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0));

/**
 * B differs from A only when their turns' ranges do not overlap: on a shared
 * machine a median's move inside the other side's range is noise.
 */
function renderTable(roots: string[], turns: Turn[][]): string {
  const lines = [
    `| figure | A median | B median | B/A | A turns (min-max) | B turns (min-max) | B/A by turn, median (min-max) | B vs A |`,
    '|---|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const { name, higherIsBetter } of FIGURES) {
    const [a, b] = turns.map((side) => side.map((turn) => turn[name]));
    const [ma, mb] = [median(a), median(b)];
    const apart = Math.max(...a) < Math.min(...b) || Math.max(...b) < Math.min(...a);
    const better = higherIsBetter === mb > ma;
    const verdict = apart ? (better ? 'B better' : 'B worse') : 'within spread';
    const range = (side: number[]) => `${shown(Math.min(...side))}-${shown(Math.max(...side))}`;
    // A turn's A and B ran minutes apart at most, so their ratio cancels the slower spells they shared.
    const paired = a.map((value, i) => b[i] / value);
    const pairedShown = `${median(paired).toFixed(2)} (${Math.min(...paired).toFixed(2)}-${Math.max(...paired).toFixed(2)})`;
    lines.push(
      `| ${name} | ${shown(ma)} | ${shown(mb)} | ${(mb / ma).toFixed(3)} | ${range(a)} | ${range(b)} | ${pairedShown} | ${verdict} |`,
    );
  }
  return [
    `A: ${roots[0]}`,
    `B: ${roots[1]}`,
    '',
    `${machine()}; ${TURNS} turns each, A and B alternating (ABBA); each turn starts both services afresh; ` +
      `${LOAD_SECONDS} s per load figure after ${WARM_UP_SECONDS} s of the same load, ${QUIET_MS / 1000} s of quiet before each; ` +
      `autocannon with 10 connections for REST, ${MCP_CALLERS} fetch callers for MCP, ` +
      `${FANOUT_ROUNDS} writes to ${FANOUT_CLIENTS} clients for fan-out.`,
    '',
    ...lines,
    '',
  ].join('\n');
}

const roots = process.argv.slice(2).map((path) => resolve(path));
if (roots.length !== 2 || roots.some((root) => !existsSync(join(root, 'dist')))) {
  console.error('usage: npm run bench:ab -- <checkout A> <checkout B>  (each built with npm run build)');
  process.exit(2);
}
const turns: Turn[][] = [[], []];
for (let t = 0; t < TURNS; t++) {
  // A then B, then B then A: neither always follows the other's leftovers.
  const order = t % 2 === 0 ? [0, 1] : [1, 0];
  const services: Service[] = [];
  try {
    for (const root of roots) services.push(await startService(root));
    const current: Turn[] = [{}, {}];
    await turn(services, order, current);
    turns[0].push(current[0]);
    turns[1].push(current[1]);
  } finally {
    for (const service of services) await service.close();
  }
  console.log(`bench:ab: turn ${t + 1} of ${TURNS}: ${JSON.stringify(turns.map((side) => side[t]))}`);
}
const table = renderTable(roots, turns);
console.log(table);
const file = join(dirname(fileURLToPath(import.meta.url)), 'AB-RESULTS.md');
await writeFile(file, `# A/B\n\n${table}`);
console.log(`bench:ab: wrote ${file}`);
