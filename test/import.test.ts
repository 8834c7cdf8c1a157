import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../store/sqlite/database.js';
import { PNG_1PX } from './helpers/http.js';
import { connectMcp } from './helpers/mcp.js';
import { useServer } from './helpers/server.js';

const t = useServer();
const snapshot = async (id: string) => (await t.api.get(`/json/${id}`)).body;

function boardCount(): number {
  const db = new Database(join(t.server.dataDir, DATABASE_FILE), { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM boards').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** Posts an import and checks that a rejected one created nothing. */
async function importBoard(body: unknown) {
  const before = boardCount();
  const res = await t.api.post('/api/boards', body);
  if (res.status !== 200) expect(boardCount()).toBe(before);
  return res;
}

describe('draw import', () => {
  it('creates every item with minted ids, in input order, and remaps anchors through sourceId', async () => {
    const res = await importBoard({
      content: {
        texts: [
          { sourceId: 'a', x: 0, y: 0, content: 'A', color: 'red' },
          { x: 100, y: 0, content: 'B', postit: true, author: 'user:bee' },
          { kind: 'link', x: 0, y: 200, url: 'https://example.com' },
        ],
        images: [{ sourceId: 'pic', x: 300, y: 0, width: 10, height: 10, dataUrl: PNG_1PX, thumbDataUrl: PNG_1PX }],
        lines: [
          {
            points: [10, 10, 300, 5],
            color: 'blue',
            anchors: {
              start: { kind: 'text', id: 'a', dx: 10, dy: 10 },
              end: { kind: 'image', id: 'pic', dx: 0, dy: 5 },
            },
          },
          { points: '[[0,0],[1,1]]' },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(String),
      mode: 'draw',
      imported: { texts: 3, lines: 2, images: 1, shapes: 0, frames: 0, columns: 0, tasks: 0, lanes: 0 },
      ids: {
        texts: [expect.any(String), expect.any(String), expect.any(String)],
        lines: [expect.any(String), expect.any(String)],
        images: [expect.any(String)],
        shapes: [],
        frames: [],
        columns: [],
        tasks: [],
      },
    });
    const snap = await snapshot(res.body.id);
    const { ids } = res.body;
    expect(snap.texts.map((text: any) => text.id)).toEqual(ids.texts);
    expect(snap.texts[0]).toMatchObject({ content: 'A', color: 'red', author: 'ai:import' });
    expect(snap.texts[0]).not.toHaveProperty('sourceId');
    expect(snap.texts[1]).toMatchObject({ postit: true, author: 'user:bee' });
    expect(snap.texts[2]).toMatchObject({ kind: 'link', url: 'https://example.com' });
    expect(snap.lines[0].anchors).toMatchObject({
      start: { kind: 'text', id: ids.texts[0] },
      end: { kind: 'image', id: ids.images[0] },
    });
    expect(snap.lines[1].points).toEqual([
      [0, 0],
      [1, 1],
    ]);
    expect((await t.api.get(`/api/boards/${res.body.id}`)).body.images[0].dataUrl).toBe(PNG_1PX);

    // the remapped anchor really ties the stroke: its start follows the moved text, at the anchor's offset
    await t.api.post(`/api/boards/${res.body.id}/texts/${ids.texts[0]}/move`, { x: 0, y: 100 });
    const [moved] = (await snapshot(res.body.id)).lines;
    expect(moved.points[0]).toEqual([moved.anchors.start.dx, 100 + moved.anchors.start.dy]);
    expect(moved.points[0][1]).toBeGreaterThan(100);
  });

  it('the body author is inherited by items without their own; default ai:import', async () => {
    const res = await importBoard({
      author: 'ai:claude',
      content: {
        texts: [
          { x: 0, y: 0, content: 'mine' },
          { x: 0, y: 0, content: 'theirs', author: 'user:x' },
        ],
      },
    });
    const snap = await snapshot(res.body.id);
    expect(snap.texts.map((text: any) => text.author)).toEqual(['ai:claude', 'user:x']);
  });

  it("a snapshot's `system:` authors come back as the import's own; the import itself may not name one", async () => {
    const template = (await t.api.post('/api/boards', { mode: 'todo', template: 'kanban' })).body.id;
    const columns = (await snapshot(template)).columns;
    expect(columns[0].author).toBe('system:template');
    const res = await importBoard({
      mode: 'todo',
      author: 'ai:claude',
      content: { columns, tasks: [{ columnIndex: 0, name: 'T', author: 'SYSTEM:me' }] },
    });
    expect(res.status).toBe(200);
    const snap = await snapshot(res.body.id);
    expect(new Set(snap.columns.map((column: any) => column.author))).toEqual(new Set(['ai:claude']));
    expect(snap.tasks[0].author).toBe('ai:claude');
    const posing = await importBoard({ author: 'system:template', content: { texts: [] } });
    expect(posing.status).toBe(400);
    expect(posing.body.code).toBe('invalid_content');
  });

  it('an anchor naming no sourceId of the import is invalid_item', async () => {
    const res = await importBoard({
      content: {
        texts: [{ sourceId: 'a', x: 0, y: 0, content: 'A' }],
        lines: [{ points: [0, 0, 1, 1], anchors: { end: { kind: 'text', id: 'zzz', dx: 0, dy: 0 } } }],
      },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'invalid_item',
      kind: 'lines',
      index: 0,
      reason: expect.stringContaining('zzz'),
    });
  });

  it('a todo import with tasks lists its columns: template columns are not addressable by index', async () => {
    const before = boardCount();
    const res = await importBoard({ mode: 'todo', content: { tasks: [{ columnIndex: 0, name: 'x' }] } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'invalid_item',
      kind: 'tasks',
      index: 0,
      reason: expect.stringContaining('columnIndex 0'),
    });
    expect(boardCount()).toBe(before);
  });

  it('a text item with url and no kind is a link, as add_link takes it, on REST and MCP create_board', async () => {
    const content = {
      texts: [
        { x: 0, y: 0, url: 'https://example.org/docs' },
        { kind: 'link', x: 0, y: 50, url: 'https://example.org/kind' },
        { x: 0, y: 100, content: 'a text' },
      ],
    };
    const res = await importBoard({ content });
    expect(res.status).toBe(200);
    const texts = (await snapshot(res.body.id)).texts;
    expect(texts[0]).toMatchObject({ kind: 'link', url: 'https://example.org/docs' });
    expect(texts[1]).toMatchObject({ kind: 'link', url: 'https://example.org/kind' });
    expect(texts[2]).not.toHaveProperty('kind');
    const mcp = await connectMcp(t.server.url);
    const created = await mcp.call('create_board', { content });
    expect(created.imported.texts).toBe(3);
    expect((await mcp.call('get_board', { board_id: created.board_id })).texts[0]).toMatchObject({ kind: 'link' });
    await mcp.close();
  });

  it('a link item with a text field, or a text with a url, is refused naming the field, not stored without it', async () => {
    for (const [item, field] of [
      [{ x: 0, y: 0, url: 'https://a.test/', content: 'label' }, 'content'],
      [{ kind: 'link', x: 0, y: 0, url: 'https://a.test/', color: 'red' }, 'color'],
      [{ kind: 'text', x: 0, y: 0, url: 'https://a.test/', content: 'x' }, 'url'],
      [{ kind: 'link', x: 0, y: 0 }, 'url'],
    ] as const) {
      const res = await importBoard({ content: { texts: [item] } });
      expect(res.status, JSON.stringify(item)).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_item', kind: 'texts', index: 0 });
      expect(res.body.reason, JSON.stringify(item)).toMatch(new RegExp(`^${field}:`));
    }
  });

  it('duplicate sourceIds are refused', async () => {
    const res = await importBoard({
      content: {
        texts: [{ sourceId: 'a', x: 0, y: 0, content: 'A' }],
        images: [{ sourceId: 'a', x: 0, y: 0, width: 1, height: 1, dataUrl: PNG_1PX }],
      },
    });
    expect(res.body).toMatchObject({ code: 'invalid_item', kind: 'images', index: 0 });
  });
});

describe('autolayout', () => {
  const content = {
    texts: [
      { content: 'one' },
      { content: 'two\nlines' },
      { x: 1000, y: 1000, content: 'placed by hand' },
      { content: 'a long text '.repeat(40), width: 700 },
    ],
    images: [{ width: 200, height: 150, dataUrl: PNG_1PX }],
  };

  it('without autolayout, texts and images without x/y are invalid_item', async () => {
    const res = await importBoard({ content });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'invalid_item',
      kind: 'texts',
      index: 0,
      error: expect.any(String),
      reason: expect.stringContaining('autolayout'),
    });
  });

  it('places them deterministically, leaves explicit coordinates alone, overlaps nothing', async () => {
    const first = await importBoard({ autolayout: true, content });
    const second = await importBoard({ autolayout: true, content });
    expect(first.status).toBe(200);
    const a = await snapshot(first.body.id);
    const b = await snapshot(second.body.id);
    const place = (snap: any) => [...snap.texts, ...snap.images].map((item: any) => [item.x, item.y]);
    expect(place(a)).toEqual(place(b));
    expect(a.texts[2]).toMatchObject({ x: 1000, y: 1000 });
    const laidOut = place(a).filter((_: unknown, i: number) => i !== 2);
    expect(new Set(laidOut.map((p: number[]) => p.join())).size).toBe(laidOut.length);
    for (const [, y] of laidOut) expect(y).toBeGreaterThan(1000); // below the hand-placed content
  });

  it('stacks post-its as the notes they are drawn as: none overlaps the one above it', async () => {
    const notes = Array.from({ length: 8 }, (_, i) => ({ content: `Note ${i}`, postit: true }));
    const res = await importBoard({ autolayout: true, content: { texts: notes } });
    expect(res.status).toBe(200);
    const { texts } = await snapshot(res.body.id);
    const tops = texts
      .map((text: any) => [text.x, text.y])
      .sort((a: number[], b: number[]) => a[0] - b[0] || a[1] - b[1]);
    for (let i = 1; i < tops.length; i++)
      if (tops[i][0] === tops[i - 1][0]) expect(tops[i][1] - tops[i - 1][1]).toBeGreaterThanOrEqual(200);
  });

  it('is a no-op on todo boards', async () => {
    const res = await importBoard({ mode: 'todo', autolayout: true, content: { columns: [{ title: 'A' }] } });
    expect(res.status).toBe(200);
  });
});

describe('todo import', () => {
  it('creates columns, tasks by columnIndex, lanes and colWidth (clamped)', async () => {
    const res = await importBoard({
      mode: 'todo',
      content: {
        columns: [
          { title: 'Now', color: 'red' },
          { title: 'Later', lane: 1 },
        ],
        tasks: [
          { columnIndex: 1, name: 'second', priority: 'l' },
          { columnIndex: 0, name: 'first', done: true, due_date: '2026-12-24', description: 'd' },
          { columnIndex: 0, name: 'third' },
        ],
        lanes: [{ lane: 1, title: 'Someday' }],
        colWidth: 9999,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.imported).toEqual({
      texts: 0,
      lines: 0,
      images: 0,
      shapes: 0,
      frames: 0,
      columns: 2,
      tasks: 3,
      lanes: 1,
    });
    const snap = await snapshot(res.body.id);
    expect(snap.colWidth).toBe(480);
    expect(snap.columns.map((c: any) => [c.title, c.lane, c.sort])).toEqual([
      ['Now', 0, 0],
      ['Later', 1, 1],
    ]);
    expect(snap.columns.map((c: any) => c.id)).toEqual(res.body.ids.columns);
    const byName = Object.fromEntries(snap.tasks.map((task: any) => [task.name, task]));
    expect(byName.first).toMatchObject({
      column_id: res.body.ids.columns[0],
      done: true,
      due_date: '2026-12-24',
      author: 'ai:import',
    });
    expect(byName.second).toMatchObject({ column_id: res.body.ids.columns[1], priority: 'L', done: false });
    expect(res.body.ids.tasks).toEqual([byName.second.id, byName.first.id, byName.third.id]);
    expect(
      snap.tasks.filter((task: any) => task.column_id === res.body.ids.columns[0]).map((task: any) => task.name),
    ).toEqual(['first', 'third']);
    expect(snap.lanes).toEqual([{ lane: 1, title: 'Someday', author: 'ai:import', last_updated: expect.any(String) }]);
  });

  it('without columns the template seeds them (not counted as imported)', async () => {
    const res = await importBoard({ mode: 'todo', template: 'sprint', content: { colWidth: 300 } });
    expect(res.body.imported.columns).toBe(0);
    expect(res.body.ids.columns).toEqual([]);
    const snap = await snapshot(res.body.id);
    expect(snap.columns.map((c: any) => c.title)).toEqual(['Backlog', 'Sprint', 'Review', 'Done']);
    expect(snap.colWidth).toBe(300);
  });

  it.each([
    [
      {
        lanes: [
          { lane: 0, title: 'a' },
          { lane: 0, title: 'b' },
        ],
        columns: [{ title: 'c' }],
      },
      'lanes',
      1,
      'twice',
    ],
    [{ lanes: [{ lane: 3, title: 'a' }], columns: [{ title: 'c' }] }, 'lanes', 0, 'no column'],
    [{ columns: [{ title: 'c' }], tasks: [{ columnIndex: 1, name: 'x' }] }, 'tasks', 0, 'columnIndex'],
    [{ columns: [{ title: 'c' }], tasks: [{ columnIndex: 0, name: 'x', done: 'yes' }] }, 'tasks', 0, 'done'],
    [
      {
        columns: [{ title: 'c' }],
        tasks: [
          { columnIndex: 0, name: 'x' },
          { columnIndex: 0, name: 'y', due_date: 'soon' },
        ],
      },
      'tasks',
      1,
      'due_date',
    ],
  ])('rejects %j as invalid_item %s[%i]', async (content, kind, index, reason) => {
    const res = await importBoard({ mode: 'todo', content });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_item', kind, index, reason: expect.stringContaining(reason) });
  });

  it('at most 10 lane titles', async () => {
    const columns = Array.from({ length: 10 }, (_, lane) => ({ title: `c${lane}`, lane }));
    const lanes = Array.from({ length: 11 }, (_, i) => ({ lane: i % 10, title: `l${i}` }));
    const res = await importBoard({ mode: 'todo', content: { columns, lanes } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'quota_exceeded',
      kind: 'lanes',
      reason: expect.any(String),
      error: expect.any(String),
    });
  });
});

describe('import rules', () => {
  it('is atomic: an invalid last item leaves no board and no items', async () => {
    const texts = Array.from({ length: 50 }, (_, i) => ({ x: i, y: i, content: `t${i}` }));
    const res = await importBoard({ content: { texts: [...texts, { x: 0, y: 0, content: 42 }] } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: expect.any(String),
      code: 'invalid_item',
      kind: 'texts',
      index: 50,
      reason: expect.stringContaining('content'),
      requestId: expect.any(String),
    });
  });

  it('an imported text cannot be both a post-it and a diagram frame, as on POST /texts', async () => {
    const res = await importBoard({
      content: {
        texts: [
          { x: 0, y: 0, content: 'ok' },
          { x: 0, y: 0, content: 'both', postit: true, diagram: true },
        ],
      },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'invalid_item',
      kind: 'texts',
      index: 1,
      reason: expect.stringContaining('post-it and a diagram'),
    });
  });

  it('draw items need draw mode and kanban items todo mode', async () => {
    const toTodo = await importBoard({ mode: 'todo', content: { texts: [{ x: 0, y: 0, content: 'x' }] } });
    expect(toTodo.status).toBe(400);
    expect(toTodo.body.code).toBe('content_mode_mismatch');
    expect(toTodo.body.error).toEqual(expect.any(String));
    const toDraw = await importBoard({ content: { columns: [{ title: 'x' }] } });
    expect(toDraw.body.code).toBe('content_mode_mismatch');
    // empty arrays of the other mode are fine
    expect((await importBoard({ mode: 'todo', content: { texts: [], columns: [{ title: 'ok' }] } })).status).toBe(200);
  });

  it('exactly 2550 items pass; 2551 are quota_exceeded', async () => {
    const content = {
      texts: Array.from({ length: 500 }, (_, i) => ({ x: i, y: 0, content: `t${i}` })),
      lines: Array.from({ length: 2000 }, (_, i) => ({ points: [i, 0, i, 1] })),
      images: Array.from({ length: 50 }, (_, i) => ({ x: i, y: 0, width: 1, height: 1, dataUrl: PNG_1PX })),
    };
    const ok = await importBoard({ content });
    expect(ok.status).toBe(200);
    expect(ok.body.imported).toMatchObject({ texts: 500, lines: 2000, images: 50 });
    expect(ok.body.ids.lines).toHaveLength(2000);
    // the whole board went in as one journal entry
    expect(await t.server.server.documents.journalLength(ok.body.id)).toBe(1);

    const over = await importBoard({ content: { ...content, lines: [...content.lines, { points: [0, 0, 1, 1] }] } });
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({ code: 'quota_exceeded', kind: 'items', reason: expect.stringContaining('2551') });
  });

  it('per-board quotas apply to the import as a whole', async () => {
    const texts = Array.from({ length: 501 }, () => ({ x: 0, y: 0, content: 'x' }));
    const res = await importBoard({ content: { texts } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'quota_exceeded', kind: 'texts' });
    const long = await importBoard({ content: { texts: [{ x: 0, y: 0, content: 'x'.repeat(100_001) }] } });
    expect(long.body).toMatchObject({ code: 'quota_exceeded', kind: 'text_chars' });
  });

  it('an unknown key of content is refused, naming the key and the one meant, on REST and MCP create_board', async () => {
    const strokes = { content: { strokes: [{ points: [0, 0, 10, 10] }] } };
    const res = await importBoard(strokes);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: expect.any(String),
      code: 'invalid_content',
      field: 'content.strokes',
      reason: 'unknown key "strokes": did you mean "lines"?',
      requestId: expect.any(String),
    });
    const mcp = await connectMcp(t.server.url);
    const viaMcp = await mcp.raw('create_board', strokes);
    expect(viaMcp.isError).toBe(true);
    // The REST body, and the next step an agent reads.
    const { requestId: _httpOnly, ...restBody } = res.body; // the request id is HTTP's, MCP has JSON-RPC ids
    expect(JSON.parse(viaMcp.content[0].text)).toEqual({ ...restBody, next: expect.any(String) });
    await mcp.close();

    expect((await importBoard({ mode: 'todo', content: { Tasks: [], columns: [{ title: 'a' }] } })).body).toMatchObject(
      { field: 'content.Tasks', reason: 'unknown key "Tasks": did you mean "tasks"?' },
    );
    expect((await importBoard({ content: { notes: [] } })).body.reason).toBe(
      'unknown key "notes"; known keys: texts, lines, images, shapes, frames, columns, tasks, lanes, colWidth, boardId, mode, title, etag',
    );
    // The create body is strict too: `contents` would have made an empty board.
    const typo = await importBoard({ mode: 'draw', contents: { texts: [{ x: 0, y: 0, content: 'lost' }] } });
    expect(typo.status).toBe(400);
    expect(typo.body).toMatchObject({
      code: 'invalid_payload',
      field: 'contents',
      reason: 'unknown key "contents": did you mean "content"?',
    });
  });

  it('a /json snapshot can be sent back as content: its boardId, mode and etag are ignored, and its items keep their extra fields', async () => {
    const source = await importBoard({
      content: {
        texts: [
          { x: 1, y: 2, content: 'round trip', color: 'red' },
          { kind: 'link', x: 0, y: 50, url: 'https://a.test/' },
        ],
        lines: [{ points: [0, 0, 5, 5] }],
      },
    });
    const snap = await snapshot(source.body.id);
    const copy = await importBoard({ content: snap });
    expect(copy.status).toBe(200);
    expect(copy.body.imported).toMatchObject({ texts: 2, lines: 1 });
    const copied = await snapshot(copy.body.id);
    expect(copied.texts.map(({ id: _id, last_updated: _at, ...text }: any) => text)).toEqual(
      snap.texts.map(({ id: _id, last_updated: _at, ...text }: any) => text),
    );
  });

  it('malformed top-level fields are invalid_content naming the field', async () => {
    for (const [body, field] of [
      [{ content: { texts: 'nope' } }, 'content.texts'],
      [{ content: { colWidth: 'wide' } }, 'colWidth'],
      [{ content: [] }, 'content'],
    ] as const) {
      const res = await importBoard(body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_content', field, reason: expect.any(String) });
    }
  });
});
