/**
 * Shapes, frames and connector labels in the SVG preview (the contract's
 * shapes extension), and one frame's area alone: `GET /svg-preview/{id}?frame=`
 * and MCP `get_preview {frame}`.
 */
import { describe, expect, it } from 'vitest';
import { INK_COLORS, INK_HEX, SHAPE_FILLS } from '../schema/index.js';
import { PNG_1PX } from './helpers/http.js';
import { connectMcp, refusalOf, rpcError } from './helpers/mcp.js';
import { useServer } from './helpers/server.js';
import { contrast, parseSvg } from './helpers/svg.js';

const t = useServer();
/** A person's items: an agent's carry the AI marking too (an extra outline), which these tests look past. */
const PERSON = { author: 'user:test' };

const preview = (path: string, headers: Record<string, string> = {}) => t.api.get(`/svg-preview/${path}`, headers);
const board = async () => (await t.api.post('/api/boards')).body.id as string;
const all = <T>(value: T | T[] | undefined): T[] => [value ?? []].flat() as T[];
/** The item groups at the top of the drawing (or of a frame's clipped area), in document order. */
const items = (svg: any): any[] =>
  all<any>(svg.g).flatMap(function flat(g: any): any[] {
    return g.class === 'frame-area' || g.class === 'line-labels' ? [g, ...all<any>(g.g).flatMap(flat)] : [g];
  });
const shapes = (svg: any) => items(svg).filter((g) => g.class?.startsWith('shape '));
/** The words of a group's `<text>` elements, tspans included, line by line. */
const words = (group: any): string[] =>
  all<any>(group?.text).map((text) =>
    typeof text === 'string'
      ? text
      : [text['#text'], ...all<any>(text.tspan).map((span) => span['#text'] ?? span)].filter(Boolean).join(' '),
  );
const viewBox = (svg: any) => svg.viewBox.split(' ').map(Number);

/** Under a fill `opacity` opaque, what the eye sees of `hex` on the preview's background. */
function seen(hex: string, opacity: number): string {
  const channel = (value: string, i: number) => Number.parseInt(value.slice(i, i + 2), 16);
  const mixed = [1, 3, 5].map((i) => Math.round(channel(hex, i) * opacity + channel('#fafafa', i) * (1 - opacity)));
  return `#${mixed.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

describe('shapes in the preview', () => {
  it('draws rectangles, ellipses and diamonds in their ink, filled as `fill` says, each label centred with its markup', async () => {
    const id = await board();
    const post = (shape: object) => t.api.post(`/api/boards/${id}/shapes`, { ...shape, ...PERSON });
    await post({ shape: 'rectangle', x: 0, y: 0, width: 160, height: 80, color: 'red', label: '**Bold** start' });
    await post({
      shape: 'ellipse',
      x: 200,
      y: 0,
      width: 160,
      height: 100,
      color: 'blue',
      fill: 'semi',
      label: 'Store',
    });
    await post({
      shape: 'diamond',
      x: 400,
      y: 0,
      width: 160,
      height: 120,
      color: 'green',
      fill: 'solid',
      label: 'Ok?',
    });
    await post({ shape: 'rectangle', x: 0, y: 200, width: 120, height: 200, label: 'a label long enough to wrap' });
    const svg = parseSvg((await preview(id)).text);
    const [rect, ellipse, diamond, wrapped] = shapes(svg);
    expect([rect, ellipse, diamond, wrapped].map((g) => g.class)).toEqual([
      'shape rectangle fill-none',
      'shape ellipse fill-semi',
      'shape diamond fill-solid',
      'shape rectangle fill-none',
    ]);
    expect(rect.rect).toMatchObject({ x: '0', y: '0', width: '160', height: '80', fill: 'none', stroke: '#d32f2f' });
    expect(Number(rect.rect.rx)).toBeGreaterThan(0);
    expect(ellipse.ellipse).toMatchObject({ cx: '280', cy: '50', rx: '80', ry: '50', fill: INK_HEX.blue });
    expect(Number(ellipse.ellipse['fill-opacity'])).toBeGreaterThanOrEqual(0.15);
    expect(Number(ellipse.ellipse['fill-opacity'])).toBeLessThanOrEqual(0.25);
    expect(diamond.polygon).toMatchObject({ points: '480,0 560,60 480,120 400,60', fill: INK_HEX.green });
    expect(diamond.polygon['fill-opacity']).toBeUndefined();
    expect(wrapped.rect.stroke).toBe(INK_HEX.auto);
    // The label: centred on the shape, its markup drawn as a text's is.
    const label = rect.g.text;
    expect(label.x).toBe('80');
    expect(rect.g['text-anchor']).toBe('middle');
    expect(Math.abs(Number(label.y) - 40)).toBeLessThan(15);
    expect(label.tspan).toMatchObject({ 'font-weight': 'bold', '#text': 'Bold' });
    // The parser keeps a text's own words apart from its tspans': the order within the line is not compared.
    expect(words(rect.g).map((line) => line.split(' ').sort())).toEqual([['Bold', 'start']]);
    expect(words(ellipse.g)).toEqual(['Store']);
    expect(words(diamond.g)).toEqual(['Ok?']);
    expect(words(wrapped.g).length).toBeGreaterThan(1);
    expect(words(wrapped.g).join(' ')).toBe('a label long enough to wrap');
  });

  it('a label reads on its shape in every colour and fill (contrast at least 4.5:1)', async () => {
    const id = await board();
    for (const [i, color] of INK_COLORS.entries())
      for (const [j, fill] of SHAPE_FILLS.entries())
        await t.api.post(`/api/boards/${id}/shapes`, {
          shape: 'rectangle',
          x: j * 200,
          y: i * 100,
          width: 160,
          height: 60,
          color,
          fill,
          label: `${color} ${fill}`,
          ...PERSON,
        });
    const drawn = shapes(parseSvg((await preview(id)).text));
    expect(drawn).toHaveLength(INK_COLORS.length * SHAPE_FILLS.length);
    for (const shape of drawn) {
      const { fill, 'fill-opacity': opacity } = shape.rect;
      const behind = fill === 'none' ? '#fafafa' : seen(fill, Number(opacity ?? 1));
      expect(contrast(shape.g.fill, behind), `${words(shape.g)} ink ${shape.g.fill}`).toBeGreaterThanOrEqual(4.5);
    }
  });

  it("an AI author's shape and frame carry the AI marking; a person's do not", async () => {
    const id = await board();
    const shape = { shape: 'rectangle', x: 0, y: 0, width: 100, height: 60 };
    await t.api.post(`/api/boards/${id}/shapes`, { ...shape, author: 'ai:claude' });
    await t.api.post(`/api/boards/${id}/shapes`, { ...shape, x: 200, author: 'user:1234' });
    await t.api.post(`/api/boards/${id}/frames`, { x: -50, y: -50, width: 500, height: 300, author: 'ai:claude' });
    await t.api.post(`/api/boards/${id}/frames`, { x: -50, y: 400, width: 500, height: 300, author: 'user:1234' });
    const drawn = items(parseSvg((await preview(id)).text));
    const [ai, person] = drawn.filter((g) => g.class.startsWith('shape'));
    expect(ai.class).toContain(' ai');
    expect(all<any>(ai.rect).map((rect) => rect.stroke)).toContain('#8e24aa');
    expect(person.class).not.toContain('ai');
    expect(all<any>(person.rect).map((rect) => rect.stroke)).not.toContain('#8e24aa');
    const [aiFrame, personFrame] = drawn.filter((g) => g.class.startsWith('frame'));
    expect([aiFrame.class, aiFrame.rect.stroke]).toEqual(['frame ai', '#8e24aa']);
    expect([personFrame.class, personFrame.rect.stroke === '#8e24aa']).toEqual(['frame', false]);
  });
});

describe('frames and connector labels in the preview', () => {
  it('draws frames behind every other item, with the title above the top-left (a long one cut to the width)', async () => {
    const id = await board();
    await t.api.post(`/api/boards/${id}/texts`, { x: 10, y: 10, content: 'a text' });
    await t.api.post(`/api/boards/${id}/images`, { x: 200, y: 10, width: 64, height: 64, dataUrl: PNG_1PX });
    await t.api.post(`/api/boards/${id}/shapes`, { shape: 'ellipse', x: 10, y: 100, width: 80, height: 50 });
    await t.api.post(`/api/boards/${id}/strokes`, { points: [0, 300, 300, 300] });
    const frame = { ...PERSON, y: 0, height: 400 };
    await t.api.post(`/api/boards/${id}/frames`, { ...frame, x: 0, width: 400, title: 'Core' });
    await t.api.post(`/api/boards/${id}/frames`, { ...frame, x: 500, width: 100, title: 'W'.repeat(200) });
    const { text } = await preview(id);
    const order = [...text.matchAll(/<g class="(\w+)/g)].map(([, kind]) => kind);
    expect(order.slice(0, 2)).toEqual(['frame', 'frame']);
    expect(order.slice(2)).toEqual(expect.arrayContaining(['text', 'image', 'shape', 'strokes']));
    expect(order.lastIndexOf('frame')).toBe(1);
    const [core, long] = items(parseSvg(text)).filter((g) => g.class === 'frame');
    expect(core.rect).toMatchObject({ x: '0', y: '0', width: '400', height: '400' });
    expect(core.text).toMatchObject({ class: 'frame-title', x: '0', '#text': 'Core' });
    expect(Number(core.text.y)).toBeLessThan(0);
    expect(long.text['#text']).toMatch(/^W+…$/);
    expect(long.text['#text'].length).toBeLessThan(20);
  });

  it("draws a stroke's label at the middle of its path, on a background, over the lines", async () => {
    const id = await board();
    // Path length 400: its middle is 100 px down the second segment.
    await t.api.post(`/api/boards/${id}/strokes`, { points: [0, 0, 100, 0, 100, 300], label: 'calls' });
    await t.api.post(`/api/boards/${id}/strokes`, { points: [0, 500, 100, 500] });
    const { text } = await preview(id);
    const drawn = items(parseSvg(text));
    const labels = drawn.filter((g) => g.class === 'line-label');
    expect(labels).toHaveLength(1);
    const [label] = labels;
    expect(label.text).toMatchObject({ '#text': 'calls', x: '100' });
    expect(drawn.find((g) => g.class === 'line-labels')['text-anchor']).toBe('middle');
    expect(Math.abs(Number(label.text.y) - 100)).toBeLessThan(10);
    const background = label.rect;
    expect(background.fill).toBe('#ffffff');
    const [x, y, width, height] = [background.x, background.y, background.width, background.height].map(Number);
    expect(x < 100 && x + width > 100 && y < 100 && y + height > 100).toBe(true);
    expect(text.indexOf('class="line-label"')).toBeGreaterThan(text.lastIndexOf('<polyline'));
  });

  it("the drawing's bounds take in shapes and frames", async () => {
    const id = await board();
    await t.api.post(`/api/boards/${id}/shapes`, { shape: 'diamond', x: 2000, y: 1500, width: 300, height: 200 });
    await t.api.post(`/api/boards/${id}/frames`, { x: -800, y: -600, width: 200, height: 100, title: 'Far' });
    const [minX, minY, width, height] = viewBox(parseSvg((await preview(id)).text));
    expect(minX).toBeLessThanOrEqual(-800);
    expect(minY).toBeLessThan(-600);
    expect(minX + width).toBeGreaterThanOrEqual(2300);
    expect(minY + height).toBeGreaterThanOrEqual(1700);
  });
});

describe('the preview of one frame', () => {
  async function framedBoard() {
    const id = await board();
    await t.api.post(`/api/boards/${id}/title`, { title: 'Whole board' });
    const frame = (
      await t.api.post(`/api/boards/${id}/frames`, {
        x: 100,
        y: 100,
        width: 400,
        height: 300,
        title: 'Core',
        ...PERSON,
      })
    ).body;
    const other = (await t.api.post(`/api/boards/${id}/frames`, { x: 1000, y: 100, width: 200, height: 200 })).body;
    const shape = { shape: 'rectangle', width: 100, height: 60 };
    await t.api.post(`/api/boards/${id}/shapes`, { ...shape, x: 150, y: 150, label: 'inside' });
    await t.api.post(`/api/boards/${id}/shapes`, { ...shape, x: 450, y: 150, label: 'straddles' });
    await t.api.post(`/api/boards/${id}/shapes`, { ...shape, x: 1050, y: 150, label: 'outside' });
    await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 700, content: 'far text' });
    return { id, frame: frame.id as string, other: other.id as string };
  }

  it('draws the frame and what reaches into its box, clipped to it, in a viewBox of the frame and a margin', async () => {
    const { id, frame } = await framedBoard();
    const res = await preview(`${id}?frame=${frame}`);
    expect(res.status).toBe(200);
    const svg = parseSvg(res.text);
    const [x, y, width, height] = viewBox(svg);
    // The frame's box, a 20 px margin, and room for its title above it.
    expect([x, x + width, y + height]).toEqual([80, 520, 420]);
    expect(y).toBeLessThan(80);
    expect(y).toBeGreaterThan(40);
    const drawn = items(svg);
    expect(drawn[0]).toMatchObject({ class: 'frame', text: { '#text': 'Core' } });
    expect(drawn.filter((g) => g.class.startsWith('frame ') || g.class === 'frame')).toHaveLength(1);
    const labels = shapes(svg).flatMap((g) => words(g.g));
    expect(labels).toEqual(['inside', 'straddles']);
    expect(res.text).not.toContain('outside');
    expect(res.text).not.toContain('far text');
    expect(res.text).not.toContain('class="title"');
    const area = all<any>(svg.g).find((g) => g.class === 'frame-area');
    expect(area['clip-path']).toBe('url(#frame-area)');
    expect(svg.defs.clipPath).toMatchObject({
      id: 'frame-area',
      rect: { x: '100', y: '100', width: '400', height: '300' },
    });
  });

  it('carries an ETag of its own per frame; 304 on a match', async () => {
    const { id, frame, other } = await framedBoard();
    const whole = await preview(id);
    const one = await preview(`${id}?frame=${frame}`);
    const two = await preview(`${id}?frame=${other}`);
    const tags = [whole, one, two].map((res) => res.headers.get('etag'));
    expect(new Set(tags).size).toBe(3);
    expect((await preview(`${id}?frame=${frame}`, { 'if-none-match': tags[1]! })).status).toBe(304);
    expect((await preview(`${id}?frame=${frame}`, { 'if-none-match': tags[0]! })).status).toBe(200);
    expect((await preview(id, { 'if-none-match': tags[1]! })).status).toBe(200);
    expect(one.text).not.toBe(two.text);
  });

  it('an unknown frame is 404 item_not_found on REST and MCP; a bad frame id is 400', async () => {
    const { id } = await framedBoard();
    const shapeId = (await t.api.get(`/json/${id}`)).body.shapes[0].id;
    for (const missing of ['no-such-frame', shapeId]) {
      const res = await preview(`${id}?frame=${missing}`);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'item_not_found', error: `no frame with id ${missing}` });
    }
    expect((await preview(`${id}?frame=`)).status).toBe(400);
    const mcp = await connectMcp(t.server.url);
    try {
      const refused = await mcp.raw('get_preview', { board_id: id, frame: 'no-such-frame' });
      expect(refusalOf(refused)).toMatchObject({ code: 'item_not_found', error: 'no frame with id no-such-frame' });
    } finally {
      await mcp.close();
    }
  });

  it('MCP get_preview {frame} answers the bytes REST serves, and its PNG', async () => {
    const { id, frame } = await framedBoard();
    const rest = (await preview(`${id}?frame=${frame}`)).text;
    const mcp = await connectMcp(t.server.url);
    try {
      const result = await mcp.raw('get_preview', { board_id: id, frame });
      expect((result.structuredContent as { svg: string }).svg).toBe(rest);
      expect(result.content).toEqual(expect.arrayContaining([expect.objectContaining({ mimeType: 'image/png' })]));
      expect((await mcp.call('get_preview', { board_id: id })).svg).toBe((await preview(id)).text);
    } finally {
      await mcp.close();
    }
  });

  it("a frame's preview too big to give inline is linked by a URI of that frame's, which reads the bytes REST serves", async () => {
    const { id, frame } = await framedBoard();
    for (let i = 0; i < 12; i++)
      await t.api.post(`/api/boards/${id}/shapes`, {
        shape: 'ellipse',
        x: 110 + (i % 4) * 95,
        y: 230 + Math.floor(i / 4) * 55,
        width: 90,
        height: 50,
        label: `**step** ${i} of the _pipeline_`,
      });
    const rest = (await preview(`${id}?frame=${frame}`)).text;
    expect(rest.length).toBeGreaterThan(4_096);
    const mcp = await connectMcp(t.server.url);
    try {
      const answer = await mcp.call('get_preview', { board_id: id, frame });
      expect(answer.svg_uri).toBe(`svc://board/${id}/preview.svg?frame=${encodeURIComponent(frame)}`);
      const read = await mcp.client.readResource({ uri: answer.svg_uri });
      expect((read.contents[0] as { text: string }).text).toBe(rest);
      const unknown = await rpcError(mcp.client.readResource({ uri: `svc://board/${id}/preview.svg?frame=nope` }));
      expect(unknown.data).toMatchObject({ code: 'item_not_found' });
    } finally {
      await mcp.close();
    }
  });
});
