/**
 * The two agent tasks, each scripted twice: `before`, the calls an agent
 * made when every item was a call and every check a whole read; `now`, the
 * calls it makes with create_board's content, `batch`, the outline and
 * compact answers. Both do the same work and leave the same board.
 */
type Json = Record<string, any>;
/** One tool call: its structured result, or a throw when it is refused. */
export type Agent = (name: string, args: Json) => Promise<Json>;

const COLUMNS = ['To do', 'Doing', 'Done'];
const LANES = ['Marketing', 'Engineering'];
const PEOPLE = ['maya', 'li', 'sam', 'ana', 'joe'];
const PRIORITIES = ['H', 'M', 'L'];
const TASK_NAMES = [
  'Write launch blog post',
  'Record demo video',
  'Press kit',
  'Pricing page copy',
  'Newsletter announcement',
  'Social media schedule',
  'Partner outreach',
  'Launch webinar',
  'Freeze release branch',
  'Load test checkout',
  'Feature flags cleanup',
  'Status page and alerts',
  'Onboarding flow polish',
  'Fix signup bugs',
  'Rollback plan',
];

/** The 15 tasks: the first 8 in the Marketing lane, the rest in Engineering, spread over the columns. */
const tasks = TASK_NAMES.map((name, i) => ({
  name,
  lane: i < 8 ? 0 : 1,
  column: i % 3,
  assignee: PEOPLE[i % PEOPLE.length],
  due: `2026-12-${String(1 + i).padStart(2, '0')}`,
  priority: PRIORITIES[i % 3],
}));

const taskFields = (task: (typeof tasks)[number]) => ({
  name: task.name,
  assignee: task.assignee,
  due_date: task.due,
  priority: task.priority,
});

export const taskA = {
  async before(call: Agent): Promise<void> {
    const { board_id } = await call('create_board', { mode: 'todo', title: 'Product launch' });
    await call('list_tasks', { board_id });
    for (const [lane, title] of LANES.entries()) await call('set_lane', { board_id, lane, title });
    const columnIds: string[][] = [[], []];
    for (const lane of [0, 1])
      for (const [sort, title] of COLUMNS.entries())
        columnIds[lane].push((await call('create_column', { board_id, title, lane, sort })).id);
    const created = await call('create_tasks', {
      board_id,
      tasks: tasks.map((task) => ({ column_id: columnIds[task.lane][task.column], ...taskFields(task) })),
    });
    await call('query_tasks', { board_id, assignee: 'maya' });
    await call('query_tasks', { board_id, priority: 'H' });
    await call('update_task', { board_id, id: created.ids[0], done: true });
    await call('move_task', { board_id, id: created.ids[1], column_id: columnIds[0][2], sort: 0 });
    await call('list_tasks', { board_id });
    await call('export_tasks', { board_id, format: 'markdown' });
    await call('get_board', { board_id });
  },
  async now(call: Agent): Promise<void> {
    const columns = LANES.flatMap((_, lane) => COLUMNS.map((title, sort) => ({ title, lane, sort })));
    const { board_id, ids } = await call('create_board', {
      mode: 'todo',
      title: 'Product launch',
      template: 'none',
      content: {
        lanes: LANES.map((title, lane) => ({ lane, title })),
        columns,
        tasks: tasks.map((task) => ({ columnIndex: task.lane * 3 + task.column, ...taskFields(task) })),
      },
    });
    const taskIds: string[] = ids.tasks;
    const doneColumn: string = ids.columns[2];
    await call('query_tasks', { board_id, assignee: 'maya' });
    await call('batch', {
      board_id,
      ops: [
        { type: 'update_task', id: taskIds[0], done: true },
        { type: 'move_task', id: taskIds[1], column_id: doneColumn, sort: 0 },
      ],
    });
    await call('get_board', { board_id, detail: 'outline' });
    await call('export_tasks', { board_id, format: 'markdown' });
  },
};

const BOXES = ['Browser', 'CDN', 'API gateway', 'Auth service', 'Orders service', 'PostgreSQL'];
const ARROWS: [number, number][] = [
  [0, 1],
  [1, 2],
  [2, 3],
  [2, 4],
  [4, 5],
  [3, 5],
];
const LINKS = [
  { url: 'https://example.com/runbook', x: 0, y: 520 },
  { url: 'https://example.com/api-docs', x: 240, y: 520 },
  { url: 'https://example.com/dashboards', x: 480, y: 520 },
];
const DIAGRAM = [
  '```mermaid',
  'flowchart LR',
  '  Browser --> CDN --> API[API gateway]',
  '  API --> Auth[Auth service]',
  '  API --> Orders[Orders service]',
  '  Orders --> DB[(PostgreSQL)]',
  '```',
].join('\n');

const boxAt = (i: number) => ({ x: (i % 3) * 240, y: Math.floor(i / 3) * 200 });
/** An arrow from the right edge of one box to the left edge of another, anchored at both ends. */
function arrow(from: Json, to: Json) {
  const width = from.width ?? 160;
  return {
    points: [
      [from.x + width, from.y + 30],
      [to.x, to.y + 30],
    ],
    anchors: {
      start: { kind: 'text', id: from.id, dx: width, dy: 30 },
      end: { kind: 'text', id: to.id, dx: 0, dy: 30 },
    },
  };
}

export const taskB = {
  async before(call: Agent): Promise<void> {
    const { board_id } = await call('create_board', { title: 'Web app architecture' });
    const boxes: Json[] = [];
    for (const [i, content] of BOXES.entries())
      boxes.push(await call('add_text', { board_id, ...boxAt(i), content, postit: true, color: 'yellow' }));
    await call('add_text', { board_id, x: 800, y: 0, content: DIAGRAM, diagram: true });
    for (const [from, to] of ARROWS) await call('draw_stroke', { board_id, ...arrow(boxes[from], boxes[to]) });
    for (const link of LINKS) await call('add_link', { board_id, ...link });
    await call('get_board', { board_id });
    await call('move', { board_id, id: boxes[5].id, x: 480, y: 220 });
    await call('get_preview', { board_id });
  },
  async now(call: Agent): Promise<void> {
    const { board_id } = await call('create_board', { title: 'Web app architecture' });
    // One batch: each post-it gets a ref, and the arrows anchor to "$<ref>" (a post-it's width is given, so its edge is known).
    const boxes = BOXES.map((_, i) => ({ id: `$box${i}`, ...boxAt(i), width: 160 }));
    await call('batch', {
      board_id,
      ops: [
        ...BOXES.map((content, i) => ({
          type: 'add_text',
          ref: `box${i}`,
          ...boxAt(i),
          width: 160,
          content,
          postit: true,
          color: 'yellow',
        })),
        { type: 'add_text', x: 800, y: 0, content: DIAGRAM, diagram: true },
        ...ARROWS.map(([from, to]) => ({ type: 'draw_stroke', ...arrow(boxes[from], boxes[to]) })),
        ...LINKS.map((link) => ({ type: 'add_link', ...link })),
      ],
    });
    await call('get_preview', { board_id });
  },
};
