import { describe, expect, it } from 'vitest';
import { upsertImage, upsertStroke, upsertText } from '../board/mutations/draw.js';
import { upsertFrame, upsertShape } from '../board/mutations/shapes.js';
import {
  INK_COLORS,
  MAX_FRAME_TITLE_CHARS,
  MAX_FRAMES,
  MAX_IMAGES,
  MAX_SHAPE_LABEL_CHARS,
  MAX_SHAPES,
  MAX_STROKE_LABEL_CHARS,
  MAX_STROKES,
  MAX_TEXT_NODES,
  SHAPE_KINDS,
} from '../schema/index.js';
import { PNG_1PX } from './helpers/http.js';
import { connectMcp } from './helpers/mcp.js';
import { connectJson } from './helpers/realtime.js';
import { TEST_CALLER, useServer } from './helpers/server.js';
import { contrast, parseSvg } from './helpers/svg.js';

const t = useServer();

/** The documented bound for the preview of a board filled to every quota (docs/preview.md). */
const MAX_PREVIEW_BYTES = 1_400_000;
const HOSTILE = [
  '<script>alert(1)</script>',
  ']]><!--',
  '"\'&amp;<>',
  'nul\u0000bell\u0007esc\u001b',
  'lone \ud800 surrogate',
  '</svg><svg onload="alert(1)">',
  '**<b onclick="x">bold</b>** `<img src=x onerror=alert(1)>` [a](javascript:alert(1)) _</text><script>_',
  '```mermaid\nflowchart LR\n  A["<script>alert(1)</script>"] --> B["</svg><svg onload=alert(1)>"]\n  B -->|"&lt;x&gt; \'"| C{{"]]><!--"}}\n```',
  '```mermaid\nsequenceDiagram\n  participant A as <script>\n  A->>B: </text><foreignObject onload="x">\n```',
];

/** The item groups of the preview (and each stroke's polyline), with their class. */
function groups(svg: any): any[] {
  const all = [svg.g ?? []].flat();
  const strokes = all.filter((g) => g.class.startsWith('strokes'));
  return [...all.filter((g) => !g.class.startsWith('strokes')), ...strokes.flatMap((g) => [g.polyline ?? []].flat())];
}

async function preview(id: string, headers: Record<string, string> = {}) {
  return t.api.get(`/svg-preview/${id}`, headers);
}

describe('GET /svg-preview/{id}', () => {
  it('draws a draw board: texts, post-its, diagrams, Mermaid, checkboxes, strokes, images, links, in a fitting viewBox', async () => {
    const { id } = (await t.api.post('/api/boards')).body;
    await t.api.post(`/api/boards/${id}/texts`, {
      x: 0,
      y: 0,
      content: '# Plan\n- [ ] open\n- [x] done\nfourth line hidden',
      postit: true,
    });
    await t.api.post(`/api/boards/${id}/texts`, {
      x: 400,
      y: 0,
      content: '```mermaid\nsequenceDiagram\n  A->>B: hi\n```',
    });
    await t.api.post(`/api/boards/${id}/texts`, { x: 800, y: 0, content: 'framed', diagram: true });
    await t.api.post(`/api/boards/${id}/strokes`, {
      points: Array.from({ length: 5000 }, (_, i) => [i / 5, Math.sin(i / 100) * 50 + 300]),
      color: 'teal',
    });
    await t.api.post(`/api/boards/${id}/images`, {
      x: 0,
      y: 500,
      width: 64,
      height: 64,
      dataUrl: PNG_1PX,
      thumbDataUrl: PNG_1PX,
    });
    await t.api.post(`/api/boards/${id}/images`, { x: 100, y: 500, width: 64, height: 64, dataUrl: PNG_1PX });
    await t.api.post(`/api/boards/${id}/links`, { x: 300, y: 600, url: 'https://docs.example.org/a/b?c=d' });
    const res = await preview(id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    const svg = parseSvg(res.text);
    const [minX, minY, width, height] = svg.viewBox.split(' ').map(Number);
    expect(minX).toBeLessThanOrEqual(0);
    expect(minY).toBeLessThanOrEqual(0);
    expect(minX + width).toBeGreaterThanOrEqual(1000);
    expect(minY + height).toBeGreaterThanOrEqual(628);
    expect(res.text).toContain('☐ open');
    expect(res.text).toContain('☑ done');
    expect(res.text).toContain('fourth line hidden');
    expect(res.text).toMatch(/<svg class="mermaid"[^>]*>[\s\S]*<text[^>]*>hi<\/text>/);
    expect(res.text).not.toContain('A-&gt;&gt;B');
    expect(res.text).toContain('docs.example.org');
    expect(res.text).not.toContain('a/b?c=d');
    expect(res.text).toContain(`href="${PNG_1PX}"`);
    const classes = groups(svg).map((g) => g.class);
    expect(classes).toEqual(
      expect.arrayContaining(['text postit ai', 'text diagram ai', 'stroke ai', 'link ai', 'image ai']),
    );
    const polyline = groups(svg).find((g) => g.class.startsWith('stroke'));
    expect(polyline.points.split(' ').length).toBeLessThanOrEqual(48);
    expect(polyline.stroke).toBe('#00897b');
    expect(res.text.length).toBeLessThan(20_000);
  });

  it('draws a todo board: lanes, columns and task cards with done state and priority', async () => {
    const { id } = (
      await t.api.post('/api/boards', {
        mode: 'todo',
        content: {
          columns: [{ title: 'Now' }, { title: 'Later', lane: 1 }],
          tasks: [
            { columnIndex: 0, name: 'urgent thing', priority: 'H' },
            { columnIndex: 1, name: 'finished thing', done: true },
          ],
          lanes: [{ lane: 1, title: 'Backlog row' }],
        },
      })
    ).body;
    const res = await preview(id);
    const svg = parseSvg(res.text);
    expect(res.text).toContain('Backlog row');
    expect(res.text).toContain('☐ urgent thing');
    expect(res.text).toContain('☑ finished thing');
    const classes = groups(svg).map((g) => g.class);
    expect(classes.filter((c) => c.startsWith('column'))).toHaveLength(2);
    expect(classes).toContain('task done ai');
    const urgent = groups(svg).find((g) => g.class.startsWith('task') && !g.class.includes('done'));
    expect([urgent.text].flat().map((text: any) => text['#text'])).toContain('H');
  });

  it('a purple border marks exactly the ai: authors', async () => {
    const { id } = (await t.api.post('/api/boards')).body;
    await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'by an agent', author: 'ai:claude' });
    await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 100, content: 'by a person', author: 'user:1234' });
    const human = await connectJson(t.server.url, id, { query: '?client=5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d' });
    human.send({ type: 'draw_stroke', ref: 1, points: [0, 0, 10, 10] });
    await human.next((f) => f.type === 'ack');
    human.close();
    const svg = parseSvg((await preview(id)).text);
    const byText = (text: string) => groups(svg).find((g) => JSON.stringify(g).includes(text));
    expect(byText('by an agent').class).toContain('ai');
    expect(byText('by an agent').rect.stroke).toBe('#8e24aa');
    expect(byText('by a person').class).not.toContain('ai');
    expect(byText('by a person').rect.stroke).not.toBe('#8e24aa');
    expect(groups(svg).find((g) => g.class.startsWith('stroke')).class).toBe('stroke');
  });

  it('escapes every user string: hostile content cannot inject markup', async () => {
    const draw = (await t.api.post('/api/boards')).body.id;
    for (const [i, content] of HOSTILE.entries())
      await t.api.post(`/api/boards/${draw}/texts`, { x: i * 300, y: 0, content });
    await t.api.post(`/api/boards/${draw}/links`, { x: 0, y: 300, url: 'https://x.test/"><script>alert(1)</script>' });
    let frame = '';
    for (const [i, text] of HOSTILE.entries()) {
      const [x, y] = [i * 300, 600];
      await t.api.post(`/api/boards/${draw}/shapes`, { shape: 'diamond', x, y, width: 200, height: 100, label: text });
      await t.api.post(`/api/boards/${draw}/strokes`, {
        points: [
          [x, y + 150],
          [x + 200, y + 150],
        ],
        label: text.slice(0, 200),
      });
      const made = await t.api.post(`/api/boards/${draw}/frames`, {
        x,
        y: y - 40,
        width: 250,
        height: 300,
        title: text.slice(0, 200),
      });
      frame ||= made.body.id;
    }
    const todo = (
      await t.api.post('/api/boards', {
        mode: 'todo',
        content: {
          columns: HOSTILE.map((title) => ({ title })),
          tasks: HOSTILE.map((name, i) => ({ columnIndex: i, name })),
          lanes: [{ lane: 0, title: HOSTILE[0] }],
        },
      })
    ).body.id;
    for (const path of [draw, `${draw}?frame=${frame}`, todo]) {
      const { text } = await preview(path);
      const names = new Set<string>();
      const walk = (node: unknown) => {
        if (node && typeof node === 'object')
          for (const [key, value] of Object.entries(node)) {
            names.add(key.toLowerCase());
            walk(value);
          }
      };
      walk(parseSvg(text));
      expect([...names].filter((name) => name === 'script' || name.startsWith('on'))).toEqual([]);
      expect(text).not.toMatch(/<script/i);
      expect(text).not.toContain('\u0000');
    }
  });

  it('ETag and 304; lock rules as every read; MCP serves the same bytes', async () => {
    const { id, access_key } = (await t.api.post('/api/boards', { lock: 'all' })).body;
    expect((await preview(id)).status).toBe(401);
    const res = await preview(id, { 'x-board-key': access_key });
    expect(res.status).toBe(200);
    const etag = res.headers.get('etag')!;
    expect((await preview(id, { 'x-board-key': access_key, 'if-none-match': etag })).status).toBe(304);
    const mcp = await connectMcp(t.server.url);
    try {
      expect((await mcp.call('get_preview', { board_id: id, access_key })).svg).toBe(res.text);
    } finally {
      await mcp.close();
    }
    await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'changed' }, { 'x-board-key': access_key });
    expect((await preview(id, { 'x-board-key': access_key, 'if-none-match': etag })).status).toBe(200);
    expect((await preview('00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it(`stays under ${MAX_PREVIEW_BYTES} bytes for a board filled to every quota`, async () => {
    const { id } = (await t.api.post('/api/boards')).body;
    const thumb =
      'data:image/png;base64,' +
      Buffer.concat([Buffer.from(PNG_1PX.split(',')[1], 'base64'), Buffer.alloc(5_800)]).toString('base64');
    expect(thumb.length).toBeLessThanOrEqual(8_000);
    await t.server.server.boards.write(id, TEST_CALLER, (w) => {
      for (let i = 0; i < MAX_TEXT_NODES; i++)
        upsertText(w, {
          x: (i % 25) * 300,
          y: Math.floor(i / 25) * 200,
          content: `Note ${i} `.repeat(2_000),
          author: 'ai:bench',
        });
      for (let i = 0; i < MAX_STROKES; i++)
        upsertStroke(w, {
          points: Array.from({ length: 50 }, (_, k) => [i + k * 3, (i * 7 + k * 11) % 700] as [number, number]),
          color: 'blue',
          label: `label ${i} `.repeat(40).slice(0, MAX_STROKE_LABEL_CHARS),
        });
      for (let i = 0; i < MAX_IMAGES; i++)
        upsertImage(w, { x: i * 70, y: -300, width: 64, height: 64, dataUrl: PNG_1PX, thumbDataUrl: thumb });
      for (let i = 0; i < MAX_SHAPES; i++)
        upsertShape(w, {
          shape: SHAPE_KINDS[i % 3],
          x: (i % 40) * 200,
          y: 6_000 + Math.floor(i / 40) * 120,
          width: 180,
          height: 100,
          label: `**Shape** ${i} `.repeat(1_000).slice(0, MAX_SHAPE_LABEL_CHARS),
          fill: 'semi',
          author: 'ai:bench',
        });
      for (let i = 0; i < MAX_FRAMES; i++)
        upsertFrame(w, {
          x: (i % 10) * 800,
          y: 10_000 + Math.floor(i / 10) * 500,
          width: 700,
          height: 400,
          title: 'F'.repeat(MAX_FRAME_TITLE_CHARS),
        });
    });
    const res = await preview(id);
    parseSvg(res.text);
    expect(res.text.length).toBeLessThan(MAX_PREVIEW_BYTES);
    console.log(`preview of a board filled to its quotas: ${res.text.length} bytes`);
  });
});

describe('the preview shows the board as the app does', () => {
  it('an arrow (a stroke anchored at its end) has a head of its colour; a plain stroke has none', async () => {
    const { id } = (await t.api.post('/api/boards')).body;
    const target = (await t.api.post(`/api/boards/${id}/texts`, { x: 300, y: 0, content: 'target' })).body;
    await t.api.post(`/api/boards/${id}/strokes`, {
      points: [
        [0, 20],
        [290, 20],
      ],
      color: 'red',
      anchors: { end: { kind: 'text', id: target.id, dx: -10, dy: 20 } },
    });
    await t.api.post(`/api/boards/${id}/strokes`, {
      points: [
        [0, 100],
        [200, 100],
      ],
    });
    const res = (await preview(id)).text;
    const arrow = /<polyline class="stroke arrow(?: ai)?"[^>]*marker-end="url\(#([\w-]+)\)"/.exec(res);
    expect(arrow).not.toBeNull();
    expect(res).toMatch(new RegExp(`<marker id="${arrow![1]}"[^>]*><path [^>]*fill="#d32f2f"/></marker>`));
    expect(res.match(/marker-end=/g)).toHaveLength(1);
  });

  it("a stroke's arrowhead field puts heads where it says, anchored or not", async () => {
    const { id } = (await t.api.post('/api/boards')).body;
    const target = (await t.api.post(`/api/boards/${id}/texts`, { x: 300, y: 0, content: 'target' })).body;
    const line = (y: number) => [
      [0, y],
      [200, y],
    ];
    await t.api.post(`/api/boards/${id}/strokes`, { points: line(20), arrowhead: 'end' });
    await t.api.post(`/api/boards/${id}/strokes`, { points: line(60), arrowhead: 'both' });
    await t.api.post(`/api/boards/${id}/strokes`, { points: line(100), arrowhead: 'start' });
    await t.api.post(`/api/boards/${id}/strokes`, {
      points: line(140),
      arrowhead: 'none',
      anchors: { end: { kind: 'text', id: target.id, dx: 0, dy: 10 } },
    });
    const res = (await preview(id)).text;
    const polylines = [...res.matchAll(/<polyline [^>]*>/g)].map(([tag]) => tag);
    const at = (y: number) => polylines.find((tag) => tag.includes(`,${y} `)) ?? '';
    expect([at(20), at(60), at(100), at(140)].map((tag) => [/marker-start/.test(tag), /marker-end/.test(tag)])).toEqual(
      [
        [false, true],
        [true, true],
        [true, false],
        [false, false],
      ],
    );
  });

  it("a post-it's ink reads on its yellow fill in every colour of the palette", async () => {
    const { id } = (await t.api.post('/api/boards')).body;
    for (const [i, color] of INK_COLORS.entries())
      await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: i * 60, content: color, postit: true, color });
    const svg = parseSvg((await preview(id)).text);
    const postits = groups(svg).filter((g) => g.class.startsWith('text postit'));
    expect(postits).toHaveLength(INK_COLORS.length);
    for (const postit of postits) {
      const fill = [postit.rect].flat().at(-1).fill;
      expect(contrast(postit.fill, fill), `${postit.text['#text']} ink ${postit.fill}`).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('draws the board title above the content', async () => {
    const { id } = (await t.api.post('/api/boards')).body;
    await t.api.post(`/api/boards/${id}/title`, { title: 'Q3 architecture <draft>' });
    await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'first item' });
    const res = (await preview(id)).text;
    const title = /<text class="title" x="(-?\d+)" y="(-?\d+)"[^>]*>([^<]*)<\/text>/.exec(res);
    expect(title?.[3]).toBe('Q3 architecture &lt;draft&gt;');
    expect(Number(title![2])).toBeLessThan(0);
    const [, minY] = parseSvg(res).viewBox.split(' ').map(Number);
    expect(minY).toBeLessThan(Number(title![2]) - 22);
  });

  it('the top lane label is inside the picture, and cards show their assignee and due date', async () => {
    const { id } = (
      await t.api.post('/api/boards', {
        mode: 'todo',
        content: {
          columns: [{ title: 'Now' }],
          tasks: [
            { columnIndex: 0, name: 'write the launch post', due_date: '2026-12-01' },
            { columnIndex: 0, name: 'no owner yet' },
          ],
          lanes: [{ lane: 0, title: 'Marketing' }],
        },
      })
    ).body;
    const { tasks } = (await t.api.get(`/json/${id}`)).body;
    const task = tasks.find((each: { name: string }) => each.name === 'write the launch post');
    await t.api.post(`/api/boards/${id}/tasks`, {
      id: task.id,
      column_id: task.column_id,
      name: task.name,
      assignee: 'dana',
    });
    const res = (await preview(id)).text;
    const [, minY] = parseSvg(res).viewBox.split(' ').map(Number);
    const lane = /<text class="lane" x="-?\d+" y="(-?\d+)"[^>]*>Marketing<\/text>/.exec(res);
    // The label's glyphs rise about a font size above its baseline: all of them inside the viewBox.
    expect(Number(lane![1]) - 15).toBeGreaterThanOrEqual(minY);
    expect(res).toMatch(/<text class="meta"[^>]*>@dana · due 2026-12-01<\/text>/);
    expect(res.match(/class="meta"/g)).toHaveLength(1);
  });

  it('a link pill is drawn in the box add_link answers', async () => {
    const { id } = (await t.api.post('/api/boards')).body;
    const link = (await t.api.post(`/api/boards/${id}/links`, { x: 0, y: 0, url: 'https://docs.example.org/a/b' }))
      .body;
    expect(link.bbox.width).toBeGreaterThan(24);
    const pill = /<g class="link(?: ai)?"><rect x="0" y="0" width="(\d+)" height="(\d+)"/.exec(
      (await preview(id)).text,
    );
    expect([Number(pill![1]), Number(pill![2])]).toEqual([link.bbox.width, link.bbox.height]);
  });
});
