import { mkdirSync, writeFileSync } from 'node:fs';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { upsertImage, upsertStroke, upsertText } from '../board/mutations/draw.js';
import { MAX_IMAGES, MAX_STROKES, MAX_TEXT_NODES } from '../schema/index.js';
import { PNG_1PX } from './helpers/http.js';
import { TEST_CALLER, useServer } from './helpers/server.js';

const t = useServer();
/** The server's preview threads, which render (and cache) the PNGs get_preview answers. */
const renderPreviewPng = (svg: string) => t.server.server.boards.previews.png(svg);
/** Pictures to look at after a run (gitignored). */
const OUT = 'test-artifacts/preview-png';

/** A 24 × 24 red square with a blue border as a thumbnail, so the image shows in the picture. */
function thumbnail(): string {
  const png = new PNG({ width: 24, height: 24 });
  for (let i = 0; i < 24 * 24; i++) {
    const [x, y] = [i % 24, Math.floor(i / 24)];
    const edge = x < 3 || y < 3 || x > 20 || y > 20;
    png.data.set(edge ? [25, 118, 210, 255] : [229, 57, 53, 255], i * 4);
  }
  return `data:image/png;base64,${PNG.sync.write(png).toString('base64')}`;
}

const FLOWCHART =
  '```mermaid\nflowchart LR\n  Idea[Idea] --> Review{Review}\n  Review -->|ok| Ship[Ship it]\n  Review -->|no| Idea\n```';
const MARKDOWN = [
  '# Launch plan',
  'Ship the **preview** as a *picture* for `vision` models.',
  '',
  '## Tasks',
  '- [x] render the SVG',
  '- [ ] draw Mermaid diagrams without a browser, in the preview',
  '- plain bullet',
  '1. numbered',
  '> a quote',
  '```',
  'const png = await renderPreviewPng(svg);',
  '```',
].join('\n');

function save(name: string, png: Uint8Array): void {
  mkdirSync(OUT, { recursive: true });
  writeFileSync(`${OUT}/${name}`, png);
}

/** Share of pixels in a rectangle (PNG px) that are not near-white. */
function inked(png: PNG, x0: number, y0: number, x1: number, y1: number): number {
  let ink = 0;
  let all = 0;
  for (let y = Math.max(0, Math.floor(y0)); y < Math.min(png.height, y1); y++) {
    for (let x = Math.max(0, Math.floor(x0)); x < Math.min(png.width, x1); x++) {
      const i = (y * png.width + x) * 4;
      all++;
      if (png.data[i] < 200 || png.data[i + 1] < 200 || png.data[i + 2] < 200) ink++;
    }
  }
  return ink / Math.max(1, all);
}

describe('preview as PNG', () => {
  it('renders a real board: Markdown laid out, post-it, Mermaid drawn (not its source), stroke and image', async () => {
    const { id } = (await t.api.post('/api/boards')).body;
    await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: MARKDOWN, width: 360 });
    await t.api.post(`/api/boards/${id}/texts`, {
      x: 400,
      y: 0,
      content: 'Remember: **Friday** demo\n- [ ] slides',
      postit: true,
      author: 'user:1',
    });
    await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 420, content: FLOWCHART });
    await t.api.post(`/api/boards/${id}/strokes`, {
      points: Array.from({ length: 60 }, (_, i) => [700 + i * 4, 80 + Math.sin(i / 6) * 40]),
      color: 'red',
    });
    await t.api.post(`/api/boards/${id}/images`, {
      x: 720,
      y: 200,
      width: 96,
      height: 96,
      dataUrl: PNG_1PX,
      thumbDataUrl: thumbnail(),
    });
    const svg: string = (await t.api.get(`/svg-preview/${id}`)).text;

    // The diagram is drawn: its labels are text elements and its edges lines, and the source is gone.
    const diagram = /<svg class="mermaid" x="(\d+)" y="(\d+)" width="(\d+)" height="(\d+)"[^>]*>([\s\S]*?)<\/svg>/.exec(
      svg,
    );
    expect(diagram).not.toBeNull();
    for (const label of ['Idea', 'Review', 'Ship it', 'ok'])
      expect(diagram![5]).toMatch(new RegExp(`<text[^>]*>${label}</text>`));
    expect(diagram![5]).toMatch(/<(polyline|path|line)[^>]*(points|d|x1)=/);
    expect(svg).not.toContain('-->');
    expect(svg).not.toContain('var(--');
    expect(svg).not.toContain('fonts.googleapis');
    // Markdown is laid out, not shown as markup.
    expect(svg).toMatch(/<text[^>]*font-size="19.5"[^>]*><tspan font-weight="bold">Launch plan<\/tspan><\/text>/);
    expect(svg).toContain('<tspan font-weight="bold">preview</tspan>');
    expect(svg).toContain('<tspan font-style="italic">picture</tspan>');
    expect(svg).toContain('<tspan font-family="DejaVu Sans Mono, monospace" fill="#37474f">vision</tspan>');
    expect(svg).toContain('☑ render the SVG');
    expect(svg).toContain('• plain bullet');
    expect(svg).not.toContain('**');

    const bytes = await renderPreviewPng(svg);
    save('preview-board.png', bytes);
    save('preview-board.svg', new TextEncoder().encode(svg));
    expect([...bytes.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
    const png = PNG.sync.read(Buffer.from(bytes));
    const [minX, minY, width, height] = /viewBox="([^"]+)"/.exec(svg)![1].split(' ').map(Number);
    expect(png.width).toBeLessThanOrEqual(1200);
    expect(Math.abs(png.height / png.width - height / width)).toBeLessThan(0.01);
    const zoom = png.width / width;
    const [dx, dy, dw, dh] = diagram!.slice(1, 5).map(Number);
    const area = (x: number, y: number, w: number, h: number) =>
      inked(png, (x - minX) * zoom, (y - minY) * zoom, (x - minX + w) * zoom, (y - minY + h) * zoom);
    expect(area(dx, dy, dw, dh)).toBeGreaterThan(0.01);
    expect(area(720, 200, 96, 96)).toBeGreaterThan(0.9);
    // The post-it is yellow (#fff59d, as in the app): a pixel inside its box, in its padding.
    const postit = (i: number) =>
      png.data[(Math.round((3 - minY) * zoom) * png.width + Math.round((404 - minX) * zoom)) * 4 + i];
    expect([postit(0), postit(1), postit(2)]).toEqual([0xff, 0xf5, 0x9d]);

    // Same SVG, same bytes, from the cache.
    expect(await renderPreviewPng(svg)).toBe(bytes);
  });

  it('a diagram type the renderer lacks shows its source in a framed monospace box', async () => {
    const { id } = (await t.api.post('/api/boards')).body;
    await t.api.post(`/api/boards/${id}/texts`, {
      x: 0,
      y: 0,
      content: '```mermaid\npie title Pets\n  "Dogs" : 3\n  "Cats" : 2\n```',
    });
    const svg: string = (await t.api.get(`/svg-preview/${id}`)).text;
    expect(svg).toContain('Mermaid: pie');
    expect(svg).toContain('not drawn');
    expect(svg).toContain('<tspan font-family="DejaVu Sans Mono, monospace" fill="#37474f">pie title Pets</tspan>');
    save('preview-pie.png', await renderPreviewPng(svg));
  });

  it('renders a board at its quotas in reasonable time', async () => {
    const { id } = (await t.api.post('/api/boards')).body;
    await t.server.server.boards.write(id, TEST_CALLER, (w) => {
      for (let i = 0; i < MAX_TEXT_NODES; i++)
        upsertText(w, {
          x: (i % 25) * 300,
          y: Math.floor(i / 25) * 200,
          content: `# Note ${i}\n${`Some **words** in note ${i}. `.repeat(200)}`,
          author: 'ai:bench',
          postit: i % 3 === 0,
        });
      for (let i = 0; i < MAX_STROKES; i++)
        upsertStroke(w, {
          points: Array.from({ length: 50 }, (_, k) => [i + k * 3, (i * 7 + k * 11) % 700] as [number, number]),
          color: 'blue',
        });
      for (let i = 0; i < MAX_IMAGES; i++)
        upsertImage(w, { x: i * 70, y: -300, width: 64, height: 64, dataUrl: PNG_1PX, thumbDataUrl: PNG_1PX });
    });
    const started = performance.now();
    const svg: string = (await t.api.get(`/svg-preview/${id}`)).text;
    const svgMs = performance.now() - started;
    const bytes = await renderPreviewPng(svg);
    const pngMs = performance.now() - started - svgMs;
    save('preview-quota.png', bytes);
    save('preview-quota.svg', new TextEncoder().encode(svg));
    const png = PNG.sync.read(Buffer.from(bytes));
    console.log(
      `board at its quotas: SVG ${svg.length} bytes in ${svgMs.toFixed(0)} ms, PNG ${png.width}×${png.height} ${bytes.length} bytes in ${pngMs.toFixed(0)} ms`,
    );
    expect(png.width).toBeLessThanOrEqual(1200);
    expect(png.height).toBeLessThanOrEqual(2400);
    expect(pngMs).toBeLessThan(5_000);
  });
});
