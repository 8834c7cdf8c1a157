/**
 * Crash consistency: REST, MCP, the JSON channel and Yjs clients write to a
 * server in a child process that is killed with SIGKILL at random moments, then
 * restarted on the same DATA_DIR, round after round. After every restart each
 * acknowledged write must be there exactly once, each acknowledged erase must
 * hold, nothing that was never sent may appear, every board must load, and the
 * stored state plus its journal, replayed with Yjs straight from the SQLite
 * file, must be exactly what the server shows. Some rounds use a very short
 * store debounce, so kills also land during compaction and unloading.
 *
 * Kill moments and write choices come from a seeded PRNG: the test name shows
 * the seed, and CRASH_SEED replays its choices (the interleaving still varies).
 */

import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { boardMaps, type ContentMapName } from '../board/model/document-model.js';
import { DATABASE_FILE } from '../store/sqlite/database.js';
import { type Client, client } from './helpers/http.js';
import { connectMcp, type McpClient } from './helpers/mcp.js';
import { connectJson, connectYjs, type JsonClient, type YjsClient } from './helpers/realtime.js';
import { type ChildServer, startChildServer, tempDataDir } from './helpers/server.js';

const ROUNDS = 12;
const SEED = Number(process.env.CRASH_SEED ?? Date.now() % 2 ** 31);
/** The heavy board's imported strokes, tagged far away from the counter's tags. */
const HEAVY_STROKES = 500;
const HEAVY_X = 1_000_000;
const YJS_CLIENT = '5f0c1e2d-3b4a-4c5d-8e6f-7a8b9c0d1e2f';

/** Store settings per round: the defaults keep everything in the journal (and the boards loaded); short ones compact and unload all the time. */
const STORE_ENVS: Record<string, string>[] = [
  {},
  { STORE_DEBOUNCE_MS: '30', STORE_MAX_DEBOUNCE_MS: '100', KEEP_LOADED_MS: '0' },
  { STORE_DEBOUNCE_MS: '10', STORE_MAX_DEBOUNCE_MS: '40', KEEP_LOADED_MS: '0' },
];

/** A small seeded PRNG (mulberry32), so that a failing schedule can be replayed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Kind = 'texts' | 'lines' | 'tasks';

/** Every tracked item carries a unique tag: a text's content, a task's name, a stroke's first x. */
function tagOf(kind: Kind, item: any): string {
  if (kind === 'lines') return `stroke:${item.points[0][0]}`;
  return kind === 'texts' ? item.content : item.name;
}

/**
 * What must hold after a restart, per item: `present` once acknowledged, `absent`
 * once its erase was acknowledged, `unknown` while a write is in flight (then
 * settled by what the next restart shows, which later rounds must keep).
 */
type Entry = {
  writer: string;
  board: string;
  kind: Kind;
  tag: string;
  state: 'present' | 'absent' | 'unknown';
  id?: string;
  item?: unknown;
};

class Ledger {
  readonly entries = new Map<string, Entry>();

  private key(board: string, kind: Kind, tag: string) {
    return `${board}\u0000${kind}\u0000${tag}`;
  }

  get(board: string, kind: Kind, tag: string): Entry | undefined {
    return this.entries.get(this.key(board, kind, tag));
  }

  /** A write is about to be sent: from now on the item may or may not exist. */
  sent(writer: string, board: string, kind: Kind, tag: string): Entry {
    const entry: Entry = { writer, board, kind, tag, state: 'unknown' };
    this.entries.set(this.key(board, kind, tag), entry);
    return entry;
  }

  /** A present item of this writer to erase, if there is one. */
  pick(writer: string, random: () => number, filter: (entry: Entry) => boolean = () => true): Entry | undefined {
    const own = [...this.entries.values()].filter(
      (e) => e.writer === writer && e.state === 'present' && e.id && e.kind !== 'tasks' && filter(e),
    );
    return own.length ? own[Math.floor(random() * own.length)] : undefined;
  }

  onBoard(board: string): Entry[] {
    return [...this.entries.values()].filter((entry) => entry.board === board);
  }
}

/** Requests over the JSON channel: frames with a `ref`, answered by `ack` (or `error`); a closed socket fails them. */
function jsonRequests(json: JsonClient) {
  let ref = 0;
  const pending = new Map<number, { resolve: (result: any) => void; reject: (error: Error) => void }>();
  json.socket.on('message', (data) => {
    const frame = JSON.parse(data.toString());
    const waiter = frame.ref === undefined ? undefined : pending.get(frame.ref);
    if (!waiter || (frame.type !== 'ack' && frame.type !== 'error')) return;
    pending.delete(frame.ref);
    if (frame.type === 'ack') waiter.resolve(frame.result);
    else waiter.reject(new Error(`refused: ${JSON.stringify(frame)}`));
  });
  json.socket.on('close', () => {
    for (const waiter of pending.values()) waiter.reject(new Error('socket closed'));
    pending.clear();
  });
  return (frame: Record<string, unknown>) =>
    new Promise<any>((resolve, reject) => {
      if (json.socket.readyState !== json.socket.OPEN) return reject(new Error('socket closed'));
      ref += 1;
      pending.set(ref, { resolve, reject });
      json.send({ ...frame, ref });
    });
}

/** A Yjs write is acknowledged once the provider has no unsynced changes: the server has applied (and journalled) it. */
async function yjsAcked(yjs: YjsClient, killed: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (yjs.provider.unsyncedChanges > 0) {
    if (killed()) throw new Error('killed before the Yjs ack');
    if (Date.now() > deadline) throw new Error('no Yjs ack within 10 s');
    await sleep(2);
  }
}

/** Board content as both the SQLite file and GET /json show it: tracked kinds and columns, sorted by id. */
type Content = { texts: any[]; lines: any[]; tasks: any[]; columns: any[] };

const sortedById = (items: any[]) => [...items].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

/**
 * Every live board of the registry, loaded straight from the SQLite file: its
 * stored state, then each journal entry in order, applied with Yjs. Nothing may
 * be left pending (a journal entry whose dependencies are missing would be lost silently).
 */
function readStored(dataDir: string): Map<string, Content> {
  const db = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
  try {
    const boards = db.prepare('SELECT id FROM boards WHERE deleted_at IS NULL').all() as { id: string }[];
    const state = db.prepare('SELECT data FROM documents WHERE name = ?');
    const journal = db.prepare('SELECT "update" AS u FROM journal WHERE name = ? ORDER BY seq');
    const result = new Map<string, Content>();
    for (const { id } of boards) {
      const doc = new Y.Doc();
      const stored = state.get(id) as { data: Buffer } | undefined;
      if (stored) Y.applyUpdate(doc, stored.data);
      for (const { u } of journal.all(id) as { u: Buffer }[]) Y.applyUpdate(doc, u);
      expect(doc.store.pendingStructs, `board ${id}: journal entries with missing dependencies`).toBeNull();
      expect(doc.store.pendingDs, `board ${id}: deletions of unknown items in the journal`).toBeNull();
      const items = (name: ContentMapName) => sortedById([...boardMaps(doc)[name].values()]);
      result.set(id, {
        texts: items('texts'),
        lines: items('lines'),
        tasks: items('tasks'),
        columns: items('columns'),
      });
      doc.destroy();
    }
    return result;
  } finally {
    db.close();
  }
}

type Round = {
  ledger: Ledger;
  random: () => number;
  killed: boolean;
  halted: boolean;
  failures: string[];
  counter: { n: number };
  /** The boards REST and MCP write to: this round's two fresh ones and the heavy board. */
  boards: string[];
  todo: { id: string; column: string };
  knownBoards: Set<string>;
};

const next = (round: Round) => ++round.counter.n;

/** Runs one writer until the round is halted; a failure counts unless the server was killed under it. */
async function writer(round: Round, name: string, step: () => Promise<void>): Promise<void> {
  while (!round.halted) {
    try {
      await step();
    } catch (error) {
      if (!round.killed) round.failures.push(`${name}: ${(error as Error).message}`);
      return;
    }
    await sleep(round.random() * 2);
  }
}

function expectOk(res: { status: number; text: string }, what: string): void {
  if (res.status !== 200) throw new Error(`${what} answered ${res.status}: ${res.text}`);
}

function restWriter(round: Round, api: Client) {
  return async () => {
    const r = round.random();
    const board = round.boards[Math.floor(round.random() * round.boards.length)];
    if (r < 0.4) {
      const content = `rest-${next(round)}`;
      const entry = round.ledger.sent('rest', board, 'texts', content);
      const res = await api.post(`/api/boards/${board}/texts`, { x: 1, y: 2, content });
      expectOk(res, 'POST /texts');
      Object.assign(entry, { state: 'present', id: res.body.id, item: res.body });
    } else if (r < 0.75) {
      const n = next(round);
      const entry = round.ledger.sent('rest', board, 'lines', `stroke:${n}`);
      const res = await api.post(`/api/boards/${board}/strokes`, { points: [n, 0, n + 1, 1], color: 'blue' });
      expectOk(res, 'POST /strokes');
      Object.assign(entry, { state: 'present', id: res.body.id });
    } else if (r < 0.92) {
      const victim = round.ledger.pick('rest', round.random);
      if (!victim) return;
      victim.state = 'unknown';
      const res = await api.del(
        `/api/boards/${victim.board}/${victim.kind === 'lines' ? 'strokes' : 'texts'}/${victim.id}`,
      );
      expectOk(res, 'DELETE item');
      victim.state = 'absent';
    } else {
      // A board created with imported content: it must load after any crash, with its content.
      const content = `import-${next(round)}`;
      const res = await api.post('/api/boards', { content: { texts: [{ x: 0, y: 0, content }] } });
      expectOk(res, 'POST /api/boards');
      round.knownBoards.add(res.body.id);
      Object.assign(round.ledger.sent('rest', res.body.id, 'texts', content), {
        state: 'present',
        id: res.body.ids.texts[0],
      });
    }
  };
}

function mcpWriter(round: Round, mcp: McpClient) {
  return async () => {
    const r = round.random();
    const board = round.boards[Math.floor(round.random() * round.boards.length)];
    if (r < 0.35) {
      const content = `mcp-${next(round)}`;
      const entry = round.ledger.sent('mcp', board, 'texts', content);
      const result = await mcp.call('add_text', { board_id: board, x: 3, y: 4, content });
      Object.assign(entry, { state: 'present', id: result.id, item: result });
    } else if (r < 0.65) {
      const n = next(round);
      const entry = round.ledger.sent('mcp', board, 'lines', `stroke:${n}`);
      const result = await mcp.call('draw_stroke', {
        board_id: board,
        points: [
          [n, 5],
          [n + 2, 6],
        ],
      });
      Object.assign(entry, { state: 'present', id: result.id });
    } else if (r < 0.85) {
      const name = `task-${next(round)}`;
      const entry = round.ledger.sent('mcp', round.todo.id, 'tasks', name);
      const result = await mcp.call('create_task', { board_id: round.todo.id, column_id: round.todo.column, name });
      Object.assign(entry, { state: 'present', id: result.id, item: result });
    } else {
      const victim = round.ledger.pick('mcp', round.random);
      if (!victim) return;
      victim.state = 'unknown';
      await mcp.call('erase', { board_id: victim.board, id: victim.id });
      victim.state = 'absent';
    }
  };
}

function jsonWriter(round: Round, board: string, request: (frame: Record<string, unknown>) => Promise<any>) {
  return async () => {
    const r = round.random();
    if (r < 0.35) {
      const content = `json-${next(round)}`;
      const entry = round.ledger.sent('json', board, 'texts', content);
      const result = await request({ type: 'add_text', x: 5, y: 6, content });
      Object.assign(entry, { state: 'present', id: result.id, item: result });
    } else if (r < 0.6) {
      const n = next(round);
      const entry = round.ledger.sent('json', board, 'lines', `stroke:${n}`);
      const result = await request({ type: 'draw_stroke', points: [n, 7, n + 3, 8] });
      Object.assign(entry, { state: 'present', id: result.id });
    } else if (r < 0.85) {
      // A batch is one transaction: both texts or neither.
      const contents = [`json-${next(round)}`, `json-${next(round)}`];
      const entries = contents.map((content) => round.ledger.sent('json', board, 'texts', content));
      const results = await request({
        type: 'batch',
        ops: contents.map((content) => ({ type: 'add_text', x: 0, y: 0, content })),
      });
      for (const [i, entry] of entries.entries())
        Object.assign(entry, { state: 'present', id: results[i].id, item: results[i] });
    } else {
      const victim = round.ledger.pick('json', round.random, (e) => e.board === board);
      if (!victim) return;
      victim.state = 'unknown';
      await request({ type: 'erase', id: victim.id });
      victim.state = 'absent';
    }
  };
}

function yjsWriter(round: Round, board: string, yjs: YjsClient) {
  const author = `user:${YJS_CLIENT}`;
  return async () => {
    const r = round.random();
    const id = randomUUID();
    const last_updated = new Date().toISOString();
    let entry: Entry;
    if (r < 0.45) {
      const item = { id, x: 7, y: 8, content: `yjs-${next(round)}`, author, last_updated };
      entry = round.ledger.sent('yjs', board, 'texts', item.content);
      Object.assign(entry, { id, item });
      yjs.doc.getMap('texts').set(id, item);
    } else if (r < 0.85) {
      const n = next(round);
      const item = {
        id,
        points: [
          [n, 9],
          [n + 4, 10],
        ],
        color: 'auto',
        width: 3,
        author,
        last_updated,
      };
      entry = round.ledger.sent('yjs', board, 'lines', `stroke:${n}`);
      Object.assign(entry, { id, item });
      yjs.doc.getMap('lines').set(id, item);
    } else {
      const victim = round.ledger.pick('yjs', round.random, (e) => e.board === board);
      if (!victim) return;
      victim.state = 'unknown';
      yjs.doc.getMap(victim.kind).delete(victim.id!);
      await yjsAcked(yjs, () => round.killed);
      victim.state = 'absent';
      return;
    }
    await yjsAcked(yjs, () => round.killed);
    entry.state = 'present';
  };
}

/**
 * After a restart: every live board loads and shows exactly what its stored
 * state plus journal hold; every tracked item is as the ledger says, once;
 * nothing untracked appeared. Unknown outcomes are settled by what is there.
 */
async function verify(
  api: Client,
  stored: Map<string, Content>,
  ledger: Ledger,
  knownBoards: Set<string>,
  note: string,
): Promise<void> {
  for (const id of knownBoards)
    expect(stored.has(id), `${note}: acknowledged board ${id} is in the registry`).toBe(true);
  for (const [id, content] of stored) {
    const res = await api.get(`/json/${id}`);
    expect(res.status, `${note}: board ${id} loads`).toBe(200);
    const shown: Content = {
      texts: sortedById(res.body.texts),
      lines: sortedById(res.body.lines),
      tasks: sortedById(res.body.tasks ?? []),
      columns: sortedById(res.body.columns ?? []),
    };
    expect(shown, `${note}: board ${id} as served equals its stored state plus journal`).toEqual(content);
    if (!knownBoards.has(id)) continue; // created by a request the kill cut off: loading it is all we can ask

    const kinds: Kind[] = ['texts', 'lines', 'tasks'];
    for (const kind of kinds) {
      const byTag = new Map<string, any[]>();
      for (const item of shown[kind]) byTag.set(tagOf(kind, item), [...(byTag.get(tagOf(kind, item)) ?? []), item]);
      for (const [tag, items] of byTag) {
        expect(items, `${note}: ${kind} "${tag}" on ${id} appears once`).toHaveLength(1);
        expect(ledger.get(id, kind, tag), `${note}: ${kind} "${tag}" on ${id} was written by someone`).toBeDefined();
      }
    }
    for (const entry of ledger.onBoard(id)) {
      const found = byTagOf(shown[entry.kind], entry.kind, entry.tag);
      const what = `${note}: ${entry.writer} ${entry.kind} "${entry.tag}" on ${id}`;
      if (entry.state === 'absent') expect(found, `${what} was erased`).toBeUndefined();
      if (entry.state === 'present') {
        expect(found, `${what} was acknowledged`).toBeDefined();
        if (entry.id) expect(found.id, what).toBe(entry.id);
        // The answer's laid-out box and created flag are not stored.
        if (entry.item) expect(found, what).toEqual({ ...entry.item, bbox: undefined, created: undefined });
      }
      if (entry.state === 'unknown') {
        // In flight at the kill: either outcome is fine, but from now on it must stay as it is.
        if (found) Object.assign(entry, { state: 'present', id: found.id, item: found });
        else entry.state = 'absent';
      }
    }
  }
}

function byTagOf(items: any[], kind: Kind, tag: string): any {
  return items.find((item) => tagOf(kind, item) === tag);
}

let dataDir: string | undefined;
let child: ChildServer | undefined;
afterAll(async () => {
  if (child && child.process.exitCode === null && child.process.signalCode === null) {
    child.process.kill('SIGKILL');
    await child.exited;
  }
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('crash consistency', () => {
  it(`every acknowledged write survives ${ROUNDS} kill -9 at random moments, once; journal and stored state agree (seed ${SEED})`, async () => {
    dataDir = await tempDataDir();
    const random = prng(SEED);
    const ledger = new Ledger();
    const knownBoards = new Set<string>();
    const counter = { n: 0 };
    let stored: Map<string, Content> | undefined;
    let todo: Round['todo'] | undefined;
    let heavy: string | undefined;
    const stats = { acknowledged: 0, unknown: 0, pausedKills: 0 };

    for (let r = 0; r <= ROUNDS; r++) {
      const note = `seed ${SEED}, round ${r}`;
      const env = STORE_ENVS[r % STORE_ENVS.length];
      const server = await startChildServer(dataDir, env);
      child = server;
      const api = client(server.url);
      if (stored) await verify(api, stored, ledger, knownBoards, note);
      if (r === ROUNDS) {
        server.process.kill('SIGKILL');
        await server.exited;
        break;
      }

      // Fresh boards each round keep every board far below its quotas.
      const boards: string[] = [];
      for (let i = 0; i < 2; i++) {
        const res = await api.post('/api/boards');
        expectOk(res, 'POST /api/boards');
        boards.push(res.body.id);
        knownBoards.add(res.body.id);
      }
      if (!todo) {
        const res = await api.post('/api/boards', { mode: 'todo' });
        const column = (await api.get(`/json/${res.body.id}`)).body.columns[0].id;
        todo = { id: res.body.id, column };
        knownBoards.add(todo.id);
      }
      if (!heavy) {
        // About 1.6 MB of document: compacting it takes tens of milliseconds, so with a short
        // debounce a kill often lands in the middle of a compaction.
        const lines = Array.from({ length: HEAVY_STROKES }, (_, i) => ({
          points: Array.from({ length: 400 }, (_, j) => [HEAVY_X + i, j]),
        }));
        const res = await api.post('/api/boards', { content: { lines } });
        expectOk(res, 'POST /api/boards (heavy)');
        heavy = res.body.id as string;
        knownBoards.add(heavy);
        for (const [i, id] of (res.body.ids.lines as string[]).entries())
          Object.assign(ledger.sent('import', heavy, 'lines', `stroke:${HEAVY_X + i}`), { state: 'present', id });
      }
      boards.push(heavy);
      const round: Round = {
        ledger,
        random,
        killed: false,
        halted: false,
        failures: [],
        counter,
        boards,
        todo,
        knownBoards,
      };

      const mcp = await connectMcp(server.url);
      // The JSON channel and the Yjs client each stay on a fresh board of their own.
      const json = await connectJson(server.url, boards[0], { query: `?client=${randomUUID()}` });
      const yjs = connectYjs(server.url, boards[1], { client: YJS_CLIENT });
      await yjs.synced;
      const writers = [
        writer(round, 'rest', restWriter(round, api)),
        writer(round, 'mcp', mcpWriter(round, mcp)),
        writer(round, 'json', jsonWriter(round, boards[0], jsonRequests(json))),
        writer(round, 'yjs', yjsWriter(round, boards[1], yjs)),
      ];

      // Every other round is killed mid-write; together with the three store settings that gives all six combinations.
      if (r % 2 === 0) {
        // Killed mid-write: some requests are in flight.
        await sleep(50 + random() * 650);
        round.killed = true;
        round.halted = true;
      } else {
        // Killed just after a burst settles: a short store debounce after it, the boards are
        // compacted (the heavy one for tens of milliseconds) and unloaded.
        await sleep(50 + random() * 450);
        round.halted = true;
        await Promise.all(writers);
        await sleep(Number(env.STORE_DEBOUNCE_MS ?? 0) + random() * 40);
        round.killed = true;
        stats.pausedKills++;
      }
      server.process.kill('SIGKILL');
      await server.exited;
      await Promise.all(writers);
      yjs.destroy();
      json.close();
      await mcp.close().catch(() => {});
      expect(round.failures, note).toEqual([]);

      stored = readStored(dataDir);
      stats.acknowledged = [...ledger.entries.values()].filter((e) => e.state !== 'unknown').length;
      stats.unknown += [...ledger.entries.values()].filter((e) => e.state === 'unknown').length;
    }
    // The rounds did real work: many writes of every surface, settled on both sides of the kills.
    for (const writerName of ['rest', 'mcp', 'json', 'yjs']) {
      expect(
        [...ledger.entries.values()].filter((e) => e.writer === writerName && e.state === 'present').length,
        writerName,
      ).toBeGreaterThan(ROUNDS);
    }
    expect([...ledger.entries.values()].some((e) => e.state === 'absent')).toBe(true);
    console.log(
      `crash consistency (seed ${SEED}): ${stats.acknowledged} items settled, ${stats.unknown} in flight at a kill, ${stats.pausedKills} kills after a settled burst`,
    );
  }, 300_000); // twelve restarts, beside another test file on a 2-core machine
});

describe('crash consistency of history', () => {
  it('a listed version and a restore answered 200 survive kill -9', async () => {
    const historyDir = await tempDataDir();
    let server = await startChildServer(historyDir);
    try {
      let api = client(server.url);
      const id = (await api.post('/api/boards', { mode: 'draw' })).body.id;
      const settled = async (edit: () => Promise<unknown>) => {
        const waiting = api.get(`/api/boards/${id}/wait?timeout_ms=20000`);
        await edit();
        expect((await waiting).body.updated).toBe(true);
      };
      await settled(() => api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'kept' }));
      await settled(() => api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'vandal' }));
      expect((await api.get(`/api/boards/${id}/versions`)).body.versions.map((v: any) => v.version)).toEqual([2, 1]);
      const restored = await api.post(`/api/boards/${id}/versions/1/restore`);
      expect(restored.body).toMatchObject({ ok: true, version: 3, restoredFrom: 1 });
      server.process.kill('SIGKILL');
      await server.exited;

      server = await startChildServer(historyDir);
      api = client(server.url);
      const versions = (await api.get(`/api/boards/${id}/versions`)).body.versions;
      expect(versions.map((v: any) => [v.version, v.restoredFrom])).toEqual([
        [3, 1],
        [2, undefined],
        [1, undefined],
      ]);
      const json = (await api.get(`/json/${id}`)).body;
      expect(json.etag).toBe(restored.body.etag);
      expect(json.texts.map((x: any) => x.content)).toEqual(['kept']);
      expect((await api.get(`/api/boards/${id}/versions/2`)).body.texts.map((x: any) => x.content).sort()).toEqual([
        'kept',
        'vandal',
      ]);
    } finally {
      server.process.kill('SIGKILL');
      await server.exited;
      await rm(historyDir, { recursive: true, force: true });
    }
  }, 60_000);
});
