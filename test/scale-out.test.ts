/**
 * The shared setup: two real instances (app/main.ts in child processes) on
 * one PostgreSQL database and one Redis, each reached directly, as a load
 * balancer without sticky routing would. Skipped, loudly, when Redis or
 * PostgreSQL is not running here (scripts/start-shared-services.sh; CI always
 * runs them).
 */

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boardMaps } from '../board/model/document-model.js';
import { type ChildServer, startChildServer, tempDataDir } from './helpers/child-server.js';
import { client } from './helpers/http.js';
import { connectMcp, connectModernMcp, refusalOf } from './helpers/mcp.js';
import { scrape } from './helpers/metrics.js';
import { connectJson, connectYjs, eventually, openJson } from './helpers/realtime.js';
import { asAdmin, freshClusterEnv, sharedServicesAvailable } from './helpers/shared-services.js';
import { freePort } from './helpers/throwaway-services.js';

const available = await sharedServicesAvailable();
const NGINX = '/usr/sbin/nginx';
if (available && !existsSync(NGINX))
  console.warn(
    `\n!! SKIPPING the nginx test of docs/deploy.md: no ${NGINX} (scripts/start-shared-services.sh installs it)\n`,
  );

type Cluster = { a: ChildServer; b: ChildServer; databaseUrl: string; stop(): Promise<void> };

/** Two instances sharing a fresh database and Redis prefix. */
async function startCluster(env: Record<string, string> = {}): Promise<Cluster> {
  const shared = { ...(await freshClusterEnv()), ...env };
  const [a, b] = await Promise.all([
    startChildServer(await tempDataDir(), shared),
    startChildServer(await tempDataDir(), shared),
  ]);
  const stop = async () => {
    for (const server of [a, b]) {
      if (server.process.exitCode === null && server.process.signalCode === null) server.process.kill('SIGTERM');
      await server.exited;
    }
  };
  return { a, b, databaseUrl: shared.DATABASE_URL, stop };
}

function useCluster(env: Record<string, string> = {}): { cluster: Cluster } {
  const holder = {} as { cluster: Cluster };
  beforeAll(async () => {
    holder.cluster = await startCluster(env);
  }, 60_000);
  afterAll(() => holder.cluster?.stop());
  return holder;
}

describe.skipIf(!available)('two instances, one board', () => {
  const t = useCluster();
  /** A new board with a synced Yjs client on each instance. */
  const yjsOnBoth = async () => {
    const { a, b } = t.cluster;
    const { id } = (await client(a.url).post('/api/boards')).body;
    const [onA, onB] = [connectYjs(a.url, id), connectYjs(b.url, id)];
    await Promise.all([onA.synced, onB.synced]);
    return { id, onA, onB };
  };

  it('a REST write on A reaches JSON-channel and Yjs clients on B, and B sees the same board', async () => {
    const { a, b } = t.cluster;
    const { id } = (await client(a.url).post('/api/boards')).body;
    const json = await openJson(b.url, id);
    const yjs = connectYjs(b.url, id);
    await yjs.synced;

    const written = await client(a.url).post(`/api/boards/${id}/texts`, { x: 1, y: 2, content: 'written on A' });
    expect(written.status).toBe(200);
    const answered = Date.now();
    const op = await json.next((f) => f.type === 'op', 2_000);
    const jsonDelay = Date.now() - answered;
    expect(op).toMatchObject({
      op: 'upsert',
      kind: 'texts',
      item: { id: written.body.id, content: 'written on A' },
      author: 'ai:rest',
    });
    await eventually(
      () => expect(boardMaps(yjs.doc).texts.get(written.body.id)).toMatchObject({ content: 'written on A' }),
      2_000,
    );
    console.log(`cross-instance JSON op ${jsonDelay} ms after the write's response (spec: about 100 ms)`);

    const onB = await client(b.url).get(`/json/${id}`);
    const { bbox: _box, created: _created, ...stored } = written.body; // the answer's box and created flag are not stored
    expect(onB.body.texts).toEqual([stored]);
    expect(onB.headers.get('etag')).toBe((await client(a.url).get(`/json/${id}`)).headers.get('etag'));
    json.close();
    yjs.destroy();
  });

  it('edits on B (a Yjs client, a JSON frame, MCP) reach clients on A', async () => {
    const { a, b } = t.cluster;
    const { id } = (await client(a.url).post('/api/boards')).body;
    const watcher = await openJson(a.url, id);

    const yjs = connectYjs(b.url, id);
    await yjs.synced;
    yjs.doc.getMap('texts').set('yjs-text', {
      id: 'yjs-text',
      x: 0,
      y: 0,
      content: 'typed on B',
      author: 'user:b',
      last_updated: new Date().toISOString(),
    });
    expect(await watcher.next((f) => f.type === 'op' && f.item?.id === 'yjs-text', 3_000)).toMatchObject({
      item: { content: 'typed on B' },
    });

    const framer = await openJson(b.url, id);
    framer.send({ type: 'add_text', ref: 'f1', x: 5, y: 5, content: 'framed on B' });
    const ack = await framer.next((f) => f.type === 'ack');
    expect(await watcher.next((f) => f.type === 'op' && f.item?.id === ack.result.id, 3_000)).toMatchObject({
      item: { content: 'framed on B' },
    });

    const mcp = await connectMcp(b.url);
    const added = await mcp.call('add_text', { board_id: id, x: 9, y: 9, content: 'from MCP on B' });
    expect(await watcher.next((f) => f.type === 'op' && f.item?.id === added.id, 3_000)).toMatchObject({
      item: { content: 'from MCP on B' },
    });
    await mcp.close();
    for (const socket of [watcher, framer]) socket.close();
    yjs.destroy();
  });

  it('people on A and on B see each other (awareness crosses instances), and see someone leave', async () => {
    const { onA, onB } = await yjsOnBoth();
    const others = (yjs: typeof onA) =>
      [...yjs.provider.awareness!.getStates()]
        .filter(([clientId]) => clientId !== yjs.doc.clientID)
        .map(([, state]) => state.user);
    onA.provider.awareness!.setLocalStateField('user', { name: 'Ada on A' });
    onB.provider.awareness!.setLocalStateField('user', { name: 'Bo on B' });
    await eventually(() => expect(others(onB)).toEqual([{ name: 'Ada on A' }]), 3_000);
    await eventually(() => expect(others(onA)).toEqual([{ name: 'Bo on B' }]), 3_000);
    onA.destroy();
    await eventually(() => expect(others(onB)).toEqual([]), 5_000);
    onB.destroy();
  });

  it('an edit from the only Yjs client on A, which leaves at once, still reaches clients on B', async () => {
    const { onA, onB } = await yjsOnBoth();
    onA.doc.getMap('texts').set('parting', {
      id: 'parting',
      x: 0,
      y: 0,
      content: 'typed, then the tab closed',
      author: 'user:a',
      last_updated: new Date().toISOString(),
    });
    await eventually(() => expect(onA.provider.hasUnsyncedChanges).toBe(false), 3_000); // acknowledged: stored on A
    onA.destroy();
    await eventually(
      () => expect(boardMaps(onB.doc).texts.get('parting')).toMatchObject({ content: 'typed, then the tab closed' }),
      3_000,
    );
    onB.destroy();
  });

  it('a mode switch on A applies at once to the rules B checks on its Yjs clients', async () => {
    // B may receive the switch's document update before it re-reads the board's record; the
    // rules then follow the document's own mirror of the mode (test/compensation.test.ts).
    const { a, b } = t.cluster;
    const { id } = (await client(a.url).post('/api/boards')).body;
    const yjs = connectYjs(b.url, id);
    await yjs.synced; // B has read the board as a draw board
    expect((await client(a.url).post(`/api/boards/${id}/mode`, { mode: 'todo' })).status).toBe(200);
    await eventually(() => expect(yjs.doc.getMap('columns').size).toBeGreaterThan(0), 3_000);
    const column = [...boardMaps(yjs.doc).columns.values()][0].id;
    const stamp = { author: 'user:b', last_updated: new Date().toISOString() };
    yjs.doc
      .getMap('tasks')
      .set('task-on-b', { id: 'task-on-b', column_id: column, name: 'kept as a task', sort: 1, done: false, ...stamp });
    await eventually(async () => {
      expect((await client(a.url).get(`/json/${id}`)).body.tasks).toContainEqual(
        expect.objectContaining({ id: 'task-on-b' }),
      );
    }, 3_000);
    await sleep(200);
    expect(boardMaps(yjs.doc).tasks.get('task-on-b')).toBeDefined(); // not removed as a wrong-mode item
    expect(yjs.stateless.filter((message) => message.type === 'compensated')).toEqual([]);
    yjs.destroy();
  });

  it('an image added on A carries its payload to JSON clients on B', async () => {
    const { a, b } = t.cluster;
    const { id } = (await client(a.url).post('/api/boards')).body;
    const json = await openJson(b.url, id);
    const dataUrl =
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
    const image = await client(a.url).post(`/api/boards/${id}/images`, { x: 0, y: 0, width: 10, height: 10, dataUrl });
    expect(image.status).toBe(200);
    expect(await json.next((f) => f.type === 'op' && f.kind === 'images', 3_000)).toMatchObject({
      item: { id: image.body.id, dataUrl },
    });
    expect((await client(b.url).get(`/api/boards/${id}`)).body.images[0]).toMatchObject({ dataUrl });
    json.close();
  });

  it('a lock set on A holds on B at once, for REST, open JSON channels, open Yjs connections and new sockets; unlocking on B frees A', async () => {
    const { a, b } = t.cluster;
    const { id, onA: yjsOnA, onB: yjsOnB } = await yjsOnBoth();
    const json = await openJson(b.url, id);

    const locked = await client(a.url).post(`/api/boards/${id}/lock`, { mode: 'write' });
    expect(locked.status).toBe(200);
    const refused = await client(b.url).post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'no key' });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('board_locked');
    const keyed = await client(b.url).request('POST', `/api/boards/${id}/texts`, {
      body: JSON.stringify({ x: 0, y: 0, content: 'with the key' }),
      headers: { 'content-type': 'application/json', 'x-board-key': locked.body.key },
    });
    expect(keyed.status).toBe(200);
    await eventually(async () => {
      json.send({ type: 'add_text', ref: `try-${Date.now()}`, x: 0, y: 0, content: 'frame after the lock' });
      const answer = await json.next((f) => f.type === 'error' || f.type === 'ack', 1_000, json.frames.length);
      expect(answer).toMatchObject({ type: 'error', code: 'board_locked' });
    }, 3_000);
    await eventually(() => expect(yjsOnB.provider.authorizedScope).toBe('readonly'), 3_000);

    const allLocked = await client(b.url).request('POST', `/api/boards/${id}/lock`, {
      body: JSON.stringify({ mode: 'all' }),
      headers: { 'content-type': 'application/json', 'x-board-key': locked.body.key },
    });
    expect(allLocked.status).toBe(200);
    expect((await client(a.url).get(`/json/${id}`)).status).toBe(401);
    await expect(connectJson(a.url, id)).rejects.toMatchObject({ status: 401 });
    await eventually(() => expect(yjsOnA.refusals).toContain('board_locked'), 3_000); // locked on B, refused on A

    const unlocked = await client(b.url).request('POST', `/api/boards/${id}/unlock`, {
      headers: { 'x-board-key': locked.body.key },
    });
    expect(unlocked.status).toBe(200);
    expect((await client(a.url).post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'free again' })).status).toBe(
      200,
    );
    json.close();
    for (const yjs of [yjsOnA, yjsOnB]) yjs.destroy();
  });

  it('a lock set while a Yjs client on B is being admitted still applies to it once it is connected', async () => {
    const { a, b, databaseUrl } = t.cluster;
    const { id } = (await client(a.url).post('/api/boards')).body;
    // B authenticates the client against the open board, then waits to load the document, so the
    // lock (which touches only the registry) is set and heard on B before the connection exists.
    const holder = new pg.Client({ connectionString: databaseUrl });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE journal IN ACCESS EXCLUSIVE MODE');
    let yjs: ReturnType<typeof connectYjs>;
    try {
      yjs = connectYjs(b.url, id);
      await sleep(300);
      expect((await client(a.url).post(`/api/boards/${id}/lock`, { mode: 'write' })).status).toBe(200);
      await sleep(300);
    } finally {
      await holder.query('COMMIT');
      await holder.end();
    }
    await eventually(() => expect(yjs.provider.authorizedScope).toBe('readonly'), 5_000);
    yjs.destroy();
  });

  it('an MCP session on B is notified of an edit on A, and long polls on B wake for it', async () => {
    const { a, b } = t.cluster;
    const { id } = (await client(a.url).post('/api/boards')).body;
    const mcp = await connectMcp(b.url);
    const uri = `svc://board/${id}/state.json`;
    await mcp.client.subscribeResource({ uri });
    const restWait = client(b.url).get(`/api/boards/${id}/wait?timeout_ms=20000`);
    const mcpWait = mcp.call('wait_for_update', { board_id: id, timeout_ms: 20_000 });
    await sleep(300); // time for both to be waiting on B

    // Nothing tells when B has registered the waiters; on a loaded machine the
    // first edit may come before them, so an edit is repeated after a quiet spell.
    const both = Promise.all([restWait, mcpWait]);
    const edit = () => client(a.url).post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'edited on A' });
    await edit();
    for (
      let retry = 0;
      retry < 2 && (await Promise.race([both.then(() => 'woken'), sleep(6_000)])) !== 'woken';
      retry++
    )
      await edit();
    const [rest, viaMcp] = await both;
    const etag = (await client(a.url).get(`/json/${id}`)).headers.get('etag');
    expect(rest.body).toMatchObject({ updated: true, timedOut: false, etag });
    expect(viaMcp).toMatchObject({ updated: true, timedOut: false, etag });
    await eventually(() => expect(mcp.updates).toContain(uri), 8_000);
    await mcp.close();
  });

  it('a 2026-07-28 client needs no sticky routing: its requests alternate between A and B, and a listen stream on B hears an edit made on A', async () => {
    const { a, b } = t.cluster;
    // Every request goes to the other instance than the one before (a round-robin balancer).
    let turn = 0;
    const roundRobin: typeof fetch = (input, init) => {
      const target = new URL(String(input instanceof Request ? input.url : input));
      const instance = new URL(turn++ % 2 === 0 ? a.url : b.url);
      target.host = instance.host;
      return fetch(target, init);
    };
    const agent = await connectModernMcp(a.url, { fetch: roundRobin });
    try {
      const { board_id, access_key } = await agent.call('create_board', { lock: 'write' });
      await agent.call('add_text', { board_id, access_key, x: 0, y: 0, content: 'one' });
      await agent.call('add_text', { board_id, access_key, x: 0, y: 40, content: 'two' });
      // A read on the other instance sees a write once the Redis relay brings it (docs/deploy.md): a few ms.
      await eventually(async () => expect((await agent.call('get_board', { board_id })).texts).toHaveLength(2), 5_000);
      expect(turn).toBeGreaterThanOrEqual(4);
      // Stateless: no instance remembers the key between requests.
      expect(refusalOf(await agent.raw('add_text', { board_id, x: 0, y: 80, content: 'no key' }))).toMatchObject({
        code: 'board_locked',
      });

      const listener = await connectModernMcp(b.url);
      const uri = `svc://board/${board_id}/state.json`;
      const subscription = await listener.modern.listen({ resourceSubscriptions: [uri] });
      expect(
        (
          await client(a.url).post(
            `/api/boards/${board_id}/texts`,
            { x: 0, y: 120, content: 'on A' },
            { 'x-board-key': access_key },
          )
        ).status,
      ).toBe(200);
      await eventually(() => expect(listener.updates).toContain(uri), 10_000);
      await subscription.close();
      await listener.close();
    } finally {
      await agent.close();
    }
  });

  it('a 2025 session lives on the instance that opened it: another instance answers 404 "initialize again" (docs/deploy.md routes /mcp by client address)', async () => {
    const { a, b } = t.cluster;
    const session = await connectMcp(a.url);
    try {
      const res = await fetch(`${b.url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': session.transport.sessionId!,
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }),
      });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({
        id: 3,
        error: { code: -32001, message: expect.stringContaining('initialize') },
      });
    } finally {
      await session.close();
    }
  });

  it('erasing on A closes JSON channels and Yjs connections on B, and B answers 404 at once', async () => {
    const { a, b } = t.cluster;
    const { id } = (await client(a.url).post('/api/boards')).body;
    const json = await openJson(b.url, id);
    const yjs = connectYjs(b.url, id);
    await yjs.synced;
    let yjsClosed = false;
    yjs.provider.on('close', () => (yjsClosed = true));
    expect((await client(a.url).request('DELETE', `/api/boards/${id}`)).status).toBe(200);
    expect(await json.next((f) => f.type === 'board_erased', 3_000)).toMatchObject({ boardId: id });
    expect((await json.closed).code).toBeGreaterThanOrEqual(4000);
    expect((await client(b.url).get(`/json/${id}`)).status).toBe(404);
    await eventually(() => expect(yjsClosed).toBe(true), 3_000);
    expect(yjs.provider.isAuthenticated).toBe(false);
    yjs.destroy();
  });
});

/**
 * Each instance records its own view of a burst when it settles; the two are one
 * version when both views hold both edits by then. The relay between them takes
 * milliseconds; the test servers' settle is 300 ms, which a loaded machine's relay
 * can pass, so this cluster settles as the contract does, in seconds.
 */
describe.skipIf(!available)('history across two instances', () => {
  const history = useCluster({ NOTIFICATION_SETTLE_MS: '2000' });
  it('history: one version per settled burst whichever instance took the edits; a restore on B reaches a Yjs client on A', async () => {
    const { a, b } = history.cluster;
    const [onA, onB] = [client(a.url), client(b.url)];
    const { id } = (await onA.post('/api/boards')).body;
    // Each instance records its own view when its burst settles, and its long polls wake only once that is recorded.
    const settled = async (edit: () => Promise<unknown>) => {
      const waiting = [onA, onB].map((api) => api.get(`/api/boards/${id}/wait?timeout_ms=20000`));
      await edit();
      for (const answer of await Promise.all(waiting)) expect(answer.body.updated).toBe(true);
    };
    const versionsOn = async (api: typeof onA) =>
      (await api.get(`/api/boards/${id}/versions`)).body.versions.map((v: any) => v.version);
    await settled(() => onA.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'on A' }));
    await eventually(async () => expect(await versionsOn(onB)).toEqual([1]), 8_000);
    // One burst with an edit on each instance: both record it, the store keeps one version of that state.
    await settled(() =>
      Promise.all([
        onA.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'A again' }),
        onB.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'on B' }),
      ]),
    );
    expect(await versionsOn(onA)).toEqual([2, 1]);
    const yjs = connectYjs(a.url, id);
    await yjs.synced;
    const restored = await onB.post(`/api/boards/${id}/versions/1/restore`);
    expect(restored.body).toMatchObject({ ok: true, version: 3, restoredFrom: 1 });
    await eventually(
      () =>
        expect([...boardMaps(yjs.doc).texts.values()].map((x) => (x as { content?: string }).content)).toEqual([
          'on A',
        ]),
      8_000,
    );
    expect((await onA.get(`/json/${id}`)).body.etag).toBe(restored.body.etag);
    yjs.destroy();
  });
});

/** nginx running the configuration shown in docs/deploy.md, pointed at the given instances. */
async function startDocumentedNginx(instances: string[]): Promise<{ url: string; stop(): void }> {
  const documented = /```nginx\n([\s\S]*?)```/.exec(
    await readFile(join(import.meta.dirname, '..', 'docs', 'deploy.md'), 'utf8'),
  )![1];
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'boards-nginx-'));
  let conf = documented.replace('listen 80;', `listen 127.0.0.1:${port};`);
  conf = conf
    .replace('10.0.0.11:3000', new URL(instances[0]).host)
    .replace('10.0.0.12:3000', new URL(instances[1]).host);
  await writeFile(
    join(dir, 'nginx.conf'),
    `pid ${dir}/pid; error_log ${dir}/error.log; daemon off; events {} http { access_log off; ${conf} }`,
  );
  const nginx = spawn(NGINX, ['-e', join(dir, 'error.log'), '-p', dir, '-c', join(dir, 'nginx.conf')], {
    stdio: 'inherit',
  });
  const url = `http://127.0.0.1:${port}`;
  await eventually(async () => expect((await fetch(`${url}/healthz`)).status).toBe(200), 5_000);
  return { url, stop: () => nginx.kill('SIGQUIT') };
}

describe.skipIf(!available)('a board nothing else keeps loaded', () => {
  // Boards unload right after their store: only a JSON client's room keeps one loaded on its instance.
  const t = useCluster({ KEEP_LOADED_MS: '0', STORE_DEBOUNCE_MS: '50', STORE_MAX_DEBOUNCE_MS: '200' });

  it("a JSON client on B still hears A's writes long after B last used the board", async () => {
    const { a, b } = t.cluster;
    const { id } = (await client(a.url).post('/api/boards')).body;
    const json = await openJson(b.url, id);
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // B's snapshot read is long stored
    const written = await client(a.url).post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'written on A' });
    expect(written.status).toBe(200);
    expect(await json.next((f) => f.type === 'op', 3_000)).toMatchObject({ item: { id: written.body.id } });
    json.close();
  });
});

describe.skipIf(!available || !existsSync(NGINX))('behind the nginx of docs/deploy.md', () => {
  const t = useCluster({ TRUST_PROXY: '1' });

  it('routes every surface of a board to one instance, and to the other once that one is dead', async () => {
    const { a, b } = t.cluster;
    const proxy = await startDocumentedNginx([a.url, b.url]);
    try {
      const api = client(proxy.url);
      const boards: string[] = [];
      for (let i = 0; i < 6; i++) boards.push((await api.post('/api/boards')).body.id);
      const id = boards[0];
      const json = await openJson(proxy.url, id);
      const yjs = connectYjs(proxy.url, id, { board: id });
      await yjs.synced;
      const written = await api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'through nginx' });
      expect(await json.next((f) => f.type === 'op')).toMatchObject({ item: { id: written.body.id } });
      await eventually(() => expect(boardMaps(yjs.doc).texts.get(written.body.id)).toBeDefined(), 2_000);
      // Sticky by board: the socket, the REST writes and the Yjs socket met on one instance.
      const loaded = await Promise.all(
        [a, b].map(async (server) =>
          (await scrape(`${server.url}/metrics`)).value('board_open_connections', { channel: 'collab' }),
        ),
      );
      expect(loaded.sort()).toEqual([0, 1]);

      const dying = loaded[0] === 1 ? a : b;
      dying.process.kill('SIGKILL');
      await dying.exited;
      json.close();
      yjs.destroy();
      for (const board of boards) expect((await api.get(`/json/${board}`)).status).toBe(200);
      const { bbox: _box, created: _created, ...stored } = written.body; // the answer's box and created flag are not stored
      expect((await api.get(`/json/${id}`)).body.texts).toEqual([stored]);
      expect((await api.post(`/api/boards/${id}/texts`, { x: 1, y: 1, content: 'after the failover' })).status).toBe(
        200,
      );
    } finally {
      proxy.stop();
    }
  });
});

describe.skipIf(!available)('losing an instance', () => {
  const t = useCluster();

  it('after kill -9 of A, B serves every board with everything A acknowledged', async () => {
    const { a, b } = t.cluster;
    const api = client(a.url);
    const boards: { id: string; texts: string[] }[] = [];
    for (let i = 0; i < 4; i++) boards.push({ id: (await api.post('/api/boards')).body.id, texts: [] });
    const todo = (await api.post('/api/boards', { mode: 'todo' })).body.id;

    // Every surface writes on A: REST, MCP, JSON frames and a Yjs client.
    for (const board of boards) {
      for (let i = 0; i < 5; i++)
        board.texts.push(
          (await api.post(`/api/boards/${board.id}/texts`, { x: i, y: 0, content: `rest ${i}` })).body.id,
        );
    }
    const mcp = await connectMcp(a.url);
    boards[0].texts.push((await mcp.call('add_text', { board_id: boards[0].id, x: 0, y: 1, content: 'mcp' })).id);
    const json = await openJson(a.url, boards[1].id);
    json.send({ type: 'add_text', ref: 'last', x: 0, y: 2, content: 'frame' });
    boards[1].texts.push((await json.next((f) => f.type === 'ack')).result.id);
    const yjs = connectYjs(a.url, boards[2].id);
    await yjs.synced;
    yjs.doc.getMap('texts').set('from-yjs', {
      id: 'from-yjs',
      x: 0,
      y: 3,
      content: 'yjs',
      author: 'user:a',
      last_updated: new Date().toISOString(),
    });
    await eventually(() => expect(yjs.provider.hasUnsyncedChanges).toBe(false), 3_000); // acknowledged by A
    boards[2].texts.push('from-yjs');
    const column = (await api.get(`/json/${todo}`)).body.columns[0].id;
    const task = (await api.post(`/api/boards/${todo}/tasks`, { column_id: column, name: 'survives' })).body;

    a.process.kill('SIGKILL');
    await a.exited;
    json.close();
    yjs.destroy();

    for (const board of boards) {
      const snapshot = await client(b.url).get(`/json/${board.id}`);
      expect(snapshot.status).toBe(200);
      expect(snapshot.body.texts.map((text: { id: string }) => text.id).sort()).toEqual([...board.texts].sort());
    }
    expect((await client(b.url).get(`/json/${todo}`)).body.tasks).toContainEqual(
      expect.objectContaining({ id: task.id, name: 'survives' }),
    );
    // And B goes on taking writes for them.
    expect(
      (await client(b.url).post(`/api/boards/${boards[3].id}/texts`, { x: 0, y: 0, content: 'after A died' })).status,
    ).toBe(200);
  });
});

describe.skipIf(!available)('PostgreSQL out of reach', () => {
  const t = useCluster();

  it('writes are 503 storage_unavailable and unacknowledged meanwhile; nothing acknowledged is lost; it recovers', async () => {
    const { a, databaseUrl } = t.cluster;
    const database = new URL(databaseUrl).pathname.slice(1);
    const api = client(a.url);
    const { id } = (await api.post('/api/boards')).body;
    const kept = (await api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'stored before the outage' })).body;
    const json = await openJson(a.url, id);

    // No new connection, and the open ones cut: as if the database went away.
    await asAdmin(`ALTER DATABASE ${database} ALLOW_CONNECTIONS false`);
    await asAdmin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${database}'`);
    try {
      await eventually(async () => {
        const refused = await api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'refused' });
        expect(refused.status).toBe(503);
        expect(refused.body.code).toBe('storage_unavailable');
      }, 5_000);
      json.send({ type: 'add_text', ref: 'during', x: 0, y: 0, content: 'refused frame' });
      expect(await json.next((f) => f.ref === 'during', 5_000)).toMatchObject({
        type: 'error',
        code: 'storage_unavailable',
      });
    } finally {
      await asAdmin(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`);
    }

    await eventually(
      async () =>
        expect((await api.post(`/api/boards/${id}/texts`, { x: 1, y: 1, content: 'after the outage' })).status).toBe(
          200,
        ),
      10_000,
    );
    const texts = (await api.get(`/json/${id}`)).body.texts.map((text: { content: string }) => text.content).sort();
    expect(texts).toEqual(['after the outage', kept.content].sort());
    json.close();
  });

  it('a journal commit that fails is 503 and unacknowledged on every surface, though the change was already applied in memory', async () => {
    const { a, b, databaseUrl } = t.cluster;
    const api = client(a.url);
    const { id } = (await api.post('/api/boards')).body;
    const kept = (await api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'kept' })).body;
    const yjs = connectYjs(a.url, id);
    await yjs.synced;
    const mcp = await connectMcp(a.url);

    // The registry still answers; only the journal refuses, after the Y transaction has run.
    await asAdmin(
      `CREATE FUNCTION refuse() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'no space left'; END $$ LANGUAGE plpgsql;
       CREATE TRIGGER refuse BEFORE INSERT ON journal FOR EACH STATEMENT EXECUTE FUNCTION refuse();`,
      databaseUrl,
    );
    try {
      const refused = await api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'refused' });
      expect(refused.status).toBe(503);
      expect(refused.body.code).toBe('storage_unavailable');
      const viaMcp = await mcp
        .raw('add_text', { board_id: id, x: 0, y: 0, content: 'refused too' })
        .catch((error) => error);
      expect(viaMcp).toMatchObject({ code: -32000, data: { code: 'storage_unavailable' } });
      yjs.doc.getMap('texts').set('pending', {
        id: 'pending',
        x: 0,
        y: 0,
        content: 'from Yjs',
        author: 'user:y',
        last_updated: new Date().toISOString(),
      });
      await sleep(500);
      expect(yjs.provider.hasUnsyncedChanges).toBe(true); // never acknowledged
    } finally {
      await asAdmin('DROP TRIGGER refuse ON journal; DROP FUNCTION refuse();', databaseUrl);
    }

    // The provider reconnects and sends what it holds; the refused REST and MCP writes stay refused.
    await eventually(() => expect(yjs.provider.hasUnsyncedChanges).toBe(false), 10_000);
    for (const server of [a, b]) {
      await eventually(async () => {
        const texts = (await client(server.url).get(`/json/${id}`)).body.texts
          .map((text: { content: string }) => text.content)
          .sort();
        expect(texts).toEqual(['from Yjs', kept.content].sort());
      }, 5_000);
    }
    yjs.destroy();
    await mcp.close();
  });

  it('a registry write that fails takes its document change with it: a refused mode switch changes nothing anywhere', async () => {
    const { a, b, databaseUrl } = t.cluster;
    const { id } = (await client(a.url).post('/api/boards')).body; // a switch needs an empty board
    const before = (await client(a.url).get(`/json/${id}`)).body;
    const yjs = connectYjs(b.url, id);
    await yjs.synced;

    await asAdmin(
      `CREATE FUNCTION refuse() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'no space left'; END $$ LANGUAGE plpgsql;
       CREATE TRIGGER refuse BEFORE UPDATE ON boards FOR EACH ROW EXECUTE FUNCTION refuse();`,
      databaseUrl,
    );
    try {
      const refused = await client(a.url).post(`/api/boards/${id}/mode`, { mode: 'todo' });
      expect(refused.status).toBe(503);
      expect(refused.body.code).toBe('storage_unavailable');
    } finally {
      await asAdmin('DROP TRIGGER refuse ON boards; DROP FUNCTION refuse();', databaseUrl);
    }
    await sleep(500);
    expect(yjs.doc.getMap('columns').size).toBe(0); // the switch's seed never reached B
    expect(yjs.doc.getMap('meta').get('mode')).toBeUndefined();
    for (const server of [a, b]) {
      const after = (await client(server.url).get(`/json/${id}`)).body; // A reads what is stored again
      expect(after).toMatchObject({ mode: 'draw', etag: before.etag, texts: before.texts });
    }
    expect((await client(a.url).post(`/api/boards/${id}/mode`, { mode: 'todo' })).status).toBe(200);
    await eventually(() => expect(yjs.doc.getMap('columns').size).toBeGreaterThan(0), 3_000);
    yjs.destroy();
  });
});

describe.skipIf(!available)('limits across instances', () => {
  // Behind a trusted proxy, so that each test can be a client address of its own.
  const t = useCluster({ RATE_LIMITS: 'on', TRUST_PROXY: 'true' });
  const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });

  it('60 JSON frames per 10 s per board hold across both instances', async () => {
    const { a, b } = t.cluster;
    const { id } = (await client(a.url).request('POST', '/api/boards', from('10.0.0.1'))).body;
    const [onA, onB] = await Promise.all([openJson(a.url, id), openJson(b.url, id)]);
    const answers: Record<string, unknown>[] = [];
    const started = Date.now();
    for (let i = 0; i < 70; i++) {
      const socket = i % 2 === 0 ? onA : onB;
      socket.send({ type: 'draw_stroke', ref: `s${i}`, points: [0, 0, i, i] });
      answers.push(await socket.next((f) => f.ref === `s${i}`));
    }
    const accepted = answers.filter((answer) => answer.type === 'ack').length;
    expect(accepted).toBe(60);
    expect(answers.slice(60).every((answer) => answer.type === 'error' && answer.code === 'rate_limited')).toBe(true);
    expect((await client(b.url).get(`/json/${id}`)).body.lines).toHaveLength(60);
    // The wait told is what Redis has left of the shared window, not the window's length.
    await sleep(Math.max(0, started + 5_500 - Date.now()));
    onB.send({ type: 'draw_stroke', ref: 'later', points: [0, 0, 1, 1] });
    const later = await onB.next((f) => f.ref === 'later');
    expect(later).toMatchObject({ type: 'error', code: 'rate_limited' });
    expect(later.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(later.retryAfterSeconds).toBeLessThanOrEqual(5);
    onA.close();
    onB.close();
  });

  it('board creation is limited across instances once they have heard of each other', async () => {
    const { a, b } = t.cluster;
    const created = [];
    for (let i = 0; i < 5; i++)
      created.push((await client(a.url).request('POST', '/api/boards', from('10.0.0.2'))).status);
    expect(created).toEqual([200, 200, 200, 200, 200]);
    expect((await client(a.url).request('POST', '/api/boards', from('10.0.0.2'))).status).toBe(429);
    // B has not counted any of them itself; it learns the shared count from the reply to its own hit.
    await eventually(
      async () => expect((await client(b.url).request('POST', '/api/boards', from('10.0.0.2'))).status).toBe(429),
      3_000,
    );
  });
});
