/**
 * A write whose commit reached PostgreSQL but whose answer never came back
 * answers 503 outcome_unknown (it may be stored), not storage_unavailable
 * ("nothing was changed", which a client retries into a duplicate); a retry
 * with the same Idempotency-Key then answers what was stored, once. A
 * database that refuses the connection, before anything was sent, is still
 * storage_unavailable. The instance reaches its own database through a proxy
 * that can swallow the answer to one statement; the shared PostgreSQL itself
 * is never touched.
 */
import { randomUUID } from 'node:crypto';
import { createConnection, createServer, type Socket } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PG_QUERY_TIMEOUT_MS } from '../store/pg/database.js';
import { client } from './helpers/http.js';
import { openJson } from './helpers/realtime.js';
import { startServer, type TestServer } from './helpers/server.js';
import { asAdmin, freshClusterEnv, sharedServicesAvailable } from './helpers/shared-services.js';

const available = await sharedServicesAvailable();

/**
 * A TCP proxy to PostgreSQL. `loseAnswerAfter(marker, then)`: on the first
 * connection that sends `marker`, the answer to the next message holding
 * `then` (and everything after) is dropped, as when the network fails just
 * after the statement went out. `refuse()` closes every connection and
 * refuses new ones.
 */
async function pgProxy(upstream: URL) {
  const sockets = new Set<Socket>();
  let armed: { marker: string; then: string; connection?: Socket } | null = null;
  let refusing = false;
  const server = createServer((downstream) => {
    if (refusing) return downstream.destroy();
    const up = createConnection(Number(upstream.port), upstream.hostname);
    let seen = false;
    let holding = false;
    sockets.add(downstream).add(up);
    downstream.on('data', (chunk) => {
      const text = chunk.toString('latin1');
      if (armed && !armed.connection && text.includes(armed.marker)) armed.connection = downstream;
      if (armed?.connection === downstream && text.includes(armed.then)) {
        if (seen || armed.marker === armed.then || text.indexOf(armed.then) > text.indexOf(armed.marker))
          holding = true;
      }
      if (armed?.connection === downstream) seen = true;
      up.write(chunk);
    });
    up.on('data', (chunk) => {
      if (!holding) downstream.write(chunk);
    });
    const close = () => {
      up.destroy();
      downstream.destroy();
      sockets.delete(up);
      sockets.delete(downstream);
    };
    up.on('error', close).on('close', close);
    downstream.on('error', close).on('close', close);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(upstream);
  url.port = String((server.address() as { port: number }).port);
  url.hostname = '127.0.0.1';
  return {
    url: url.toString(),
    loseAnswerAfter: (marker: string, then: string) => {
      armed = { marker, then };
    },
    refuse: () => {
      refusing = true;
      for (const socket of sockets) socket.destroy();
    },
    heal: () => {
      armed = null;
      refusing = false;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe.skipIf(!available)('a write whose answer PostgreSQL never gave', () => {
  let server: TestServer;
  let proxy: Awaited<ReturnType<typeof pgProxy>>;
  let databaseUrl: string;
  const api = () => client(server.url);
  const texts = async (boardId: string) =>
    ((await api().get(`/json/${boardId}`)).body.texts as { content: string }[]).map((text) => text.content).sort();

  beforeAll(async () => {
    const env = await freshClusterEnv();
    databaseUrl = env.DATABASE_URL;
    proxy = await pgProxy(new URL(env.DATABASE_URL));
    server = await startServer({ ...env, DATABASE_URL: proxy.url });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await proxy?.close();
  });

  it('answers outcome_unknown within its bound; a second try while it runs is 409; the retry replays what was stored', async () => {
    const boardId = (await api().post('/api/boards', {})).body.id as string;
    await api().post(`/api/boards/${boardId}/texts`, { x: 0, y: 0, content: 'before' });
    const key = randomUUID();
    const send = () =>
      api().post(`/api/boards/${boardId}/texts`, { x: 0, y: 0, content: 'kept' }, { 'idempotency-key': key });

    proxy.loseAnswerAfter('idempotent_answers', 'COMMIT');
    const started = performance.now();
    const first = send();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const meanwhile = await send();
    expect(meanwhile.status).toBe(409);
    expect(meanwhile.body.code).toBe('idempotency_key_in_use');
    const lost = await first;
    const waited = performance.now() - started;
    proxy.heal();
    expect(lost.status).toBe(503);
    expect(lost.body.code).toBe('outcome_unknown');
    expect(lost.body.error).toMatch(/may or may not be stored/);
    expect(waited).toBeLessThan(PG_QUERY_TIMEOUT_MS + 2_000);

    const retry = await send();
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await texts(boardId)).toEqual(['before', 'kept']);
    const again = await send();
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await texts(boardId)).toEqual(['before', 'kept']);
  }, 30_000);

  it('answers outcome_unknown for a group-committed write whose INSERT was sent, and it is stored; a JSON-channel client is shown it', async () => {
    const boardId = (await api().post('/api/boards', {})).body.id as string;
    await api().post(`/api/boards/${boardId}/texts`, { x: 0, y: 0, content: 'before' });
    const watcher = await openJson(server.url, boardId);
    const insert = 'INSERT INTO journal (name, data) SELECT * FROM unnest';
    proxy.loseAnswerAfter(insert, insert);
    const lost = await api().post(`/api/boards/${boardId}/texts`, { x: 0, y: 0, content: 'maybe' });
    proxy.heal();
    expect(lost.status).toBe(503);
    expect(lost.body.code).toBe('outcome_unknown');
    expect(await texts(boardId)).toEqual(['before', 'maybe']);
    // The op waited for a commit that failed, so no op carried it: the room hands out the board afresh.
    const fresh = await watcher.next((frame) => frame.type === 'snapshot', 5_000, 2);
    expect((fresh.board.texts as { content: string }[]).map((text) => text.content).sort()).toEqual([
      'before',
      'maybe',
    ]);
    watcher.close();
  }, 30_000);

  it('answers outcome_unknown when the backend is terminated during its COMMIT; the retry stores the change once', async () => {
    const boardId = (await api().post('/api/boards', {})).body.id as string;
    await api().post(`/api/boards/${boardId}/texts`, { x: 0, y: 0, content: 'before' });
    // A deferred trigger makes the COMMIT itself slow, long enough to terminate its backend meanwhile.
    await asAdmin(
      `CREATE FUNCTION slow_commit() RETURNS trigger AS $$ BEGIN PERFORM pg_sleep(3); RETURN NULL; END $$ LANGUAGE plpgsql;
       CREATE CONSTRAINT TRIGGER slow_commit AFTER INSERT ON idempotent_answers
         DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION slow_commit();`,
      databaseUrl,
    );
    const key = randomUUID();
    const send = () =>
      api().post(`/api/boards/${boardId}/texts`, { x: 0, y: 0, content: 'once' }, { 'idempotency-key': key });
    try {
      const answer = send();
      let terminated = 0;
      for (let i = 0; i < 50 && terminated === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        const admin = new pg.Client({ connectionString: databaseUrl });
        await admin.connect();
        const { rowCount } = await admin.query(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'COMMIT' AND state = 'active' AND datname = current_database()",
        );
        await admin.end();
        terminated = rowCount ?? 0;
      }
      expect(terminated).toBe(1);
      const lost = await answer;
      expect(lost.status).toBe(503);
      expect(lost.body.code).toBe('outcome_unknown');
    } finally {
      await asAdmin('DROP TRIGGER slow_commit ON idempotent_answers; DROP FUNCTION slow_commit();', databaseUrl);
    }
    const retry = await send();
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull(); // the first one was not stored: this one runs
    expect(await texts(boardId)).toEqual(['before', 'once']);
    expect((await send()).headers.get('idempotent-replayed')).toBe('true');
  }, 30_000);

  it('answers storage_unavailable when the database refuses the connection, and nothing is stored', async () => {
    const boardId = (await api().post('/api/boards', {})).body.id as string;
    await api().post(`/api/boards/${boardId}/texts`, { x: 0, y: 0, content: 'before' });
    proxy.refuse();
    const refused = await api().post(
      `/api/boards/${boardId}/texts`,
      { x: 0, y: 0, content: 'never' },
      { 'idempotency-key': randomUUID() },
    );
    proxy.heal();
    expect(refused.status).toBe(503);
    expect(refused.body.code).toBe('storage_unavailable');
    expect(await texts(boardId)).toEqual(['before']);
  }, 30_000);
});
