/**
 * A Yjs client refused because the storage is briefly away is not refused for
 * good: its provider (stock options, as the browser's) is closed with 4503
 * storage_unavailable, reconnects, and is back in sync within a few seconds of
 * PostgreSQL's return. On a PostgreSQL and a Redis of this file's own.
 */

import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boardMaps } from '../board/model/document-model.js';
import { client } from './helpers/http.js';
import { connectYjs, eventually } from './helpers/realtime.js';
import { startServer, type TestServer } from './helpers/server.js';
import { type ThrowawaySetup, throwawayServicesAvailable, throwawaySetup } from './helpers/throwaway-services.js';

const available = throwawayServicesAvailable();

describe.skipIf(!available)('Yjs clients when PostgreSQL stops and comes back', () => {
  let services: ThrowawaySetup;
  let server: TestServer;
  beforeAll(async () => {
    services = await throwawaySetup('recovery');
    server = await startServer(services.env);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await services?.remove();
  });

  it('a provider refused with storage_unavailable reconnects by itself: its offline edit is stored and others reach it', async () => {
    const api = client(server.url);
    const { id } = (await api.post('/api/boards')).body;
    const yjs = connectYjs(server.url, id);
    await yjs.synced;
    services.postgres.crash();
    try {
      // The journal refuses the edit: the client is disconnected, and its reconnection refused while the database is away.
      yjs.doc.getMap('texts').set('offline', {
        id: 'offline',
        x: 0,
        y: 0,
        content: 'typed while the database was away',
        author: 'user:offline',
        last_updated: new Date().toISOString(),
      });
      await eventually(() => expect(yjs.refusals).toContain('storage_unavailable'), 10_000);
      await sleep(2_000); // refused again and again, not once
    } finally {
      services.postgres.start();
    }
    const back = Date.now();
    let written: { id: string } | undefined;
    await eventually(async () => {
      const res = await api.post(`/api/boards/${id}/texts`, { x: 5, y: 5, content: 'written elsewhere' });
      expect(res.status).toBe(200);
      written = res.body;
    }, 10_000);
    await eventually(() => expect(boardMaps(yjs.doc).texts.get(written!.id)).toBeDefined(), 5_000);
    await eventually(
      async () =>
        expect((await api.get(`/json/${id}`)).body.texts.map((text: { id: string }) => text.id)).toContain('offline'),
      5_000,
    );
    // The server's acknowledgement of the client's edit can reach it after another client reads the edit.
    await eventually(() => expect(yjs.provider.hasUnsyncedChanges).toBe(false), 5_000);
    console.log(`Yjs client back in sync ${Date.now() - back} ms after PostgreSQL's return`);
    yjs.destroy();
  }, 60_000);
});
