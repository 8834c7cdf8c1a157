/**
 * One validator decides: the same input sent as a REST
 * body, as MCP tools/call arguments and as a JSON /ws frame gets the same
 * verdict, accepted on all three or refused on all three with the same
 * machine `code`, and an accepted one leaves the same board behind.
 *
 * Regression: MCP `add_text {postit: true, diagram: true}` was accepted and
 * both flags stored, while REST refused it with 400 (the MCP and frame
 * arguments were built from `TextInput.shape`, which drops the refinement).
 *
 * Property-based with fast-check (fixed seed): texts, links, strokes, images,
 * moves, columns, tasks, task moves, lanes, the column width and board titles, each with
 * edge values, wrong types, cross-field conflicts and unknown keys (prototype
 * keys among them). MCP goes through the raw JSON-RPC client, so what is
 * compared is the server's answer, not an SDK's own checks. Rate limits are
 * off in the test server.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { objectOf, resolveTokens } from './helpers/hostile.js';
import { PNG_1PX, pngOfBytes } from './helpers/http.js';
import { connectRawMcp, type RawMcp } from './helpers/mcp-raw.js';
import { type JsonClient, openJson } from './helpers/realtime.js';
import { useServer } from './helpers/server.js';

const t = useServer();

const SEED = 0x0e_7a11d;
const RUNS = 30;
const TEST_MS = 60_000;

const SURFACES = ['rest', 'mcp', 'ws'] as const;
type Surface = (typeof SURFACES)[number];
type Mode = 'draw' | 'todo';

/** The author the JSON channel stamps by default (its `?client=`). */
const WS_CLIENT = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';
const DEFAULT_AUTHORS = new Set(['ai:rest', 'ai:mcp', `user:${WS_CLIENT}`]);

// ---------------------------------------------------------------------------
// Boards: one draw and one todo board per surface, with the same content.

const DRAW_CONTENT = {
  texts: [
    { x: 0, y: 0, content: 'plain' },
    { x: 0, y: 100, content: 'note', postit: true },
    { x: 0, y: 200, content: 'frame', diagram: true },
    { kind: 'link', x: 0, y: 300, url: 'https://a.test/' },
  ],
  lines: [{ points: [0, 0, 10, 10] }],
  images: [{ x: 50, y: 50, width: 4, height: 4, dataUrl: PNG_1PX }],
};
const TODO_CONTENT = {
  columns: [{ title: 'A' }, { title: 'B', lane: 1 }],
  tasks: [{ columnIndex: 0, name: 'T', assignee: 'ann' }],
};

type Board = { id: string; tokens: Record<string, string> };
const boards = {} as Record<Surface, Record<Mode, Board>>;
let mcp: RawMcp;
const sockets = {} as Record<Mode, JsonClient>;

async function createBoard(mode: Mode): Promise<Board> {
  const res = await t.api.post('/api/boards', { mode, content: mode === 'draw' ? DRAW_CONTENT : TODO_CONTENT });
  expect(res.status).toBe(200);
  const { id, ids } = res.body;
  const tokens: Record<string, string> =
    mode === 'draw'
      ? {
          $text: ids.texts[0],
          $postit: ids.texts[1],
          $diagram: ids.texts[2],
          $link: ids.texts[3],
          $stroke: ids.lines[0],
          $image: ids.images[0],
        }
      : { $column: ids.columns[0], $column2: ids.columns[1], $task: ids.tasks[0] };
  for (const [token, itemId] of Object.entries(tokens)) names.set(itemId, token);
  return { id, tokens };
}

beforeAll(async () => {
  for (const surface of SURFACES)
    boards[surface] = { draw: await createBoard('draw'), todo: await createBoard('todo') };
  mcp = await connectRawMcp(t.server.url);
  for (const mode of ['draw', 'todo'] as const)
    sockets[mode] = await openJson(t.server.url, boards.ws[mode].id, { query: `?client=${WS_CLIENT}` });
});

afterAll(async () => {
  await mcp?.close();
  for (const socket of Object.values(sockets)) socket.close();
});

// ---------------------------------------------------------------------------
// One call, as each surface spells it.

/**
 * A call: the MCP tool (and frame type) with its arguments, and the REST
 * route that takes the same input. Strings like `$text` name fixture items
 * and are resolved per board; `rest` builds the path and body from the
 * resolved arguments.
 */
type Call = {
  mode: Mode;
  tool: string;
  frame?: string;
  args: Record<string, unknown>;
  rest: (args: Record<string, unknown>) => { path: string; body: Record<string, unknown> };
};

/** Accepted with its (normalised) result, or refused with its machine code. */
type Verdict = { accepted: true; result: unknown } | { accepted: false; code: string };

let nextRef = 0;

async function send(surface: Surface, call: Call): Promise<Verdict> {
  const board = boards[surface][call.mode];
  const args = resolveTokens(call.args, board.tokens) as Record<string, unknown>;
  switch (surface) {
    case 'rest': {
      const { path, body } = call.rest(args);
      const res = await t.api.post(`/api/boards/${board.id}${path}`, body);
      if (res.status !== 200) return { accepted: false, code: res.body?.code ?? `http ${res.status}` };
      // REST updates through its upsert, which says so: the update_* tools have nothing to say.
      const { created: _created, ...updated } = res.body;
      return { accepted: true, result: call.tool.startsWith('update_') ? updated : res.body };
    }
    case 'mcp': {
      const answer = await mcp.call(call.tool, objectOf([['board_id', board.id], ...Object.entries(args)]));
      const { result, error } = answer.body ?? {};
      if (error) return { accepted: false, code: error.data?.code ?? `rpc ${error.code}` };
      if (result.isError) return { accepted: false, code: JSON.parse(result.content[0].text).code };
      return { accepted: true, result: result.structuredContent };
    }
    case 'ws': {
      const socket = sockets[call.mode];
      const ref = ++nextRef;
      const from = socket.frames.length;
      socket.send(objectOf([['type', call.frame ?? call.tool], ['ref', ref], ...Object.entries(args)]));
      const frame = await socket.next((f) => f.ref === ref && (f.type === 'ack' || f.type === 'error'), 5_000, from);
      return frame.type === 'ack' ? { accepted: true, result: frame.result } : { accepted: false, code: frame.code };
    }
  }
}

/**
 * Items are named, not numbered: fixtures by their token, items a write
 * created by the order of creation (`new#3`), the same on every surface when
 * the verdicts agree. Ties of `sort` are ordered by random ids, so item lists
 * are compared as sets.
 */
const names = new Map<string, string>();
const created = { draw: 0, todo: 0 } as Record<Mode, number>;

function nameNewItem(mode: Mode, result: unknown): void {
  const id = (result as { id?: unknown } | null)?.id;
  if (typeof id === 'string' && !names.has(id)) names.set(id, `new#${mode}#${created[mode]}`);
}

/** A `/json` snapshot with ids replaced by names, and timestamps, etag and default authors left out. */
async function storedBoard(surface: Surface, mode: Mode): Promise<unknown> {
  const { boardId: _id, etag: _etag, ...snapshot } = (await t.api.get(`/json/${boards[surface][mode].id}`)).body;
  const view = normalise(snapshot) as Record<string, unknown>;
  for (const value of Object.values(view))
    if (Array.isArray(value)) value.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  return view;
}

function normalise(value: unknown): unknown {
  if (typeof value === 'string') return names.get(value) ?? (DEFAULT_AUTHORS.has(value) ? '<default author>' : value);
  if (Array.isArray(value)) return value.map(normalise);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => key !== 'last_updated')
        .map(([key, item]) => [key, normalise(item)]),
    );
  }
  return value;
}

/** Sends the call on every surface and expects one verdict and one resulting board. */
async function expectOneVerdict(call: Call): Promise<void> {
  const verdicts = await Promise.all(SURFACES.map((surface) => send(surface, call)));
  for (const verdict of verdicts) if (verdict.accepted) nameNewItem(call.mode, verdict.result);
  if (verdicts.some((verdict) => verdict.accepted)) created[call.mode] += 1;
  const seen = verdicts.map((verdict) =>
    verdict.accepted ? { accepted: true, result: normalise(verdict.result) } : verdict,
  );
  const stored = await Promise.all(SURFACES.map((surface) => storedBoard(surface, call.mode)));
  const described = `${call.tool} ${JSON.stringify(call.args).slice(0, 300)}`;
  expect(seen[1], `MCP and REST disagree on ${described}`).toEqual(seen[0]);
  expect(seen[2], `the JSON channel and REST disagree on ${described}`).toEqual(seen[0]);
  expect(stored[1], `MCP stored something else than REST for ${described}`).toEqual(stored[0]);
  expect(stored[2], `the JSON channel stored something else than REST for ${described}`).toEqual(stored[0]);
}

// ---------------------------------------------------------------------------
// Arbitraries: mostly valid values, with edges, wrong types and extra keys.

const wrongType = fc.constantFrom<unknown>(null, true, 'text', 12, [], {}, [1, 2]);
/** Valid values most of the time, else an edge or a wrong type. */
const usually = <T>(valid: fc.Arbitrary<T>, ...edges: unknown[]) =>
  fc.oneof(
    { weight: 6, arbitrary: valid as fc.Arbitrary<unknown> },
    { weight: 2, arbitrary: edges.length ? fc.constantFrom(...edges) : wrongType },
    { weight: 1, arbitrary: wrongType },
  );

const coordinate = usually(fc.integer({ min: -5000, max: 5000 }), 1e9, -1e9, 1e9 + 1, -1e9 - 1, 0.5, -0, 1e308, '5');
const author = usually(
  fc.constantFrom('ai:prop', 'user:someone', 'a.b_c-d'),
  '',
  ' ai:x',
  'has space',
  'x'.repeat(81),
  'x'.repeat(80),
  'system:template',
  'SYSTEM:x',
);
const inkColor = fc.constantFrom<unknown>('red', 'RED', ' blue ', '#ff0000', '', null, 'auto', 42, 'nope');
const shortText = fc.string({ maxLength: 12 });
/** Names and titles, padded with spaces now and then. */
const label = (max: number) =>
  usually(
    fc.oneof(
      shortText,
      shortText.map((s) => ` ${s}  `),
    ),
    '',
    '   ',
    'x'.repeat(max),
    'x'.repeat(max + 1),
    ` ${'x'.repeat(max)} `,
  );
const drawId = fc.constantFrom(
  '$text',
  '$postit',
  '$diagram',
  '$link',
  '$stroke',
  '$image',
  'no-such-item',
  'x'.repeat(128),
  'x'.repeat(129),
);
const BIG_IMAGE = pngOfBytes(921_601);

/** Keys no schema knows; `type`, `ref`, `board_id` and `access_key` are left out (envelopes of the surfaces). */
const extraKeys = fc.array(
  fc.tuple(
    fc.constantFrom('extra', 'kind', 'last_updated', 'Postit', 'toString', 'constructor', '__proto__'),
    fc.constantFrom<unknown>(1, 'x', null, { prototype: { polluted: true } }, { postit: true }),
  ),
  { maxLength: 2 },
);

/** Required fields, optional ones (each present or not) and unknown keys, all as own properties. */
function body(required: Record<string, fc.Arbitrary<unknown>>, optional: Record<string, fc.Arbitrary<unknown>>) {
  const known = new Set([...Object.keys(required), ...Object.keys(optional)]);
  return fc
    .tuple(fc.record(required), fc.record(optional, { requiredKeys: [] }), extraKeys)
    .map(([a, b, extra]) =>
      objectOf([...Object.entries(a), ...Object.entries(b), ...extra.filter(([key]) => !known.has(key))]),
    );
}

/** Draw calls go to a todo board now and then (wrong_mode on every surface). */
const drawMode = fc.constantFrom<Mode>('draw', 'draw', 'draw', 'draw', 'todo');
const todoMode = fc.constantFrom<Mode>('todo', 'todo', 'todo', 'todo', 'draw');

const upsert = (path: string) => (args: Record<string, unknown>) => ({ path, body: args });
const pathSegment = (value: unknown) => encodeURIComponent(String(value));

const texts = fc
  .tuple(
    drawMode,
    body(
      { x: coordinate, y: coordinate, content: usually(shortText, '', 'x'.repeat(100_001)) },
      {
        id: drawId,
        color: inkColor,
        width: usually(fc.integer({ min: 160, max: 4096 }), 159, 4097, 300.5),
        postit: usually(fc.boolean()),
        diagram: usually(fc.boolean()),
        author,
      },
    ),
  )
  .map(([mode, args]): Call => ({ mode, tool: 'add_text', args, rest: upsert('/texts') }));

const links = fc
  .tuple(
    drawMode,
    body(
      {
        x: coordinate,
        y: coordinate,
        url: usually(
          fc.constantFrom('https://example.test/a', 'http://b.test'),
          'ftp://c.test',
          'not a url',
          'https://',
          `https://a.test/${'x'.repeat(2100)}`,
        ),
      },
      { id: drawId, author },
    ),
  )
  .map(([mode, args]): Call => ({ mode, tool: 'add_link', args, rest: upsert('/links') }));

const anchor = fc.record({
  kind: usually(fc.constantFrom('text', 'image'), 'link', 'stroke'),
  id: fc.constantFrom('$text', '$image', 'no-such-item', ''),
  dx: usually(fc.integer({ min: -10, max: 10 })),
  dy: usually(fc.integer({ min: -10, max: 10 })),
});
const strokes = fc
  .tuple(
    drawMode,
    fc.constantFrom('/strokes', '/lines'),
    body(
      {
        points: usually(
          fc.constantFrom<unknown>(
            [0, 0, 10, 10],
            [
              [1, 2],
              [3, 4],
              [5, 6],
            ],
            '[0,0,5,5]',
            '[[0,0],[9,9]]',
            [7, 7],
          ),
          [],
          [1],
          [0, 0, 1],
          [[1]],
          [[1, 2, 3]],
          '',
          'not json',
          [0, 1e9 + 1],
          Array(20_002).fill(1),
        ),
      },
      {
        id: drawId,
        color: inkColor,
        anchors: usually(fc.record({ start: anchor, end: anchor }, { requiredKeys: [] })),
        author,
      },
    ),
  )
  .map(([mode, path, args]): Call => ({ mode, tool: 'draw_stroke', args, rest: upsert(path) }));

const images = fc
  .tuple(
    drawMode,
    body(
      {
        x: coordinate,
        y: coordinate,
        width: usually(fc.integer({ min: 1, max: 400 }), 0, -1, 16_384, 16_385),
        height: usually(fc.integer({ min: 1, max: 400 }), 0, 16_385),
        dataUrl: usually(
          fc.constant(PNG_1PX),
          'https://a.test/x.png',
          'data:image/png;base64,!!!',
          `data:image/jpeg;base64,${PNG_1PX.split(',')[1]}`,
          'data:image/bmp;base64,AAAA',
          BIG_IMAGE,
        ),
      },
      {
        id: drawId,
        thumbDataUrl: usually(fc.constant(PNG_1PX), 'data:image/gif;base64,R0lGODlh', `${PNG_1PX}${'A'.repeat(8000)}`),
        author,
      },
    ),
  )
  .map(([mode, args]): Call => ({ mode, tool: 'add_image', args, rest: upsert('/images') }));

/** Moves: REST names the kind and id in the path, MCP and frames as arguments. `tasks` is left out (its REST path is the task move). */
const moves = fc
  .tuple(
    drawMode,
    body(
      {
        kind: fc.constantFrom('texts', 'links', 'strokes', 'lines', 'images', 'widgets', 'columns', 'TEXTS'),
        id: fc.constantFrom('$text', '$postit', '$link', '$stroke', '$image', 'no-such-item', 'x'.repeat(129)),
        x: coordinate,
        y: coordinate,
      },
      {},
    ),
  )
  .map(
    ([mode, args]): Call => ({
      mode,
      tool: 'move',
      args,
      rest: ({ kind, id, ...rest }) => ({ path: `/${pathSegment(kind)}/${pathSegment(id)}/move`, body: rest }),
    }),
  );

const sort = usually(fc.integer({ min: -5, max: 50 }), 0.25, -1e9, 1e300);
const lane = usually(fc.integer({ min: 0, max: 9 }), -1, 10, 1.5, '1');
const cardColor = usually(fc.constantFrom('red', 'blue', 'green', ''), 'RED', 'purple', null);

const columns = fc
  .tuple(todoMode, body({ title: label(200), sort }, { lane, color: cardColor, author }))
  .map(([mode, args]): Call => ({ mode, tool: 'create_column', args, rest: upsert('/columns') }));

/** update_column changes the given fields; REST's upsert with the same id and every required field does the same. */
const columnUpdates = fc
  .tuple(
    todoMode,
    body({ id: fc.constantFrom('$column', '$column2'), title: label(200), sort }, { lane, color: cardColor, author }),
  )
  .map(([mode, args]): Call => ({ mode, tool: 'update_column', args, rest: upsert('/columns') }));

const taskFields = {
  description: usually(shortText, 'x'.repeat(20_001)),
  due_date: usually(
    fc.constantFrom('2026-01-31', '2026-01-31T10:00:00Z', '2024-02-29'),
    '2026-02-30',
    'tomorrow',
    '2026-1-1',
    '',
  ),
  priority: usually(fc.constantFrom('H', 'm', ' l ', ''), 'X', 'high'),
  assignee: label(200),
  sort,
  done: usually(fc.boolean(), 'true', 0),
  color: cardColor,
  content: usually(fc.constantFrom('{"boards":[]}', '', '[1,2]'), 'not json', `"${'x'.repeat(20_001)}"`),
  author,
};
const columnRef = fc.constantFrom<unknown>('$column', '$column2', 'no-such-column', '', 5);

const tasks = fc
  .tuple(todoMode, body({ column_id: columnRef, name: label(500) }, taskFields))
  .map(([mode, args]): Call => ({ mode, tool: 'create_task', args, rest: upsert('/tasks') }));

/** update_task changes the given fields; REST's upsert of the same id with a name does the same. */
const taskUpdates = fc
  .tuple(todoMode, body({ id: fc.constant('$task'), name: label(500) }, { ...taskFields, column_id: columnRef }))
  .map(([mode, args]): Call => ({ mode, tool: 'update_task', args, rest: upsert('/tasks') }));

const taskMoves = fc
  .tuple(
    todoMode,
    body({ id: fc.constantFrom('$task', 'no-such-task', 'x'.repeat(129)), column_id: columnRef, sort }, {}),
  )
  .map(
    ([mode, args]): Call => ({
      mode,
      tool: 'move_task',
      args,
      rest: ({ id, ...rest }) => ({ path: `/tasks/${pathSegment(id)}/move`, body: rest }),
    }),
  );

const lanes = fc
  .tuple(todoMode, body({ lane }, { title: label(200), author }))
  .map(([mode, args]): Call => ({ mode, tool: 'set_lane', frame: 'lane_upsert', args, rest: upsert('/lanes') }));

const columnWidths = fc
  .tuple(todoMode, body({ width: usually(fc.integer({ min: 100, max: 600 }), 199.5, 1e300, -1) }, {}))
  .map(([mode, args]): Call => ({ mode, tool: 'set_column_width', args, rest: upsert('/column-width') }));

/** Board titles (docs/titles.md): on either kind of board. */
const titles = fc
  .tuple(fc.constantFrom<Mode>('draw', 'todo'), body({ title: label(200) }, {}))
  .map(([mode, args]): Call => ({ mode, tool: 'set_board_title', args, rest: upsert('/title') }));

// ---------------------------------------------------------------------------

const property = (calls: fc.Arbitrary<Call>) =>
  fc.assert(fc.asyncProperty(calls, expectOneVerdict), { seed: SEED, numRuns: RUNS, endOnFailure: true });

describe('one validator: REST, MCP and a /ws frame give the same verdict and store the same thing', () => {
  it('the regression: add_text with postit and diagram is refused on every surface, with the same code', async () => {
    await expectOneVerdict({
      mode: 'draw',
      tool: 'add_text',
      args: { x: 1, y: 2, content: 'both', postit: true, diagram: true },
      rest: upsert('/texts'),
    });
    const refused = await send('mcp', {
      mode: 'draw',
      tool: 'add_text',
      args: { x: 1, y: 2, content: 'both', postit: true, diagram: true },
      rest: upsert('/texts'),
    });
    expect(refused).toEqual({ accepted: false, code: 'invalid_payload' });
  });

  it("a `system:` author tag is the server's own: refused on every surface, with the same code", async () => {
    for (const author of ['system:template', 'System:compensation']) {
      const calls: Call[] = [
        { mode: 'draw', tool: 'add_text', args: { x: 1, y: 2, content: 'posing', author }, rest: upsert('/texts') },
        { mode: 'todo', tool: 'create_column', args: { title: 'posing', sort: 0, author }, rest: upsert('/columns') },
      ];
      for (const call of calls) {
        await expectOneVerdict(call);
        expect(await send('rest', call), `${call.tool} ${author}`).toEqual({
          accepted: false,
          code: 'invalid_payload',
        });
      }
    }
  });

  it('texts', () => property(texts), TEST_MS);
  it('links', () => property(links), TEST_MS);
  it('strokes', () => property(strokes), TEST_MS);
  it('images', () => property(images), TEST_MS);
  it('moves', () => property(moves), TEST_MS);
  it('columns', () => property(columns), TEST_MS);
  it('column updates', () => property(columnUpdates), TEST_MS);
  it('tasks', () => property(tasks), TEST_MS);
  it('task updates', () => property(taskUpdates), TEST_MS);
  it('task moves', () => property(taskMoves), TEST_MS);
  it('lanes', () => property(lanes), TEST_MS);
  it('column width', () => property(columnWidths), TEST_MS);
  it('board titles', () => property(titles), TEST_MS);
});
