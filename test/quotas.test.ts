import { describe, expect, it } from 'vitest';
import type { BoardWrite } from '../board/mutations/board-write.js';
import { upsertImage, upsertStroke, upsertText } from '../board/mutations/draw.js';
import { MAX_IMAGES, MAX_STROKES, MAX_TEXT_NODES } from '../schema/index.js';
import { PNG_1PX, pngOfBytes } from './helpers/http.js';
import { TEST_CALLER, useServer } from './helpers/server.js';

const t = useServer();

/** Fills a board through the domain in one transaction (fast), so the edge itself goes over HTTP. */
async function fill(boardId: string, count: number, add: (w: BoardWrite) => unknown) {
  await t.server.server.boards.write(boardId, TEST_CALLER, (w) => {
    for (let i = 0; i < count; i++) add(w);
  });
}

async function etag(boardId: string) {
  return (await t.api.get(`/json/${boardId}`)).headers.get('etag');
}

describe('per-board quotas: exactly at the limit passes, one over is 413 and changes nothing', () => {
  it(`text nodes (texts and links together): ${MAX_TEXT_NODES}`, async () => {
    const id = (await t.api.post('/api/boards')).body.id;
    await fill(id, MAX_TEXT_NODES - 2, (w) => upsertText(w, { x: 0, y: 0, content: 'fill' }));
    expect((await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'last text' })).status).toBe(200);
    expect((await t.api.post(`/api/boards/${id}/links`, { x: 0, y: 0, url: 'https://last.test' })).status).toBe(200);
    const before = await etag(id);
    for (const [path, body] of [
      ['texts', { x: 0, y: 0, content: 'one too many' }],
      ['links', { x: 0, y: 0, url: 'https://over.test' }],
    ] as const) {
      const res = await t.api.post(`/api/boards/${id}/${path}`, body);
      expect(res.status).toBe(413);
      expect(res.body).toMatchObject({
        code: 'quota_exceeded',
        kind: 'texts',
        detail: expect.stringContaining(String(MAX_TEXT_NODES)),
      });
    }
    expect(await etag(id)).toBe(before);
    expect((await t.api.get(`/json/${id}`)).body.texts).toHaveLength(MAX_TEXT_NODES);
    // Updating an existing text is not a new node and still works at the limit.
    const existing = (await t.api.get(`/json/${id}`)).body.texts.find((t: any) => !t.kind);
    expect(
      (await t.api.post(`/api/boards/${id}/texts`, { id: existing.id, x: 1, y: 1, content: 'edited' })).status,
    ).toBe(200);
  });

  it(`strokes: ${MAX_STROKES}`, async () => {
    const id = (await t.api.post('/api/boards')).body.id;
    await fill(id, MAX_STROKES - 1, (w) =>
      upsertStroke(w, {
        points: [
          [0, 0],
          [1, 1],
        ],
        color: 'auto',
      }),
    );
    expect((await t.api.post(`/api/boards/${id}/strokes`, { points: [0, 0, 2, 2] })).status).toBe(200);
    const before = await etag(id);
    const res = await t.api.post(`/api/boards/${id}/strokes`, { points: [0, 0, 3, 3] });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 'quota_exceeded', kind: 'strokes' });
    expect(await etag(id)).toBe(before);
  });

  it(`images: ${MAX_IMAGES}`, async () => {
    const id = (await t.api.post('/api/boards')).body.id;
    await fill(id, MAX_IMAGES - 1, (w) => upsertImage(w, { x: 0, y: 0, width: 1, height: 1, dataUrl: PNG_1PX }));
    expect(
      (await t.api.post(`/api/boards/${id}/images`, { x: 0, y: 0, width: 1, height: 1, dataUrl: PNG_1PX })).status,
    ).toBe(200);
    const before = await etag(id);
    const res = await t.api.post(`/api/boards/${id}/images`, { x: 0, y: 0, width: 1, height: 1, dataUrl: PNG_1PX });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 'quota_exceeded', kind: 'images' });
    expect(await etag(id)).toBe(before);
  });

  it('image bytes per board: exactly 10485760 in total passes, one more image is 413', async () => {
    const id = (await t.api.post('/api/boards')).body.id;
    await fill(id, 11, (w) => upsertImage(w, { x: 0, y: 0, width: 1, height: 1, dataUrl: pngOfBytes(921_600) }));
    const remaining = 10_485_760 - 11 * 921_600;
    expect(
      (
        await t.api.post(`/api/boards/${id}/images`, {
          x: 0,
          y: 0,
          width: 1,
          height: 1,
          dataUrl: pngOfBytes(remaining),
        })
      ).status,
    ).toBe(200);
    const before = await etag(id);
    const over = await t.api.post(`/api/boards/${id}/images`, {
      x: 0,
      y: 0,
      width: 1,
      height: 1,
      dataUrl: pngOfBytes(8),
    });
    expect(over.status).toBe(413);
    expect(over.body).toMatchObject({ code: 'quota_exceeded', kind: 'image_bytes_total' });
    expect(await etag(id)).toBe(before);
  });
});
