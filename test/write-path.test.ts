/**
 * The write path's per-turn work: the writes of
 * one event-loop turn share one SQLite commit and are acknowledged after it;
 * Hocuspocus stores a board once it is quiet (or has waited the longest
 * debounce), and broadcasts nothing for a document nobody is connected to. The kill -9 tests
 * (durability, crash-consistency) hold the durability side.
 */
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { type Document, MessageType } from '@hocuspocus/server';
import Database from 'better-sqlite3';
import * as decoding from 'lib0/decoding';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { messageYjsUpdate } from 'y-protocols/sync';
import * as Y from 'yjs';
import { boardMaps } from '../board/model/document-model.js';
import { upsertText } from '../board/mutations/draw.js';
import { DATABASE_FILE, openDatabase } from '../store/sqlite/database.js';
import { GroupCommit, MAX_GROUP_WAIT_MS, MAX_TURNS_PER_GROUP } from '../store/sqlite/group-commit.js';
import { SqliteStore } from '../store/sqlite/store.js';
import { client } from './helpers/http.js';
import { connectYjs, eventually } from './helpers/realtime.js';
import { startServer, TEST_CALLER, type TestServer, tempDataDir } from './helpers/server.js';
import { openRawCollab } from './helpers/yjs-raw.js';

let t: TestServer;
beforeAll(async () => {
  // A short store debounce, so that the stores this file asks for run within it.
  t = await startServer({ STORE_DEBOUNCE_MS: '200', STORE_MAX_DEBOUNCE_MS: '1000' });
});
afterAll(() => t.close());

async function newBoard(): Promise<string> {
  const { id } = (await client(t.url).post('/api/boards')).body;
  await client(t.url).post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'loaded' });
  return id;
}

const write = (boardId: string, content: string) =>
  t.server.boards.write(boardId, TEST_CALLER, (w) => upsertText(w, { x: 0, y: 0, content }));

describe('group commit (embedded SQLite)', () => {
  it('writes of one turn wait for one commit; one that throws undoes only its own', async () => {
    const boardId = await newBoard();
    const { documents, db } = t.server.store as SqliteStore;
    const before = await documents.journalLength(boardId);
    const writes = [write(boardId, 'first'), write(boardId, 'x'.repeat(100_001)), write(boardId, 'third')];
    // The changes run after their admission's microtasks; the commit waits for the end of the turn.
    for (let i = 0; i < 100 && !db.inTransaction; i++) await Promise.resolve();
    // Nothing is acknowledged yet: the turn's transaction is still open, and what shows the change waits for it.
    expect(db.inTransaction).toBe(true);
    expect(documents.pending(boardId)).toBeInstanceOf(Promise);
    const [first, refused, third] = await Promise.allSettled(writes);
    expect(first.status).toBe('fulfilled');
    expect(refused).toMatchObject({ status: 'rejected', reason: { code: 'quota_exceeded' } });
    expect(third.status).toBe('fulfilled');
    expect(db.inTransaction).toBe(false);
    expect(documents.pending(boardId)).toBeUndefined();
    expect(await documents.journalLength(boardId)).toBe(before + 2);
    const texts = (await client(t.url).get(`/json/${boardId}`)).body.texts.map(
      (text: { content: string }) => text.content,
    );
    expect(texts).toEqual(expect.arrayContaining(['first', 'third']));
    expect(texts).toHaveLength(3);
  });

  it('a write that only journals opens no savepoint; a change that also writes the registry opens one, and its throw takes back both', async () => {
    const boardId = await newBoard();
    const store = t.server.store as SqliteStore;
    // The savepoint statement is private: reached into here only to count when it runs.
    const group = (store as unknown as { group: { savepoint: { run: () => unknown } } }).group;
    const savepoint = group.savepoint.run.bind(group.savepoint);
    let opened = 0;
    group.savepoint.run = () => {
      opened++;
      return savepoint();
    };
    try {
      await write(boardId, 'journal only');
      expect(opened).toBe(0);
      const before = await store.documents.journalLength(boardId);
      const failure = new Error('the change failed after its writes');
      await expect(
        store.atomically(boardId, (tx) => {
          store.documents.append(boardId, Y.encodeStateAsUpdate(new Y.Doc())); // made before the savepoint: deleted on the throw
          tx.setMode(boardId, 'todo');
          throw failure;
        }),
      ).rejects.toBe(failure);
      expect(opened).toBe(1);
      expect(await store.documents.journalLength(boardId)).toBe(before);
      expect((await store.registry.get(boardId))?.mode).toBe('draw');
    } finally {
      group.savepoint.run = savepoint;
    }
  });

  it('a group stays open while each turn brings writes, up to its turn limit, and commits after a turn that brings none', async () => {
    const boardId = await newBoard();
    const { documents, db } = t.server.store as SqliteStore;
    // Turns under a test runner can outlast the group's wait bound (the next test's subject): lifted here, reached into.
    const group = (t.server.store as unknown as { group: { maxWaitMs: number } }).group;
    const maxWaitMs = group.maxWaitMs;
    group.maxWaitMs = Infinity;
    onTestFinished(() => {
      group.maxWaitMs = maxWaitMs;
    });
    /** Starts a write and returns it with the commit it waits for, once its change has run. */
    const started = async (content: string) => {
      let ran = false;
      const written = t.server.boards.write(boardId, TEST_CALLER, (w) => {
        ran = true;
        return upsertText(w, { x: 0, y: 0, content });
      });
      for (let i = 0; i < 100 && !ran; i++) await Promise.resolve();
      expect(ran).toBe(true);
      return { written, commit: documents.pending(boardId) };
    };
    const turns = 3 * MAX_TURNS_PER_GROUP;
    const burst: Awaited<ReturnType<typeof started>>[] = [];
    for (let turn = 0; turn < turns; turn++) {
      burst.push(await started(`turn ${turn}`));
      await nextTurn();
    }
    await Promise.all(burst.map(({ written }) => written));
    // The next turn's write joined the first one's commit; no commit took more turns than the limit.
    expect(burst[1].commit).toBe(burst[0].commit);
    const runs: number[] = [];
    for (const [i, { commit }] of burst.entries()) {
      if (i > 0 && commit === burst[i - 1].commit) runs[runs.length - 1]++;
      else runs.push(1);
    }
    expect(Math.max(...runs)).toBeLessThanOrEqual(MAX_TURNS_PER_GROUP);
    expect(runs.length).toBeGreaterThanOrEqual(turns / MAX_TURNS_PER_GROUP);
    // A lone write commits after the first turn that brings nothing, before the limit.
    const lone = await started('alone');
    let open = 0;
    while (db.inTransaction) {
      open++;
      await nextTurn();
    }
    expect(open).toBeLessThan(MAX_TURNS_PER_GROUP);
    await lone.written;
    expect(await documents.journalLength(boardId)).toBeGreaterThanOrEqual(turns + 1);
  });

  it('a group waits for no further turn once its first change has waited its bound, however busy the turns', async () => {
    const db = new Database(':memory:');
    onTestFinished(() => {
      db.close();
    });
    db.exec('CREATE TABLE notes (content TEXT)');
    const insert = db.prepare('INSERT INTO notes VALUES (?)');
    const longTurnMs = 2;
    expect(MAX_GROUP_WAIT_MS).toBeLessThan(longTurnMs);
    /** Turns that each bring a write and run longer than the default bound: whether the group was still open after each. */
    const openAfterLongTurns = async (commits: GroupCommit) => {
      const open: boolean[] = [];
      const written: Promise<unknown>[] = [];
      for (let turn = 0; turn < MAX_TURNS_PER_GROUP; turn++) {
        written.push(commits.run(() => insert.run(`turn ${turn}`)));
        for (const start = performance.now(); performance.now() - start < longTurnMs; );
        await nextTurn();
        open.push(db.inTransaction);
      }
      await Promise.all(written);
      return open;
    };
    // Without the bound, the group waits while turns bring writes, up to its turn limit.
    expect(await openAfterLongTurns(new GroupCommit(db, Infinity))).toEqual([true, true, true, false]);
    // With it, each long turn's write commits at the end of its turn.
    expect(await openAfterLongTurns(new GroupCommit(db))).toEqual([false, false, false, false]);
    expect(db.prepare('SELECT count(*) AS n FROM notes').get()).toEqual({ n: 2 * MAX_TURNS_PER_GROUP });
  });

  it('a group takes the write lock as it opens: another connection committing between its first read and its first write cannot fail that write', async () => {
    const dir = await tempDataDir();
    const db = openDatabase(dir);
    // An operator's sqlite3 shell beside the server: it retries on SQLITE_BUSY rather than wait.
    const beside = new Database(join(dir, DATABASE_FILE));
    beside.pragma('busy_timeout = 0');
    onTestFinished(() => {
      beside.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    });
    db.exec('CREATE TABLE notes (content TEXT)');
    const commits = new GroupCommit(db, Infinity);
    // The group's first statement reads: a deferred BEGIN would take its snapshot here and its write lock only later.
    const read = commits.run(() => db.prepare('SELECT count(*) AS n FROM notes').get());
    let besideRefused = false;
    try {
      beside.prepare("INSERT INTO notes VALUES ('beside')").run();
    } catch (error) {
      expect((error as { code?: string }).code).toBe('SQLITE_BUSY');
      besideRefused = true;
    }
    const written = commits.run(() => db.prepare("INSERT INTO notes VALUES ('group')").run());
    await expect(Promise.all([read, written])).resolves.toEqual([{ n: 0 }, expect.objectContaining({ changes: 1 })]);
    // The shell's write was refused while the group held the lock; it goes through once the group has committed.
    expect(besideRefused).toBe(true);
    beside.prepare("INSERT INTO notes VALUES ('beside')").run();
    expect(db.prepare('SELECT content FROM notes ORDER BY rowid').pluck().all()).toEqual(['group', 'beside']);
  });

  it('a lock swap is seen by the next write at once (the registry cache follows its own writes)', async () => {
    const boardId = await newBoard();
    const api = client(t.url);
    const lock = await api.post(`/api/boards/${boardId}/lock`, { mode: 'write' });
    expect(lock.status).toBe(200);
    expect((await api.post(`/api/boards/${boardId}/texts`, { x: 0, y: 0, content: 'no key' })).status).toBe(401);
    const unlocked = await api.post(`/api/boards/${boardId}/unlock`, undefined, { 'x-board-key': lock.body.key });
    expect(unlocked.status).toBe(200);
    expect((await api.post(`/api/boards/${boardId}/texts`, { x: 0, y: 0, content: 'open again' })).status).toBe(200);
  });

  it('a write admitted before an erase and resumed after it is refused: the erased document stays empty', async () => {
    const boardId = await newBoard();
    // Writes resumed a few microtasks apart, so that some were admitted before the erase's change and run after it.
    const later = async (ticks: number) => {
      for (let i = 0; i < ticks; i++) await null;
      return write(boardId, `after ${ticks} ticks`);
    };
    const settled = Promise.allSettled(Array.from({ length: 40 }, (_, ticks) => later(ticks)));
    await t.server.boards.erase(boardId, TEST_CALLER);
    const outcomes = await settled;
    expect(outcomes.some((outcome) => outcome.status === 'rejected')).toBe(true);
    const doc = t.server.hocuspocus.documents.get(boardId);
    expect(doc && boardMaps(doc).texts.size).toBeFalsy();
  });

  it('checkpoints on a timer, on a thread of its own: a second burst after a second reuses the WAL instead of growing it', async () => {
    const boardId = await newBoard();
    const wal = join(t.dataDir, `${DATABASE_FILE}-wal`);
    const { id } = await write(boardId, 'edited in place');
    const edit = (content: string) =>
      t.server.boards.write(boardId, TEST_CALLER, (w) => upsertText(w, { id, x: 0, y: 0, content }));
    const burst = async (label: string) => {
      for (let i = 0; i < 300; i += 30)
        await Promise.all(Array.from({ length: 30 }, (_, k) => edit(`${label} ${i + k}`)));
    };
    await sleep(1_200);
    await burst('first');
    const afterFirst = statSync(wal).size;
    // The store scans the journal again only when another connection commits: a checkpoint is no commit.
    const { documents } = t.server.store as SqliteStore;
    const inside = documents as unknown as { scan: () => void };
    const scan = inside.scan;
    let scans = 0;
    inside.scan = () => {
      scans++;
      scan.call(documents);
    };
    try {
      await sleep(1_200); // the timer's checkpoint folds the first burst into the file; the next writes start the WAL over
      await burst('second');
      expect(statSync(wal).size).toBeLessThan(afterFirst * 1.5);
      await sleep(1_200);
      await documents.journalLength(boardId); // looks at data_version once more, after the checkpoints
      expect(scans).toBe(0);
    } finally {
      inside.scan = scan;
    }
  });

  it('boards that ask to compact within the window compact in one transaction, and an erased one is left out', async () => {
    const ids = [await newBoard(), await newBoard(), await newBoard(), await newBoard()];
    for (const [i, id] of ids.entries()) await write(id, `interleaved ${i}`);
    const { documents } = t.server.store as SqliteStore;
    // compactTx is private: reached into here only to count the transactions.
    const inside = documents as unknown as { compactTx: (due: unknown[]) => unknown };
    const batches: number[] = [];
    const compactTx = inside.compactTx;
    inside.compactTx = (due) => {
      batches.push(due.length);
      return compactTx(due);
    };
    try {
      const docs = ids.map((id) => t.server.hocuspocus.documents.get(id) as Document);
      const compacted = Promise.all(ids.slice(0, 3).map((id, i) => documents.compact(id, docs[i])));
      const erased = documents.compact(ids[3], docs[3]);
      await documents.erase(ids[3]);
      expect(await erased).toBe(false);
      expect(await compacted).toEqual([true, true, true]);
    } finally {
      inside.compactTx = compactTx;
    }
    expect(batches[0]).toBe(3); // a debounced store of these boards may come later, in a batch of its own
    for (const id of ids) expect(await documents.journalLength(id)).toBe(0);
  });
});

describe('the journal without an index by board (embedded SQLite)', () => {
  it('a file made with the index loses it on opening, and its journal still loads, board by board', async () => {
    const dataDir = await tempDataDir();
    try {
      const updates = new Map<string, Uint8Array[]>();
      const before = new SqliteStore(dataDir, Date.now);
      for (let i = 0; i < 6; i++) {
        const name = `board-${i % 3}`;
        const doc = new Y.Doc();
        doc.getArray<string>('log').push([`${name} entry ${i}`]);
        const update = Y.encodeStateAsUpdate(doc);
        updates.set(name, [...(updates.get(name) ?? []), update]);
        await before.atomically(name, () => before.documents.append(name, update));
      }
      await before.close();
      const file = new Database(join(dataDir, DATABASE_FILE));
      file.exec('CREATE INDEX journal_by_name ON journal(name, seq)'); // as files made before this change have it
      file.close();

      const after = new SqliteStore(dataDir, Date.now);
      try {
        const indexes = after.db
          .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'journal'")
          .pluck()
          .all();
        expect(indexes).toEqual([]);
        for (const [name, appended] of updates) {
          expect(await after.documents.journalLength(name)).toBe(appended.length);
          const doc = new Y.Doc();
          Y.applyUpdate(doc, (await after.documents.load(name))!);
          expect(doc.getArray<string>('log').toArray()).toHaveLength(appended.length);
          expect(
            doc
              .getArray<string>('log')
              .toArray()
              .every((entry) => entry.startsWith(name)),
          ).toBe(true);
        }
      } finally {
        await after.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("Hocuspocus's store debounce and broadcast switch, through its public surface", () => {
  /** Counts the stores of `boardId` that run while `during` runs (a store compacts the board's journal). */
  async function storesRun(boardId: string, during: () => Promise<unknown>): Promise<number> {
    const { documents } = t.server;
    let run = 0;
    const compact = documents.compact;
    documents.compact = (name, doc) => {
      if (name === boardId) run++;
      return compact.call(documents, name, doc);
    };
    try {
      await during();
    } finally {
      documents.compact = compact;
    }
    return run;
  }

  it('a burst is stored once, after its quiet period, and the store compacts the journal', async () => {
    const boardId = await newBoard();
    const duringBurst = await storesRun(boardId, async () => {
      await Promise.all(Array.from({ length: 20 }, (_, i) => write(boardId, `burst ${i}`)));
      await nextTurn();
    });
    expect(duringBurst).toBe(0);
    const afterIt = await storesRun(boardId, () =>
      eventually(async () => expect(await t.server.documents.journalLength(boardId)).toBe(0)),
    );
    expect(afterIt).toBe(1);
  });

  it('a board written without a pause is still stored once it has waited the longest debounce (1 s here)', async () => {
    const boardId = await newBoard();
    const run = await storesRun(boardId, async () => {
      for (let i = 0; i < 30; i++) {
        await write(boardId, `steady ${i}`);
        await sleep(50); // well under the 200 ms debounce: the board is never quiet
      }
    });
    expect(run).toBeGreaterThanOrEqual(1);
  });

  it('broadcasts at once for a document nobody is connected to, and batches the turn once a Yjs client is', async () => {
    const boardId = await newBoard();
    const document = t.server.hocuspocus.documents.get(boardId) as Document;
    await write(boardId, 'alone');
    expect(document.flushDelay).toBe(false);
    const yjs = connectYjs(t.url, boardId);
    try {
      await yjs.synced;
      await Promise.all([write(boardId, 'seen 1'), write(boardId, 'seen 2')]);
      expect(document.flushDelay).toBe(0);
      await eventually(() => {
        const contents = [...boardMaps(yjs.doc).texts.values()].map((text) => (text as { content?: string }).content);
        expect(contents).toEqual(expect.arrayContaining(['alone', 'seen 1', 'seen 2']));
      });
    } finally {
      yjs.destroy();
    }
    await eventually(async () => {
      await write(boardId, 'alone again');
      expect(document.flushDelay).toBe(false);
    });
  });

  it("upstream: a document's flushDelay 0 sends the turn's updates as one message, false sends each at once", async () => {
    const boardId = await newBoard();
    const document = t.server.hocuspocus.documents.get(boardId) as Document;
    const collab = await openRawCollab(t.url, boardId);
    const updates: Buffer[] = [];
    collab.socket.on('message', (data: Buffer) => {
      const decoder = decoding.createDecoder(new Uint8Array(data));
      decoding.readVarString(decoder);
      if (decoding.readVarUint(decoder) !== MessageType.Sync || decoding.readVarUint(decoder) !== messageYjsUpdate)
        return;
      updates.push(Buffer.from(decoding.readVarUint8Array(decoder)));
    });
    const origin = { source: 'system', author: 'ai:test' };
    /** How many update messages two transactions of one turn reach the socket in, told by a last one sent a turn later. */
    const messagesForTwo = async (label: string): Promise<number> => {
      const before = updates.length;
      document.transact(() => document.getMap('meta').set('probe', `${label} 1`), origin);
      document.transact(() => document.getMap('meta').set('probe', `${label} 2`), origin);
      await nextTurn();
      let last: Buffer | undefined;
      document.once('update', (update: Uint8Array) => {
        last = Buffer.from(update);
      });
      document.transact(() => document.getMap('meta').set('probe', `${label} last`), origin);
      await eventually(() => expect(updates.some((update) => last && update.equals(last))).toBe(true));
      return updates.length - before - 1;
    };
    try {
      expect((await collab.auth).ok).toBe(true);
      await eventually(() => expect(document.flushDelay).toBe(0)); // connected: BoardHocuspocus batches
      expect(await messagesForTwo('batched')).toBe(1);
      document.flushDelay = false;
      expect(await messagesForTwo('at once')).toBe(2);
    } finally {
      collab.close();
      document.transact(() => document.getMap('meta').delete('probe'), origin);
    }
  });
});
