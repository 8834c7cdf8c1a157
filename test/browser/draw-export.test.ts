/**
 * Issue 20, export and print on draw boards: the Export menu downloads a PNG
 * and an SVG framing the items (not the viewport), of the whole board or the
 * selection, named after the board; the print stylesheet shows the board alone.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, exportFile, openBoard as openBoardPage, until, useChromium } from '../helpers/pages.js';
import { useServer } from '../helpers/server.js';

const t = useServer();
const chrome = useChromium();

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const PNG_1PX =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const MERMAID = '```mermaid\nflowchart LR\n  Start --> Ship\n```';
const CONTENT = {
  texts: [
    { x: -300, y: -120, content: '# Plan\n- **bold** step\n- [x] done' },
    { x: 900, y: 500, content: 'Far corner', postit: true },
    { x: 200, y: 200, content: MERMAID },
  ],
  lines: [
    {
      points: [
        [-250, 300],
        [0, 400],
        [300, 350],
      ],
      color: 'red',
    },
  ],
  images: [{ x: 600, y: -100, width: 80, height: 80, dataUrl: PNG_1PX }],
};
/** The margin the export leaves around the items, in world pixels (export.ts EXPORT_MARGIN_PX). */
const MARGIN_PX = 24;

async function openBoard(
  options: { viewport?: typeof DESKTOP; dark?: boolean } = {},
): Promise<{ id: string; context: BrowserContext; page: Page; errors: string[] }> {
  const response = await fetch(`${t.server.url}/api/boards`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ content: CONTENT }),
  });
  const { id } = (await response.json()) as { id: string };
  const context = await chrome.browser.newContext({
    viewport: options.viewport ?? DESKTOP,
    colorScheme: options.dark ? 'dark' : 'light',
    acceptDownloads: true,
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${t.server.url}/#${id}`);
  await until(async () => (await page.textContent('[data-testid=status]')) === 'Live');
  await page.waitForSelector('.item.mermaid svg', { timeout: 15_000 });
  return { id, context, page, errors };
}

/** The items' bounding box in world coordinates, measured from the DOM (`only` limits it to some ids). */
function contentBox(page: Page, only?: string[]): Promise<{ width: number; height: number }> {
  return page.evaluate((ids) => {
    const viewport = document.querySelector('[data-testid=canvas]')!.getBoundingClientRect();
    const m = new DOMMatrix(getComputedStyle(document.querySelector('.world')!).transform);
    let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const element of document.querySelectorAll<HTMLElement>('.world [data-id]')) {
      if (ids && !ids.includes(element.dataset.id!)) continue;
      const r = element.getBoundingClientRect();
      const [x0, y0] = [(r.left - viewport.left - m.e) / m.a, (r.top - viewport.top - m.f) / m.a];
      [minX, minY, maxX, maxY] = [
        Math.min(minX, x0),
        Math.min(minY, y0),
        Math.max(maxX, x0 + r.width / m.a),
        Math.max(maxY, y0 + r.height / m.a),
      ];
    }
    return { width: maxX - minX, height: maxY - minY };
  }, only);
}

/** Width and height from a PNG's IHDR chunk, after checking the signature. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(bytes.subarray(12, 16).toString('ascii')).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('draw export and print', () => {
  it('the Export menu closes on Escape, on a press on the canvas, and when the shortcuts open over it', async () => {
    const { page, context, errors } = await openBoard();
    const open = () => page.evaluate(() => (document.querySelector('.export-menu') as HTMLDetailsElement).open);
    await page.click('.export-menu > summary');
    expect(await open()).toBe(true);
    await page.keyboard.press('Escape');
    expect(await open()).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.matches('.export-menu > summary'))).toBe(true);
    await page.click('.export-menu > summary');
    await page.mouse.click(640, 600);
    expect(await open()).toBe(false);
    await page.click('.export-menu > summary');
    await page.keyboard.press('?');
    await page.waitForSelector('dialog[open]', { timeout: 3_000 });
    expect(await open()).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('Export PNG frames every item (not the viewport), named after the board', async () => {
    const { id, page, context, errors } = await openBoard();
    await page.mouse.wheel(0, 0);
    await page.keyboard.press('+'); // a zoom and pan of the view must not change the picture
    await page.keyboard.press('ArrowLeft');
    const box = await contentBox(page);
    const { name, bytes } = await exportFile(page, 'PNG of the board');
    expect(name).toBe(`board-${id.slice(0, 8)}.png`);
    writeFileSync(join(ARTIFACTS, 'draw-export.png'), bytes);
    const size = pngSize(bytes);
    expect(Math.abs(size.width - (box.width + 2 * MARGIN_PX))).toBeLessThanOrEqual(4);
    expect(Math.abs(size.height - (box.height + 2 * MARGIN_PX))).toBeLessThanOrEqual(4);
    await page.screenshot({ path: join(ARTIFACTS, 'draw-export-menu.png') });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('Export SVG is a valid SVG holding the texts, the drawn diagram and the image', async () => {
    const { id, page, context, errors } = await openBoard();
    const { name, bytes } = await exportFile(page, 'SVG of the board');
    expect(name).toBe(`board-${id.slice(0, 8)}.svg`);
    const svg = bytes.toString('utf8');
    writeFileSync(join(ARTIFACTS, 'draw-export.svg'), svg);
    const parsed = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
      return {
        error: doc.querySelector('parsererror')?.textContent ?? null,
        root: doc.documentElement.localName,
        width: Number(doc.documentElement.getAttribute('width')),
        text: doc.documentElement.textContent ?? '',
        diagram: doc.querySelectorAll('svg svg').length,
        images: [...doc.querySelectorAll('img')].map((img) => img.getAttribute('src')?.slice(0, 22)),
      };
    }, svg);
    expect(parsed.error).toBeNull();
    expect(parsed.root).toBe('svg');
    expect(parsed.text).toContain('Plan');
    expect(parsed.text).toContain('bold');
    expect(parsed.text).toContain('Far corner');
    expect(parsed.diagram).toBeGreaterThan(0); // Mermaid's own SVG, drawn
    expect(parsed.images).toContain('data:image/png;base64,'); // the image is inlined, not a link to the server
    const box = await contentBox(page);
    expect(Math.abs(parsed.width - (box.width + 2 * MARGIN_PX))).toBeLessThanOrEqual(4);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('Export SVG of a 15-item board: the background covers the whole picture, and the file is a few tens of KB', async () => {
    const texts = [
      ...[
        '# Roadmap\n- **Q1** ship\n- [ ] hire',
        'Plain note',
        'A *quiet* remark',
        '## Risks\n1. late\n2. over budget',
      ].map((content, i) => ({ x: i * 260, y: 0, content })),
      ...['Buy milk', 'Call the bank', 'Review PR'].map((content, i) => ({
        x: i * 220,
        y: 220,
        content,
        postit: true,
      })),
      { x: 700, y: 220, content: 'Frame', diagram: true },
      { x: -200, y: 420, content: '`code` and [a link](https://example.org)', color: 'blue' },
      { kind: 'link', x: 300, y: 420, url: 'https://example.org/docs' },
      { kind: 'link', x: 600, y: 420, url: 'https://status.example.org' },
    ];
    const lines = [0, 1, 2, 3].map((i) => ({
      points: [
        [i * 200, 520],
        [i * 200 + 120, 600],
        [i * 200 + 180, 540],
      ],
      color: i % 2 ? 'red' : 'auto',
    }));
    const created = await fetch(`${t.server.url}/api/boards`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content: { texts, lines } }),
    });
    const { id } = (await created.json()) as { id: string };
    for (const dark of [false, true]) {
      const context = await chrome.browser.newContext({
        viewport: DESKTOP,
        colorScheme: dark ? 'dark' : 'light',
        acceptDownloads: true,
      });
      const { page, errors } = await openBoardPage(context, t.server.url, id, { items: 15 });
      await page.keyboard.press('0'); // fitted, to set beside the export
      await page.screenshot({ path: join(ARTIFACTS, `draw-export-15-app${dark ? '-dark' : ''}.png`) });
      const { bytes } = await exportFile(page, 'SVG of the board');
      const svg = bytes.toString('utf8');
      writeFileSync(join(ARTIFACTS, `draw-export-15${dark ? '-dark' : ''}.svg`), svg);
      expect(svg.length, 'the SVG of 15 items without images').toBeLessThan(40_000);
      // Only the board: none of the app's own layers (handles, the selection's box, snap guides, waiting images).
      expect(svg).not.toMatch(/class="(handles|box-handle|selection-box|snap-guides|waiting-images)"/);
      const seen = await page.evaluate((text) => {
        const root = new DOMParser().parseFromString(text, 'image/svg+xml').documentElement;
        const [width, height] = ['width', 'height'].map((name) => Number(root.getAttribute(name)));
        const rect = root.querySelector(':scope > rect');
        return {
          width,
          height,
          rect: rect && {
            x: rect.getAttribute('x') ?? '0',
            y: rect.getAttribute('y') ?? '0',
            width: rect.getAttribute('width'),
            height: rect.getAttribute('height'),
            fill: rect.getAttribute('fill'),
          },
          page: getComputedStyle(document.body).backgroundColor,
        };
      }, svg);
      expect(seen.rect, 'a background under the whole picture').toEqual({
        x: '0',
        y: '0',
        width: '100%',
        height: '100%',
        fill: seen.page,
      });
      // What it looks like: the file drawn as an image, over a contrasting page, so a background short of the edges shows.
      await page.setContent('<body style="margin:0;background:#f0f"></body>');
      await page.evaluate((text) => {
        const img = document.createElement('img');
        img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`;
        document.body.append(img);
        return img.decode();
      }, svg);
      await page.screenshot({ path: join(ARTIFACTS, `draw-export-15${dark ? '-dark' : ''}.png`) });
      const corners = await page.evaluate(
        ({ width, height }) => {
          const img = document.querySelector('img')!;
          const canvas = document.createElement('canvas');
          [canvas.width, canvas.height] = [width, height];
          const context2d = canvas.getContext('2d')!;
          context2d.drawImage(img, 0, 0);
          return [
            [1, 1],
            [width - 2, 1],
            [1, height - 2],
            [width - 2, height - 2],
          ].map(([x, y]) => [...context2d.getImageData(x, y, 1, 1).data]);
        },
        { width: seen.width, height: seen.height },
      );
      const [r, g, b] = seen.page.match(/\d+/g)!.map(Number);
      for (const corner of corners) expect(corner).toEqual([r, g, b, 255]);
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it('Export of the selection frames only the selected items', async () => {
    const { page, context, errors } = await openBoard();
    const postit = page.locator('.item.postit');
    await postit.click();
    const only = [(await postit.getAttribute('data-id'))!];
    const box = await contentBox(page, only);
    const { name, bytes } = await exportFile(page, 'PNG of the selection');
    expect(name).toMatch(/-selection\.png$/);
    const size = pngSize(bytes);
    expect(Math.abs(size.width - (box.width + 2 * MARGIN_PX))).toBeLessThanOrEqual(4);
    expect(Math.abs(size.height - (box.height + 2 * MARGIN_PX))).toBeLessThanOrEqual(4);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the print stylesheet hides the bar and the toolbar and shows the board alone', async () => {
    const { page, context } = await openBoard({ dark: true });
    await page.evaluate(() => dispatchEvent(new Event('beforeprint'))); // what the print dialogue sends first
    await page.emulateMedia({ media: 'print' });
    const plan = (await page.locator('.item.text:has-text("Plan")').boundingBox())!;
    expect(plan.x).toBeGreaterThanOrEqual(0); // the board's top-left item is on the page, whatever the view was
    expect(plan.y).toBeGreaterThanOrEqual(0);
    expect(plan.x).toBeLessThanOrEqual(30);
    const display = await page.evaluate(() => ({
      toolbar: getComputedStyle(document.querySelector('.toolbar')!).display,
      bar: getComputedStyle(document.querySelector('.bar')!).display,
      viewport: getComputedStyle(document.querySelector('.viewport')!).display,
      background: getComputedStyle(document.body).backgroundColor,
    }));
    expect(display).toEqual({ toolbar: 'none', bar: 'none', viewport: 'block', background: 'rgb(255, 255, 255)' });
    await page.screenshot({ path: join(ARTIFACTS, 'draw-print.png') });
    await page.evaluate(() => dispatchEvent(new Event('afterprint')));
    // A real print (the PDF Chromium makes for "Save as PDF"): one page, the board's size, not A4.
    await page.emulateMedia({ media: 'screen' });
    const pdf = (await page.pdf({ preferCSSPageSize: true, printBackground: true })).toString('latin1');
    const boxes = [...pdf.matchAll(/\/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]/g)].map((m) => [
      Number(m[1]),
      Number(m[2]),
    ]);
    const board = await contentBox(page);
    writeFileSync(join(ARTIFACTS, 'draw-print.pdf'), pdf, 'latin1');
    expect(boxes).toHaveLength(1);
    expect(Math.abs(boxes[0][0] - (board.width + 2 * MARGIN_PX) * 0.75)).toBeLessThanOrEqual(4);
    await page.emulateMedia({ media: 'screen' });
    expect(
      await page.evaluate(() =>
        document.querySelector<HTMLElement>('.world')!.style.getPropertyValue('--print-transform'),
      ),
    ).toBe('');
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('.toolbar')!).display)).not.toBe('none');
    await context.close();
  });

  it('screenshots of the Export menu: desktop and phone, light and dark', async () => {
    for (const [viewport, dark, name] of [
      [DESKTOP, false, 'desktop-light'],
      [DESKTOP, true, 'desktop-dark'],
      [PHONE, false, 'phone-light'],
      [PHONE, true, 'phone-dark'],
    ] as const) {
      const { page, context } = await openBoard({ viewport, dark });
      await page.click('.export-menu > summary');
      await page.screenshot({ path: join(ARTIFACTS, `draw-export-${name}.png`) });
      const list = (await page.locator('.export-menu .menu-list').boundingBox())!;
      expect(list.x).toBeGreaterThanOrEqual(0);
      expect(list.x + list.width).toBeLessThanOrEqual(viewport.width);
      await context.close();
    }
  }, 60_000); // four boards opened in turn: about 10 s alone, past 30 s beside another file's servers
});
