/**
 * Soak: 200 boards under a steady, modest mixed load for 30 minutes (REST, MCP
 * through the SDK clients, JSON-channel frames, Yjs edits), every board
 * watched by a JSON-channel and a Yjs client, clients coming and going. Each
 * sample reads every instance's /metrics (memory, event-loop
 * delay, connections, sessions) and the window's delivery latency, from a
 * write's answer to its arrival at the watchers; the report gives each series'
 * slope per 10 minutes, so a leak shows as a number, and its last third against
 * its first. On demand only: `npm run bench -- --only=soak,soak-shared [--soak-minutes=N]`; `soak-shared`
 * runs two instances on the shared PostgreSQL and Redis.
 */
import { rm } from 'node:fs/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { tempDataDir, testEnv } from '../../test/helpers/child-server.js';
import { connectMcp, connectModernMcp, type McpClient } from '../../test/helpers/mcp.js';
import { asAdmin, freshClusterEnv, sharedServicesAvailable } from '../../test/helpers/shared-services.js';
import { Deliveries, type Tally } from '../lib/deliveries.js';
import { type Spawned, spawnService } from '../lib/processes.js';
import type { Row, Section } from '../lib/report.js';
import {
  type SocketWriter,
  socketWriter,
  tagged,
  type Watcher,
  watchJson,
  watchYjs,
  type YjsWatcher,
} from '../lib/soak-clients.js';
import { ms, summarize } from '../lib/stats.js';
import { afterWarmup, type Point, slopePer10Minutes, thirds } from '../lib/trend.js';

const BOARDS = 200;
/** Of every 12 writes: 7 REST, 2 MCP, 2 JSON-channel frames, 1 Yjs edit. */
const MIX = ['rest', 'mcp', 'rest', 'frame', 'rest', 'yjs', 'rest', 'mcp', 'rest', 'frame', 'rest', 'rest'] as const;
type Kind = (typeof MIX)[number];
const SOCKET_WRITERS = 20;
const MCP_CLIENTS = 4;
/** Writes in flight at most: past it the server is not keeping up, and the load does not pile on. */
const MAX_IN_FLIGHT = 64;
/** A write's deliveries not in by then are missed; its answer not in by then is an error. */
const DELIVERY_BOUND_MS = 10_000;
const ANSWER_BOUND_MS = 30_000;
const MIB = 2 ** 20;
/** The default configuration but for the caps one loopback address would hit; rate limits stay on. */
const ENV = {
  TRUST_PROXY: 'true',
  RATE_LIMITS: 'on',
  MAX_SOCKETS_PER_IP: '10000',
  MAX_CONNECTIONS_PER_IP: '10000',
  // Abandoned MCP sessions are reaped within the run, so their count levels off when nothing leaks.
  MCP_SESSION_IDLE_MS: '120000',
};

const flag = (name: string) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1];

/** The machine-readable code of a refusal (REST, a frame, or inside an MCP error's text), else the error itself. */
function codeOf(error: Error, kind: Kind): string {
  if (/^[a-z_]+$/.test(error.message)) return error.message;
  return /"code\\?":\\?"(\w+)/.exec(error.message)?.[1] ?? `${kind}: ${error.message.slice(0, 80)}`;
}

type Board = { id: string; texts: Record<Kind, string>; json?: Watcher; yjs?: YjsWatcher };
type InstanceFigures = {
  cpuSeconds: number;
  rssBytes: number;
  heapUsedBytes: number;
  loopP99Ms: number;
  connections: number;
  loadedBoards: number;
  mcpSessions: number;
};
type Sample = {
  minutes: number;
  instances: InstanceFigures[];
  cpuPercent: number[];
  /** The load generator's own event-loop delay and CPU: a stall here shows in every delivery it times. */
  benchLoopP99Ms: number;
  benchCpuPercent: number;
  tally: Tally;
  seconds: number;
};

/** The figures of one instance, from /metrics (the event-loop histogram is reset by each scrape). */
async function figures(url: string): Promise<InstanceFigures> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const sum = (name: string) =>
    [...text.matchAll(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'gm'))].reduce((s, m) => s + Number(m[1]), 0);
  return {
    cpuSeconds: sum('process_cpu_seconds_total'),
    rssBytes: sum('process_resident_memory_bytes'),
    heapUsedBytes: sum('nodejs_heap_size_used_bytes'),
    loopP99Ms: sum('nodejs_eventloop_lag_p99_seconds') * 1000,
    connections: sum('board_open_connections'),
    loadedBoards: sum('board_loaded_boards'),
    mcpSessions: sum('board_mcp_sessions'),
  };
}

/** A board with one text per kind of writer, each created from its own address (the creation limit is per address). */
async function createBoard(url: string, index: number): Promise<Board> {
  const headers = { 'content-type': 'application/json', 'x-forwarded-for': `10.77.${index >> 8}.${index & 255}` };
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`soak: POST ${path}: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { id: string }).id;
  };
  const id = await post('/api/boards', {});
  const text = () => post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'start' });
  return { id, texts: { rest: await text(), mcp: await text(), frame: await text(), yjs: `soak-yjs-${index}` } };
}

export const soakScenario = (quick: boolean) => soak(quick, false);
export const soakSharedScenario = (quick: boolean) => soak(quick, true);

async function soak(quick: boolean, shared: boolean): Promise<Section> {
  const minutes = Number(flag('soak-minutes') ?? process.env.SOAK_MINUTES ?? (quick ? 3 : 30));
  const writesPerSecond = Number(process.env.SOAK_WRITES_PER_S ?? 120);
  const sampleSeconds = Math.min(30, (minutes * 60) / 12);
  if (shared && !(await sharedServicesAvailable()))
    return { title: 'Soak', baseline: 'n/a', rows: [], notes: ['Skipped: the shared services are not running here.'] };

  const cluster = shared ? await freshClusterEnv() : {};
  const dirs = await Promise.all(Array.from({ length: shared ? 2 : 1 }, () => tempDataDir()));
  const servers: Spawned[] = [];
  try {
    servers.push(...(await Promise.all(dirs.map((dir) => spawnService(testEnv(dir, { ...cluster, ...ENV }))))));
    const urls = servers.map((server) => server.url);
    const at = (i: number) => urls[i % urls.length];
    const boards: Board[] = [];
    for (let i = 0; i < BOARDS; i += 20)
      boards.push(...(await Promise.all(Array.from({ length: 20 }, (_, j) => createBoard(at(i + j), i + j)))));

    const books = new Deliveries({ answerMs: ANSWER_BOUND_MS, deliveryMs: DELIVERY_BOUND_MS });
    const heard = books.heard.bind(books);
    const refused = books.refused.bind(books);

    // Watchers: board i's JSON client on one instance, its Yjs client on the other (the same one when alone).
    const watchBoard = async (i: number, kind: 'json' | 'yjs') => {
      const board = boards[i];
      const old = board[kind];
      board[kind] = undefined;
      if (kind === 'json') board.json = await watchJson(at(i), board.id, heard);
      else board.yjs = await watchYjs(at(i + 1), board.id, heard, refused);
      if (old) setTimeout(() => old.close(), 2_000); // its last edits are on their way
    };
    for (let i = 0; i < BOARDS; i += 20)
      await Promise.all(
        Array.from({ length: 20 }, (_, j) => [watchBoard(i + j, 'json'), watchBoard(i + j, 'yjs')]).flat(),
      );

    const writers: SocketWriter[] = await Promise.all(
      Array.from({ length: SOCKET_WRITERS }, (_, j) => socketWriter(at(j), boards[j * 10].id)),
    );
    // A 2025 session and a 2026-07-28 client on each instance.
    const connectAgent = (j: number) => (j % 2 === 0 ? connectMcp(at(j >> 1)) : connectModernMcp(at(j >> 1)));
    const agents: McpClient[] = await Promise.all(Array.from({ length: MCP_CLIENTS }, (_, j) => connectAgent(j)));

    let inFlight = 0;
    const turns: Record<Kind, number> = { rest: 0, mcp: 0, frame: 0, yjs: 0 };
    const write = (seq: number) => {
      const kind = MIX[seq % MIX.length];
      const turn = turns[kind]++;
      const writer = writers[turn % writers.length];
      const board = kind === 'frame' ? boards.find((b) => b.id === writer.board)! : boards[(turn * 7) % boards.length];
      const content = tagged(seq);
      const text = board.texts[kind];
      const watchers = [board.json, kind === 'yjs' ? undefined : board.yjs].filter((w): w is Watcher => !!w);
      if (kind === 'yjs' && !board.yjs) return; // its client is being replaced
      books.sent(seq, kind, text, watchers);
      if (kind === 'yjs') {
        board.yjs!.edit(text, content);
        return books.answered(seq);
      }
      const x = seq % 1000;
      const call = (): Promise<unknown> => {
        switch (kind) {
          case 'rest':
            return fetch(`${at(turn)}/api/boards/${board.id}/texts`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ id: text, x, y: 0, content }),
              signal: AbortSignal.timeout(ANSWER_BOUND_MS),
            }).then(async (res) => {
              const body = (await res.json()) as { code?: string };
              if (!res.ok) throw new Error(body.code ?? `http_${res.status}`);
            });
          case 'mcp':
            return agents[turn % agents.length].call('add_text', { board_id: board.id, id: text, x, y: 0, content });
          case 'frame':
            return writer.send({ type: 'add_text', ref: seq, id: text, x, y: 0, content });
        }
      };
      inFlight++;
      call()
        .then(
          () => books.answered(seq),
          (error: Error) => books.failed(seq, codeOf(error, kind)),
        )
        .finally(() => inFlight--);
    };

    // Clients come and go: a watcher replaced every second, a writing socket every 5 s, an agent every 30 s.
    let churned = 0;
    const churn = async () => {
      const tick = churned++;
      await Promise.all([watchBoard(tick % BOARDS, 'json'), watchBoard((tick + BOARDS / 2) % BOARDS, 'yjs')]);
      if (tick % 5 === 0) {
        const j = (tick / 5) % writers.length;
        const old = writers[j];
        writers[j] = await socketWriter(at(j + tick), boards[(j * 10 + tick) % BOARDS].id);
        setTimeout(() => old.close(), ANSWER_BOUND_MS); // out of the rotation; its last frames answered first
      }
      if (tick % 30 === 0) {
        const j = (tick / 30) % agents.length;
        const old = agents[j];
        agents[j] = await connectAgent(j);
        setTimeout(() => void old.close().catch(() => {}), ANSWER_BOUND_MS);
      }
    };

    console.log(
      `\nsoak: ${minutes} min, ${writesPerSecond} writes/s, ${urls.length} instance(s), a sample every ${sampleSeconds} s`,
    );
    let previous = await Promise.all(urls.map(figures)); // resets the event-loop histograms: the first window starts now
    const benchLoop = monitorEventLoopDelay({ resolution: 10 });
    benchLoop.enable();
    let benchCpu = process.cpuUsage();
    const started = performance.now();
    const durationMs = minutes * 60_000;
    let issued = 0;
    const pacer = setInterval(() => {
      const due = Math.floor(((performance.now() - started) / 1000) * writesPerSecond);
      if (due - issued > MAX_IN_FLIGHT - inFlight) {
        books.tally.behind += due - issued;
        issued = due;
      }
      while (issued < due) write(issued++);
    }, 20);
    const churner = setInterval(() => void churn().catch((error: Error) => refused(`churn: ${error.message}`)), 1_000);

    const samples: Sample[] = [];
    let windowStarted = started;
    for (let n = 1; n * sampleSeconds * 1000 <= durationMs; n++) {
      await sleep(started + n * sampleSeconds * 1000 - performance.now());
      const now = performance.now();
      books.sweep(now);
      const instances = await Promise.all(urls.map(figures));
      const seconds = (now - windowStarted) / 1000;
      const cpuPercent = instances.map((figures, i) => ((figures.cpuSeconds - previous[i].cpuSeconds) / seconds) * 100);
      const benchLoopP99Ms = benchLoop.percentile(99) / 1e6;
      benchLoop.reset();
      const benchCpuUsed = process.cpuUsage(benchCpu);
      benchCpu = process.cpuUsage();
      const benchCpuPercent = (benchCpuUsed.user + benchCpuUsed.system) / 1e4 / seconds;
      const sample: Sample = {
        minutes: (now - started) / 60_000,
        instances,
        cpuPercent,
        benchLoopP99Ms,
        benchCpuPercent,
        tally: books.takeTally(),
        seconds,
      };
      previous = instances;
      windowStarted = now;
      samples.push(sample);
      console.log(`soak: ${sampleRow(sample).join(' | ')}`);
    }
    clearInterval(pacer);
    clearInterval(churner);
    benchLoop.disable();
    const drained = performance.now() + ANSWER_BOUND_MS;
    while (inFlight > 0 && performance.now() < drained) await sleep(50); // no client closes under a write

    for (const board of boards) for (const watcher of [board.json, board.yjs]) watcher?.close();
    for (const writer of writers) writer.close();
    await Promise.all(agents.map((agent) => agent.close().catch(() => {})));
    return report(samples, {
      minutes,
      instances: urls.length,
      writesPerSecond,
      sampleSeconds,
      books,
    });
  } finally {
    for (const server of servers) await server.stop();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
    const database = cluster.DATABASE_URL && new URL(cluster.DATABASE_URL).pathname.slice(1);
    if (database) await asAdmin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  }
}

const COLUMNS = [
  'min',
  'RSS MiB',
  'heap MiB',
  'loop p99',
  'sockets',
  'loaded',
  'MCP sessions',
  'writes/s',
  'CPU %',
  'errors',
  'skipped',
  'missed',
  'JSON p50 / p99',
  'Yjs p50 / p99',
  'bench loop p99',
  'bench CPU %',
];

function sampleRow(sample: Sample): string[] {
  const each = (figure: (i: InstanceFigures) => string) => sample.instances.map(figure).join(' / ');
  const delivery = (latencies: number[]) => {
    const summary = summarize(latencies);
    return latencies.length ? `${ms(summary.p50)} / ${ms(summary.p99)}` : '-';
  };
  const { tally } = sample;
  return [
    sample.minutes.toFixed(1),
    each((i) => (i.rssBytes / MIB).toFixed(0)),
    each((i) => (i.heapUsedBytes / MIB).toFixed(0)),
    each((i) => ms(i.loopP99Ms)),
    each((i) => String(i.connections)),
    each((i) => String(i.loadedBoards)),
    each((i) => String(i.mcpSessions)),
    (tally.writes / sample.seconds).toFixed(0),
    sample.cpuPercent.map((percent) => percent.toFixed(0)).join(' / '),
    String(tally.errors),
    String(tally.behind),
    String(tally.missed),
    delivery(tally.json),
    delivery(tally.yjs),
    ms(sample.benchLoopP99Ms),
    sample.benchCpuPercent.toFixed(0),
  ];
}

type Run = {
  minutes: number;
  instances: number;
  writesPerSecond: number;
  sampleSeconds: number;
  books: Deliveries;
};

function report(samples: Sample[], run: Run): Section {
  const { minutes, instances, writesPerSecond } = run;
  const { codes, missedBy, superseded } = run.books;
  const warm = (value: (sample: Sample) => number): Point[] =>
    afterWarmup(
      samples.map((sample) => ({ minutes: sample.minutes, value: value(sample) })),
      minutes,
    );
  const rows: Row[] = [];
  const series = (measure: string, unit: string, value: (sample: Sample) => number, digits = 1) => {
    const points = warm(value);
    const { first, last } = thirds(points);
    const slope = slopePer10Minutes(points);
    rows.push({
      measure,
      ours: last.toFixed(digits),
      baseline: first.toFixed(digits),
      ratio: first > 0 ? `${(last / first).toFixed(2)}x` : 'n/a',
      note: `slope ${slope >= 0 ? '+' : ''}${slope.toFixed(2)} ${unit}/10 min`,
    });
  };
  const name = (i: number) => (instances > 1 ? ` (instance ${'AB'[i]})` : '');
  for (let i = 0; i < instances; i++) {
    series(`server RSS, MiB${name(i)}`, 'MiB', (s) => s.instances[i].rssBytes / MIB);
    series(`heap used, MiB${name(i)}`, 'MiB', (s) => s.instances[i].heapUsedBytes / MIB);
    series(`event-loop delay p99, ms${name(i)}`, 'ms', (s) => s.instances[i].loopP99Ms, 2);
    series(`server CPU, % of a core${name(i)}`, '%', (s) => s.cpuPercent[i], 0);
    series(`open sockets${name(i)}`, 'sockets', (s) => s.instances[i].connections, 0);
    series(`MCP sessions${name(i)}`, 'sessions', (s) => s.instances[i].mcpSessions, 0);
  }
  const p99 = (latencies: number[]) => (latencies.length ? summarize(latencies).p99 : Number.NaN);
  series('JSON-channel delivery p99, ms', 'ms', (s) => p99(s.tally.json), 2);
  series('Yjs delivery p99, ms', 'ms', (s) => p99(s.tally.yjs), 2);
  series('load generator event-loop delay p99, ms', 'ms', (s) => s.benchLoopP99Ms, 2);
  series('writes answered per second', 'writes/s', (s) => s.tally.writes / s.seconds, 0);
  const cpuMs = (s: Sample) => s.cpuPercent.reduce((sum, percent) => sum + percent, 0) * 10 * s.seconds;
  series('server CPU per write answered, ms', 'ms', (s) => cpuMs(s) / s.tally.writes, 2);
  const total = (count: (tally: Tally) => number) => samples.reduce((sum, s) => sum + count(s.tally), 0);
  const listed = [...codes].map(([code, count]) => `${code} ${count}`).join(', ');
  rows.push(
    {
      measure: 'errors and refusals, whole run',
      ours: String(total((w) => w.errors)),
      baseline: '',
      ratio: '',
      note: `target 0${listed ? `; ${listed}` : ''}; writes skipped as the server fell behind: ${total((w) => w.behind)}`,
    },
    {
      measure: 'deliveries missed, whole run',
      ours: String(total((w) => w.missed)),
      baseline: '',
      ratio: '',
      note: `target 0${[...missedBy].map(([path, count]) => `; ${path} ${count}`).join('')}; of ${total((w) => w.json.length + w.yjs.length)} deliveries timed, ${superseded} more merged into a later write of the same text`,
    },
  );
  return {
    title: `Soak: ${BOARDS} boards for ${minutes} minutes${instances > 1 ? ', two instances on PostgreSQL and Redis' : ''}`,
    baseline:
      'the same series in the first third of the samples after warm-up (the first 10% of the run dropped); Ours is the last third. A leak shows as a ratio above 1 and a slope that stays positive.',
    rows,
    samples: {
      caption: `Samples (every ${run.sampleSeconds} s; per instance, separated by /; loop p99 and deliveries in ms over the sample's window):`,
      columns: COLUMNS,
      rows: samples.map(sampleRow),
    },
    notes: [
      `Load: ${writesPerSecond} writes/s over ${BOARDS} boards, of each 12: 7 REST \`POST /texts\`, 2 MCP \`add_text\` (${MCP_CLIENTS} SDK clients, 2025 sessions and 2026-07-28), 2 JSON-channel \`add_text\` frames (${SOCKET_WRITERS} sockets), 1 Yjs edit; each updates its kind's text on the board in place. Rate limits on.`,
      'Every board is watched by one JSON-channel client and one Yjs client (on the other instance when there are two); one of each is replaced every second, a writing socket every 5 s, an MCP client every 30 s (a 2025 session is left open, as by a client that goes away; MCP_SESSION_IDLE_MS=120000 reaps it).',
      'Delivery: from a write\u2019s answer (a Yjs edit: from the edit) to its arrival at the board\u2019s watchers that were there when it was sent; negative when it arrives first. Missed: not heard within 10 s by a watcher still open.',
      'Memory and event-loop delay from each instance\u2019s /metrics (prom-client: resident set, V8 heap used, the loop histogram since the previous sample); slope: least squares over the samples after warm-up, per 10 minutes.',
    ],
  };
}
