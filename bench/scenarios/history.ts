/**
 * Board history: the version list, a version's snapshot and a
 * restore on a draw board at its quotas with many versions, each against the
 * same board's current `/json` or a plain one-item write; the history stored
 * after a simulated day of edit bursts against the board's own stored size; and
 * durable write throughput with history on and off (HISTORY=off, benchmarks only).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as Y from 'yjs';
import { boardMaps } from '../../board/model/document-model.js';
import type { DocumentHost } from '../../host/documents/document-host.js';
import { BoardEvents } from '../../host/events/board-events.js';
import { HistoryRecorder } from '../../host/history/history-recorder.js';
import { SqliteStore } from '../../store/sqlite/store.js';
import { tempDataDir, testEnv } from '../../test/helpers/child-server.js';
import { type Spawned, spawnService } from '../lib/processes.js';
import type { Row, Section } from '../lib/report.js';
import { ms, ratio, sample, summarize } from '../lib/stats.js';
import { fullDrawContent } from './import.js';
import { load, prepare } from './writes.js';

const JSON_HEADERS = { 'content-type': 'application/json' };

const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;

/**
 * Load in realistic bursts: the boards are split into GROUPS groups and each
 * second the writes go to one group, so every board takes a one-second burst
 * and is then quiet for GROUPS - 1 seconds, longer than the 3 s settle: its
 * burst settles (and, with history on, is recorded) while the others are written.
 */
const GROUPS = 5;
function burstLoad(url: string, targets: { path: string; id: string }[], seconds: number) {
  const perGroup = Math.ceil(targets.length / GROUPS);
  const started = Date.now();
  return load(
    url,
    targets,
    seconds,
    (next) => ((Math.floor((Date.now() - started) / 1000) % GROUPS) * perGroup + (next % perGroup)) % targets.length,
  );
}

/** Versions a board holds (up to 100: enough to count a run's). */
async function versionCount(url: string, boardId: string): Promise<number> {
  const page = (await (await fetch(`${url}/api/boards/${boardId}/versions?limit=100`)).json()) as {
    versions: unknown[];
  };
  return page.versions.length;
}

/**
 * A day of continuous editing, simulated in process: the real HistoryRecorder
 * (recording, change counts, thinning by versionsToDrop with the service's
 * retention) on a real SqliteStore, with a clock that the loop moves on by
 * `everyMs` between bursts; a burst is three text edits by one author.
 */
export async function simulatedDay(everyMs: number, board: { texts: number; lines: number }) {
  const dir = await mkdtemp(join(tmpdir(), 'bench-history-'));
  let now = Date.parse('2026-03-02T00:00:00Z');
  const store = new SqliteStore(dir, () => now);
  const doc = new Y.Doc();
  const host = { use: async <T>(_id: string, fn: (d: Y.Doc) => T) => fn(doc) } as unknown as DocumentHost;
  const events = new BoardEvents();
  const recorder = new HistoryRecorder({
    store,
    host,
    events,
    now: () => now,
    logError: (error) => {
      throw error;
    },
  });
  const boardId = 'simulatedday';
  try {
    await store.atomically(boardId, (tx) => tx.createBoard(boardId, 'draw'));
    const maps = boardMaps(doc);
    const text = (i: number, revision: number) => ({
      id: `t${i}`,
      x: (i % 25) * 300 + (revision % 7),
      y: Math.floor(i / 25) * 200,
      content: `Note ${i}, revision ${revision}\n- [ ] check ${i}`,
      author: `ai:agent${i % 4}`,
      last_updated: now,
    });
    doc.transact(() => {
      for (let i = 0; i < board.texts; i++) maps.texts.set(`t${i}`, text(i, 0) as never);
      for (let i = 0; i < board.lines; i++)
        maps.lines.set(`l${i}`, {
          id: `l${i}`,
          points: Array.from({ length: 100 }, (_, k) => (i + k * 3) % 500),
          color: 'blue',
          author: 'ai:agent0',
          last_updated: now,
        } as never);
    });
    await recorder.recordNow(boardId);
    const bursts = Math.floor(86_400_000 / everyMs);
    let seed = 1;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let burst = 1; burst <= bursts; burst++) {
      now += everyMs;
      const author = `ai:agent${burst % 4}`;
      doc.transact(
        () => {
          for (let edit = 0; edit < 3; edit++)
            maps.texts.set(`t${Math.floor(random() * board.texts)}`, {
              ...text(Math.floor(random() * board.texts), burst),
              author,
            } as never);
        },
        { source: 'rest', author },
      );
      events.emit('change', boardId, { source: 'rest', author });
      await recorder.settle(boardId);
    }
    const versions = await store.history.all(boardId);
    const historyBytes = versions.reduce((sum, version) => sum + version.bytes, 0);
    const parts = store.db
      .prepare(
        'SELECT SUM(LENGTH("update")) AS updates, SUM(LENGTH(state_vector)) AS vectors, SUM(LENGTH(summary)) AS summaries FROM versions WHERE board_id = ?',
      )
      .get(boardId) as { updates: number; vectors: number; summaries: number };
    store.documents.replace(boardId, doc); // what compaction stores
    const boardBytes = Y.encodeStateAsUpdate(doc).byteLength;
    return { bursts, kept: versions.length, historyBytes, boardBytes, oldest: versions[0].bytes, parts };
  } finally {
    doc.destroy();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export async function historyScenario(quick: boolean): Promise<Section> {
  const runs = quick ? 30 : 200;
  const rounds = quick ? 25 : 300; // edit + restore rounds: two versions each
  const seconds = quick ? 5 : 15;
  const dirs = [await tempDataDir(), await tempDataDir(), await tempDataDir()];
  const started: Spawned[] = [];
  const rows: Row[] = [];
  const notes: string[] = [];
  try {
    // All three servers start together: the read server, and the write path's with history on and off.
    const spawned = await Promise.allSettled([
      spawnService({ ...testEnv(dirs[0]), STORE_DEBOUNCE_MS: '600000', STORE_MAX_DEBOUNCE_MS: '600000' }),
      spawnService(testEnv(dirs[1])),
      spawnService({ ...testEnv(dirs[2]), HISTORY: 'off' }),
    ]);
    for (const result of spawned) if (result.status === 'fulfilled') started.push(result.value);
    for (const result of spawned) if (result.status === 'rejected') throw result.reason;
    const [server, on, off] = started;
    const url = server.url;
    const post = (path: string, body?: unknown) =>
      fetch(`${url}${path}`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(body ?? {}) }).then(
        async (r) => ({ status: r.status, body: await r.json() }),
      );
    const get = (path: string) =>
      fetch(`${url}${path}`).then(async (r) => ({ status: r.status, body: await r.text() }));
    // A draw board at its quotas, as the snapshots scenario fills it; its import settles into version 1.
    const { body: board } = (await post('/api/boards', { content: fullDrawContent() })) as { body: { id: string } };
    const id = board.id;
    const deadline = Date.now() + 15_000;
    while ((await versionCount(url, id)) === 0) {
      if (Date.now() > deadline) throw new Error('history bench: the import never settled into a version');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const texts = (JSON.parse((await get(`/json/${id}`)).body) as { texts: { id: string }[] }).texts.map((t) => t.id);
    // Many versions without waiting for settles: each round edits one text (a plain write, the restore's
    // baseline) and restores version 1, which records the edited state and then the restored one.
    const writes: number[] = [];
    const restores: number[] = [];
    for (let i = 0; i < rounds; i++) {
      let t0 = performance.now();
      const write = await post(`/api/boards/${id}/texts`, {
        id: texts[i % texts.length],
        x: i,
        y: 0,
        content: `edited ${i}`,
      });
      writes.push(performance.now() - t0);
      t0 = performance.now();
      const restore = await post(`/api/boards/${id}/versions/1/restore`);
      restores.push(performance.now() - t0);
      if (write.status !== 200 || restore.status !== 200)
        throw new Error(
          `history bench: write ${write.status}, restore ${restore.status} ${JSON.stringify(restore.body)}`,
        );
    }
    const page = JSON.parse((await get(`/api/boards/${id}/versions?limit=1`)).body) as {
      versions: { version: number }[];
    };
    const newest = page.versions[0].version;
    const json = summarize(await sample(runs, 5, () => get(`/json/${id}`)));
    const list = summarize(await sample(runs, 5, () => get(`/api/boards/${id}/versions`)));
    const slowRuns = quick ? 15 : runs; // each of these builds a 1.3 MiB board afresh
    // A version read for the first time is built from the store; later reads of it come from the server's view cache.
    const coldReads: number[] = [];
    for (let i = 1; i <= Math.min(slowRuns, newest - 2); i++) {
      const t0 = performance.now();
      await get(`/api/boards/${id}/versions/${newest - i}`);
      coldReads.push(performance.now() - t0);
    }
    const snapshotCold = summarize(coldReads);
    const snapshotNewest = summarize(await sample(slowRuns, 2, () => get(`/api/boards/${id}/versions/${newest}`)));
    const snapshotFirst = summarize(await sample(slowRuns, 2, () => get(`/api/boards/${id}/versions/1`)));
    const size = (await get(`/api/boards/${id}/versions/${newest}`)).body.length;
    const write = summarize(writes);
    const restore = summarize(restores);
    rows.push(
      {
        measure: 'version list `GET /versions` p50',
        ours: ms(list.p50),
        baseline: ms(json.p50),
        ratio: ratio(list.p50, json.p50),
        note: `50 newest of ${newest} versions; target < 5 ms`,
      },
      {
        measure: `version snapshot \`GET /versions/${newest}\` (newest), read again, p50`,
        ours: ms(snapshotNewest.p50),
        baseline: ms(json.p50),
        ratio: ratio(snapshotNewest.p50, json.p50),
        note: `board at its quotas (${kib(size)}); after its first read a version is served from the view cache (versions never change); target < 50 ms`,
      },
      {
        measure: 'version snapshot (newest), read again, p99',
        ours: ms(snapshotNewest.p99),
        baseline: ms(json.p99),
        ratio: ratio(snapshotNewest.p99, json.p99),
      },
      {
        measure: 'version snapshot, first read of a version, p50',
        ours: ms(snapshotCold.p50),
        baseline: ms(json.p50),
        ratio: ratio(snapshotCold.p50, json.p50),
        note: `${coldReads.length} versions each read once: replays up to ${newest} stored updates and builds the view`,
      },
      {
        measure: 'version snapshot, first read, p99',
        ours: ms(snapshotCold.p99),
        baseline: ms(json.p99),
        ratio: ratio(snapshotCold.p99, json.p99),
      },
      {
        measure: '`GET /versions/1` (the oldest), read again, p50',
        ours: ms(snapshotFirst.p50),
        baseline: ms(json.p50),
        ratio: ratio(snapshotFirst.p50, json.p50),
        note: 'one stored update, no replay',
      },
      {
        measure: 'restore `POST /versions/1/restore` of the full board p50',
        ours: ms(restore.p50),
        baseline: ms(write.p50),
        ratio: ratio(restore.p50, write.p50),
        note: `records the state before and after; ${rounds} restores; target < 200 ms`,
      },
      { measure: 'restore p99', ours: ms(restore.p99), baseline: ms(write.p99), ratio: ratio(restore.p99, write.p99) },
    );
    notes.push(
      `Read figures: ${runs} sequential requests each (${slowRuns} for a version's snapshot) over loopback, against the same board's cached \`GET /json\` in the same run. The board (500 texts, 2000 strokes, 50 images) gets its versions from ${rounds} rounds of one text edit then a restore of version 1, each round recording two versions.`,
      'Restore baseline: the plain `POST /texts` edit of one text on the same board, timed in the same rounds.',
    );
    await server.stop();

    // Storage after a simulated day: in process, real recorder and store, simulated clock.
    // Past 2000 versions every burst drops (folds) the oldest, which is what takes the time: quick mode moves the
    // clock on 40 s per burst (2160 bursts, just past the cap), a full run 5 s (17280 bursts).
    const everyMs = quick ? 40_000 : 5_000;
    const shapes = [
      ['working board (100 texts, 100 strokes)', { texts: 100, lines: 100 }],
      ['busy board (500 texts, 500 strokes)', { texts: 500, lines: 500 }],
    ] as const;
    for (const [label, shape] of quick ? shapes.slice(0, 1) : shapes) {
      const day = await simulatedDay(everyMs, shape);
      rows.push({
        measure: `history stored after a simulated day, ${label}`,
        ours: kib(day.historyBytes),
        baseline: kib(day.boardBytes),
        ratio: ratio(day.historyBytes, day.boardBytes),
        note: `simulated in process (real HistoryRecorder, SqliteStore and versionsToDrop, clock moved on ${everyMs / 1000} s per burst of 3 text edits): ${day.bursts} bursts, ${day.kept} versions kept, the oldest (folded) ${kib(day.oldest)}; updates ${kib(day.parts.updates)}, summaries ${kib(day.parts.summaries)}, state vectors ${kib(day.parts.vectors)}; target ≤ 20x`,
      });
    }
    notes.push(
      "Storage: the sum of the stored versions' `bytes` (update, state vector and summary) against `Y.encodeStateAsUpdate` of the board at the end of the day (what compaction stores). Not driven through the server: its settle is 3 s of real time, so a day of bursts is simulated on the recorder and store the server uses.",
    );

    // Write path with history on and off: the same server code, HISTORY=off on the second.
    const [onTargets, offTargets] = await Promise.all([prepare(on.url, 100), prepare(off.url, 100)]);
    await burstLoad(on.url, onTargets, 1); // warm-up
    await burstLoad(off.url, offTargets, 1);
    const before = (await Promise.all(onTargets.map((t) => versionCount(on.url, t.path.split('/')[3])))).reduce(
      (a, b) => a + b,
      0,
    );
    const withHistory = await burstLoad(on.url, onTargets, seconds);
    const withoutHistory = await burstLoad(off.url, offTargets, seconds);
    await new Promise((resolve) => setTimeout(resolve, 3_300)); // the last bursts settle
    const recorded =
      (await Promise.all(onTargets.map((t) => versionCount(on.url, t.path.split('/')[3])))).reduce((a, b) => a + b, 0) -
      before;
    rows.push({
      measure: 'durable writes, 100 boards in bursts: throughput (req/s)',
      ours: withHistory.rps.toFixed(0),
      baseline: withoutHistory.rps.toFixed(0),
      ratio: `${((withHistory.rps / withoutHistory.rps) * 100).toFixed(0)}% of history off`,
      note: `${recorded} versions recorded during the run; ${withHistory.errors + withoutHistory.errors} errors; target within 10%`,
    });
    notes.push(
      `Write path: autocannon, 10 connections (as in the writes scenario), ${seconds} s per figure, \`POST /texts\` updating one text per board; the 100 boards are written in ${GROUPS} groups, one group per second, so each board takes a 1 s burst and then rests ${GROUPS - 1} s, past the 3 s settle: versions are recorded throughout the run. Baseline: a second server with \`HISTORY=off\` (benchmarks only), same load.`,
    );
    return {
      title: 'Board history',
      baseline:
        "per row: the same board's `GET /json`, a plain one-text write on the same board, the board's own stored state, or the same server with `HISTORY=off` — each measured in the same run.",
      rows,
      notes,
    };
  } finally {
    for (const child of started) await child.stop();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  }
}
