/**
 * The service as `npm start` runs it: tsc's output (tsconfig.build.json),
 * started without tsx, with the V8 flags of the start script. A newcomer's
 * first command runs this build, and the benchmarks measure it
 * (bench/lib/processes.ts).
 */
import { rm } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { SERVICE_COMMAND, spawnService } from '../bench/lib/processes.js';
import { tempDataDir, testEnv } from './helpers/child-server.js';

describe('the built service', () => {
  it('is built from the sources, starts without tsx and stores a write', async () => {
    const dir = await tempDataDir();
    const service = await spawnService(testEnv(dir));
    try {
      // Allocation sites V8 pretenures while the server starts would put every later request's objects in the old
      // generation (docs/runtime.md): the start script turns that off, and the benchmarks run what it runs.
      expect(SERVICE_COMMAND.nodeFlags).toContain('--no-allocation-site-pretenuring');
      expect(service.process.spawnargs.slice(1)).toEqual([...SERVICE_COMMAND.nodeFlags, expect.stringMatching(/\/dist\/server\/app\/main\.js$/)]);
      const board = await (await fetch(`${service.url}/api/boards`, { method: 'POST' })).json();
      const written = await fetch(`${service.url}/api/boards/${board.id}/texts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ x: 1, y: 2, content: 'from the build' }) });
      expect(written.status).toBe(200);
      const snapshot = await (await fetch(`${service.url}/json/${board.id}`)).json();
      expect(snapshot.texts.map((text: { content: string }) => text.content)).toEqual(['from the build']);
    } finally {
      await service.stop();
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
