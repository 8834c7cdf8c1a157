/**
 * A board whose Mermaid diagrams take seconds to lay out must not hold the
 * event loop that answers every other request (host/previews/preview-pool.ts).
 * These judge answer times in ms, so they run alone, after the other files
 * (vitest.config.ts): on two cores a file beside them takes the core the
 * event loop needs.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { heavyBoard, stateDiagram } from './helpers/heavy-diagrams.js';
import { useServer } from './helpers/server.js';

const t = useServer();

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

describe('previews and layouts drawn off the event loop', () => {
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
});
