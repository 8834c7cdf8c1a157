/**
 * Many boards, the shape of load a link-board service has: every board with
 * two Yjs clients and one JSON-channel client, and REST writes spread over
 * the boards. Reports the server's CPU per write (utime + stime of its
 * process), its memory and the delivery p99 to both kinds of client, on
 * 1,000 boards against the same load on 10 boards, each in a fresh server.
 * Then the CPU per write to a board nobody watches, with no JSON client
 * anywhere and with thousands on other boards: it must stay flat, since only
 * a watched board's room computes ops.
 */
import { rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type WebSocket from 'ws';
import { tempDataDir, testEnv } from '../../test/helpers/child-server.js';
import { closeProviders, contentOf, jsonClients, type Provider, provider, textsOf } from '../lib/clients.js';
import { cpuMsOf, rssOf, type Spawned, spawnService } from '../lib/processes.js';
import type { Row, Section } from '../lib/report.js';
import { ms, ratio, summarize } from '../lib/stats.js';

const CONTENT = 'A sticky note of about a hundred characters, the size of a typical edit on a board, no more.';
/** Writes in flight at once: a steady stream of edits, not a flood. */
const CONCURRENCY = 8;
/** Clients are connected this many at a time, each group synced before the next. */
const CONNECT_GROUP = 100;
const ENV = {
  RATE_LIMITS: 'off',
  MAX_SOCKETS_PER_IP: '10000',
  MAX_CONNECTIONS_PER_IP: '10000',
  HISTORY: 'off',
};

type Load = { boards: number; writes: number };
type Measured = {
  cpuMsPerWrite: number;
  compactionsPerWrite: number;
  rssBytes: number;
  json: number[];
  yjs: number[];
};

/** The stores asked for by what came before (a client's connect or leave asks for one) are done within this. */
const STORES_DONE_MS = 3_000;

/** Compactions the service made so far (a board's journal folded into its stored state), from its /metrics. */
async function compactions(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(/^board_compactions_total (\S+)$/m.exec(text)?.[1] ?? Number.NaN);
}

async function withService<T>(run: (service: Spawned) => Promise<T>): Promise<T> {
  const dataDir = await tempDataDir();
  const service = await spawnService(testEnv(dataDir, ENV));
  try {
    return await run(service);
  } finally {
    service.process.kill('SIGTERM');
    await service.exited;
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** A board with the one text every write to it updates in place (a board holds at most 500 texts). */
type Target = { board: string; text: string };

async function createTargets(url: string, count: number): Promise<Target[]> {
  const targets: Target[] = [];
  for (let i = 0; i < count; i += CONNECT_GROUP) {
    const group = Array.from({ length: Math.min(CONNECT_GROUP, count - i) }, async () => {
      const board = ((await (await fetch(`${url}/api/boards`, { method: 'POST' })).json()) as { id: string }).id;
      const res = await fetch(`${url}/api/boards/${board}/texts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ x: 0, y: 0, content: 'start' }),
      });
      return { board, text: ((await res.json()) as { id: string }).id };
    });
    targets.push(...(await Promise.all(group)));
  }
  return targets;
}

/** `count` writes spread round-robin over `targets`, CONCURRENCY at a time; `answered` hears each response's time. */
async function writeSpread(
  url: string,
  targets: Target[],
  count: number,
  tag: string,
  answered: (content: string, at: number) => void = () => {},
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const { board, text } = targets[i % targets.length];
      const content = `${CONTENT} ${tag}#${i}`;
      const res = await fetch(`${url}/api/boards/${board}/texts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: text, x: i % 1000, y: 0, content }),
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`write refused: ${res.status}`);
      answered(content, performance.now());
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

async function waitFor(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`many-boards: ${what} did not complete in time`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Each board with two Yjs clients and one JSON client; writes spread over them; CPU, memory and delivery. */
async function measureLoad(load: Load): Promise<Measured> {
  return withService(async (service) => {
    const targets = await createTargets(service.url, load.boards);
    const boards = targets.map((target) => target.board);
    const arrivals = { json: new Map<string, number>(), yjs: new Map<string, number[]>() };
    const sockets: WebSocket[] = [];
    const providers: Provider[] = [];
    const collab = `${service.url.replace(/^http/, 'ws')}/collab`;
    for (let i = 0; i < boards.length; i += CONNECT_GROUP) {
      const group = boards.slice(i, i + CONNECT_GROUP);
      const added = group.flatMap((board) => [provider(collab, board), provider(collab, board)]);
      for (const p of added) {
        textsOf(p).observe((changes) => {
          const at = performance.now();
          for (const { after } of changes) {
            const content = contentOf(after);
            if (content) (arrivals.yjs.get(content) ?? arrivals.yjs.set(content, []).get(content)!).push(at);
          }
        });
      }
      providers.push(...added);
      const opened = await Promise.all(
        group.map((board) =>
          jsonClients(service.url, board, 1, (frame, at) => arrivals.json.set(frame.item?.content, at)),
        ),
      );
      sockets.push(...opened.flat());
      await Promise.all(added.map((p) => p.synced));
    }
    // A round of writes to every board first: each board's document and caches are warm before the measure.
    await writeSpread(service.url, targets, targets.length, 'warm');
    await waitFor(() => arrivals.json.size >= targets.length, 60_000, 'the warm-up');
    await sleep(STORES_DONE_MS);
    const pid = service.process.pid!;
    const answeredAt = new Map<string, number>();
    const compactionsBefore = await compactions(service.url);
    const cpuBefore = cpuMsOf(pid);
    await writeSpread(service.url, targets, load.writes, 'w', (content, at) => answeredAt.set(content, at));
    const contents = [...answeredAt.keys()];
    await waitFor(
      () => contents.every((c) => arrivals.json.has(c) && (arrivals.yjs.get(c)?.length ?? 0) >= 2),
      60_000,
      'delivery',
    );
    await sleep(STORES_DONE_MS); // a write's cost includes the store its burst asks for once quiet
    const cpuMsPerWrite = (cpuMsOf(pid) - cpuBefore) / load.writes;
    const compactionsPerWrite = ((await compactions(service.url)) - compactionsBefore) / load.writes;
    const rssBytes = rssOf(pid);
    for (const socket of sockets) socket.close();
    closeProviders(providers);
    return {
      cpuMsPerWrite,
      compactionsPerWrite,
      rssBytes,
      json: contents.map((c) => arrivals.json.get(c)! - answeredAt.get(c)!),
      yjs: contents.flatMap((c) => arrivals.yjs.get(c)!.map((at) => at - answeredAt.get(c)!)),
    };
  });
}

/**
 * CPU per write to one board nobody watches: with no JSON client anywhere,
 * then with `clients` JSON clients on `boards` other boards, then with none
 * again (the two bare phases averaged, so that drift over the run cancels).
 */
async function measureUnwatched(boards: number, clients: number, writes: number) {
  return withService(async (service) => {
    const unwatched = await createTargets(service.url, 1);
    const others = (await createTargets(service.url, boards)).map((target) => target.board);
    const pid = service.process.pid!;
    const cpuPerWrite = async (tag: string) => {
      const before = cpuMsOf(pid);
      await writeSpread(service.url, unwatched, writes, tag);
      return (cpuMsOf(pid) - before) / writes;
    };
    await writeSpread(service.url, unwatched, writes * 2, 'warm'); // V8 has compiled the write path before the first phase
    const bareBefore = await cpuPerWrite('bare1');
    const sockets: WebSocket[] = [];
    for (let i = 0; i < clients; i += CONNECT_GROUP) {
      const group = Array.from({ length: Math.min(CONNECT_GROUP, clients - i) }, (_, j) => others[(i + j) % boards]);
      sockets.push(...(await Promise.all(group.map((board) => jsonClients(service.url, board, 1, () => {})))).flat());
    }
    await sleep(STORES_DONE_MS);
    const watched = await cpuPerWrite('watched');
    for (const socket of sockets) socket.close();
    await sleep(STORES_DONE_MS); // the rooms go with their sockets, and their boards are stored
    const bareAfter = await cpuPerWrite('bare2');
    return { bare: (bareBefore + bareAfter) / 2, watched, bareBefore, bareAfter };
  });
}

export async function manyBoardsScenario(quick: boolean): Promise<Section> {
  const many = quick ? 100 : 1_000;
  const few = 10;
  const writes = quick ? 400 : 5_000;
  const unwatchedClients = quick ? 500 : 3_000;
  const unwatchedBoards = quick ? 250 : 1_000;
  const unwatchedWrites = quick ? 500 : 5_000;

  const small = await measureLoad({ boards: few, writes });
  const large = await measureLoad({ boards: many, writes });
  const unwatched = await measureUnwatched(unwatchedBoards, unwatchedClients, unwatchedWrites);

  const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
  const rows: Row[] = [
    {
      measure: `server CPU per write, ${many} boards`,
      ours: `${ms(large.cpuMsPerWrite)} ms`,
      baseline: `${ms(small.cpuMsPerWrite)} ms`,
      ratio: ratio(large.cpuMsPerWrite, small.cpuMsPerWrite),
      note: `${writes} REST writes, ${CONCURRENCY} in flight, and the stores they ask for; utime + stime of the service process`,
    },
    {
      measure: `compactions per write, ${many} boards`,
      ours: large.compactionsPerWrite.toFixed(3),
      baseline: small.compactionsPerWrite.toFixed(3),
      ratio: small.compactionsPerWrite > 0 ? ratio(large.compactionsPerWrite, small.compactionsPerWrite) : '',
      note: 'a board is stored once quiet for 2 s (at most every 10 s): on many boards, nearly every write is a burst of its own',
    },
    {
      measure: `server memory (RSS), ${many} boards`,
      ours: mib(large.rssBytes),
      baseline: mib(small.rssBytes),
      ratio: ratio(large.rssBytes, small.rssBytes),
      note: `${many * 3} clients against ${few * 3}, after the writes`,
    },
  ];
  for (const [kind, label] of [
    ['json', 'JSON-channel'],
    ['yjs', 'Yjs'],
  ] as const) {
    const [ours, baseline] = [summarize(large[kind]), summarize(small[kind])];
    rows.push({
      measure: `${label} delivery from the response, p99, ${many} boards`,
      ours: ms(ours.p99),
      baseline: ms(baseline.p99),
      ratio: baseline.p99 > 0 ? ratio(ours.p99, baseline.p99) : '',
      note: `${ours.n} deliveries; p50 ${ms(ours.p50)} against ${ms(baseline.p50)}`,
    });
  }
  rows.push({
    measure: `server CPU per write to an unwatched board, ${unwatchedClients} JSON clients on ${unwatchedBoards} other boards`,
    ours: `${ms(unwatched.watched)} ms`,
    baseline: `${ms(unwatched.bare)} ms`,
    ratio: ratio(unwatched.watched, unwatched.bare),
    note: `baseline: no JSON client anywhere (${ms(unwatched.bareBefore)} ms before, ${ms(unwatched.bareAfter)} ms after); target: flat`,
  });
  return {
    title: 'Many boards',
    baseline: `the same load (the same writes, two Yjs clients and one JSON-channel client per board) on ${few} boards, each in a fresh server in the same run; for the unwatched board, the same server with no JSON client.`,
    rows,
    notes: [
      `Every board has two Yjs clients (@hocuspocus/provider, one socket each) and one JSON-channel client; REST \`POST /texts\` writes go round-robin over the boards, ${CONCURRENCY} in flight, after one warm-up write per board. HISTORY=off, rate limits off.`,
      'Delivery is timed from the write\u2019s response to the arrival of its `op` frame at the board\u2019s JSON client and of its update at each of its Yjs clients; negative when it arrives before the response.',
      'CPU is read from /proc/<pid>/stat (utime + stime, clock-tick resolution) over the measured writes only.',
    ],
  };
}
