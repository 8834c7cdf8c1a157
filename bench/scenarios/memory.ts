/**
 * Memory and load: resident memory per loaded board (1000 boards of 20 items),
 * per idle JSON-channel connection and per idle Yjs connection (1000 each); a
 * cold load of a full board from SQLite; a load after thousands of journal
 * entries that were never compacted. Each against a baseline of the same run.
 */
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { DATABASE_FILE } from '../../store/sqlite/database.js';
import { tempDataDir, testEnv } from '../../test/helpers/child-server.js';
import { closeProviders, provider } from '../lib/clients.js';
import { rssOf, type Spawned, spawnReady, spawnService } from '../lib/processes.js';
import type { Row, Section } from '../lib/report.js';
import { ms, ratio, sample, summarize } from '../lib/stats.js';
import { fullDrawContent } from './import.js';

const KEEP_LOADED = {
  STORE_DEBOUNCE_MS: '600000',
  STORE_MAX_DEBOUNCE_MS: '600000',
  MAX_SOCKETS_PER_IP: '5000',
  MAX_CONNECTIONS_PER_IP: '5000',
};
const settle = (ms = 1500) => new Promise((resolve) => setTimeout(resolve, ms));
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function smallBoard() {
  return {
    texts: Array.from({ length: 10 }, (_, i) => ({ x: i * 10, y: 0, content: `note ${i}` })),
    lines: Array.from({ length: 10 }, (_, i) => ({
      points: [
        [i, 0],
        [i + 5, 5],
        [i + 10, 0],
      ],
      color: 'blue',
    })),
  };
}

async function perBoard(count: number): Promise<{ ours: number; baseline: number }> {
  const dir = await tempDataDir();
  const server = await spawnService({ ...testEnv(dir), ...KEEP_LOADED });
  try {
    await settle();
    const before = rssOf(server.process.pid!);
    for (let i = 0; i < count; i++) {
      await fetch(`${server.url}/api/boards`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ content: smallBoard() }),
      }).then((r) => r.arrayBuffer());
    }
    await settle(3000);
    const ours = (rssOf(server.process.pid!) - before) / count;
    const { stdout } = await promisify(execFile)(process.execPath, [
      '--import',
      'tsx',
      join(process.cwd(), 'bench/baselines/plain-ydocs.ts'),
      String(count),
    ]);
    return { ours, baseline: (JSON.parse(stdout.trim().split('\n').pop()!) as { bytesPerDoc: number }).bytesPerDoc };
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

async function openSockets(url: string, count: number): Promise<WebSocket[]> {
  const sockets: WebSocket[] = [];
  for (let i = 0; i < count; i += 50) {
    sockets.push(
      ...(await Promise.all(
        Array.from(
          { length: Math.min(50, count - i) },
          () =>
            new Promise<WebSocket>((resolve, reject) => {
              const socket = new WebSocket(url);
              socket.once('open', () => resolve(socket));
              socket.once('error', reject);
            }),
        ),
      )),
    );
  }
  return sockets;
}

async function perConnection(count: number): Promise<{ json: number; jsonBase: number; yjs: number; yjsBase: number }> {
  const dir = await tempDataDir();
  const started: Spawned[] = [];
  try {
    const ours = await spawnService({ ...testEnv(dir), ...KEEP_LOADED });
    started.push(ours);
    const bareWs = await spawnReady('bench/baselines/bare-ws.ts');
    started.push(bareWs);
    const plain = await spawnReady('bench/baselines/plain-hocuspocus.ts');
    started.push(plain);
    const { id } = await (
      await fetch(`${ours.url}/api/boards`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ content: smallBoard() }),
      })
    ).json();
    await fetch(`${ours.url}/json/${id}`);
    await settle();

    const measure = async (server: Spawned, open: () => Promise<() => void>) => {
      const before = rssOf(server.process.pid!);
      const close = await open();
      await settle(3000);
      const delta = (rssOf(server.process.pid!) - before) / count;
      close();
      await settle(500);
      return delta;
    };
    const ws = (url: string) => async () => {
      const sockets = await openSockets(url, count);
      return () => {
        for (const socket of sockets) socket.close();
      };
    };
    const yjs = (url: string, name: string) => async () => {
      const providers = Array.from({ length: count }, () => provider(url, name));
      await Promise.all(providers.map((p) => p.synced));
      return () => closeProviders(providers);
    };
    const json = await measure(ours, ws(`${ours.url.replace(/^http/, 'ws')}/ws/${id}`));
    const jsonBase = await measure(bareWs, ws(bareWs.url));
    const yjsOurs = await measure(ours, yjs(`${ours.url.replace(/^http/, 'ws')}/collab`, id));
    const yjsBase = await measure(plain, yjs(plain.url, 'baseline'));
    return { json, jsonBase, yjs: yjsOurs, yjsBase };
  } finally {
    for (const child of started) await child.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Time of the first `GET /json` after a restart (the board is loaded from SQLite), and of the next one. */
async function firstRead(dir: string, id: string, runs: number): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const server = await spawnService({ ...testEnv(dir), ...KEEP_LOADED });
    const started = performance.now();
    await fetch(`${server.url}/json/${id}`).then((r) => r.arrayBuffer());
    times.push(performance.now() - started);
    await server.stop('SIGKILL'); // no compaction on the way out: the journal stays as it is
  }
  return times;
}

async function loads(quick: boolean): Promise<Row[]> {
  const runs = quick ? 3 : 7;
  const journalEntries = quick ? 2000 : 10_000;
  const dir = await tempDataDir();
  try {
    // A full board, compacted (SIGTERM stores every board).
    let server = await spawnService({ ...testEnv(dir), ...KEEP_LOADED });
    const full = (await (
      await fetch(`${server.url}/api/boards`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ content: fullDrawContent() }),
      })
    ).json()) as { id: string };
    const small = (await (
      await fetch(`${server.url}/api/boards`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ content: smallBoard() }),
      })
    ).json()) as { id: string };
    await server.stop('SIGTERM');
    const cold = summarize(await firstRead(dir, full.id, runs));
    const db = new Database(join(dir, DATABASE_FILE), { readonly: true });
    const state = (db.prepare('SELECT data FROM documents WHERE name = ?').get(full.id) as { data: Buffer }).data;
    db.close();
    const applyOnly = summarize(await sample(runs, 1, () => Y.applyUpdate(new Y.Doc(), state)));

    // Thousands of writes to one board, never compacted (killed with SIGKILL), then loaded.
    server = await spawnService({ ...testEnv(dir), ...KEEP_LOADED });
    const text = (await (
      await fetch(`${server.url}/api/boards/${small.id}/texts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ x: 0, y: 0, content: 'v0' }),
      })
    ).json()) as { id: string };
    for (let i = 0; i < journalEntries; i += 20) {
      await Promise.all(
        Array.from({ length: 20 }, (_, k) =>
          fetch(`${server.url}/api/boards/${small.id}/texts`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ id: text.id, x: i + k, y: 0, content: `v${i + k}` }),
          }).then((r) => r.arrayBuffer()),
        ),
      );
    }
    await server.stop('SIGKILL');
    const journalled = summarize(await firstRead(dir, small.id, runs));
    server = await spawnService({ ...testEnv(dir), ...KEEP_LOADED });
    await fetch(`${server.url}/json/${small.id}`);
    await server.stop('SIGTERM'); // compacts the journal into the stored state
    const compacted = summarize(await firstRead(dir, small.id, runs));
    return [
      {
        measure: 'cold load of a full board (first GET /json after a restart) p50',
        ours: ms(cold.p50),
        baseline: ms(applyOnly.p50),
        ratio: ratio(cold.p50, applyOnly.p50),
        note: 'baseline: Y.applyUpdate of the same stored state in process',
      },
      {
        measure: `load after ${journalEntries} uncompacted journal entries p50`,
        ours: ms(journalled.p50),
        baseline: ms(compacted.p50),
        ratio: ratio(journalled.p50, compacted.p50),
        note: 'baseline: the same board once compacted',
      },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A baseline at or under 1 KB (it can even come out negative) is within the noise of RSS: no ratio then. */
const memoryRatio = (ours: number, baseline: number) =>
  baseline <= 1024 ? 'n/a (baseline within noise)' : ratio(ours, baseline);

export async function memoryScenario(quick: boolean): Promise<Section> {
  const boards = quick ? 200 : 1000;
  const connections = quick ? 200 : 1000;
  const board = await perBoard(boards);
  const sockets = await perConnection(connections);
  return {
    title: 'Memory and load',
    baseline:
      'per figure: plain Y.Docs with the same items in a bare Node process; a bare `ws` server; a plain Hocuspocus server; Y.applyUpdate in process; a compacted board.',
    rows: [
      {
        measure: `resident memory per loaded board (${boards} boards of 20 items)`,
        ours: kb(board.ours),
        baseline: kb(board.baseline),
        ratio: memoryRatio(board.ours, board.baseline),
        note: 'target under 300 KB',
      },
      {
        measure: `per idle JSON-channel connection (${connections})`,
        ours: kb(sockets.json),
        baseline: kb(sockets.jsonBase),
        ratio: memoryRatio(sockets.json, sockets.jsonBase),
        note: 'target under 100 KB',
      },
      {
        measure: `per idle Yjs connection (${connections})`,
        ours: kb(sockets.yjs),
        baseline: kb(sockets.yjsBase),
        ratio: memoryRatio(sockets.yjs, sockets.yjsBase),
        note: 'target under 100 KB',
      },
      ...(await loads(quick)),
    ],
    notes: [
      "Memory is the change in the server process's resident set (VmRSS) after the load settles, divided by the count; it includes garbage not yet collected, so it is an upper bound.",
    ],
  };
}
