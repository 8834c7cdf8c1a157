import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { boardMaps } from '../board/model/document-model.js';
import { upsertColumn, upsertTask } from '../board/mutations/todo.js';
import { MAX_COLUMNS, MAX_TASKS } from '../schema/index.js';
import { TEST_CALLER, useServer } from './helpers/server.js';

const t = useServer();

async function board(mode: 'draw' | 'todo' = 'todo', template?: string): Promise<string> {
  return (await t.api.post('/api/boards', { mode, template })).body.id;
}
const snapshot = async (id: string) => (await t.api.get(`/json/${id}`)).body;

describe('POST /mode', () => {
  it('an empty draw board becomes todo with the template columns, and back', async () => {
    const id = await board('draw');
    const toTodo = await t.api.post(`/api/boards/${id}/mode`, { mode: 'todo', template: 'sprint' });
    expect(toTodo.status).toBe(200);
    expect(toTodo.body).toMatchObject({ ok: true, mode: 'todo' });
    expect(toTodo.body.columns.map((c: any) => c.title)).toEqual(['Backlog', 'Sprint', 'Review', 'Done']);
    expect((await snapshot(id)).mode).toBe('todo');
    await t.api.post(`/api/boards/${id}/lanes`, { lane: 0, title: 'Team A' });

    const toDraw = await t.api.post(`/api/boards/${id}/mode`, { mode: 'draw' });
    expect(toDraw.body).toEqual({ ok: true, mode: 'draw' });
    const snap = await snapshot(id);
    expect(snap.mode).toBe('draw');
    expect(snap).not.toHaveProperty('columns');
    // the columns and lanes are gone from the document, not only hidden from the snapshot
    const left = await t.server.server.boards.read(id, TEST_CALLER, (doc) => [
      boardMaps(doc).columns.size,
      boardMaps(doc).lanes.size,
    ]);
    expect(left).toEqual([0, 0]);
    expect((await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'now a canvas' })).status).toBe(200);
    const back = await t.api.request('POST', `/api/boards/${id}/mode`, {
      body: JSON.stringify({ mode: 'todo' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(back.status).toBe(400);
    expect(back.body.code).toBe('board_not_empty');
  });

  it('seeded or empty columns and named lanes do not count as content; tasks, texts, strokes, images do', async () => {
    const id = await board('todo');
    await t.api.post(`/api/boards/${id}/columns`, { title: 'Extra', sort: 9, lane: 1 });
    await t.api.post(`/api/boards/${id}/lanes`, { lane: 1, title: 'Row two' });
    expect((await t.api.post(`/api/boards/${id}/mode`, { mode: 'draw' })).status).toBe(200);
    const snap = await snapshot(id);
    expect(snap.mode).toBe('draw');

    const withTask = await board('todo');
    const column = (await snapshot(withTask)).columns[0].id;
    await t.api.post(`/api/boards/${withTask}/tasks`, { column_id: column, name: 'real work' });
    const refused = await t.api.post(`/api/boards/${withTask}/mode`, { mode: 'draw' });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'board_not_empty', error: expect.any(String) });
    expect((await snapshot(withTask)).mode).toBe('todo');

    for (const [path, body] of [
      ['strokes', { points: [0, 0, 1, 1] }],
      ['links', { x: 0, y: 0, url: 'https://a.test' }],
    ] as const) {
      const drawId = await board('draw');
      await t.api.post(`/api/boards/${drawId}/${path}`, body);
      expect((await t.api.post(`/api/boards/${drawId}/mode`, { mode: 'todo' })).body.code).toBe('board_not_empty');
    }
  });

  it('todo again with a template reseeds; the same mode without one changes nothing', async () => {
    const id = await board('todo');
    const before = await snapshot(id);
    const same = await t.api.post(`/api/boards/${id}/mode`, { mode: 'todo' });
    expect(same.body.columns).toEqual(before.columns);
    const reseeded = await t.api.post(`/api/boards/${id}/mode`, { mode: 'todo', template: 'bugs' });
    expect(reseeded.body.columns.map((c: any) => c.title)).toEqual(['Triage', 'Confirmed', 'In progress', 'Fixed']);
    expect((await snapshot(id)).columns).toHaveLength(4);
  });

  it('rejects an invalid mode or template', async () => {
    const id = await board('draw');
    expect((await t.api.post(`/api/boards/${id}/mode`, { mode: 'kanban' })).body).toMatchObject({
      code: 'invalid_payload',
      field: 'mode',
    });
    expect((await t.api.post(`/api/boards/${id}/mode`, { mode: 'todo', template: 'x' })).body.field).toBe('template');
  });
});

describe('POST /column-width', () => {
  it('clamps to 200..480 and shows in the snapshot', async () => {
    const id = await board();
    for (const [width, expected] of [
      [100, 200],
      [300, 300],
      [1000, 480],
      [333.6, 334],
    ]) {
      const res = await t.api.post(`/api/boards/${id}/column-width`, { width });
      expect(res.body).toEqual({ ok: true, width: expected });
      expect((await snapshot(id)).colWidth).toBe(expected);
    }
    expect((await t.api.post(`/api/boards/${id}/column-width`, { width: 'wide' })).body.field).toBe('width');
    expect((await t.api.post(`/api/boards/${id}/column-width`, {})).body).toMatchObject({
      field: 'width',
      reason: 'is required',
    });
  });
});

describe('POST /lanes', () => {
  it('names a lane, keeps its first author, and an empty title clears the name', async () => {
    const id = await board();
    const named = await t.api.post(`/api/boards/${id}/lanes`, { lane: 2, title: 'Design', author: 'user:first' });
    expect(named.body).toEqual({ ok: true, lane: 2, title: 'Design' });
    expect((await snapshot(id)).lanes).toEqual([
      { lane: 2, title: 'Design', author: 'user:first', last_updated: expect.any(String) },
    ]);
    await t.api.post(`/api/boards/${id}/lanes`, { lane: 2, title: 'Design & UX', author: 'ai:second' });
    expect((await snapshot(id)).lanes[0]).toMatchObject({ title: 'Design & UX', author: 'user:first' });

    const cleared = await t.api.post(`/api/boards/${id}/lanes`, { lane: 2 });
    expect(cleared.body).toEqual({ ok: true, lane: 2, title: '' });
    expect((await snapshot(id)).lanes).toEqual([]);
    await t.api.post(`/api/boards/${id}/lanes`, { lane: 2, title: 'Again', author: 'ai:third' });
    expect((await snapshot(id)).lanes[0]).toMatchObject({ title: 'Again', author: 'user:first' });
    // an unnamed lane named for the first time by REST gets the REST author
    await t.api.post(`/api/boards/${id}/lanes`, { lane: 0, title: 'Top' });
    expect((await snapshot(id)).lanes[0]).toMatchObject({ lane: 0, author: 'ai:rest' });
  });

  it('lane must be an integer 0..9; titles at most 200 chars', async () => {
    const id = await board();
    for (const lane of [-1, 10, 1.5, '1'])
      expect((await t.api.post(`/api/boards/${id}/lanes`, { lane, title: 'x' })).body.field).toBe('lane');
    expect((await t.api.post(`/api/boards/${id}/lanes`, { lane: 9, title: 'x'.repeat(200) })).status).toBe(200);
    expect((await t.api.post(`/api/boards/${id}/lanes`, { lane: 9, title: 'x'.repeat(201) })).body.field).toBe('title');
  });
});

describe('columns', () => {
  it('creates the column record, updates it in place by id, keeps its author', async () => {
    const id = await board();
    const created = await t.api.post(`/api/boards/${id}/columns`, {
      title: 'Ideas',
      sort: 5,
      lane: 1,
      color: 'red',
      author: 'user:me',
    });
    expect(created.body).toEqual({
      id: expect.any(String),
      title: 'Ideas',
      sort: 5,
      lane: 1,
      color: 'red',
      author: 'user:me',
      last_updated: expect.any(String),
      created: true,
    });
    await sleep(3);
    const updated = await t.api.post(`/api/boards/${id}/columns`, {
      id: created.body.id,
      title: 'Ideas!',
      sort: 6,
      author: 'ai:x',
    });
    expect(updated.body).toMatchObject({
      id: created.body.id,
      title: 'Ideas!',
      sort: 6,
      lane: 1,
      color: 'red',
      author: 'user:me',
    });
    expect(updated.body.last_updated > created.body.last_updated).toBe(true);
    const cleared = await t.api.post(`/api/boards/${id}/columns`, {
      id: created.body.id,
      title: 'Ideas!',
      sort: 6,
      color: '',
    });
    expect(cleared.body).not.toHaveProperty('color');
    expect((await snapshot(id)).columns.filter((c: any) => c.id === created.body.id)).toHaveLength(1);
  });

  it('validates title, sort, lane and colour', async () => {
    const id = await board();
    for (const [body, field] of [
      [{ sort: 1 }, 'title'],
      [{ title: 'x' }, 'sort'],
      [{ title: 'x'.repeat(201), sort: 1 }, 'title'],
      [{ title: 'x', sort: 1, lane: 10 }, 'lane'],
      [{ title: 'x', sort: 1, color: 'purple' }, 'color'],
    ] as const) {
      const res = await t.api.post(`/api/boards/${id}/columns`, body);
      expect(res.status).toBe(400);
      expect(res.body.field).toBe(field);
    }
  });

  it('at most 20 columns per lane and 200 per board', async () => {
    const id = await board();
    for (let i = 0; i < 17; i++) await t.api.post(`/api/boards/${id}/columns`, { title: `c${i}`, sort: i });
    const full = await t.api.post(`/api/boards/${id}/columns`, { title: 'twenty-first', sort: 99 });
    expect(full.status).toBe(413);
    expect(full.body).toMatchObject({ code: 'quota_exceeded', kind: 'columns_per_lane' });
    // moving a column into a full lane is refused too
    const other = (await t.api.post(`/api/boards/${id}/columns`, { title: 'elsewhere', sort: 0, lane: 3 })).body;
    expect(
      (await t.api.post(`/api/boards/${id}/columns`, { id: other.id, title: 'elsewhere', sort: 0, lane: 0 })).status,
    ).toBe(413);

    const big = await board();
    await t.server.server.boards.write(big, TEST_CALLER, (w) => {
      for (let i = 0; i < MAX_COLUMNS - 3; i++)
        upsertColumn(w, { title: `c${i}`, sort: i, lane: Math.floor((i + 3) / 20) }); // 3 template columns fill lane 0 first
    });
    expect((await snapshot(big)).columns).toHaveLength(MAX_COLUMNS);
    const over = await t.api.post(`/api/boards/${big}/columns`, { title: 'one too many', sort: 0, lane: 9 });
    expect(over.status).toBe(413);
    expect(over.body.kind).toBe('columns');
  });

  it('deleting a column deletes every task in it', async () => {
    const id = await board();
    const [first, second] = (await snapshot(id)).columns;
    for (const name of ['a', 'b']) await t.api.post(`/api/boards/${id}/tasks`, { column_id: first.id, name });
    const kept = (await t.api.post(`/api/boards/${id}/tasks`, { column_id: second.id, name: 'kept' })).body;
    const res = await t.api.del(`/api/boards/${id}/columns/${first.id}`);
    expect(res.body).toEqual({ ok: true, id: first.id });
    const snap = await snapshot(id);
    expect(snap.columns.map((c: any) => c.id)).not.toContain(first.id);
    expect(snap.tasks.map((task: any) => task.id)).toEqual([kept.id]);
    expect((await t.api.del(`/api/boards/${id}/columns/${first.id}`)).status).toBe(404);
  });
});

describe('tasks', () => {
  it('creates the task record with defaults, and updates it in place keeping its author', async () => {
    const id = await board();
    const column = (await snapshot(id)).columns[0].id;
    const created = await t.api.post(`/api/boards/${id}/tasks`, {
      column_id: column,
      name: 'Write docs',
      description: 'all of them',
      due_date: '2026-12-01',
      priority: 'h',
      assignee: 'alice',
      color: 'blue',
      content: JSON.stringify({ boards: ['7d7bd1c2-1d5e-4a8b-9f43-2d8f3b0b9c11'] }),
      author: 'ai:planner',
    });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.any(String),
      column_id: column,
      name: 'Write docs',
      description: 'all of them',
      due_date: '2026-12-01',
      priority: 'H',
      assignee: 'alice',
      sort: 0,
      done: false,
      color: 'blue',
      content: '{"boards":["7d7bd1c2-1d5e-4a8b-9f43-2d8f3b0b9c11"]}',
      author: 'ai:planner',
      last_updated: expect.any(String),
      created: true,
    });
    const second = await t.api.post(`/api/boards/${id}/tasks`, { column_id: column, name: 'Next' });
    expect(second.body.sort).toBe(1);
    const updated = await t.api.post(`/api/boards/${id}/tasks`, {
      id: created.body.id,
      name: 'Write all docs',
      done: true,
      priority: '',
      author: 'ai:other',
    });
    expect(updated.body).toMatchObject({
      id: created.body.id,
      name: 'Write all docs',
      done: true,
      assignee: 'alice',
      author: 'ai:planner',
      column_id: column,
      sort: 0,
    });
    expect(updated.body).not.toHaveProperty('priority');
    expect((await snapshot(id)).tasks).toHaveLength(2);
  });

  it('column_id is required on create and must exist', async () => {
    const id = await board();
    const missing = await t.api.post(`/api/boards/${id}/tasks`, { name: 'orphan' });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'invalid_payload', field: 'column_id' });
    const unknown = await t.api.post(`/api/boards/${id}/tasks`, { name: 'orphan', column_id: 'nope' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.field).toBe('column_id');
  });

  it('due_date must be ISO 8601: the error names the field', async () => {
    const id = await board();
    const column = (await snapshot(id)).columns[0].id;
    for (const due_date of ['2026-12-01', '2026-12-01T09:30:00Z', '2026-12-01T09:30']) {
      expect((await t.api.post(`/api/boards/${id}/tasks`, { column_id: column, name: 'x', due_date })).status).toBe(
        200,
      );
    }
    for (const due_date of ['next week', '12/01/2026', '2026-02-30', 20261201]) {
      const res = await t.api.post(`/api/boards/${id}/tasks`, { column_id: column, name: 'x', due_date });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_payload', field: 'due_date' });
    }
  });

  it('validates name, assignee, priority, done and content', async () => {
    const id = await board();
    const column = (await snapshot(id)).columns[0].id;
    for (const [body, field] of [
      [{ name: 'x'.repeat(501) }, 'name'],
      [{ name: 'x', assignee: 'a'.repeat(201) }, 'assignee'],
      [{ name: 'x', priority: 'urgent' }, 'priority'],
      [{ name: 'x', done: 'yes' }, 'done'],
      [{ name: 'x', content: 'not json' }, 'content'],
    ] as const) {
      const res = await t.api.post(`/api/boards/${id}/tasks`, { column_id: column, ...body });
      expect(res.status).toBe(400);
      expect(res.body.field).toBe(field);
    }
    const big = JSON.stringify({ note: 'x'.repeat(20_000 - 11) });
    expect(big.length).toBe(20_000);
    expect((await t.api.post(`/api/boards/${id}/tasks`, { column_id: column, name: 'x', content: big })).status).toBe(
      200,
    );
    const over = await t.api.post(`/api/boards/${id}/tasks`, {
      column_id: column,
      name: 'x',
      content: JSON.stringify({ note: 'x'.repeat(20_000 - 10) }),
    });
    expect(over.status).toBe(413);
    expect(over.body).toMatchObject({ code: 'quota_exceeded', kind: 'task_content_chars' });
  });

  it('moves a task to another column and position; deletes it', async () => {
    const id = await board();
    const [a, b] = (await snapshot(id)).columns;
    const task = (await t.api.post(`/api/boards/${id}/tasks`, { column_id: a.id, name: 'travel' })).body;
    const moved = await t.api.post(`/api/boards/${id}/tasks/${task.id}/move`, { column_id: b.id, sort: 2.5 });
    expect(moved.body).toEqual({ id: task.id, column_id: b.id, sort: 2.5 });
    expect((await snapshot(id)).tasks[0]).toMatchObject({ id: task.id, column_id: b.id, sort: 2.5, author: 'ai:rest' });
    expect((await t.api.post(`/api/boards/${id}/tasks/${task.id}/move`, { column_id: b.id })).body.field).toBe('sort');
    expect(
      (await t.api.post(`/api/boards/${id}/tasks/${task.id}/move`, { column_id: 'nope', sort: 1 })).body.field,
    ).toBe('column_id');
    expect((await t.api.post(`/api/boards/${id}/tasks/nope/move`, { column_id: b.id, sort: 1 })).status).toBe(404);
    expect((await t.api.del(`/api/boards/${id}/tasks/${task.id}`)).body).toEqual({ ok: true, id: task.id });
    expect((await t.api.del(`/api/boards/${id}/tasks/${task.id}`)).status).toBe(404);
  });

  it(`at most ${MAX_TASKS} tasks`, async () => {
    const id = await board();
    const column = (await snapshot(id)).columns[0].id;
    await t.server.server.boards.write(id, TEST_CALLER, (w) => {
      for (let i = 0; i < MAX_TASKS - 1; i++) upsertTask(w, { column_id: column, name: `t${i}`, sort: i });
    });
    expect((await t.api.post(`/api/boards/${id}/tasks`, { column_id: column, name: 'last' })).status).toBe(200);
    const over = await t.api.post(`/api/boards/${id}/tasks`, { column_id: column, name: 'over' });
    expect(over.status).toBe(413);
    expect(over.body.kind).toBe('tasks');
  });
});

describe('wrong mode', () => {
  it('todo endpoints on a draw board are 400 wrong_mode', async () => {
    const id = await board('draw');
    for (const [path, body] of [
      ['column-width', { width: 300 }],
      ['lanes', { lane: 0, title: 'x' }],
      ['columns', { title: 'x', sort: 0 }],
      ['tasks', { column_id: 'x', name: 'x' }],
      ['tasks/x/move', { column_id: 'x', sort: 0 }],
    ] as const) {
      const res = await t.api.post(`/api/boards/${id}/${path}`, body);
      expect(res.status, path).toBe(400);
      expect(res.body.code).toBe('wrong_mode');
    }
    expect((await t.api.del(`/api/boards/${id}/columns/x`)).body.code).toBe('wrong_mode');
    expect((await t.api.del(`/api/boards/${id}/tasks/x`)).body.code).toBe('wrong_mode');
  });
});
