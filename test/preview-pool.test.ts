/**
 * Previews are drawn in worker threads (server/host/preview-pool.ts): a board
 * whose Mermaid diagrams take seconds to lay out must not hold the event loop
 * that answers every other request, and the picture must come out as the
 * main thread drew it.
 */
import { randomUUID } from 'node:crypto';
import type { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { boardMaps } from '../server/board/document-model.js';
import { renderPreview } from '../server/board/preview.js';
import { client } from './helpers/http.js';
import { connectMcp } from './helpers/mcp.js';
import { connectYjs, eventually } from './helpers/realtime.js';
import { startServer, TEST_CALLER, type TestServer, useServer } from './helpers/server.js';

const t = useServer();

/** A state diagram that takes about half a second to lay out, different for every `seed` so no cache holds it. */
function stateDiagram(seed: string): string {
  const states = 10;
  const name = (i: number) => `${['Idle', 'Loading', 'Ready', 'Saving', 'Failed'][i % 5]}${Math.floor(i / 5)}_${seed}`;
  const lines = ['stateDiagram-v2', `  [*] --> ${name(0)}`];
  for (let i = 0; i < states; i++) {
    lines.push(`  ${name(i)} --> ${name((i + 1) % states)}: next step ${i}`);
    lines.push(`  ${name(i)} --> ${name((i + 3) % states)}: on event ${i}`);
  }
  return [...lines, `  ${name(states - 1)} --> [*]`].join('\n');
}

/**
 * A board of `count` diagrams no cache has seen: written by a Yjs client, as
 * the browser writes, so that no REST write has laid them out already.
 */
async function heavyBoard(url: string, count: number): Promise<string> {
  const api = client(url);
  const { id } = (await api.post('/api/boards')).body;
  const { body: added } = await api.post(`/api/boards/${id}/texts`, { x: 0, y: -200, content: 'Diagrams' });
  const { bbox: _bbox, created: _created, ...text } = added;
  const yjs = connectYjs(url, id);
  await yjs.synced;
  const seed = randomUUID().slice(0, 8);
  yjs.doc.transact(() => {
    for (let i = 0; i < count; i++) {
      const content = `\`\`\`mermaid\n${stateDiagram(`${seed}${i}`)}\n\`\`\``;
      yjs.doc.getMap('texts').set(`diagram-${i}`, { ...text, id: `diagram-${i}`, x: i * 700, y: 0, content });
    }
  });
  await eventually(async () => expect((await api.get(`/json/${id}`)).body.texts).toHaveLength(count + 1));
  yjs.destroy();
  return id;
}

/** Two connections open, so that /healthz asked beside a request in flight measures its answer, not a new connection. */
async function warmConnections(url: string): Promise<void> {
  await Promise.all([healthzMs(url), healthzMs(url)]);
}

/**
 * `request` sent, and `GET /healthz` asked every `gapMs` until it answers (at
 * most 8 times): each is asked while the request is still in flight, where
 * one event loop would make it wait for the end. Their times, in ms.
 */
async function healthzWhile<T>(
  url: string,
  request: () => Promise<T>,
  gapMs: number,
): Promise<{ answer: T; samples: number[] }> {
  await warmConnections(url);
  const started = performance.now();
  let answeredAt = Number.POSITIVE_INFINITY;
  const pending = request().then((answer) => {
    answeredAt = performance.now();
    return answer;
  });
  const samples: number[] = [];
  const pause = () => new Promise((resolve) => setTimeout(resolve, gapMs));
  for (await pause(); samples.length < 8 && performance.now() < answeredAt; await pause())
    samples.push(await healthzMs(url));
  const answer = await pending;
  console.log(
    `${(answeredAt - started).toFixed(0)} ms; /healthz meanwhile: ${samples.map((ms) => ms.toFixed(1)).join(', ')} ms`,
  );
  return { answer, samples };
}

/** How long `GET /healthz` takes to answer, in ms. */
async function healthzMs(url: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${url}/healthz`);
  await res.arrayBuffer();
  expect(res.status).toBe(200);
  return performance.now() - started;
}

describe('previews drawn off the event loop', () => {
  it('/healthz answers within 50 ms while a heavy preview renders', async () => {
    // A first preview starts the threads, so what follows measures drawing, not their start.
    const small = (await t.api.post('/api/boards')).body.id;
    expect((await t.api.get(`/svg-preview/${small}`)).status).toBe(200);

    const id = await heavyBoard(t.server.url, 3);
    const { answer: res, samples } = await healthzWhile(t.server.url, () => t.api.get(`/svg-preview/${id}`), 20);
    expect(res.status).toBe(200);
    expect(res.text).toContain('<svg class="mermaid"');
    expect(Math.max(...samples)).toBeLessThan(50);
    // One event loop (in this process, the test's too) answers none until the preview is drawn.
    expect(samples.length, '/healthz answers while the preview was drawn').toBeGreaterThanOrEqual(3);
  });

  it('a write of a diagram no cache holds lays it out in a thread: /healthz answers within 50 ms meanwhile', async () => {
    const { id } = (await t.api.post('/api/boards')).body;
    const content = `\`\`\`mermaid\n${stateDiagram(randomUUID().slice(0, 8))}\n\`\`\``;
    const { answer: res, samples } = await healthzWhile(
      t.server.url,
      () => t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content }),
      10,
    );
    expect(res.status).toBe(200);
    expect(Math.max(...samples)).toBeLessThan(50);
    expect(samples.length, '/healthz answers while the write ran').toBeGreaterThanOrEqual(3);
    // The box answered is the laid-out diagram's, as the preview draws it.
    const svg = (await t.api.get(`/svg-preview/${id}`)).text;
    const frame = /<g class="text diagram[^"]*"[^>]*><rect x="0" y="0" width="(\d+)" height="(\d+)"/.exec(svg);
    expect(res.body.bbox).toEqual({ x: 0, y: 0, width: Number(frame![1]), height: Number(frame![2]) });
    expect(res.body.bbox.height).toBeGreaterThan(100);
  });

  it('a board imported with strokes anchored to new diagrams has them laid out in a thread: /healthz answers within 50 ms meanwhile', async () => {
    const small = (await t.api.post('/api/boards')).body.id;
    expect((await t.api.get(`/svg-preview/${small}`)).status).toBe(200); // the threads are up
    const seed = randomUUID().slice(0, 8);
    const diagram = (i: number) => ({
      sourceId: `d${i}`,
      x: i * 700,
      y: 0,
      content: `\`\`\`mermaid\n${stateDiagram(`${seed}${i}`)}\n\`\`\``,
    });
    const content = {
      texts: [diagram(0), diagram(1)],
      lines: [
        {
          points: [100, 100, 800, 100],
          anchors: { start: { kind: 'text', id: 'd0', dx: 0, dy: 0 }, end: { kind: 'text', id: 'd1', dx: 0, dy: 0 } },
        },
      ],
    };
    const { answer: res, samples } = await healthzWhile(t.server.url, () => t.api.post('/api/boards', { content }), 10);
    expect(res.status).toBe(200);
    expect(Math.max(...samples)).toBeLessThan(50);
    expect(samples.length, '/healthz answers while the board was created').toBeGreaterThanOrEqual(3);
    // Both diagrams and the arrow between them are stored.
    const { lines, texts } = (await t.api.get(`/json/${res.body.id}`)).body;
    expect(lines[0].points.length).toBeGreaterThanOrEqual(2);
    expect(texts).toHaveLength(2);
  });

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
