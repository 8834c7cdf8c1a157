/**
 * A write of Mermaid texts no cache has laid out awaits their layout in the
 * preview threads as a step of its own (host/boards/boards.ts): when the
 * threads refuse it, the write is refused with 503 preview_unavailable and
 * stores nothing, not even the answer of its idempotency key.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { stateDiagram } from './helpers/heavy-diagrams.js';
import { client } from './helpers/http.js';
import { startServer, type TestServer } from './helpers/server.js';

describe('a write whose diagrams the preview threads cannot lay out', () => {
  let server: TestServer;
  afterAll(() => server?.close());

  it('is refused with 503 preview_unavailable and stores nothing; its key then runs another request afresh', async () => {
    server = await startServer({ PREVIEW_TIMEOUT_MS: '500', PREVIEW_THREADS: '1' });
    const api = client(server.url);
    const { id } = (await api.post('/api/boards')).body;
    expect((await api.get(`/svg-preview/${id}`)).status).toBe(200); // the thread is up
    // 24 layouts outlast 500 ms on any machine here (test/preview-pool.test.ts).
    const seed = randomUUID().slice(0, 8);
    const ops = Array.from({ length: 24 }, (_, i) => ({
      type: 'add_text',
      x: i * 700,
      y: 0,
      content: `\`\`\`mermaid\n${stateDiagram(`${seed}${i}`)}\n\`\`\``,
    }));
    const key = `"${randomUUID()}"`;
    const refused = await api.post(`/api/boards/${id}/batch`, { ops }, { 'Idempotency-Key': key });
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ code: 'preview_unavailable', reason: 'timeout' });
    expect((await api.get(`/json/${id}`)).body.texts).toEqual([]);
    // No answer was stored under the key: another request with it is no reuse (422) but a write of its own.
    const other = await api.post(
      `/api/boards/${id}/batch`,
      { ops: [{ type: 'add_text', x: 0, y: 0, content: 'after' }] },
      { 'Idempotency-Key': key },
    );
    expect(other.status).toBe(200);
    expect((await api.get(`/json/${id}`)).body.texts.map((text: { content: string }) => text.content)).toEqual([
      'after',
    ]);
  });
});
