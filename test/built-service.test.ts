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
  it('is built from the sources, starts without tsx, stores a write and draws its preview in a thread', async () => {
    const dir = await tempDataDir();
    const service = await spawnService(testEnv(dir));
    try {
      // The start script's V8 flags are kept for the write figures in docs/performance.md; the benchmarks run what it runs.
      expect(SERVICE_COMMAND.nodeFlags).toEqual(['--no-allocation-site-pretenuring', '--initial-old-space-size=128']);
      expect(service.process.spawnargs.slice(1)).toEqual([
        ...SERVICE_COMMAND.nodeFlags,
        expect.stringMatching(/\/dist\/app\/main\.js$/),
      ]);
      const board = await (await fetch(`${service.url}/api/boards`, { method: 'POST' })).json();
      const written = await fetch(`${service.url}/api/boards/${board.id}/texts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ x: 1, y: 2, content: 'from the build' }),
      });
      expect(written.status).toBe(200);
      const snapshot = await (await fetch(`${service.url}/json/${board.id}`)).json();
      expect(snapshot.texts.map((text: { content: string }) => text.content)).toEqual(['from the build']);
      // The preview threads load the built worker (host/previews/preview-worker.js), not the TypeScript one.
      const diagram = await fetch(`${service.url}/api/boards/${board.id}/texts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          x: 0,
          y: 100,
          content: '```mermaid\nstateDiagram-v2\n  [*] --> Built\n  Built --> [*]\n```',
        }),
      });
      expect((await diagram.json()).bbox.height).toBeGreaterThan(60);
      const preview = await fetch(`${service.url}/svg-preview/${board.id}`);
      expect(preview.status).toBe(200);
      expect(await preview.text()).toMatch(/<svg class="mermaid"[\s\S]*>Built<\/text>/);
    } finally {
      await service.stop();
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
