/**
 * Previews are drawn in worker threads (host/previews/preview-pool.ts): the
 * picture must come out as the main thread drew it, and a thread that stops
 * or overruns its time fails only its own preview. How long other requests
 * wait meanwhile is test/preview-latency.test.ts.
 */
import type { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { boardMaps } from '../board/model/document-model.js';
import { renderPreview } from '../board/render/preview.js';
import { heavyBoard } from './helpers/heavy-diagrams.js';
import { client } from './helpers/http.js';
import { connectMcp } from './helpers/mcp.js';
import { eventually } from './helpers/realtime.js';
import { startServer, TEST_CALLER, type TestServer, useServer } from './helpers/server.js';

const t = useServer();

describe('previews drawn in worker threads', () => {
  it('draws the bytes the main thread draws; MCP get_preview still answers the PNG, preview.svg the same SVG', async () => {
    // One diagram: a preview's first diagram is drawn whatever its layout time, on either thread.
    const id = await heavyBoard(t.server.url, 1);
    const svg = (await t.api.get(`/svg-preview/${id}`)).text;
    const direct = await t.server.server.boards.read(id, TEST_CALLER, (doc, record) =>
      renderPreview(boardMaps(doc), record.mode),
    );
    expect(svg).toContain('<svg class="mermaid"');
    expect(svg).toBe(direct);
    const mcp = await connectMcp(t.server.url);
    const preview = await mcp.raw('get_preview', { board_id: id });
    const image = preview.content.find((block: { type: string }) => block.type === 'image');
    const png = Buffer.from(image.data, 'base64');
    expect(image.mimeType).toBe('image/png');
    expect([...png.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
    const resource = await mcp.client.readResource({ uri: `svc://board/${id}/preview.svg` });
    expect((resource.contents[0] as { text: string }).text).toBe(svg);
    await mcp.client.close();
  });

  it('a thread that stops while it draws fails that preview with 503 preview_unavailable, and is replaced', async () => {
    // Twelve diagrams: a warm thread lays one out in under 100 ms, and the drawing must outlast the 300 ms below.
    const id = await heavyBoard(t.server.url, 12);
    const small = (await t.api.post('/api/boards')).body.id;
    expect((await t.api.get(`/svg-preview/${small}`)).status).toBe(200); // the threads are up
    // The pool's own threads: stopped from outside while they draw, as a crash would stop them.
    const previews = t.server.server.boards.previews as unknown as { started: Promise<{ threads: Worker[] }> };
    const { threads } = await previews.started;
    const pending = t.api.get(`/svg-preview/${id}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await Promise.all(threads.map((thread) => thread.terminate()));
    const res = await pending;
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: 'preview_unavailable', reason: 'crashed' });
    await eventually(async () => expect((await t.api.get(`/svg-preview/${id}`)).status).toBe(200), 30_000);
  });

  describe('a preview that takes longer than PREVIEW_TIMEOUT_MS', () => {
    let server: TestServer;
    afterAll(() => server?.close());

    it('is refused with 503 preview_unavailable, and the next preview is drawn by a fresh thread', async () => {
      server = await startServer({ PREVIEW_TIMEOUT_MS: '500', PREVIEW_THREADS: '1' });
      const api = client(server.url);
      const small = (await api.post('/api/boards')).body.id;
      expect((await api.get(`/svg-preview/${small}`)).status).toBe(200);
      // As many diagrams as a preview draws: 24 layouts, or its 1.5 s of layout, outlast 500 ms on any machine here.
      const id = await heavyBoard(server.url, 24);
      const slow = await api.get(`/svg-preview/${id}`);
      expect(slow.status).toBe(503);
      expect(slow.body).toMatchObject({ code: 'preview_unavailable', reason: 'timeout' });
      await api.post(`/api/boards/${small}/texts`, { x: 0, y: 0, content: 'after' });
      // The stopped thread's replacement loads the drawing code first; until then a preview may be refused too.
      await eventually(async () => {
        const after = await api.get(`/svg-preview/${small}`);
        expect(after.status).toBe(200);
        expect(after.text).toContain('after');
      }, 30_000);
    });
  });
});
