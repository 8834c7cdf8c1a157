/**
 * Board history over REST (docs/history.md): versions taken when a
 * burst settles, paging, the board at a version, changes since a version or
 * ETag, restore (and how live clients see it), locks, rate limit, hostile
 * input, erase, and thinning as the clock moves on.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boardMaps } from '../board/model/document-model.js';
import { MAX_BATCH_OPS } from '../schema/index.js';
import { type Client, client, PNG_1PX } from './helpers/http.js';
import { connectYjs, eventually, openJson } from './helpers/realtime.js';
import { startServer, TEST_CALLER, TEST_SETTLE_MS, type TestServer, useServer } from './helpers/server.js';

const t = useServer();

async function newBoard(api: Client, mode: 'draw' | 'todo' = 'draw'): Promise<string> {
  return (await api.post('/api/boards', { mode })).body.id;
}

/** Runs `edit` and resolves once its burst has settled (and so was recorded), with the ETag then. */
async function settle(
  api: Client,
  id: string,
  edit: () => Promise<unknown>,
  headers: Record<string, string> = {},
): Promise<string> {
  const waiting = api.get(`/api/boards/${id}/wait?timeout_ms=20000`, headers);
  await edit();
  const answer = await waiting;
  expect(answer.body.updated).toBe(true);
  return answer.body.etag;
}

const addText = (api: Client, id: string, content: string, headers: Record<string, string> = {}) =>
  api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content }, headers);

const contentOf = (snapshot: any) => ({ texts: snapshot.texts, lines: snapshot.lines, images: snapshot.images });

describe('versions', () => {
  it('a settled burst becomes a version with its summary; its ETag is the one wait gave', async () => {
    const id = await newBoard(t.api);
    expect((await t.api.get(`/api/boards/${id}/versions`)).body).toEqual({ boardId: id, versions: [], next: null });
    const etag = await settle(t.api, id, async () => {
      await addText(t.api, id, 'one');
      await addText(t.api, id, 'two');
    });
    const list = await t.api.get(`/api/boards/${id}/versions`);
    expect(list.status).toBe(200);
    expect(list.headers.get('cache-control')).toBe('no-store');
    expect(list.body.versions).toHaveLength(1);
    const [version] = list.body.versions;
    expect(version).toEqual({
      version: 1,
      at: expect.any(String),
      authors: ['ai:rest'],
      counts: { texts: 2, lines: 0, images: 0, shapes: 0, frames: 0 },
      changes: { added: 2, updated: 0, removed: 0 },
    });
    expect(Date.parse(version.at)).toBeGreaterThan(Date.now() - 60_000);
    expect((await t.api.get(`/api/boards/${id}/versions/1`)).body.etag).toBe(etag);
    // Nothing changes, nothing is recorded.
    const again = await t.api.get(`/api/boards/${id}/wait?timeout_ms=1000`);
    expect(again.body.timedOut).toBe(true);
    expect((await t.api.get(`/api/boards/${id}/versions`)).body.versions).toHaveLength(1);
  });

  it('a settle that finds its burst taken by another waits for that recording, so the version is there when it resolves', async () => {
    const id = await newBoard(t.api);
    await addText(t.api, id, 'one');
    const settling = t.server.server.events.settling!;
    const resolved: string[] = [];
    await Promise.all([
      settling(id).then(() => resolved.push('recording')),
      settling(id).then(() => resolved.push('waiting')),
    ]);
    expect(resolved).toEqual(['recording', 'waiting']);
    expect((await t.api.get(`/api/boards/${id}/versions`)).body.versions).toHaveLength(1);
  });

  it('pages newest first with before and limit; next is the following page', async () => {
    const id = await newBoard(t.api);
    for (const content of ['a', 'b', 'c']) await settle(t.api, id, () => addText(t.api, id, content));
    const first = await t.api.get(`/api/boards/${id}/versions?limit=2`);
    expect(first.body.versions.map((v: any) => v.version)).toEqual([3, 2]);
    expect(first.body.next).toBe(2);
    const second = await t.api.get(`/api/boards/${id}/versions?limit=2&before=${first.body.next}`);
    expect(second.body.versions.map((v: any) => v.version)).toEqual([1]);
    expect(second.body.next).toBeNull();
  });

  it('the board at a version: the /json snapshot then, immutable, 304 on its ETag; 404 version_not_found otherwise', async () => {
    const id = await newBoard(t.api);
    await settle(t.api, id, () => addText(t.api, id, 'then'));
    const then = (await t.api.get(`/json/${id}`)).body;
    await settle(t.api, id, () => addText(t.api, id, 'later'));
    const at = await t.api.get(`/api/boards/${id}/versions/1`);
    expect(at.status).toBe(200);
    expect(at.body).toMatchObject({ boardId: id, mode: 'draw', version: 1, at: expect.any(String), etag: then.etag });
    expect(contentOf(at.body)).toEqual(contentOf(then));
    expect(at.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(at.headers.get('etag')).toBe(then.etag);
    expect((await t.api.get(`/api/boards/${id}/versions/1`, { 'if-none-match': then.etag })).status).toBe(304);
    const svg = await t.api.get(`/api/boards/${id}/versions/1/svg-preview`);
    expect(svg.status).toBe(200);
    expect(svg.text).toContain('<svg');
    expect(svg.text).toContain('then');
    expect(svg.text).not.toContain('later');
    const missing = await t.api.get(`/api/boards/${id}/versions/99`);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('version_not_found');
  });
});

describe('changes', () => {
  it('since a version and since an ETag: added, updated and removed items in the /json shape', async () => {
    const id = await newBoard(t.api);
    let keep = '';
    let drop = '';
    const etag = await settle(t.api, id, async () => {
      keep = (await addText(t.api, id, 'keep')).body.id;
      drop = (await addText(t.api, id, 'drop')).body.id;
    });
    let added = '';
    await settle(t.api, id, async () => {
      await t.api.post(`/api/boards/${id}/texts`, { id: keep, x: 5, y: 5, content: 'kept, changed' });
      await t.api.del(`/api/boards/${id}/texts/${drop}`);
      added = (await t.api.post(`/api/boards/${id}/links`, { x: 0, y: 50, url: 'https://example.com' })).body.id;
    });
    const current = (await t.api.get(`/json/${id}`)).body;
    for (const query of ['since=1', `since_etag=${encodeURIComponent(etag)}`]) {
      const changes = await t.api.get(`/api/boards/${id}/changes?${query}`);
      expect(changes.status).toBe(200);
      expect(changes.body).toMatchObject({ boardId: id, from: 1, to: 2, etag: current.etag });
      expect(changes.body.added).toEqual([{ ...current.texts.find((x: any) => x.id === added), kind: 'link' }]);
      expect(changes.body.updated).toEqual([{ ...current.texts.find((x: any) => x.id === keep), kind: 'texts' }]);
      expect(changes.body.removed).toEqual([{ kind: 'texts', id: drop }]);
    }
    // An unsettled edit: the changes reach the current state, which is not a version yet.
    await addText(t.api, id, 'fresh');
    const fresh = await t.api.get(`/api/boards/${id}/changes?since=2`);
    expect(fresh.body.to).toBeNull();
    expect(fresh.body.added.map((x: any) => x.content)).toEqual(['fresh']);
  });

  it('change counts and changes since the newest version replay no stored history, with 70 boards recording', async () => {
    // The newest version's items are kept per board (host/history/history-recorder.ts): more boards than the 64 a cache by
    // board count held, each with a version, then a second one, must all find their first version's items in memory.
    const ids = await Promise.all(Array.from({ length: 70 }, () => newBoard(t.api)));
    await Promise.all(ids.map((id) => settle(t.api, id, () => addText(t.api, id, 'first'))));
    const { history } = t.server.server.store;
    const stateAt = history.stateAt;
    let replays = 0;
    history.stateAt = (...args) => {
      replays++;
      return stateAt.apply(history, args);
    };
    try {
      await Promise.all(ids.map((id) => settle(t.api, id, () => addText(t.api, id, 'second'))));
      for (const id of ids) {
        const [newest] = (await t.api.get(`/api/boards/${id}/versions?limit=1`)).body.versions;
        expect(newest).toMatchObject({ version: 2, changes: { added: 1, updated: 0, removed: 0 } });
        await addText(t.api, id, 'third');
        expect((await t.api.get(`/api/boards/${id}/changes?since=2`)).body.added.map((x: any) => x.content)).toEqual([
          'third',
        ]);
      }
    } finally {
      history.stateAt = stateAt;
    }
    expect(replays).toBe(0);
  });

  it('wait?since_etag answers at once when the board moved past it', async () => {
    const id = await newBoard(t.api);
    const etag = await settle(t.api, id, () => addText(t.api, id, 'x'));
    await addText(t.api, id, 'y');
    const started = Date.now();
    const answer = await t.api.get(`/api/boards/${id}/wait?timeout_ms=20000&since_etag=${encodeURIComponent(etag)}`);
    expect(Date.now() - started).toBeLessThan(TEST_SETTLE_MS); // before the burst of 'y' settles
    expect(answer.body).toMatchObject({ updated: true, timedOut: false });
    expect(answer.body.etag).not.toBe(etag);
    // The current ETag: it waits as before.
    const current = (await t.api.get(`/json/${id}`)).body.etag;
    const waited = await t.api.get(`/api/boards/${id}/wait?timeout_ms=1000&since_etag=${encodeURIComponent(current)}`);
    expect(waited.body.timedOut || waited.body.updated).toBe(true); // the burst of 'y' may settle within the second
  });
});

describe('restore', () => {
  it('makes the board equal to the version, as a new version with restoredFrom; the state before is a version too', async () => {
    const id = await newBoard(t.api);
    await settle(t.api, id, async () => {
      await addText(t.api, id, 'good');
      await t.api.post(`/api/boards/${id}/strokes`, { points: [0, 0, 10, 10] });
    });
    const good = (await t.api.get(`/json/${id}`)).body;
    await settle(t.api, id, async () => {
      for (const text of good.texts) await t.api.del(`/api/boards/${id}/texts/${text.id}`);
      await addText(t.api, id, 'vandal');
    });
    await addText(t.api, id, 'unsettled'); // not yet a version: the restore records it first
    const restored = await t.api.post(`/api/boards/${id}/versions/1/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body).toEqual({ ok: true, version: 4, restoredFrom: 1, etag: expect.any(String) });
    const now = (await t.api.get(`/json/${id}`)).body;
    expect(contentOf(now)).toEqual(contentOf(good));
    expect(now.etag).toBe(restored.body.etag);
    const versions = (await t.api.get(`/api/boards/${id}/versions`)).body.versions;
    expect(versions.map((v: any) => v.version)).toEqual([4, 3, 2, 1]);
    expect(versions[0]).toMatchObject({
      restoredFrom: 1,
      authors: ['ai:rest'],
      counts: { texts: 1, lines: 1, images: 0 },
      changes: { added: 1, updated: 0, removed: 2 },
    }); // the text comes back, the stroke never went
    expect(versions[1].restoredFrom).toBeUndefined();
    const before = (await t.api.get(`/api/boards/${id}/versions/3`)).body;
    expect(before.texts.map((x: any) => x.content).sort()).toEqual(['unsettled', 'vandal']);
    // Its burst settles without a second version of the same state.
    await t.api.get(`/api/boards/${id}/wait?timeout_ms=5000`);
    expect((await t.api.get(`/api/boards/${id}/versions`)).body.versions).toHaveLength(4);
  });

  // The browser restores over REST: without a body the version would name "ai:rest", not the person.
  it('a restore may name its author in the body (the browser sends its user tag); a bad one is 400 and restores nothing', async () => {
    const id = await newBoard(t.api);
    await settle(t.api, id, () => addText(t.api, id, 'first'));
    await settle(t.api, id, () => addText(t.api, id, 'second'));
    const before = (await t.api.get(`/json/${id}`)).body.etag;
    const refused = await t.api.post(`/api/boards/${id}/versions/1/restore`, { author: 'not an author!' });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'invalid_payload', field: 'author' });
    expect((await t.api.get(`/json/${id}`)).body.etag).toBe(before);
    const person = 'user:0b7c4a62-3f1e-4d2a-9c55-1f2e3d4c5b6a';
    expect((await t.api.post(`/api/boards/${id}/versions/1/restore`, { author: person })).status).toBe(200);
    const [newest] = (await t.api.get(`/api/boards/${id}/versions`)).body.versions;
    expect(newest).toMatchObject({ restoredFrom: 1, authors: [person] });
  });

  it('a Yjs client and a /ws client converge on a restore', async () => {
    const id = await newBoard(t.api);
    await settle(t.api, id, () => addText(t.api, id, 'original'));
    const yjs = connectYjs(t.server.url, id);
    await yjs.synced;
    const ws = await openJson(t.server.url, id);
    await settle(t.api, id, () => addText(t.api, id, 'vandal'));
    await eventually(() => expect(yjs.doc.getMap('texts').size).toBe(2));
    const from = ws.frames.length;
    expect((await t.api.post(`/api/boards/${id}/versions/1/restore`)).status).toBe(200);
    const contents = () => [...boardMaps(yjs.doc).texts.values()].map((x) => (x as { content?: string }).content);
    await eventually(() => expect(contents()).toEqual(['original']));
    const op = await ws.next((f) => f.type === 'op' && f.op === 'delete', 5_000, from);
    expect(op.author).toBe('ai:rest');
    yjs.destroy();
    ws.close();
  });

  it(`a restore touching more than ${MAX_BATCH_OPS} items reaches /ws clients as one snapshot frame`, async () => {
    const id = await newBoard(t.api);
    await settle(t.api, id, () => addText(t.api, id, 'only'));
    await settle(t.api, id, () =>
      t.server.server.boards.write(id, TEST_CALLER, (w) => {
        for (let i = 0; i <= MAX_BATCH_OPS; i++)
          w.maps.texts.set(`bulk-${i}`, {
            id: `bulk-${i}`,
            x: i,
            y: 0,
            content: `${i}`,
            author: 'ai:rest',
            last_updated: w.now,
          });
      }),
    );
    const ws = await openJson(t.server.url, id);
    const from = ws.frames.length;
    expect((await t.api.post(`/api/boards/${id}/versions/1/restore`)).status).toBe(200);
    const snapshot = await ws.next((f) => f.type === 'snapshot', 5_000, from);
    expect(snapshot.board.texts.map((x: any) => x.content)).toEqual(['only']);
    expect(ws.frames.slice(from).filter((f) => f.type === 'op')).toEqual([]);
    ws.close();
  });

  it('a restore racing REST edits converges: /json, the Yjs client and the version agree', async () => {
    const id = await newBoard(t.api);
    await settle(t.api, id, () => addText(t.api, id, 'base'));
    await settle(t.api, id, () => addText(t.api, id, 'second'));
    const yjs = connectYjs(t.server.url, id);
    await yjs.synced;
    const edits = Array.from({ length: 10 }, (_, i) => addText(t.api, id, `race ${i}`));
    const restore = t.api.post(`/api/boards/${id}/versions/1/restore`);
    const answers = await Promise.all([restore, ...edits]);
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    const final = await settle(t.api, id, () => addText(t.api, id, 'after'));
    const json = (await t.api.get(`/json/${id}`)).body;
    expect(json.etag).toBe(final);
    expect(json.texts.map((x: any) => x.content)).toContain('base');
    expect(json.texts.map((x: any) => x.content)).not.toContain('second');
    await eventually(() =>
      expect([...boardMaps(yjs.doc).texts.values()].map((x) => (x as { content?: string }).content).sort()).toEqual(
        json.texts.map((x: any) => x.content).sort(),
      ),
    );
    const [newest] = (await t.api.get(`/api/boards/${id}/versions?limit=1`)).body.versions;
    expect((await t.api.get(`/api/boards/${id}/versions/${newest.version}`)).body.etag).toBe(final);
    yjs.destroy();
  });

  it('a version of the other mode switches the board back to that mode', async () => {
    const id = await newBoard(t.api);
    let text = '';
    await settle(t.api, id, async () => (text = (await addText(t.api, id, 'drawn')).body.id));
    await settle(t.api, id, async () => {
      await t.api.del(`/api/boards/${id}/texts/${text}`);
      expect((await t.api.post(`/api/boards/${id}/mode`, { mode: 'todo' })).status).toBe(200);
    });
    expect((await t.api.get(`/json/${id}`)).body.columns.length).toBeGreaterThan(0);
    expect((await t.api.post(`/api/boards/${id}/versions/1/restore`)).status).toBe(200);
    expect((await t.api.get(`/api/boards/${id}/meta`)).body.mode).toBe('draw');
    const json = (await t.api.get(`/json/${id}`)).body;
    expect(json).toMatchObject({ mode: 'draw', texts: [{ id: text, content: 'drawn' }] });
    expect(json.columns).toBeUndefined();
    const [newest] = (await t.api.get(`/api/boards/${id}/versions?limit=1`)).body.versions;
    expect(newest).toMatchObject({ restoredFrom: 1, counts: { texts: 1, lines: 0, images: 0 } });
  });

  it("a restored image has its payload: stored versions keep their images' payloads from pruning", async () => {
    const id = await newBoard(t.api);
    let image = '';
    await settle(
      t.api,
      id,
      async () =>
        (image = (await t.api.post(`/api/boards/${id}/images`, { x: 0, y: 0, width: 1, height: 1, dataUrl: PNG_1PX }))
          .body.id),
    );
    await settle(t.api, id, () => t.api.del(`/api/boards/${id}/images/${image}`));
    // Stored and pruned meanwhile: the store after the erase folds the journal, then prunes.
    await eventually(async () => expect(await t.server.server.documents.journalLength(id)).toBe(0));
    expect((await t.api.get(`/api/boards/${id}/images/${image}`)).status).toBe(404);
    expect((await t.api.post(`/api/boards/${id}/versions/1/restore`)).status).toBe(200);
    const payload = await t.api.get(`/api/boards/${id}/images/${image}`);
    expect(payload.status).toBe(200);
    expect(payload.headers.get('content-type')).toBe('image/png');
  });

  it('erasing a board erases its history', async () => {
    const id = await newBoard(t.api);
    await settle(t.api, id, () => addText(t.api, id, 'x'));
    expect((await t.api.del(`/api/boards/${id}`)).status).toBe(200);
    for (const path of ['versions', 'versions/1', 'changes?since=1']) {
      expect((await t.api.get(`/api/boards/${id}/${path}`)).status).toBe(404);
    }
    expect((await t.api.post(`/api/boards/${id}/versions/1/restore`)).status).toBe(404);
    const versions = await t.server.server.store.history.list(id, 10);
    expect(versions).toEqual([]);
  });
});

describe('hostile input', () => {
  it('bad version, since, before and limit values get 400 with a code and change nothing', async () => {
    const id = await newBoard(t.api);
    await settle(t.api, id, () => addText(t.api, id, 'x'));
    const etag = (await t.api.get(`/json/${id}`)).body.etag;
    const bad = ['-1', '0', '1.5', '1e3', 'abc', '99999999999999999999', '%20', '0x10', ''];
    const paths = [
      ...bad.map((v) => `versions?limit=${v}`),
      ...bad.filter((v) => v !== '').map((v) => `versions?before=${v}`),
      ...['101', '1&limit=2'].map((v) => `versions?limit=${v}`),
      ...bad.map((v) => `changes?since=${v}`),
      'changes',
      'changes?since=1&since_etag=%22abc%22',
      `changes?since_etag=${'x'.repeat(500)}`,
      'changes?since_etag=%3Cscript%3E',
      ...bad.filter((v) => v !== '').map((v) => `versions/${v}`),
      ...bad.filter((v) => v !== '').map((v) => `versions/${v}/svg-preview`),
      'wait?since_etag=%3Cscript%3E',
    ];
    for (const path of paths) {
      const answer = await t.api.get(`/api/boards/${id}/${path}`);
      expect(answer.status, path).toBe(400);
      expect(answer.body.code, path).toBe('invalid_payload');
    }
    for (const v of bad.filter((v) => v !== '')) {
      const answer = await t.api.post(`/api/boards/${id}/versions/${v}/restore`);
      expect(answer.status, v).toBe(400);
    }
    expect((await t.api.post(`/api/boards/${id}/versions/7/restore`)).body.code).toBe('version_not_found');
    expect((await t.api.get(`/json/${id}`)).body.etag).toBe(etag);
    expect((await t.api.get(`/api/boards/${id}/versions`)).body.versions).toHaveLength(1);
  });
});

describe('locks and rate limit', () => {
  let server: TestServer;
  let api: Client;
  beforeAll(async () => {
    server = await startServer({ RATE_LIMITS: 'on' });
    api = client(server.url);
  });
  afterAll(() => server?.close());

  it('write lock: history reads are public, restore needs the key; all lock: everything needs it', async () => {
    const id = await newBoard(api);
    await settle(api, id, () => addText(api, id, 'x'));
    const { key } = (await api.post(`/api/boards/${id}/lock`, { mode: 'write' })).body;
    const withKey = { 'x-board-key': key };
    await settle(api, id, () => addText(api, id, 'y', withKey));
    for (const path of ['versions', 'versions/1', 'versions/1/svg-preview', 'changes?since=1']) {
      expect((await api.get(`/api/boards/${id}/${path}`)).status, path).toBe(200);
    }
    const refused = await api.post(`/api/boards/${id}/versions/1/restore`);
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('board_locked');
    expect((await api.get(`/api/boards/${id}/versions`)).body.versions).toHaveLength(2);
    expect((await api.post(`/api/boards/${id}/versions/1/restore`, undefined, withKey)).status).toBe(200);

    expect((await api.post(`/api/boards/${id}/lock`, { mode: 'all' }, withKey)).status).toBe(200);
    for (const path of ['versions', 'versions/1', 'versions/1/svg-preview', 'changes?since=1']) {
      expect((await api.get(`/api/boards/${id}/${path}`)).status, path).toBe(401);
      expect((await api.get(`/api/boards/${id}/${path}`, withKey)).status, path).toBe(200);
    }
    const locked = await api.get(`/api/boards/${id}/versions/1`, withKey);
    expect(locked.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
  });

  it('a restore counts as one request against the board rate limit', async () => {
    const id = await newBoard(api);
    await settle(api, id, () => addText(api, id, 'x'));
    await settle(api, id, () => addText(api, id, 'y'));
    const count = () => server.server.limiter.count(`board:${id}`);
    const before = count();
    expect((await api.post(`/api/boards/${id}/versions/1/restore`)).status).toBe(200);
    expect(count()).toBe(before + 1);
  });
});

describe('thinning as the clock moves on', () => {
  const DAY_MS = 86_400_000;
  let now = Date.parse('2026-01-01T00:00:00Z');
  let server: TestServer;
  let api: Client;
  beforeAll(async () => {
    server = await startServer({}, { now: () => now });
    api = client(server.url);
  });
  afterAll(() => server?.close());

  it('versions past 30 days go; changes from them are 410 history_gone', async () => {
    const id = await newBoard(api);
    const first = await settle(api, id, () => addText(api, id, 'day 0, first'));
    now += 60_000;
    await settle(api, id, () => addText(api, id, 'day 0, second'));
    now += 2 * DAY_MS;
    await settle(api, id, () => addText(api, id, 'day 2'));
    // Two days on, day 0 keeps only the last of its hour.
    let versions = (await api.get(`/api/boards/${id}/versions`)).body.versions.map((v: any) => v.version);
    expect(versions).toEqual([3, 2]);
    const gone = await api.get(`/api/boards/${id}/changes?since=1`);
    expect(gone.status).toBe(410);
    expect(gone.body.code).toBe('history_gone');
    expect((await api.get(`/api/boards/${id}/changes?since_etag=${encodeURIComponent(first)}`)).status).toBe(410);
    expect((await api.get(`/api/boards/${id}/versions/1`)).body.code).toBe('version_not_found');
    // Version 2 holds its whole state although version 1, which it was built on, is gone.
    expect((await api.get(`/api/boards/${id}/versions/2`)).body.texts.map((x: any) => x.content).sort()).toEqual([
      'day 0, first',
      'day 0, second',
    ]);
    now += 40 * DAY_MS;
    await settle(api, id, () => addText(api, id, 'day 42'));
    versions = (await api.get(`/api/boards/${id}/versions`)).body.versions.map((v: any) => v.version);
    expect(versions).toEqual([4]);
    expect((await api.get(`/api/boards/${id}/versions/4`)).body.texts).toHaveLength(4);
    expect((await api.get(`/api/boards/${id}/changes?since=9`)).body.code).toBe('version_not_found');
  });
});
