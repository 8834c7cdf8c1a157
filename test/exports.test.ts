import { parse as parseCsv } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { connectMcp } from './helpers/mcp.js';
import { useServer } from './helpers/server.js';

const t = useServer();

/** A todo board with two lanes, columns out of sort order, and tasks full of awkward characters. */
async function fixture(withLaneTitles: boolean) {
  const res = await t.api.post('/api/boards', {
    mode: 'todo',
    content: {
      columns: [
        { title: 'Doing, now', sort: 2 },
        { title: 'Backlog "big"', sort: 1 },
        { title: 'Row two column', sort: 0, lane: 1 },
      ],
      tasks: [
        { columnIndex: 0, name: 'Second in doing', sort: 2, priority: 'M', assignee: 'Bob' },
        { columnIndex: 0, name: 'First in doing', sort: 1, done: true, due_date: '2026-12-24' },
        {
          columnIndex: 1,
          name: 'Quote "this", please',
          description: 'line one\nline two, with comma',
          assignee: 'Ann Lee',
          priority: 'H',
        },
        { columnIndex: 1, name: '=HYPERLINK("http://evil.test","click")', description: '@SUM(A1:A9)' },
        { columnIndex: 2, name: '+1 for lanes', description: '-minus' },
      ],
      lanes: withLaneTitles ? [{ lane: 1, title: 'Later' }] : [],
    },
  });
  expect(res.status).toBe(200);
  return res.body.id as string;
}

describe('GET /tasks.csv', () => {
  it('lists every task in board order, RFC 4180 quoted, round-tripping through a CSV parser', async () => {
    const id = await fixture(true);
    const res = await t.api.get(`/api/boards/${id}/tasks.csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="board-${id}-tasks.csv"`);
    expect(res.text.split('\r\n')[0]).toBe('lane,column,name,priority,assignee,due_date,done,description');
    const rows: string[][] = parseCsv(res.text);
    expect(rows.slice(1)).toEqual([
      ['1', 'Backlog "big"', 'Quote "this", please', 'H', 'Ann Lee', '', 'false', 'line one\nline two, with comma'],
      ['1', 'Backlog "big"', `'=HYPERLINK("http://evil.test","click")`, '', '', '', 'false', `'@SUM(A1:A9)`],
      ['1', 'Doing, now', 'First in doing', '', '', '2026-12-24', 'true', ''],
      ['1', 'Doing, now', 'Second in doing', 'M', 'Bob', '', 'false', ''],
      ['Later', 'Row two column', `'+1 for lanes`, '', '', '', 'false', `'-minus`],
    ]);
  });

  it('download=1 (exactly) makes it an attachment', async () => {
    const id = await fixture(false);
    expect((await t.api.get(`/api/boards/${id}/tasks.csv?download=1`)).headers.get('content-disposition')).toBe(
      `attachment; filename="board-${id}-tasks.csv"`,
    );
    for (const value of ['true', '0', '11', '']) {
      expect(
        (await t.api.get(`/api/boards/${id}/tasks.csv?download=${value}`)).headers.get('content-disposition'),
      ).toMatch(/^inline;/);
    }
  });

  it('a draw board gives only the header', async () => {
    const id = (await t.api.post('/api/boards')).body.id;
    await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'not a task' });
    const res = await t.api.get(`/api/boards/${id}/tasks.csv`);
    expect(res.status).toBe(200);
    expect(res.text).toBe('lane,column,name,priority,assignee,due_date,done,description\r\n');
  });

  it('unknown boards are 404', async () => {
    expect((await t.api.get('/api/boards/00000000-0000-4000-8000-000000000000/tasks.csv')).status).toBe(404);
    expect((await t.api.get('/api/boards/nope/tasks.md')).status).toBe(404);
  });
});

describe('GET /tasks.md', () => {
  it('groups a checklist by column, with tags for priority, assignee and due date', async () => {
    const id = await fixture(false);
    const res = await t.api.get(`/api/boards/${id}/tasks.md?download=1`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="board-${id}-tasks.md"`);
    expect(res.text).toBe(
      [
        `# Board ${id}`,
        '',
        '## Backlog "big"',
        '',
        '- [ ] Quote "this", please priority:H @Ann Lee',
        '  line one',
        '  line two, with comma',
        '- [ ] =HYPERLINK("http://evil.test","click")',
        '  @SUM(A1:A9)',
        '',
        '## Doing, now',
        '',
        '- [x] First in doing due:2026-12-24',
        '- [ ] Second in doing priority:M @Bob',
        '',
        '## Row two column',
        '',
        '- [ ] +1 for lanes',
        '  -minus',
        '',
      ].join('\n'),
    );
  });

  it('groups by lane first when a lane is named', async () => {
    const id = await fixture(true);
    const { text } = await t.api.get(`/api/boards/${id}/tasks.md`);
    const headings = text.split('\n').filter((line: string) => line.startsWith('#'));
    expect(headings).toEqual([
      `# Board ${id}`,
      '## Row 1',
      '### Backlog "big"',
      '### Doing, now',
      '## Later',
      '### Row two column',
    ]);
  });

  it('is headed by the board title when it has one, on REST and MCP export_tasks', async () => {
    const id = (await t.api.post('/api/boards', { mode: 'todo', title: 'Launch plan' })).body.id;
    const heading = (text: string) => text.split('\n')[0];
    expect(heading((await t.api.get(`/api/boards/${id}/tasks.md`)).text)).toBe('# Launch plan');
    const mcp = await connectMcp(t.server.url);
    try {
      const exported = await mcp.call('export_tasks', { board_id: id, format: 'markdown' });
      expect(heading(exported.content)).toBe('# Launch plan');
      await mcp.call('set_board_title', { board_id: id, title: '' });
      expect(heading((await mcp.call('export_tasks', { board_id: id, format: 'markdown' })).content)).toBe(
        `# Board ${id}`,
      );
    } finally {
      await mcp.close();
    }
  });

  it('an empty column says so; a draw board gives only the heading', async () => {
    const todo = (await t.api.post('/api/boards', { mode: 'todo' })).body.id;
    expect((await t.api.get(`/api/boards/${todo}/tasks.md`)).text).toContain('## To do\n\n_No tasks._\n');
    const draw = (await t.api.post('/api/boards')).body.id;
    expect((await t.api.get(`/api/boards/${draw}/tasks.md`)).text).toBe(`# Board ${draw}\n`);
  });
});
