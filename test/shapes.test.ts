/**
 * Shapes, frames and connectors (the contract's shapes extension) on every surface: the records, a frame's
 * members carried by its move, connectors routed to a shape's outline, and
 * bad input refused with a code and a field, changing nothing.
 */
import { describe, expect, it } from 'vitest';
import { boardMaps } from '../board/model/document-model.js';
import { connectMcp, refusalOf } from './helpers/mcp.js';
import { connectYjs, eventually, openJson } from './helpers/realtime.js';
import { useServer } from './helpers/server.js';

const t = useServer();

async function newBoard(mode: 'draw' | 'todo' = 'draw'): Promise<string> {
  return (await t.api.post('/api/boards', { mode })).body.id;
}
const snapshot = async (id: string) => (await t.api.get(`/json/${id}`)).body;

/** A straight stroke between two shapes, each end given as [shape id, dx, dy]. */
async function connector(id: string, points: number[], start: [string, number, number], end: [string, number, number]) {
  const anchor = ([shape, dx, dy]: [string, number, number]) => ({ kind: 'shape', id: shape, dx, dy });
  const res = await t.api.post(`/api/boards/${id}/strokes`, {
    points,
    anchors: { start: anchor(start), end: anchor(end) },
  });
  return res.body;
}

describe('shapes', () => {
  it('a shape is stored with its defaults, listed in the snapshot, and updated in place by its id', async () => {
    const id = await newBoard();
    const res = await t.api.post(`/api/boards/${id}/shapes`, {
      shape: 'ellipse',
      x: 10,
      y: 20,
      width: 200,
      height: 100,
      label: '**API**',
      color: 'Blue',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(String),
      shape: 'ellipse',
      x: 10,
      y: 20,
      width: 200,
      height: 100,
      label: '**API**',
      color: 'blue',
      fill: 'none',
      author: 'ai:rest',
      last_updated: expect.any(String),
      created: true,
    });
    const board = await snapshot(id);
    expect(board.shapes).toEqual([{ ...res.body, created: undefined }].map(({ created: _, ...shape }) => shape));
    expect(board.frames).toEqual([]);
    const updated = await t.api.post(`/api/boards/${id}/shapes`, { ...board.shapes[0], fill: 'solid', width: 300 });
    expect(updated.body).toMatchObject({
      id: res.body.id,
      fill: 'solid',
      width: 300,
      label: '**API**',
      created: false,
    });
    expect((await snapshot(id)).shapes).toHaveLength(1);
  });

  it.each([
    ['an unknown outline', { shape: 'hexagon' }, 'shape'],
    ['a side under 4 px', { width: 3 }, 'width'],
    ['a side over 20000 px', { height: 20_001 }, 'height'],
    ['a label over 10000 characters', { label: 'x'.repeat(10_001) }, 'label'],
    ['an unknown fill', { fill: 'striped' }, 'fill'],
  ])('refuses %s with invalid_payload on its field and stores nothing', async (_what, bad, field) => {
    const id = await newBoard();
    const res = await t.api.post(`/api/boards/${id}/shapes`, {
      shape: 'rectangle',
      x: 0,
      y: 0,
      width: 100,
      height: 50,
      ...bad,
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_payload', field });
    expect((await snapshot(id)).shapes).toEqual([]);
  });

  it('a shape on a todo board is refused as every draw item is', async () => {
    const id = await newBoard('todo');
    const res = await t.api.post(`/api/boards/${id}/shapes`, { shape: 'rectangle', x: 0, y: 0, width: 10, height: 10 });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('wrong_mode');
  });

  it('a board with a shape holds real content: the mode switch refuses it', async () => {
    const id = await newBoard();
    await t.api.post(`/api/boards/${id}/shapes`, { shape: 'diamond', x: 0, y: 0, width: 10, height: 10 });
    const res = await t.api.post(`/api/boards/${id}/mode`, { mode: 'todo' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('board_not_empty');
  });

  it('moves and erases by kind, or by id alone', async () => {
    const id = await newBoard();
    const shape = (
      await t.api.post(`/api/boards/${id}/shapes`, { shape: 'rectangle', x: 0, y: 0, width: 40, height: 40 })
    ).body;
    const moved = await t.api.post(`/api/boards/${id}/shapes/${shape.id}/move`, { x: 500, y: 600 });
    expect(moved.body).toEqual({ id: shape.id, x: 500, y: 600 });
    expect((await snapshot(id)).shapes[0]).toMatchObject({ x: 500, y: 600 });
    const erased = await t.api.del(`/api/boards/${id}/shapes/${shape.id}`);
    expect(erased.body).toMatchObject({ ok: true, id: shape.id, kind: 'shapes' });
    expect((await snapshot(id)).shapes).toEqual([]);
  });
});

describe('connectors', () => {
  it("a straight stroke anchored to a shape ends on its outline (an ellipse's, a diamond's) and follows it", async () => {
    const id = await newBoard();
    const box = { x: 0, y: 0, width: 200, height: 100 };
    const ellipse = (await t.api.post(`/api/boards/${id}/shapes`, { shape: 'ellipse', ...box })).body;
    const diamond = (await t.api.post(`/api/boards/${id}/shapes`, { shape: 'diamond', ...box, x: 600 })).body;
    const line = (
      await t.api.post(`/api/boards/${id}/strokes`, {
        points: [
          [100, 50],
          [700, 50],
        ],
        anchors: {
          start: { kind: 'shape', id: ellipse.id, dx: 100, dy: 50 },
          end: { kind: 'shape', id: diamond.id, dx: 100, dy: 50 },
        },
        label: 'calls',
      })
    ).body;
    const stroke = async () => (await snapshot(id)).lines.find((l: { id: string }) => l.id === line.id);
    // Level with both centres: the outlines' points are the boxes' middles of their sides.
    expect((await stroke()).points).toEqual([
      [200, 50],
      [600, 50],
    ]);
    expect((await stroke()).label).toBe('calls');
    // The diamond moves up and right: the end meets its outline on the line between the centres, not its box.
    await t.api.post(`/api/boards/${id}/shapes/${diamond.id}/move`, { x: 600, y: -300 });
    const [[sx, sy], [ex, ey]] = (await stroke()).points;
    const ellipseCentre = { x: 100, y: 50 };
    const diamondCentre = { x: 700, y: -250 };
    expect(((sx - ellipseCentre.x) / 100) ** 2 + ((sy - ellipseCentre.y) / 50) ** 2).toBeCloseTo(1, 1);
    expect(Math.abs(ex - diamondCentre.x) / 100 + Math.abs(ey - diamondCentre.y) / 50).toBeCloseTo(1, 1);
  });

  it('an end tied to an item the board does not hold is refused, naming the end', async () => {
    const id = await newBoard();
    const res = await t.api.post(`/api/boards/${id}/strokes`, {
      points: [0, 0, 10, 10],
      anchors: { end: { kind: 'shape', id: 'no-such-shape', dx: 0, dy: 0 } },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_payload', field: 'anchors.end.id' });
    expect((await snapshot(id)).lines).toEqual([]);
  });
});

describe('frames', () => {
  it('answers its members; moving it carries them and the arrows between them; erasing it keeps them', async () => {
    const id = await newBoard();
    const inside = (
      await t.api.post(`/api/boards/${id}/shapes`, { shape: 'rectangle', x: 20, y: 20, width: 50, height: 50 })
    ).body;
    const other = (
      await t.api.post(`/api/boards/${id}/shapes`, { shape: 'rectangle', x: 120, y: 20, width: 50, height: 50 })
    ).body;
    const outside = (
      await t.api.post(`/api/boards/${id}/shapes`, { shape: 'rectangle', x: 900, y: 20, width: 50, height: 50 })
    ).body;
    const text = (await t.api.post(`/api/boards/${id}/texts`, { x: 20, y: 120, content: 'note' })).body;
    const between = await connector(id, [45, 45, 145, 45], [inside.id, 25, 25], [other.id, 25, 25]);
    const out = await connector(id, [170, 45, 900, 45], [other.id, 50, 25], [outside.id, 0, 25]);
    const frame = await t.api.post(`/api/boards/${id}/frames`, { x: 0, y: 0, width: 400, height: 300, title: 'Core' });
    expect(frame.status).toBe(200);
    expect(frame.body).toMatchObject({ x: 0, y: 0, width: 400, height: 300, title: 'Core', created: true });
    expect([...frame.body.members].sort()).toEqual([inside.id, other.id, text.id, between.id].sort());

    const moved = await t.api.post(`/api/boards/${id}/frames/${frame.body.id}/move`, { x: 1000, y: 500 });
    expect([...moved.body.members].sort()).toEqual([...frame.body.members].sort());
    const board = await snapshot(id);
    const byId = (list: { id: string }[], item: { id: string }) => list.find((entry) => entry.id === item.id) as never;
    expect(byId(board.shapes, inside)).toMatchObject({ x: 1020, y: 520 });
    expect(byId(board.shapes, other)).toMatchObject({ x: 1120, y: 520 });
    expect(byId(board.shapes, outside)).toMatchObject({ x: 900, y: 20 });
    expect(byId(board.texts, text)).toMatchObject({ x: 1020, y: 620 });
    expect((byId(board.lines, between) as { points: number[][] }).points).toEqual([
      [1070, 545],
      [1120, 545],
    ]);
    // The arrow to an item outside the frame keeps that end and follows the moved one.
    const [start, end] = (byId(board.lines, out) as { points: number[][] }).points;
    expect(end[0]).toBeGreaterThanOrEqual(900);
    expect(end[0]).toBeLessThanOrEqual(950);
    expect(end[1]).toBeGreaterThanOrEqual(20);
    expect(end[1]).toBeLessThanOrEqual(70);
    expect(start[0]).toBeGreaterThan(1100);

    await t.api.del(`/api/boards/${id}/frames/${frame.body.id}`);
    const after = await snapshot(id);
    expect(after.frames).toEqual([]);
    expect(after.shapes).toHaveLength(3);
    expect(after.texts).toHaveLength(1);
  });

  it('a frame inside another is not its member; a resize moves nothing', async () => {
    const id = await newBoard();
    const outer = (await t.api.post(`/api/boards/${id}/frames`, { x: 0, y: 0, width: 1000, height: 1000 })).body;
    const inner = (await t.api.post(`/api/boards/${id}/frames`, { x: 100, y: 100, width: 200, height: 200 })).body;
    expect(inner.members).toEqual([]);
    const resized = await t.api.post(`/api/boards/${id}/frames`, { ...outer, width: 2000 });
    expect(resized.body).toMatchObject({ width: 2000, created: false, members: [] });
    expect((await snapshot(id)).frames.find((f: { id: string }) => f.id === inner.id)).toMatchObject({
      x: 100,
      y: 100,
    });
  });

  it.each([
    ['a side under 40 px', { width: 39 }, 'width'],
    ['a title over 200 characters', { title: 'x'.repeat(201) }, 'title'],
  ])('refuses %s with invalid_payload on its field', async (_what, bad, field) => {
    const id = await newBoard();
    const res = await t.api.post(`/api/boards/${id}/frames`, { x: 0, y: 0, width: 100, height: 100, ...bad });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_payload', field });
    expect((await snapshot(id)).frames).toEqual([]);
  });
});

describe('quotas', () => {
  it('/quotas.json lists the shapes and frames a board holds', async () => {
    const quotas = (await t.api.get('/quotas.json')).body;
    expect(quotas.perBoard).toMatchObject({ shapes: 1000, frames: 50 });
  });

  it('the 51st frame is refused with quota_exceeded', async () => {
    const id = await newBoard();
    const ops = Array.from({ length: 50 }, (_, i) => ({
      type: 'add_frame',
      x: i * 100,
      y: 0,
      width: 50,
      height: 50,
    }));
    const batch = await t.api.post(`/api/boards/${id}/batch`, { ops });
    expect(batch.status).toBe(200);
    const res = await t.api.post(`/api/boards/${id}/frames`, { x: 0, y: 500, width: 50, height: 50 });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 'quota_exceeded' });
  });
});

describe('import', () => {
  it('imports shapes and frames; a line anchors to a shape by sourceId; autolayout places shapes without x, y', async () => {
    const res = await t.api.post('/api/boards', {
      mode: 'draw',
      autolayout: true,
      content: {
        shapes: [
          { sourceId: 'a', shape: 'rectangle', width: 120, height: 60, label: 'Client' },
          { sourceId: 'b', shape: 'ellipse', width: 120, height: 60, label: 'Server' },
        ],
        frames: [{ x: -5000, y: -5000, width: 400, height: 300, title: 'Empty' }],
        lines: [
          {
            points: [0, 0, 10, 10],
            anchors: {
              start: { kind: 'shape', id: 'a', dx: 60, dy: 30 },
              end: { kind: 'shape', id: 'b', dx: 60, dy: 30 },
            },
          },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.imported).toMatchObject({ shapes: 2, frames: 1, lines: 1 });
    const board = await snapshot(res.body.id);
    const [client, server] = res.body.ids.shapes;
    expect(board.lines[0].anchors).toMatchObject({
      start: { kind: 'shape', id: client },
      end: { kind: 'shape', id: server },
    });
    const boxes = board.shapes.map((shape: { x: number; y: number }) => [shape.x, shape.y]);
    expect(new Set(boxes.map(String)).size).toBe(2); // placed apart, not on one spot
    expect(board.frames[0]).toMatchObject({ title: 'Empty', x: -5000 });
  });

  it('a line anchored as a shape to the sourceId of a text is refused before anything is made', async () => {
    const res = await t.api.post('/api/boards', {
      mode: 'draw',
      content: {
        texts: [{ sourceId: 'a', x: 0, y: 0, content: 'a text' }],
        lines: [{ points: [0, 0, 10, 10], anchors: { end: { kind: 'shape', id: 'a', dx: 0, dy: 0 } } }],
      },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_item' });
  });
});

describe('every surface', () => {
  it('a batch makes shapes, a connector between them by ref and a frame around them, in one write', async () => {
    const id = await newBoard();
    const res = await t.api.post(`/api/boards/${id}/batch`, {
      ops: [
        { type: 'add_shape', ref: 'a', shape: 'rectangle', x: 0, y: 0, width: 100, height: 50, label: 'A' },
        { type: 'add_shape', ref: 'b', shape: 'diamond', x: 300, y: 0, width: 100, height: 50, label: 'B' },
        {
          type: 'draw_stroke',
          points: [50, 25, 350, 25],
          anchors: {
            start: { kind: 'shape', id: '$a', dx: 50, dy: 25 },
            end: { kind: 'shape', id: '$b', dx: 50, dy: 25 },
          },
          label: 'then',
        },
        { type: 'add_frame', x: -20, y: -20, width: 500, height: 200, title: 'Flow' },
      ],
    });
    expect(res.status).toBe(200);
    const frame = res.body.results[3];
    expect(frame.members).toHaveLength(3);
    const board = await snapshot(id);
    expect(board.lines[0].points).toEqual([
      [100, 25],
      [300, 25],
    ]);
  });

  it('the JSON channel adds a shape and a frame by frame and broadcasts them as ops', async () => {
    const id = await newBoard();
    const writer = await openJson(t.server.url, id);
    const watcher = await openJson(t.server.url, id);
    try {
      writer.send({ type: 'add_shape', ref: 's', shape: 'ellipse', x: 10, y: 10, width: 80, height: 40 });
      const ack = await writer.next((frame) => frame.ref === 's');
      expect(ack).toMatchObject({ type: 'ack', result: { shape: 'ellipse', created: true } });
      writer.send({ type: 'add_frame', ref: 'f', x: 0, y: 0, width: 200, height: 200, title: 'Group' });
      expect((await writer.next((frame) => frame.ref === 'f')).result.members).toEqual([ack.result.id]);
      const op = await watcher.next((frame) => frame.type === 'op' && JSON.stringify(frame).includes('Group'));
      expect(JSON.stringify(op)).toContain('frames');
    } finally {
      writer.close();
      watcher.close();
    }
  });

  it("MCP reads them: get_board lists them, its outline counts them, find_items finds labels, titles and a frame's members; move and erase take them", async () => {
    const id = await newBoard();
    const shape = (
      await t.api.post(`/api/boards/${id}/shapes`, {
        shape: 'rectangle',
        x: 10,
        y: 10,
        width: 80,
        height: 40,
        label: 'Billing API',
      })
    ).body;
    const frame = (
      await t.api.post(`/api/boards/${id}/frames`, { x: 0, y: 0, width: 300, height: 300, title: 'Payments' })
    ).body;
    await t.api.post(`/api/boards/${id}/texts`, { x: 1000, y: 1000, content: 'far away' });
    const mcp = await connectMcp(t.server.url);
    try {
      const board = await mcp.call('get_board', { board_id: id });
      expect(board.shapes).toMatchObject([{ id: shape.id, label: 'Billing API' }]);
      expect(board.frames).toMatchObject([{ id: frame.id, title: 'Payments' }]);
      const outline = await mcp.call('get_board', { board_id: id, detail: 'outline' });
      expect(outline.counts).toMatchObject({ shapes: 1, frames: 1, texts: 1 });
      expect(outline.items.join('\n')).toContain(`rectangle ${shape.id}`);
      expect((await mcp.call('find_items', { board_id: id, text: 'billing' })).items).toMatchObject([
        { id: shape.id, kind: 'shapes' },
      ]);
      expect((await mcp.call('find_items', { board_id: id, kind: 'frames' })).items).toMatchObject([
        { id: frame.id, excerpt: 'Payments' },
      ]);
      expect(
        (await mcp.call('find_items', { board_id: id, frame: frame.id })).items.map((i: { id: string }) => i.id),
      ).toEqual([shape.id]);
      const moved = await mcp.call('move', { board_id: id, id: frame.id, x: 500, y: 500 });
      expect(moved).toMatchObject({ id: frame.id, members: [shape.id] });
      expect((await snapshot(id)).shapes[0]).toMatchObject({ x: 510, y: 510 });
      await mcp.call('erase', { board_id: id, id: shape.id });
      expect((await snapshot(id)).shapes).toEqual([]);
    } finally {
      await mcp.close();
    }
  });

  it('MCP writes them: add_shape and add_frame (updating by id), a connector between two shapes, create_board importing both', async () => {
    const id = await newBoard();
    const mcp = await connectMcp(t.server.url);
    try {
      const a = await mcp.call('add_shape', { board_id: id, shape: 'diamond', x: 0, y: 0, width: 100, height: 60 });
      expect(a).toMatchObject({ shape: 'diamond', fill: 'none', color: 'auto', created: true });
      const b = await mcp.call('add_shape', {
        board_id: id,
        shape: 'ellipse',
        x: 300,
        y: 0,
        width: 100,
        height: 60,
        label: 'Store',
        author: 'ai:claude',
      });
      expect(
        await mcp.call('add_shape', { board_id: id, id: a.id, shape: 'rectangle', x: 0, y: 0, width: 100, height: 60 }),
      ).toMatchObject({ id: a.id, shape: 'rectangle', created: false });
      const arrow = await mcp.call('draw_stroke', {
        board_id: id,
        points: [50, 30, 350, 30],
        anchors: { start: { kind: 'shape', id: a.id, dx: 0, dy: 0 }, end: { kind: 'shape', id: b.id, dx: 0, dy: 0 } },
        label: 'writes',
      });
      const frame = await mcp.call('add_frame', {
        board_id: id,
        x: -20,
        y: -20,
        width: 500,
        height: 200,
        title: 'Flow',
      });
      expect(frame).toMatchObject({ title: 'Flow', created: true, members: [a.id, b.id, arrow.id] });
      const board = await snapshot(id);
      expect(board.shapes.map((s: { author: string }) => s.author)).toEqual(['ai:mcp', 'ai:claude']);
      // The arrow ends on the outlines: the rectangle's right side at x 100, the ellipse's left at x 300.
      expect(board.lines[0]).toMatchObject({
        points: [
          [100, 30],
          [300, 30],
        ],
        label: 'writes',
      });
      const refused = await mcp.raw('add_shape', { board_id: id, shape: 'hexagon', x: 0, y: 0, width: 9, height: 9 });
      expect(refusalOf(refused)).toMatchObject({ code: 'invalid_payload' });
      expect((await snapshot(id)).shapes).toHaveLength(2);

      const made = await mcp.call('create_board', {
        content: {
          shapes: [
            { shape: 'rectangle', x: 0, y: 0, width: 80, height: 40, label: 'A', sourceId: 'a' },
            { shape: 'rectangle', x: 200, y: 0, width: 80, height: 40, label: 'B', sourceId: 'b' },
          ],
          lines: [
            {
              points: [40, 20, 240, 20],
              anchors: {
                start: { kind: 'shape', id: 'a', dx: 0, dy: 0 },
                end: { kind: 'shape', id: 'b', dx: 0, dy: 0 },
              },
            },
          ],
          frames: [{ x: -10, y: -10, width: 400, height: 100, title: 'Imported' }],
        },
      });
      const imported = await snapshot(made.board_id);
      expect(imported.shapes.map((s: { label: string }) => s.label)).toEqual(['A', 'B']);
      expect(imported.frames).toMatchObject([{ title: 'Imported' }]);
      expect(imported.lines[0].anchors.end.id).toBe(imported.shapes[1].id);
    } finally {
      await mcp.close();
    }
  });

  it('a Yjs client sees a shape as the document holds it, and an invalid shape it writes is repaired', async () => {
    const id = await newBoard();
    const shape = (
      await t.api.post(`/api/boards/${id}/shapes`, { shape: 'ellipse', x: 0, y: 0, width: 40, height: 40 })
    ).body;
    const client = connectYjs(t.server.url, id);
    try {
      await client.synced;
      expect(boardMaps(client.doc).shapes.get(shape.id)).toMatchObject({ shape: 'ellipse', width: 40 });
      client.doc.getMap('shapes').set('bad', { id: 'bad', shape: 'hexagon', x: 0, y: 0, width: 1, height: 1 });
      await eventually(() => expect(client.doc.getMap('shapes').has('bad')).toBe(false));
      expect((await snapshot(id)).shapes.map((s: { id: string }) => s.id)).toEqual([shape.id]);
    } finally {
      client.destroy();
    }
  });
});
