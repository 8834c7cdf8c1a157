/**
 * A view link revoked on one instance (docs/sharing.md): what was opened with
 * its token on the other instance (a JSON channel, a Yjs connection, a long
 * poll) closes within a second, told over Redis, and the token answers 404 on
 * both. Two real instances on one PostgreSQL and Redis; skipped without them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildServer, startChildServer, tempDataDir } from './helpers/child-server.js';
import { client } from './helpers/http.js';
import { connectYjs, openJson } from './helpers/realtime.js';
import { freshClusterEnv, sharedServicesAvailable } from './helpers/shared-services.js';

const available = await sharedServicesAvailable();

describe.skipIf(!available)('revoking a view link across instances', () => {
  let a: ChildServer;
  let b: ChildServer;
  beforeAll(async () => {
    const shared = await freshClusterEnv();
    [a, b] = await Promise.all([
      startChildServer(await tempDataDir(), shared),
      startChildServer(await tempDataDir(), shared),
    ]);
  }, 60_000);
  afterAll(async () => {
    for (const server of [a, b]) {
      if (server?.process.exitCode === null) server.process.kill('SIGTERM');
      await server?.exited;
    }
  });

  it('on A closes the token’s sockets and long poll on B within a second; the token is 404 on both', async () => {
    const { id } = (await client(a.url).post('/api/boards', {})).body;
    const made = (await client(a.url).post(`/api/boards/${id}/view-links`, {})).body;
    const ws = await openJson(b.url, made.token);
    const yjs = connectYjs(b.url, made.token);
    await yjs.synced;
    const yjsClosed = new Promise<number>((resolve) =>
      yjs.provider.configuration.websocketProvider.on('close', ({ event }: { event: { code: number } }) =>
        resolve(event.code),
      ),
    );
    const poll = client(b.url).get(`/api/boards/${made.token}/wait?timeout_ms=30000`);
    const started = Date.now();
    expect((await client(a.url).del(`/api/boards/${id}/view-links/${made.id}`)).status).toBe(200);
    expect(await ws.closed).toMatchObject({ code: 4404, reason: 'view_link_revoked' });
    expect(await yjsClosed).toBe(4404);
    expect((await poll).status).toBe(404);
    expect(Date.now() - started).toBeLessThan(1_000);
    for (const server of [a, b]) expect((await client(server.url).get(`/json/${made.token}`)).status).toBe(404);
    yjs.destroy();
  });
});
