/**
 * Issue 56, one selection box: a multi-selection is drawn as one box around
 * all of it (not a handle per item), whose corners scale the whole selection
 * about the opposite corner (texts' widths, images' sizes, strokes' points, one
 * undo step, with a mouse and with a finger), and a press inside it, between
 * the items, drags them all. Alt+drag drags a copy and leaves the originals.
 * Each asserts on the stored board (GET /json) as well as on the page.
 */
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createBoard, PNG_1PX } from '../helpers/http.js';
import { ARTIFACTS, boardJson, openBoard, until, useChromium } from '../helpers/pages.js';
import { useServer } from '../helpers/server.js';

const t = useServer();
const chrome = useChromium();

type Box = { x: number; y: number; width: number; height: number };
type Item = { id: string; x: number; y: number; width?: number; height?: number; points?: number[][] };

const CONTENT = {
  texts: [
    { x: 100, y: 100, content: 'Left text', width: 200 },
    { x: 100, y: 260, content: 'Second' },
  ],
  images: [{ x: 420, y: 100, width: 100, height: 80, dataUrl: PNG_1PX }],
  lines: [
    {
      points: [
        [120, 360],
        [300, 400],
      ],
    },
  ],
};
const ITEMS = 4;

const makeBoard = (content: Record<string, unknown> = CONTENT) => createBoard(t.server.url, { content });

async function open(id: string, options: { phone?: boolean; dark?: boolean; items?: number } = {}) {
  const context: BrowserContext = await chrome.browser.newContext({
    ...(options.phone
      ? { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 }
      : { viewport: { width: 1280, height: 800 } }),
    colorScheme: options.dark ? 'dark' : 'light',
  });
  return { context, ...(await openBoard(context, t.server.url, id, { items: options.items ?? ITEMS })) };
}

/** The selection box in world pixels, as drawn (null when hidden). */
const worldBox = (page: Page) =>
  page.evaluate(() => {
    const box = document.querySelector<HTMLElement>('[data-testid=selection-box]');
    if (!box || box.hidden) return null;
    const px = (value: string) => Number.parseFloat(value);
    return { x: px(box.style.left), y: px(box.style.top), width: px(box.style.width), height: px(box.style.height) };
  });

/** Every drawn item's box in world pixels, by id (a stroke's from its points). */
const itemBoxes = (page: Page) =>
  page.evaluate(() => {
    const boxes: Record<string, { x: number; y: number; width: number; height: number }> = {};
    for (const element of document.querySelectorAll<HTMLElement>('.item[data-id]'))
      boxes[element.dataset.id!] = {
        x: Number.parseFloat(element.style.left),
        y: Number.parseFloat(element.style.top),
        width: element.offsetWidth,
        height: element.offsetHeight,
      };
    return boxes;
  });

const scaleOf = (page: Page) =>
  page.evaluate(() => new DOMMatrix(getComputedStyle(document.querySelector('.world')!).transform).a);

async function centreOf(page: Page, selector: string): Promise<{ x: number; y: number }> {
  const box = (await page.locator(selector).boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** Ctrl+A, and the box it draws once the selection has been measured. */
async function selectAll(page: Page): Promise<Box> {
  await page.locator('[data-testid=canvas]').focus();
  await page.keyboard.press('Control+a');
  return until(() => worldBox(page));
}

const near = (a: number, b: number, tolerance = 1.5) => Math.abs(a - b) <= tolerance;

describe('one selection box', () => {
  it('a multi-selection is one box around all of it, with four corner handles and no per-item handle', async () => {
    const id = await makeBoard();
    const { page, context, errors } = await open(id);
    await page.locator('.item.text:has-text("Left text")').click();
    await page.locator('.handle[data-handle=resize]').waitFor();
    expect(await worldBox(page)).toBeNull(); // one item keeps its own handle

    const box = await selectAll(page);
    const boxes = Object.values(await itemBoxes(page));
    const right = Math.max(...boxes.map((b) => b.x + b.width));
    expect(box.x).toBeCloseTo(100, 0);
    expect(box.y).toBeCloseTo(100, 0);
    expect(box.x + box.width).toBeCloseTo(right, 0);
    expect(box.y + box.height).toBeGreaterThanOrEqual(400); // the stroke's lowest point
    expect(await page.locator('[data-testid=selection-box] .box-handle:visible').count()).toBe(4);
    expect(await page.locator('.handle[data-handle=resize]:visible').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('its corner scales every item about the opposite corner, as one undo step', async () => {
    const id = await makeBoard();
    const { page, context, errors } = await open(id);
    const before = await boardJson(t.server.url, id);
    const box = await selectAll(page);
    const drawn = await itemBoxes(page);
    const scale = await scaleOf(page);
    // Half the box's width to the right: the bottom-right corner scales everything 1.5x about the top-left.
    const from = await centreOf(page, '[data-testid=selection-box] [data-handle=se]');
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(from.x + (box.width / 2) * scale, from.y, { steps: 8 });
    await page.mouse.up();
    const s = 1.5;
    const at = (x: number, y: number) => [box.x + (x - box.x) * s, box.y + (y - box.y) * s];
    const after = await until(async () => {
      const board = await boardJson(t.server.url, id);
      const image = board.images[0] as Item;
      return near(image.width!, 150) && board;
    });
    for (const text of after.texts as Item[]) {
      const was = (before.texts as Item[]).find((entry) => entry.id === text.id)!;
      const [x, y] = at(was.x, was.y);
      expect(text.x).toBeCloseTo(x, 0);
      expect(text.y).toBeCloseTo(y, 0);
    }
    const left = (after.texts as (Item & { content: string })[]).find((text) => text.content === 'Left text')!;
    expect(left.width).toBeCloseTo(drawn[left.id].width * s, -1); // its width scales as the handle's resize sets it
    const image = after.images[0] as Item;
    expect([image.x, image.y]).toEqual(at(420, 100));
    expect(image.height).toBeCloseTo(120, 0);
    expect((after.lines[0] as Item).points).toEqual([at(120, 360), at(300, 400)]);
    // The box is drawn around where the items went.
    const scaled = await until(async () => {
      const now = await worldBox(page);
      return now && now.width > box.width * 1.3 && now;
    });
    expect(scaled.x).toBeCloseTo(box.x, 0);
    await page.screenshot({ path: join(ARTIFACTS, 'draw-selection-box-scaled.png') });

    await page.keyboard.press('Control+z');
    await until(async () => {
      const undone = await boardJson(t.server.url, id);
      return (
        JSON.stringify(
          [undone.texts, undone.images, undone.lines].map((items) =>
            items.map(({ x, y, points }: Item) => [x, y, points]),
          ),
        ) ===
        JSON.stringify(
          [before.texts, before.images, before.lines].map((items) =>
            items.map(({ x, y, points }: Item) => [x, y, points]),
          ),
        )
      );
    });
    expect((await boardJson(t.server.url, id)).images[0].width).toBe(100);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a press inside the box, between its items, drags the whole selection', async () => {
    const id = await makeBoard({
      texts: [
        { x: 100, y: 100, content: 'top left' },
        { x: 600, y: 400, content: 'bottom right' },
      ],
    });
    const { page, context } = await open(id, { items: 2 });
    const box = await selectAll(page);
    const scale = await scaleOf(page);
    const canvas = (await page.locator('[data-testid=canvas]').boundingBox())!;
    const origin = await page.evaluate(() => {
      const m = new DOMMatrix(getComputedStyle(document.querySelector('.world')!).transform);
      return { x: m.e, y: m.f };
    });
    // The middle of the box is empty canvas: today's press there would draw a selection box and drop the selection.
    const mid = {
      x: canvas.x + origin.x + (box.x + box.width / 2) * scale,
      y: canvas.y + origin.y + (box.y + box.height / 2) * scale,
    };
    expect(
      await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('[data-id]') ?? null, mid),
    ).toBeNull();
    await page.mouse.move(mid.x, mid.y);
    await page.mouse.down();
    await page.mouse.move(mid.x + 40 * scale, mid.y + 20 * scale, { steps: 6 });
    await page.mouse.up();
    await until(async () => {
      const texts = (await boardJson(t.server.url, id)).texts as (Item & { content: string })[];
      const a = texts.find((text) => text.content === 'top left')!;
      const b = texts.find((text) => text.content === 'bottom right')!;
      return near(a.x, 140) && near(a.y, 120) && near(b.x, 640) && near(b.y, 420);
    });
    expect(await page.locator('.item.selected').count()).toBe(2);
    await context.close();
  });

  it('Alt+drag drags a copy of the selection and leaves the originals; one undo takes the copy back', async () => {
    const id = await makeBoard({
      texts: [
        { x: 100, y: 100, content: 'original' },
        { x: 300, y: 100, content: 'its neighbour' },
      ],
    });
    const { page, context, errors } = await open(id, { items: 2 });
    await selectAll(page);
    const scale = await scaleOf(page);
    const from = await centreOf(page, '.item.text:has-text("original")');
    await page.keyboard.down('Alt');
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(from.x + 60 * scale, from.y + 80 * scale, { steps: 6 });
    await page.mouse.up();
    await page.keyboard.up('Alt');
    const after = await until(async () => {
      const board = await boardJson(t.server.url, id);
      return board.texts.length === 4 && board.texts.some((text: Item) => near(text.y, 180)) && board;
    });
    const at = (after.texts as (Item & { content: string })[]).map(
      (text) => `${text.content}@${Math.round(text.x)},${Math.round(text.y)}`,
    );
    expect(at.sort()).toEqual([
      'its neighbour@300,100',
      'its neighbour@360,180',
      'original@100,100',
      'original@160,180',
    ]);
    // The copies are what is selected now, where the drag left them.
    const selected = await page.$$eval('.item.selected', (elements) =>
      elements.map((e) => (e as HTMLElement).style.top),
    );
    expect(selected).toEqual(['180px', '180px']);

    await page.keyboard.press('Control+z');
    await until(async () => (await boardJson(t.server.url, id)).texts.length === 2);
    const undone = (await boardJson(t.server.url, id)).texts.map((text: Item) => [text.x, text.y]);
    expect(undone.sort()).toEqual([
      [100, 100],
      [300, 100],
    ]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a selection of more than 200 items scales too: the box follows the pointer at once, the items land where it ends', async () => {
    const content = {
      texts: Array.from({ length: 250 }, (_, i) => ({
        x: (i % 25) * 50,
        y: Math.floor(i / 25) * 40,
        content: `t${i}`,
      })),
    };
    const id = await createBoard(t.server.url, { content });
    const before = await boardJson(t.server.url, id);
    const { page, context, errors } = await open(id, { items: 250 });
    const box = await selectAll(page);
    const scale = await scaleOf(page);
    const from = await centreOf(page, '[data-testid=selection-box] [data-handle=se]');
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(from.x + (box.width / 4) * scale, from.y, { steps: 4 });
    // Held still: the box already shows the scaled selection, drawn by the gesture, not measured from the items.
    await until(async () => near((await worldBox(page))!.width, box.width * 1.25, 2));
    await page.mouse.up();
    const s = 1.25;
    await until(async () => {
      const after = await boardJson(t.server.url, id);
      return (after.texts as Item[]).every((text) => {
        const was = (before.texts as Item[]).find((entry) => entry.id === text.id)!;
        return near(text.x, box.x + (was.x - box.x) * s) && near(text.y, box.y + (was.y - box.y) * s);
      });
    });
    await page.keyboard.press('Control+z');
    await until(async () => {
      const undone = await boardJson(t.server.url, id);
      return (undone.texts as Item[]).every((text) => {
        const was = (before.texts as Item[]).find((entry) => entry.id === text.id)!;
        return text.x === was.x && text.y === was.y;
      });
    });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('on a phone a finger drags a corner of the box to scale the selection', async () => {
    const id = await makeBoard({
      texts: [
        { x: 20, y: 40, content: 'one', width: 160 },
        { x: 20, y: 200, content: 'two', width: 160 },
      ],
    });
    const { page, context, errors } = await open(id, { phone: true, items: 2 });
    const box = await selectAll(page);
    const scale = await scaleOf(page);
    const from = await centreOf(page, '[data-testid=selection-box] [data-handle=se]');
    const cdp = await context.newCDPSession(page);
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', x: number, y: number) =>
      cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y }] });
    await touch('touchStart', from.x, from.y);
    for (let i = 1; i <= 6; i++) await touch('touchMove', from.x + (i * box.width * scale * 0.25) / 6, from.y);
    await touch('touchEnd', 0, 0);
    // 1.25x about the top-left: the second text goes down, both widen.
    const after = await until(async () => {
      const texts = (await boardJson(t.server.url, id)).texts as (Item & { content: string })[];
      const two = texts.find((text) => text.content === 'two')!;
      return near(two.y, box.y + (200 - box.y) * 1.25, 3) && texts;
    });
    for (const text of after) expect(text.width).toBeCloseTo(200, -1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('screenshots of a multi-selection box, light and dark, desktop and phone', async () => {
    const id = await makeBoard();
    for (const [name, options] of [
      ['desktop', {}],
      ['desktop-dark', { dark: true }],
      ['phone', { phone: true }],
      ['phone-dark', { phone: true, dark: true }],
    ] as const) {
      const { page, context } = await open(id, options);
      await selectAll(page);
      await page.screenshot({ path: join(ARTIFACTS, `draw-selection-box-${name}.png`) });
      await context.close();
    }
  }, 60_000); // four browser contexts, one after another
});
