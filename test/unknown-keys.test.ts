/**
 * One rule on the keys of an item, on every surface (docs/choices.md,
 * "Unknown keys"): a key is either one the write takes or one a snapshot
 * shows of that kind of item (taken and dropped); anything else is 400
 * invalid_payload naming the key and the input key meant.
 *
 * The snapshot keys come from the stored shapes (schema/stored.ts
 * SNAPSHOT_KEYS); this test holds them to what `GET /json` really shows: a
 * board with every kind of item, each item sent back as REST, MCP and a /ws
 * frame, accepted on all three. An image's `dataUrl` is null in a snapshot
 * (payloads are elided), so the image is sent back with its payload.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SNAPSHOT_KEYS } from '../schema/index.js';
import { PNG_1PX } from './helpers/http.js';
import { connectRawMcp, type RawMcp } from './helpers/mcp-raw.js';
import { type JsonClient, openJson } from './helpers/realtime.js';
import { useServer } from './helpers/server.js';

const t = useServer();

type Item = Record<string, unknown>;
type Verdict = { ok: true } | { ok: false; code: string; field?: string; reason?: string };

let mcp: RawMcp;
const sockets: JsonClient[] = [];
let draw: { id: string; snapshot: Record<string, Item[]> };
let todo: { id: string; snapshot: Record<string, Item[]> };
let nextRef = 0;

async function boardWith(body: object) {
  const created = await t.api.post('/api/boards', body);
  expect(created.status).toBe(200);
  const snapshot = (await t.api.get(`/json/${created.body.id}`)).body;
  return { id: created.body.id as string, snapshot };
}

beforeAll(async () => {
  mcp = await connectRawMcp(t.server.url);
  draw = await boardWith({
    mode: 'draw',
    content: {
      texts: [
        { sourceId: 'note', x: 0, y: 0, content: 'note', color: 'red', width: 200, postit: true },
        { x: 0, y: 100, content: 'frame', diagram: true },
        { kind: 'link', x: 0, y: 300, url: 'https://a.test/' },
      ],
      lines: [
        {
          points: [0, 0, 10, 10],
          color: 'blue',
          anchors: { start: { kind: 'text', id: 'note', dx: 1, dy: 2 } },
          arrowhead: 'end',
          label: 'calls',
        },
      ],
      images: [{ x: 50, y: 50, width: 4, height: 4, dataUrl: PNG_1PX, thumbDataUrl: PNG_1PX }],
      shapes: [{ shape: 'ellipse', x: 400, y: 0, width: 80, height: 40, label: 'A', color: 'red', fill: 'semi' }],
      frames: [{ x: 380, y: -20, width: 200, height: 120, title: 'Group' }],
    },
  });
  todo = await boardWith({
    mode: 'todo',
    content: {
      columns: [
        { title: 'A', color: 'green' },
        { title: 'B', lane: 1 },
      ],
      tasks: [
        {
          columnIndex: 0,
          name: 'T',
          description: 'd',
          due_date: '2026-01-31',
          priority: 'H',
          assignee: 'ann',
          done: true,
          color: 'red',
          content: '{"boards":[]}',
        },
      ],
      lanes: [{ lane: 1, title: 'Second' }],
      colWidth: 300,
    },
  });
});

afterAll(async () => {
  await mcp?.close();
  for (const socket of sockets) socket.close();
});

async function viaRest(boardId: string, path: string, body: Item): Promise<Verdict> {
  const res = await t.api.post(`/api/boards/${boardId}${path}`, body);
  return res.status === 200
    ? { ok: true }
    : { ok: false, code: res.body.code, field: res.body.field, reason: res.body.reason };
}

async function viaMcp(boardId: string, tool: string, args: Item): Promise<Verdict> {
  const { result, error } = (await mcp.call(tool, { ...args, board_id: boardId })).body;
  if (error) return { ok: false, code: `rpc ${error.code}` };
  if (!result.isError) return { ok: true };
  const { code, field, reason } = JSON.parse(result.content[0].text);
  return { ok: false, code, field, reason };
}

async function viaFrame(boardId: string, type: string, args: Item): Promise<Verdict> {
  const socket = await openJson(t.server.url, boardId);
  sockets.push(socket);
  const ref = ++nextRef;
  socket.send({ ...args, type, ref });
  const frame = await socket.next((f) => f.ref === ref && (f.type === 'ack' || f.type === 'error'));
  return frame.type === 'ack'
    ? { ok: true }
    : { ok: false, code: frame.code, field: frame.field, reason: frame.reason };
}

/** Each item of a snapshot, with the REST route and the tool (and frame) that write that kind of item. */
function itemsToSendBack() {
  const [note, frame, link] = draw.snapshot.texts;
  const [column] = todo.snapshot.columns;
  const [task] = todo.snapshot.tasks;
  const [lane] = todo.snapshot.lanes;
  return [
    { name: 'post-it text', board: draw.id, item: note, rest: '/texts', tool: 'add_text' },
    { name: 'diagram text', board: draw.id, item: frame, rest: '/texts', tool: 'add_text' },
    { name: 'link', board: draw.id, item: link, rest: '/links', tool: 'add_link' },
    { name: 'anchored stroke', board: draw.id, item: draw.snapshot.lines[0], rest: '/strokes', tool: 'draw_stroke' },
    {
      name: 'image',
      board: draw.id,
      item: { ...draw.snapshot.images[0], dataUrl: PNG_1PX },
      rest: '/images',
      tool: 'add_image',
    },
    { name: 'column (create)', board: todo.id, item: column, rest: '/columns', tool: 'create_column' },
    { name: 'column (update)', board: todo.id, item: column, rest: '/columns', tool: 'update_column' },
    { name: 'task (create)', board: todo.id, item: task, rest: '/tasks', tool: 'create_task' },
    { name: 'task (update)', board: todo.id, item: task, rest: '/tasks', tool: 'update_task' },
    { name: 'lane', board: todo.id, item: lane, rest: '/lanes', tool: 'set_lane', frame: 'lane_upsert' },
  ];
}

describe('unknown keys: one rule on REST, MCP and /ws frames', () => {
  it('the snapshot shows every kind of item with the keys it stores', () => {
    expect(draw.snapshot.texts.map((text) => Object.keys(text).sort())).toEqual([
      ['author', 'color', 'content', 'id', 'last_updated', 'postit', 'width', 'x', 'y'],
      ['author', 'content', 'diagram', 'id', 'last_updated', 'x', 'y'],
      ['author', 'id', 'kind', 'last_updated', 'url', 'x', 'y'],
    ]);
    // Items with every optional field show exactly the keys schema/stored.ts lists for their kind.
    const sorted = (keys: readonly string[]) => [...keys].sort();
    expect(sorted(Object.keys(draw.snapshot.texts[2]))).toEqual(sorted(SNAPSHOT_KEYS.link));
    expect(sorted(Object.keys(draw.snapshot.lines[0]))).toEqual(sorted(SNAPSHOT_KEYS.stroke));
    expect(sorted(Object.keys(draw.snapshot.images[0]))).toEqual(sorted(SNAPSHOT_KEYS.image));
    expect(sorted(Object.keys(draw.snapshot.shapes[0]))).toEqual(sorted(SNAPSHOT_KEYS.shape));
    expect(sorted(Object.keys(draw.snapshot.frames[0]))).toEqual(sorted(SNAPSHOT_KEYS.frame));
    expect(sorted(Object.keys(todo.snapshot.columns[0]))).toEqual(sorted(SNAPSHOT_KEYS.column));
    expect(sorted(Object.keys(todo.snapshot.tasks[0]))).toEqual(sorted(SNAPSHOT_KEYS.task));
    expect(sorted(Object.keys(todo.snapshot.lanes[0]))).toEqual(sorted(SNAPSHOT_KEYS.lane));
  });

  const KINDS = [
    'post-it text',
    'diagram text',
    'link',
    'anchored stroke',
    'image',
    'column (create)',
    'column (update)',
    'task (create)',
    'task (update)',
    'lane',
  ];
  for (const name of KINDS) {
    it(`a snapshot ${name} sent back is accepted by REST, MCP and a frame`, async () => {
      const { board, item, rest, tool, frame } = itemsToSendBack().find((entry) => entry.name === name)!;
      // update_* have no REST route of their own: REST's upsert of the same id is the update.
      expect(await viaRest(board, rest, item)).toEqual({ ok: true });
      expect(await viaMcp(board, tool, item)).toEqual({ ok: true });
      expect(await viaFrame(board, frame ?? tool, item)).toEqual({ ok: true });
    });
  }

  it('a snapshot item sent back in a batch and as import content is accepted', async () => {
    const socket = await openJson(t.server.url, draw.id);
    sockets.push(socket);
    socket.send({
      type: 'batch',
      ref: 'b',
      ops: [
        { type: 'add_text', ...draw.snapshot.texts[0] },
        { type: 'draw_stroke', ...draw.snapshot.lines[0] },
        { type: 'add_shape', ...draw.snapshot.shapes[0] },
        { type: 'add_frame', ...draw.snapshot.frames[0] },
      ],
    });
    expect((await socket.next((f) => f.ref === 'b')).type).toBe('ack');
    const { boardId: _id, etag: _etag, mode: _mode, ...content } = draw.snapshot;
    const images = content.images.map((image) => ({ ...image, dataUrl: PNG_1PX }));
    const lines = content.lines.map(({ anchors: _anchors, ...line }) => line); // anchors name the source board's ids
    expect((await t.api.post('/api/boards', { mode: 'draw', content: { ...content, images, lines } })).status).toBe(
      200,
    );
    const { columns, lanes } = todo.snapshot;
    expect((await t.api.post('/api/boards', { mode: 'todo', content: { columns, lanes } })).status).toBe(200);
  });

  it('any other key is invalid_payload naming the key and the input key meant, on every surface', async () => {
    const text = { x: 1, y: 2, content: 'hi', colour: 'red' };
    const refused = {
      ok: false,
      code: 'invalid_payload',
      field: 'colour',
      reason: 'unknown key "colour": did you mean "color"?',
    };
    expect(await viaRest(draw.id, '/texts', text)).toEqual(refused);
    expect(await viaMcp(draw.id, 'add_text', text)).toEqual(refused);
    expect(await viaFrame(draw.id, 'add_text', text)).toEqual(refused);
    // A snapshot key of another kind is still unknown: texts show no `kind`, strokes no `x`.
    expect(await viaRest(draw.id, '/texts', { x: 1, y: 2, content: 'hi', kind: 'text' })).toMatchObject({
      ok: false,
      field: 'kind',
    });
    expect(await viaFrame(draw.id, 'draw_stroke', { points: [0, 0, 1, 1], x: 3 })).toMatchObject({
      ok: false,
      field: 'x',
    });
    // Suggestions name input keys only, never a dropped snapshot key.
    expect(await viaMcp(todo.id, 'set_lane', { lane: 2, last_update: 'x' })).toMatchObject({
      ok: false,
      reason: 'unknown key "last_update"; known keys: lane, title, author, board_id, access_key',
    });
    // Writes that are not items take only their own keys.
    expect(await viaRest(todo.id, '/column-width', { width: 300, last_updated: 'x' })).toMatchObject({
      ok: false,
      field: 'last_updated',
    });
  });

  it('an import item with an unknown key is invalid_item naming it', async () => {
    const res = await t.api.post('/api/boards', {
      mode: 'draw',
      content: { texts: [{ x: 0, y: 0, content: 'a', colour: 'red' }] },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_item' });
    expect(JSON.stringify(res.body)).toContain('did you mean \\"color\\"?');
  });
});
