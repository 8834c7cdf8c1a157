import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { centreOf, expectOnEdge } from './helpers/edges.js';
import { PNG_1PX, pngOfBytes } from './helpers/http.js';
import { useServer } from './helpers/server.js';

const t = useServer();

async function newBoard(mode: 'draw' | 'todo' = 'draw'): Promise<string> {
  return (await t.api.post('/api/boards', { mode })).body.id;
}
async function snapshot(id: string) {
  return (await t.api.get(`/json/${id}`)).body;
}

describe('texts', () => {
  it('creates a text with every field and the default REST author', async () => {
    const id = await newBoard();
    const res = await t.api.post(`/api/boards/${id}/texts`, {
      x: 10,
      y: 20.5,
      content: '# Title\n- [ ] task',
      color: 'Red',
      width: 300,
      postit: true,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(String),
      x: 10,
      y: 20.5,
      content: '# Title\n- [ ] task',
      color: 'red',
      width: 300,
      postit: true,
      author: 'ai:rest',
      last_updated: expect.any(String),
      created: true,
      bbox: { x: 10, y: 20.5, width: 300, height: expect.any(Number) },
    });
    // The answer is the stored text with the box it is laid out in (its width the one it was given).
    const { bbox: _bbox, created: _created, ...stored } = res.body;
    expect((await snapshot(id)).texts).toEqual([stored]);
  });

  it('colour names are case-insensitive, unknown values become auto, "" means no colour', async () => {
    const id = await newBoard();
    const cases: [unknown, string | undefined][] = [
      ['TEAL', 'teal'],
      ['#ff0000', 'auto'],
      ['black', 'black'],
      ['', undefined],
      [42, 'auto'],
    ];
    for (const [color, expected] of cases) {
      const res = await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'c', color });
      expect(res.status).toBe(200);
      expect(res.body.color).toBe(expected);
    }
  });

  it('an id naming an existing text updates it in place and keeps its author', async () => {
    const id = await newBoard();
    const created = (
      await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'v1', author: 'ai:first', postit: true })
    ).body;
    await sleep(5);
    const updated = (
      await t.api.post(`/api/boards/${id}/texts`, { id: created.id, x: 5, y: 6, content: 'v2', author: 'ai:second' })
    ).body;
    expect(updated).toMatchObject({ id: created.id, x: 5, y: 6, content: 'v2', author: 'ai:first', postit: true });
    expect(updated.last_updated > created.last_updated).toBe(true);
    expect((await snapshot(id)).texts).toHaveLength(1);
  });

  it('an id naming nothing creates a text with a fresh UUID', async () => {
    const id = await newBoard();
    const res = await t.api.post(`/api/boards/${id}/texts`, { id: 'my-own-id', x: 0, y: 0, content: 'x' });
    expect(res.body.id).not.toBe('my-own-id');
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('width must be 160 to 4096; post-it and diagram exclude each other', async () => {
    const id = await newBoard();
    for (const width of [160, 4096])
      expect((await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'w', width })).status).toBe(200);
    for (const width of [159, 4097, 'wide']) {
      const res = await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'w', width });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_payload', field: 'width' });
    }
    const both = await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'd', postit: true, diagram: true });
    expect(both.status).toBe(400);
    expect(both.body.field).toBe('diagram');
    const diagram = await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'd', diagram: true });
    expect(diagram.body.diagram).toBe(true);
    const becomePostit = await t.api.post(`/api/boards/${id}/texts`, {
      id: diagram.body.id,
      x: 0,
      y: 0,
      content: 'd',
      postit: true,
    });
    expect(becomePostit.status).toBe(400);
  });

  it('content holds up to 100000 characters; one more is 413 quota_exceeded and changes nothing', async () => {
    const id = await newBoard();
    expect((await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'a'.repeat(100_000) })).status).toBe(
      200,
    );
    const etag = (await t.api.get(`/json/${id}`)).headers.get('etag');
    const res = await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'a'.repeat(100_001) });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 'quota_exceeded', kind: 'text_chars', detail: expect.any(String) });
    expect((await t.api.get(`/json/${id}`)).headers.get('etag')).toBe(etag);
  });

  it('x, y and content are required; coordinates must be finite numbers', async () => {
    const id = await newBoard();
    for (const [body, field] of [
      [{ y: 0, content: 'c' }, 'x'],
      [{ x: 0, content: 'c' }, 'y'],
      [{ x: 0, y: 0 }, 'content'],
      [{ x: '1', y: 0, content: 'c' }, 'x'],
      [{ x: 1e300, y: 0, content: 'c' }, 'x'],
    ] as const) {
      const res = await t.api.post(`/api/boards/${id}/texts`, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_payload', field });
    }
    const missing = await t.api.post(`/api/boards/${id}/texts`, { y: 0, content: 'c' });
    expect(missing.body.reason).toBe('is required');
  });
});

describe('author tag', () => {
  it('accepts the charset up to 80 chars and rejects anything else', async () => {
    const id = await newBoard();
    const ok = await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'a', author: 'ai:Agent_1.v-2' });
    expect(ok.body.author).toBe('ai:Agent_1.v-2');
    expect(
      (await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'a', author: 'a'.repeat(80) })).status,
    ).toBe(200);
    for (const author of ['a'.repeat(81), '', 'has space', 'emoji✨', 'slash/no']) {
      const res = await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'a', author });
      expect(res.status).toBe(400);
      expect(res.body.field).toBe('author');
    }
  });
});

describe('strokes', () => {
  it('normalises nested, flat and JSON-string points to nested pairs', async () => {
    const id = await newBoard();
    const forms = [
      [
        [0, 0],
        [10, 5],
        [20, 10],
      ],
      [0, 0, 10, 5, 20, 10],
      '[[0,0],[10,5],[20,10]]',
      '[0,0,10,5,20,10]',
    ];
    for (const points of forms) {
      const res = await t.api.post(`/api/boards/${id}/strokes`, { points });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: expect.any(String),
        pointCount: 3,
        color: 'auto',
        bbox: { x: 0, y: 0, width: 20, height: 10 },
        author: 'ai:rest',
        created: true,
      });
    }
    const lines = (await snapshot(id)).lines;
    expect(lines).toHaveLength(4);
    for (const line of lines)
      expect(line).toMatchObject({
        points: [
          [0, 0],
          [10, 5],
          [20, 10],
        ],
        width: 3,
      });
  });

  it('the bbox is integers: floor of the top-left, ceil of the bottom-right', async () => {
    const id = await newBoard();
    const res = await t.api.post(`/api/boards/${id}/strokes`, {
      points: [
        [1.5, 2.5],
        [3.2, 4.1],
      ],
    });
    expect(res.body.bbox).toEqual({ x: 1, y: 2, width: 3, height: 3 });
  });

  it('colours: names case-insensitive, anything else (hex too) silently auto', async () => {
    const id = await newBoard();
    for (const [color, expected] of [
      ['Blue', 'blue'],
      ['LIGHTGRAY', 'lightgray'],
      ['#00ff00', 'auto'],
      ['black', 'black'],
      [null, 'auto'],
    ]) {
      const res = await t.api.post(`/api/boards/${id}/strokes`, { points: [0, 0, 1, 1], color });
      expect(res.status).toBe(200);
      expect(res.body.color).toBe(expected);
    }
  });

  it('/lines is an alias of /strokes', async () => {
    const id = await newBoard();
    const res = await t.api.post(`/api/boards/${id}/lines`, { points: [0, 0, 4, 4], color: 'red' });
    expect(res.status).toBe(200);
    expect((await snapshot(id)).lines[0]).toMatchObject({ id: res.body.id, color: 'red' });
  });

  it.each([
    [[0, 0, 1], 'odd flat array'],
    [[], 'no points'],
    ['not json', 'bad string'],
    [[[0, 0], [1]], 'short pair'],
    [[[0, 'a']], 'non-number'],
    [{ x: 1 }, 'object'],
  ] as [unknown, string][])('rejects points %j (%s)', async (points) => {
    const id = await newBoard();
    const res = await t.api.post(`/api/boards/${id}/strokes`, { points });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_payload', field: 'points' });
  });

  it('an arrowhead is stored as given, kept by a later write that names none, and anything else is refused', async () => {
    const id = await newBoard();
    const res = await t.api.post(`/api/boards/${id}/strokes`, { points: [0, 0, 50, 0], arrowhead: 'end' });
    expect(res.status).toBe(200);
    expect((await snapshot(id)).lines[0]).toMatchObject({ id: res.body.id, arrowhead: 'end' });
    await t.api.post(`/api/boards/${id}/strokes`, { id: res.body.id, points: [0, 0, 80, 0] });
    expect((await snapshot(id)).lines[0]).toMatchObject({
      points: [
        [0, 0],
        [80, 0],
      ],
      arrowhead: 'end',
    });
    const bad = await t.api.post(`/api/boards/${id}/strokes`, { points: [0, 0, 50, 0], arrowhead: 'tail' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'invalid_payload', field: 'arrowhead' });
    expect((await snapshot(id)).lines).toHaveLength(1);
  });
});

describe('images', () => {
  it('stores the payload and answers the spec response; full dataUrl in the browser read, null in /json', async () => {
    const id = await newBoard();
    const res = await t.api.post(`/api/boards/${id}/images`, {
      x: 1,
      y: 2,
      width: 64,
      height: 32,
      dataUrl: PNG_1PX,
      thumbDataUrl: PNG_1PX,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(String),
      x: 1,
      y: 2,
      width: 64,
      height: 32,
      hasThumbDataUrl: true,
      author: 'ai:rest',
      created: true,
    });
    const browser = (await t.api.get(`/api/boards/${id}`)).body;
    expect(browser.images[0]).toMatchObject({ id: res.body.id, dataUrl: PNG_1PX, thumbDataUrl: PNG_1PX });
    expect(browser.images[0]).not.toHaveProperty('blob');
    const json = await snapshot(id);
    expect(json.images[0]).toMatchObject({
      id: res.body.id,
      dataUrl: null,
      thumbDataUrl: PNG_1PX,
      width: 64,
      height: 32,
    });
  });

  it.each([
    ['https://example.com/cat.png', 'hosted'],
    ['data:image/bmp;base64,Qk0=', 'unsupported type'],
    ['data:image/png;base64,@@@@', 'bad base64'],
    ['data:image/png,rawdata', 'not base64'],
    [`data:image/jpeg;base64,${PNG_1PX.split(',')[1]}`, 'payload does not match type'],
  ])('rejects dataUrl %s (%s) with 400', async (dataUrl) => {
    const id = await newBoard();
    const res = await t.api.post(`/api/boards/${id}/images`, { x: 0, y: 0, width: 10, height: 10, dataUrl });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_payload', field: 'dataUrl' });
  });

  it('width and height must be finite, above 0 and at most 16384', async () => {
    const id = await newBoard();
    expect(
      (await t.api.post(`/api/boards/${id}/images`, { x: 0, y: 0, width: 16384, height: 1, dataUrl: PNG_1PX })).status,
    ).toBe(200);
    for (const [width, height, field] of [
      [0, 10, 'width'],
      [10, -1, 'height'],
      [16385, 10, 'width'],
      [10, 'big', 'height'],
    ] as const) {
      const res = await t.api.post(`/api/boards/${id}/images`, { x: 0, y: 0, width, height, dataUrl: PNG_1PX });
      expect(res.status).toBe(400);
      expect(res.body.field).toBe(field);
    }
  });

  it('thumbnails are PNG, JPEG or WebP of at most 8000 bytes', async () => {
    const id = await newBoard();
    const svg = `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64')}`;
    expect(
      (await t.api.post(`/api/boards/${id}/images`, { x: 0, y: 0, width: 10, height: 10, dataUrl: svg })).status,
    ).toBe(200);
    const svgThumb = await t.api.post(`/api/boards/${id}/images`, {
      x: 0,
      y: 0,
      width: 10,
      height: 10,
      dataUrl: PNG_1PX,
      thumbDataUrl: svg,
    });
    expect(svgThumb.status).toBe(400);
    expect(svgThumb.body.field).toBe('thumbDataUrl');
    const big = pngOfBytes(6000); // 8000 base64 chars + prefix > 8000
    const tooBig = await t.api.post(`/api/boards/${id}/images`, {
      x: 0,
      y: 0,
      width: 10,
      height: 10,
      dataUrl: PNG_1PX,
      thumbDataUrl: big,
    });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.field).toBe('thumbDataUrl');
  });

  it('an image of 921600 bytes passes; one byte more is 413 image_bytes_per_item', async () => {
    const id = await newBoard();
    expect(
      (
        await t.api.post(`/api/boards/${id}/images`, {
          x: 0,
          y: 0,
          width: 10,
          height: 10,
          dataUrl: pngOfBytes(921_600),
        })
      ).status,
    ).toBe(200);
    const res = await t.api.post(`/api/boards/${id}/images`, {
      x: 0,
      y: 0,
      width: 10,
      height: 10,
      dataUrl: pngOfBytes(921_601),
    });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 'quota_exceeded', kind: 'image_bytes_per_item' });
    expect((await snapshot(id)).images).toHaveLength(1);
  });

  it('updating an image by id keeps its author and replaces its payload', async () => {
    const id = await newBoard();
    const first = (
      await t.api.post(`/api/boards/${id}/images`, {
        x: 0,
        y: 0,
        width: 10,
        height: 10,
        dataUrl: PNG_1PX,
        author: 'user:abc',
      })
    ).body;
    const other = pngOfBytes(100);
    const second = (
      await t.api.post(`/api/boards/${id}/images`, { id: first.id, x: 3, y: 4, width: 20, height: 20, dataUrl: other })
    ).body;
    expect(second).toMatchObject({ id: first.id, author: 'user:abc', x: 3, width: 20, hasThumbDataUrl: false });
    const browser = (await t.api.get(`/api/boards/${id}`)).body;
    expect(browser.images).toHaveLength(1);
    expect(browser.images[0].dataUrl).toBe(other);
  });
});

describe('links', () => {
  it('creates a link pill listed among the texts', async () => {
    const id = await newBoard();
    const res = await t.api.post(`/api/boards/${id}/links`, { x: 5, y: 6, url: 'https://example.com/a?b=c' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(String),
      x: 5,
      y: 6,
      url: 'https://example.com/a?b=c',
      author: 'ai:rest',
      kind: 'link',
      created: true,
      bbox: { x: 5, y: 6, width: expect.any(Number), height: expect.any(Number) },
    });
    const snap = await snapshot(id);
    expect(snap.texts).toEqual([
      expect.objectContaining({ id: res.body.id, kind: 'link', url: 'https://example.com/a?b=c' }),
    ]);
    expect((await t.api.get(`/api/boards/${id}`)).body.texts[0].kind).toBe('link');
  });

  it('accepts only absolute http(s) URLs', async () => {
    const id = await newBoard();
    for (const url of ['javascript:alert(1)', 'ftp://example.com', 'example.com', '', `http://${'a'.repeat(2050)}`]) {
      const res = await t.api.post(`/api/boards/${id}/links`, { x: 0, y: 0, url });
      expect(res.status).toBe(400);
      expect(res.body.field).toBe('url');
    }
  });
});

describe('move', () => {
  it('puts the top-left of texts, links and images at (x, y)', async () => {
    const id = await newBoard();
    const text = (await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 't', author: 'ai:owner' })).body;
    const link = (await t.api.post(`/api/boards/${id}/links`, { x: 0, y: 0, url: 'http://a.test' })).body;
    const image = (await t.api.post(`/api/boards/${id}/images`, { x: 0, y: 0, width: 5, height: 5, dataUrl: PNG_1PX }))
      .body;
    for (const [kind, item] of [
      ['texts', text],
      ['links', link],
      ['images', image],
    ] as const) {
      const res = await t.api.post(`/api/boards/${id}/${kind}/${item.id}/move`, { x: 100, y: -50.5 });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ id: item.id, x: 100, y: -50.5 });
    }
    const snap = await snapshot(id);
    for (const item of [...snap.texts, ...snap.images]) expect(item).toMatchObject({ x: 100, y: -50.5 });
    expect(snap.texts.find((t: any) => t.id === text.id).author).toBe('ai:owner');
  });

  it('translates a stroke so its bbox top-left lands at (x, y)', async () => {
    const id = await newBoard();
    const stroke = (
      await t.api.post(`/api/boards/${id}/strokes`, {
        points: [
          [10, 20],
          [30, 25],
          [15, 40],
        ],
      })
    ).body;
    for (const kind of ['strokes', 'lines']) {
      const res = await t.api.post(`/api/boards/${id}/${kind}/${stroke.id}/move`, { x: 0, y: 0 });
      expect(res.body).toEqual({ id: stroke.id, x: 0, y: 0 });
    }
    const moved = await t.api.post(`/api/boards/${id}/strokes/${stroke.id}/move`, { x: 100, y: 200 });
    expect(moved.status).toBe(200);
    expect((await snapshot(id)).lines[0].points).toEqual([
      [100, 200],
      [120, 205],
      [105, 220],
    ]);
  });

  it('anchored strokes follow a moved text without a new last_updated', async () => {
    const id = await newBoard();
    const a = (await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'A' })).body;
    const b = (await t.api.post(`/api/boards/${id}/texts`, { x: 100, y: 0, content: 'B' })).body;
    const img = (
      await t.api.post(`/api/boards/${id}/images`, { x: 0, y: 100, width: 10, height: 10, dataUrl: PNG_1PX })
    ).body;
    const connector = (
      await t.api.post(`/api/boards/${id}/strokes`, {
        points: [
          [10, 10],
          [60, 10],
          [110, 10],
        ],
        anchors: { start: { kind: 'text', id: a.id, dx: 10, dy: 10 }, end: { kind: 'text', id: b.id, dx: 10, dy: 10 } },
      })
    ).body;
    const attached = (
      await t.api.post(`/api/boards/${id}/strokes`, {
        points: [
          [5, 105],
          [5, 115],
        ],
        anchors: {
          start: { kind: 'image', id: img.id, dx: 5, dy: 5 },
          end: { kind: 'image', id: img.id, dx: 5, dy: 15 },
        },
      })
    ).body;
    const loose = (
      await t.api.post(`/api/boards/${id}/strokes`, {
        points: [
          [500, 500],
          [510, 510],
        ],
      })
    ).body;
    const before = await snapshot(id);
    const stamp = (sid: string, snap: any) => snap.lines.find((l: any) => l.id === sid);
    await sleep(5);

    await t.api.post(`/api/boards/${id}/texts/${a.id}/move`, { x: 0, y: 40 });
    await t.api.post(`/api/boards/${id}/images/${img.id}/move`, { x: 50, y: 150 });
    const after = await snapshot(id);

    // The start follows A fully, the middle half-way, the end (tied to B) stays.
    expect(stamp(connector.id, after).points).toEqual([
      [10, 50],
      [60, 30],
      [110, 10],
    ]);
    // Both ends on the image: the stroke moves whole.
    expect(stamp(attached.id, after).points).toEqual([
      [55, 155],
      [55, 165],
    ]);
    expect(stamp(loose.id, after).points).toEqual([
      [500, 500],
      [510, 510],
    ]);
    for (const sid of [connector.id, attached.id, loose.id]) {
      expect(stamp(sid, after).last_updated).toBe(stamp(sid, before).last_updated);
    }
    expect(after.texts.find((t: any) => t.id === a.id).last_updated).not.toBe(
      before.texts.find((t: any) => t.id === a.id).last_updated,
    );
  });

  it('a straight anchored stroke runs edge to edge when drawn, and again when an item moves or grows', async () => {
    const id = await newBoard();
    const a = (await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'A' })).body;
    const b = (await t.api.post(`/api/boards/${id}/texts`, { x: 300, y: 200, content: 'B' })).body;
    const arrow = (
      await t.api.post(`/api/boards/${id}/strokes`, {
        points: [
          [5, 5],
          [305, 205],
        ],
        anchors: { start: { kind: 'text', id: a.id, dx: 5, dy: 5 }, end: { kind: 'text', id: b.id, dx: 5, dy: 5 } },
      })
    ).body;
    const line = async () => (await snapshot(id)).lines.find((l: any) => l.id === arrow.id);
    const expectRouted = async (from: any, to: any) => {
      const { points, anchors } = await line();
      const [start, end] = points.map(([x, y]: number[]) => ({ x, y }));
      expectOnEdge(start, from, centreOf(to), 0.2, 'start');
      expectOnEdge(end, to, centreOf(from), 0.2, 'end');
      // Each end is its item's top-left plus the anchor's offset.
      for (const [at, box, anchor] of [
        [start, from, anchors.start],
        [end, to, anchors.end],
      ]) {
        expect(at.x - box.x).toBeCloseTo(anchor.dx, 1);
        expect(at.y - box.y).toBeCloseTo(anchor.dy, 1);
      }
    };
    await expectRouted(a.bbox, b.bbox);
    await t.api.post(`/api/boards/${id}/texts/${b.id}/move`, { x: -300, y: 250 });
    await expectRouted(a.bbox, { ...b.bbox, x: -300, y: 250 });
    const grown = (
      await t.api.post(`/api/boards/${id}/texts`, {
        id: b.id,
        x: -300,
        y: 250,
        content: '# B grew\nwith a second line, and a third\n\nand more',
      })
    ).body;
    expect(grown.bbox.height).toBeGreaterThan(b.bbox.height);
    await expectRouted(a.bbox, grown.bbox);
  });

  it('unknown kind is 400, unknown item 404, bad coordinates 400', async () => {
    const id = await newBoard();
    const text = (await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 't' })).body;
    const kind = await t.api.post(`/api/boards/${id}/widgets/${text.id}/move`, { x: 1, y: 1 });
    expect(kind.status).toBe(400);
    expect(kind.body.code).toBe('unknown_kind');
    const missing = await t.api.post(`/api/boards/${id}/texts/nope/move`, { x: 1, y: 1 });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('item_not_found');
    expect((await t.api.post(`/api/boards/${id}/links/${text.id}/move`, { x: 1, y: 1 })).status).toBe(404);
    const bad = await t.api.post(`/api/boards/${id}/texts/${text.id}/move`, { x: 'left', y: 1 });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('x');
  });
});

describe('erase', () => {
  it('deletes each kind by id; unknown kind 400; missing item 404', async () => {
    const id = await newBoard();
    const text = (await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 't' })).body;
    const link = (await t.api.post(`/api/boards/${id}/links`, { x: 0, y: 0, url: 'http://a.test' })).body;
    const s1 = (await t.api.post(`/api/boards/${id}/strokes`, { points: [0, 0, 1, 1] })).body;
    const s2 = (await t.api.post(`/api/boards/${id}/strokes`, { points: [0, 0, 1, 1] })).body;
    const image = (await t.api.post(`/api/boards/${id}/images`, { x: 0, y: 0, width: 5, height: 5, dataUrl: PNG_1PX }))
      .body;
    expect((await t.api.del(`/api/boards/${id}/widgets/${text.id}`)).body.code).toBe('unknown_kind');
    for (const [kind, item] of [
      ['texts', text],
      ['links', link],
      ['strokes', s1],
      ['lines', s2],
      ['images', image],
    ] as const) {
      const res = await t.api.del(`/api/boards/${id}/${kind}/${item.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ ok: true, id: item.id });
      expect((await t.api.del(`/api/boards/${id}/${kind}/${item.id}`)).status).toBe(404);
    }
    expect(await snapshot(id)).toMatchObject({ texts: [], lines: [], images: [] });
  });
});

describe('mode', () => {
  it('draw endpoints on a todo board are 400 wrong_mode', async () => {
    const id = await newBoard('todo');
    const res = await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 't' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('wrong_mode');
  });
});
