import { describe, expect, it } from 'vitest';
import { client } from './helpers/http.js';
import { startServer, useServer } from './helpers/server.js';

const t = useServer();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('POST /api/boards', () => {
  it('bare POST creates a draw board with a v4 UUID', async () => {
    const res = await t.api.request('POST', '/api/boards');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: expect.stringMatching(UUID), mode: 'draw' });
  });

  it('accepts an empty JSON body and an empty object', async () => {
    const empty = await t.api.request('POST', '/api/boards', {
      body: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(empty.status).toBe(200);
    expect((await t.api.post('/api/boards', {})).body.mode).toBe('draw');
  });

  it('todo mode seeds the kanban template by default', async () => {
    const { body } = await t.api.post('/api/boards', { mode: 'todo' });
    expect(body.mode).toBe('todo');
    const snap = await t.api.get(`/json/${body.id}`);
    expect(snap.body.columns.map((c: any) => c.title)).toEqual(['To do', 'In progress', 'Done']);
    expect(snap.body.colWidth).toBe(280);
    expect(snap.body.tasks).toEqual([]);
    expect(snap.body.lanes).toEqual([]);
    for (const column of snap.body.columns) {
      expect(column).toMatchObject({ id: expect.stringMatching(UUID), lane: 0, author: 'system:template' });
      expect(typeof column.last_updated).toBe('string');
    }
  });

  it.each([
    ['sprint', ['Backlog', 'Sprint', 'Review', 'Done']],
    ['bugs', ['Triage', 'Confirmed', 'In progress', 'Fixed']],
  ])('todo mode honours template %s', async (template, titles) => {
    const { body } = await t.api.post('/api/boards', { mode: 'todo', template });
    const snap = await t.api.get(`/json/${body.id}`);
    expect(snap.body.columns.map((c: any) => c.title)).toEqual(titles);
  });

  it('a draw board has no todo keys in its snapshot', async () => {
    const { body } = await t.api.post('/api/boards', { mode: 'draw', template: 'sprint' });
    const snap = await t.api.get(`/json/${body.id}`);
    expect(snap.body).not.toHaveProperty('columns');
    expect(snap.body).not.toHaveProperty('colWidth');
  });

  it.each([
    [{ mode: 'canvas' }, 'mode'],
    [{ template: 'scrum' }, 'template'],
    [{ autolayout: 'yes' }, 'autolayout'],
    [[1, 2], ''],
  ])('rejects %j with 400 invalid_payload naming the field', async (body, field) => {
    const res = await t.api.post('/api/boards', body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'invalid_payload',
      field,
      error: expect.any(String),
      reason: expect.any(String),
    });
  });

  it('malformed import fields (author, lock, content) are 400 invalid_content', async () => {
    for (const [body, field] of [
      [{ author: 'bad author!' }, 'author'],
      [{ lock: 'never' }, 'lock'],
      [{ content: 'text' }, 'content'],
    ] as const) {
      const res = await t.api.post('/api/boards', body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        code: 'invalid_content',
        field,
        reason: expect.any(String),
        error: expect.any(String),
      });
    }
  });

  it('malformed JSON is 400 invalid_json and other media types 415', async () => {
    const bad = await t.api.request('POST', '/api/boards', {
      body: '{"mode":',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_json');
    const poisoned = await t.api.request('POST', '/api/boards', {
      body: '{"__proto__":{"mode":"todo"}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(poisoned.status).toBe(400);
    const text = await t.api.request('POST', '/api/boards', {
      body: 'mode=todo',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    expect(text.body.code).toBe('unsupported_media_type');
  });
});

describe('board reads', () => {
  it('GET /api/boards/{id} gives {texts, lines, images, shapes, frames} without a wrapper', async () => {
    const { body } = await t.api.post('/api/boards');
    const res = await t.api.get(`/api/boards/${body.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ texts: [], lines: [], images: [], shapes: [], frames: [] });
  });

  it('GET /json/{id} wraps the snapshot with boardId, mode and etag', async () => {
    const { body } = await t.api.post('/api/boards');
    await t.api.post(`/api/boards/${body.id}/texts`, { x: 1, y: 2, content: 'hello' });
    const res = await t.api.get(`/json/${body.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      boardId: body.id,
      mode: 'draw',
      etag: res.headers.get('etag'),
      lines: [],
      images: [],
    });
    expect(res.body.texts).toHaveLength(1);
  });

  it('/json accepts ?board= holding a board URL or an id', async () => {
    const { body } = await t.api.post('/api/boards');
    for (const board of [
      body.id,
      `http://example.test/#${body.id}`,
      `http://example.test/?embed=1#${body.id}`,
      `http://x.test/json/${body.id}`,
    ]) {
      for (const path of ['/json', '/json/']) {
        const res = await t.api.get(`${path}?board=${encodeURIComponent(board)}`);
        expect(res.status).toBe(200);
        expect(res.body.boardId).toBe(body.id);
      }
    }
    expect((await t.api.get('/json?board=nothing-here')).status).toBe(404);
    // An id in the path wins over the query.
    const other = (await t.api.post('/api/boards')).body.id;
    expect((await t.api.get(`/json/${other}?board=${body.id}`)).body.boardId).toBe(other);
  });

  it('ETag: 304 on If-None-Match, HEAD has the headers, and every mutation changes it', async () => {
    const { body } = await t.api.post('/api/boards');
    const first = await t.api.get(`/json/${body.id}`);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);

    const notModified = await t.api.get(`/json/${body.id}`, { 'if-none-match': etag });
    expect(notModified.status).toBe(304);
    expect(notModified.text).toBe('');
    expect((await t.api.get(`/json/${body.id}`, { 'if-none-match': `"other", W/${etag}` })).status).toBe(304);
    expect((await t.api.get(`/json/${body.id}`, { 'if-none-match': '"other"' })).status).toBe(200);

    const head = await t.api.request('HEAD', `/json/${body.id}`);
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(etag);
    expect(head.text).toBe('');

    const text = await t.api.post(`/api/boards/${body.id}/texts`, { x: 0, y: 0, content: 'a' });
    const afterCreate = (await t.api.get(`/json/${body.id}`)).headers.get('etag');
    expect(afterCreate).not.toBe(etag);
    expect((await t.api.get(`/json/${body.id}`, { 'if-none-match': etag })).status).toBe(200);

    // A deletion leaves the state vector as it was; the ETag must still change.
    await t.api.del(`/api/boards/${body.id}/texts/${text.body.id}`);
    const afterDelete = (await t.api.get(`/json/${body.id}`)).headers.get('etag');
    expect(afterDelete).not.toBe(afterCreate);
    expect(afterDelete).not.toBe(etag);
  });

  it('unknown boards are 404 on reads and writes; non-UUID ids 404 on reads, 400 on writes', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const path of [`/api/boards/${unknown}`, `/json/${unknown}`]) {
      const res = await t.api.get(path);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('board_not_found');
    }
    const write = await t.api.post(`/api/boards/${unknown}/texts`, { x: 0, y: 0, content: 'x' });
    expect(write.status).toBe(404);
    expect((await t.api.del(`/api/boards/${unknown}`)).status).toBe(404);

    expect((await t.api.get('/api/boards/not-a-uuid')).status).toBe(404);
    expect((await t.api.get('/json/not-a-uuid')).status).toBe(404);
    const badWrite = await t.api.post('/api/boards/not-a-uuid/texts', { x: 0, y: 0, content: 'x' });
    expect(badWrite.status).toBe(400);
    expect(badWrite.body.code).toBe('invalid_board_id');
    expect((await t.api.del('/api/boards/not-a-uuid')).body.code).toBe('invalid_board_id');
  });

  it('an unknown board id creates nothing (no document, no registry row)', async () => {
    const unknown = '00000000-0000-4000-8000-00000000abcd';
    await t.api.post(`/api/boards/${unknown}/texts`, { x: 0, y: 0, content: 'x' });
    await t.api.get(`/json/${unknown}`);
    expect(t.server.server.hocuspocus.documents.has(unknown)).toBe(false);
    expect(await t.server.server.documents.load(unknown)).toBeNull();
  });

  it('unknown routes answer 404 with a code', async () => {
    const res = await t.api.get('/api/nothing');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('route_not_found');
  });
});

describe('DELETE /api/boards/{id}', () => {
  it('tombstones: the browser read shows the deleted marker, everything else is 404', async () => {
    const { body } = await t.api.post('/api/boards');
    await t.api.post(`/api/boards/${body.id}/texts`, { x: 0, y: 0, content: 'soon gone' });
    const del = await t.api.del(`/api/boards/${body.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ ok: true });

    const marker = await t.api.get(`/api/boards/${body.id}`);
    expect(marker.status).toBe(200);
    expect(marker.body).toEqual({
      deleted: true,
      deleted_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
    });

    expect((await t.api.get(`/json/${body.id}`)).status).toBe(404);
    expect((await t.api.post(`/api/boards/${body.id}/texts`, { x: 0, y: 0, content: 'x' })).status).toBe(404);
    expect((await t.api.del(`/api/boards/${body.id}`)).status).toBe(404);
    // The content is wiped from storage, not only hidden.
    expect(await t.server.server.documents.load(body.id)).toBeNull();
  });

  it('the deleted marker lasts 30 days, then the board is 404 everywhere', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const timed = await startServer({}, { now: () => now });
    try {
      const api2 = client(timed.url);
      const { body } = await api2.post('/api/boards');
      await api2.del(`/api/boards/${body.id}`);
      now += 29 * 86_400_000;
      expect((await api2.get(`/api/boards/${body.id}`)).body).toEqual({
        deleted: true,
        deleted_at: '2026-01-01 00:00:00',
      });
      now += 2 * 86_400_000;
      expect((await api2.get(`/api/boards/${body.id}`)).status).toBe(404);
    } finally {
      await timed.close();
    }
  });
});

describe('board meta and image files', () => {
  it('GET /meta gives mode and lock; an all-locked board needs the key', async () => {
    const { id } = (await t.api.post('/api/boards', { mode: 'todo' })).body;
    expect((await t.api.get(`/api/boards/${id}/meta`)).body).toEqual({
      boardId: id,
      mode: 'todo',
      lockMode: null,
      createdAt: expect.any(String),
    });
    const locked = (await t.api.post('/api/boards', { lock: 'all' })).body;
    expect((await t.api.get(`/api/boards/${locked.id}/meta`)).status).toBe(401);
    expect((await t.api.get(`/api/boards/${locked.id}/meta`, { 'x-board-key': locked.access_key })).body).toMatchObject(
      { mode: 'draw', lockMode: 'all' },
    );
    expect((await t.api.get('/api/boards/00000000-0000-4000-8000-000000000000/meta')).status).toBe(404);
  });

  it('the document mirrors the mode for its clients', async () => {
    const { id } = (await t.api.post('/api/boards', { mode: 'todo' })).body;
    const mode = () =>
      t.server.server.boards.read(id, { surface: 'rest', ip: '127.0.0.1' }, (doc) => doc.getMap('meta').get('mode'));
    expect(await mode()).toBe('todo');
    await t.api.post(`/api/boards/${id}/mode`, { mode: 'draw' });
    expect(await mode()).toBe('draw');
  });

  it('GET /images/{imageId} serves the payload as a file with an ETag', async () => {
    const { id } = (await t.api.post('/api/boards')).body;
    const png =
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    const image = (await t.api.post(`/api/boards/${id}/images`, { x: 0, y: 0, width: 1, height: 1, dataUrl: png }))
      .body;
    const res = await fetch(`${t.server.url}/api/boards/${id}/images/${image.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(png.split(',')[1], 'base64'))).toBe(true);
    const etag = res.headers.get('etag')!;
    expect(
      (await fetch(`${t.server.url}/api/boards/${id}/images/${image.id}`, { headers: { 'if-none-match': etag } }))
        .status,
    ).toBe(304);
    expect((await t.api.get(`/api/boards/${id}/images/nope`)).status).toBe(404);
  });
});
