/**
 * GET /readyz (docs/operations.md): ready while the store answers and the
 * instance is not draining, 503 with its reasons otherwise; Redis away only
 * degrades it (200 with `degraded: ["redis"]`).
 * A SIGTERM drains: /readyz turns 503 at once while requests are still
 * served, then the server stops as before (exit 0). /healthz stays liveness.
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from './helpers/http.js';
import { scrape } from './helpers/metrics.js';
import { eventually } from './helpers/realtime.js';
import { startChildServer, startServer, type TestServer, tempDataDir, useServer } from './helpers/server.js';
import {
  type Service,
  throwawayPostgres,
  throwawayRedis,
  throwawayServicesAvailable,
} from './helpers/throwaway-services.js';

const t = useServer();

describe('GET /readyz', () => {
  it('answers 200 {status: "ready"} when the store answers, uncached', async () => {
    const res = await t.api.get('/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready' });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('answers 503 not_ready once the server drains, while /healthz and the API still answer', async () => {
    const server = await startServer();
    try {
      const api = client(server.url);
      server.server.drain();
      const res = await api.get('/readyz');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({
        status: 'not_ready',
        code: 'not_ready',
        reasons: ['draining'],
        error: expect.any(String),
      });
      expect((await api.get('/healthz')).status).toBe(200);
      expect((await api.post('/api/boards')).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('SIGTERM', () => {
  it('drains for SHUTDOWN_DRAIN_MS (readiness 503, requests served), then stores every board and exits 0', async () => {
    const dataDir = await tempDataDir();
    const child = await startChildServer(dataDir, { SHUTDOWN_DRAIN_MS: '1500' });
    try {
      const api = client(child.url);
      const { id } = (await api.post('/api/boards')).body;
      expect((await api.get('/readyz')).status).toBe(200);
      const signalled = Date.now();
      child.process.kill('SIGTERM');
      await eventually(
        async () =>
          expect((await api.get('/readyz')).body).toMatchObject({ status: 'not_ready', reasons: ['draining'] }),
        1_000,
      );
      expect((await api.get('/healthz')).body).toMatchObject({ status: 'ok' });
      expect((await api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'during the drain' })).status).toBe(200);
      expect(await child.exited).toBe(0);
      expect(Date.now() - signalled).toBeGreaterThanOrEqual(1_400);
      // What was written during the drain was stored.
      const again = await startChildServer(dataDir);
      try {
        expect((await client(again.url).get(`/json/${id}`)).body.texts).toMatchObject([
          { content: 'during the drain' },
        ]);
      } finally {
        again.process.kill('SIGTERM');
        await again.exited;
      }
    } finally {
      child.process.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('SIGINT stops at once, without the drain', async () => {
    const dataDir = await tempDataDir();
    const child = await startChildServer(dataDir, { SHUTDOWN_DRAIN_MS: '60000' });
    try {
      const signalled = Date.now();
      child.process.kill('SIGINT');
      expect(await child.exited).toBe(0);
      expect(Date.now() - signalled).toBeLessThan(10_000);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

// The shared setup on a Redis and a PostgreSQL of this file's own, which it stops and starts again.
const services = throwawayServicesAvailable();

describe.skipIf(!services)('GET /readyz in the shared setup', () => {
  let redis: Service;
  let postgres: Service & { remove(): Promise<void> };
  let server: TestServer;
  beforeAll(async () => {
    redis = await throwawayRedis();
    postgres = await throwawayPostgres();
    server = await startServer({
      REDIS_URL: redis.url,
      DATABASE_URL: postgres.url,
      REDIS_PREFIX: 'readyz',
      DATABASE_POOL_SIZE: '4',
    });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    redis?.stop();
    await postgres?.remove();
  });

  const readyz = () => client(server.url).get('/readyz');

  it('is ready, and the metrics show Redis connected, its messages and the PostgreSQL pool', async () => {
    expect((await readyz()).body).toEqual({ status: 'ready' });
    const api = client(server.url);
    const { id } = (await api.post('/api/boards')).body;
    expect((await api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'relayed' })).status).toBe(200);
    await eventually(async () => {
      const figures = await scrape(`${server.url}/metrics`);
      expect(figures.value('board_redis_connected')).toBe(1);
      expect(figures.value('board_redis_messages_total', { direction: 'published', kind: 'events' })).toBeGreaterThan(
        0,
      );
      // This instance hears its own events on the channel too (and ignores them).
      expect(figures.value('board_redis_messages_total', { direction: 'received', kind: 'events' })).toBeGreaterThan(0);
      expect(figures.value('board_pg_pool_connections', { state: 'total' })).toBeGreaterThan(0);
      expect(
        figures.families
          .find((family) => family.name === 'board_pg_pool_connections')
          ?.metrics.map((sample) => sample.labels?.state)
          .sort(),
      ).toEqual(['idle', 'total', 'waiting']);
    });
  });

  it('answers 503 store_unavailable while PostgreSQL is stopped, and 200 once it is back', async () => {
    postgres.stop();
    try {
      const res = await readyz();
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ status: 'not_ready', code: 'not_ready', reasons: ['store_unavailable'] });
      expect((await client(server.url).get('/healthz')).status).toBe(200);
    } finally {
      postgres.start();
    }
    await eventually(async () => expect((await readyz()).body).toEqual({ status: 'ready' }), 15_000);
  }, 30_000);

  it('answers 200 degraded: ["redis"] while Redis is stopped (PostgreSQL still serves), and plain ready once it is back', async () => {
    redis.stop();
    try {
      await eventually(async () => {
        const res = await readyz();
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ status: 'ready', degraded: ['redis'] });
      });
      const figures = await scrape(`${server.url}/metrics`);
      expect(figures.value('board_redis_connected')).toBe(0);
      expect(figures.value('board_redis_up')).toBe(0);
    } finally {
      redis.start();
    }
    await eventually(async () => expect((await readyz()).body).toEqual({ status: 'ready' }), 15_000);
  }, 30_000);
});
