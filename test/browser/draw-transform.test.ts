/**
 * Issue 20, selection and transform on draw boards, held to tldraw and
 * Excalidraw habits: resize handles, the selection box, nudging, the hand tool,
 * drags seen live by others, arrows anchored to items, the eraser, the empty
 * board's hint, and `data-id` on every item. Each asserts on the stored board
 * (GET /json) as well as on the page.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type Box, centreOf, expectOnEdge } from '../helpers/edges.js';
import { PNG_1PX } from '../helpers/http.js';
import { ARTIFACTS, boardJson, openBoard, until, useChromium } from '../helpers/pages.js';
import { useServer } from '../helpers/server.js';

const t = useServer();
const chrome = useChromium();

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

type Content = {
  texts?: Record<string, unknown>[];
  lines?: Record<string, unknown>[];
  images?: Record<string, unknown>[];
};

async function makeBoard(content: Content = {}): Promise<string> {
  const response = await fetch(`${t.server.url}/api/boards`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ content }),
  });
  return ((await response.json()) as { id: string }).id;
}

/** Opens board `id` as a new person, and waits until it is live and drawn. */
async function open(id: string, options: { phone?: boolean; dark?: boolean; items?: number } = {}) {
  const context = await chrome.browser.newContext({
    ...(options.phone
      ? { viewport: PHONE, hasTouch: true, isMobile: true, deviceScaleFactor: 2 }
      : { viewport: DESKTOP }),
    colorScheme: options.dark ? 'dark' : 'light',
  });
  return { context, ...(await openBoard(context, t.server.url, id, options)) };
}

/** Screen pixels per world pixel. */
const scaleOf = (page: Page) =>
  page.evaluate(() => new DOMMatrix(getComputedStyle(document.querySelector('.world')!).transform).a);

async function centre(page: Page, selector: string): Promise<{ x: number; y: number }> {
  const box = (await page.locator(selector).boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

async function drag(
  page: Page,
  from: { x: number; y: number },
  to: { x: number; y: number },
  options: { steps?: number; shift?: boolean } = {},
): Promise<void> {
  await page.mouse.move(from.x, from.y);
  if (options.shift) await page.keyboard.down('Shift');
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps: options.steps ?? 8 });
  await page.mouse.up();
  if (options.shift) await page.keyboard.up('Shift');
}

/** The world layer's transform: pan and zoom. */
const worldTransform = (page: Page) =>
  page.evaluate(() => getComputedStyle(document.querySelector('.world')!).transform);

/** The view has moved from `before` and the stored board is still at `etag` a moment later: a pan that wrote nothing. */
async function expectPanOnly(page: Page, id: string, before: string, etag: string): Promise<void> {
  expect(await worldTransform(page)).not.toBe(before);
  await page.waitForTimeout(300);
  expect((await boardJson(t.server.url, id)).etag).toBe(etag);
}

const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, name) });
const text = (id: string) => `.item.text[data-id="${id}"]`;

describe('draw selection and transform', () => {
  it('the right-edge handle resizes a text: its stored width follows, within 160–4096', async () => {
    const id = await makeBoard({
      texts: [
        { x: 100, y: 100, content: 'a text to widen' },
        { x: 100, y: 400, content: 'another' },
      ],
    });
    const { page, context, errors } = await open(id, { items: 2 });
    const [item] = (await boardJson(t.server.url, id)).texts;
    await page.click(text(item.id));
    const handle = page.locator('.handle[data-kind=texts]');
    await handle.waitFor();
    const before = (await page.locator(text(item.id)).boundingBox())!;
    const scale = await scaleOf(page);
    const at = await centre(page, '.handle');
    await drag(page, at, { x: at.x + 150, y: at.y + 40 });
    // The drag is shared live, so the stored width passes through the drag's steps: wait for where it ends.
    const wanted = before.width / scale + 150 / scale;
    const widened = await until(async () =>
      (await boardJson(t.server.url, id)).texts.find((x: any) => x.id === item.id && Math.abs(x.width - wanted) < 5),
    );
    expect(widened.width).toBeCloseTo(wanted, -1);
    expect(widened.x).toBe(100); // the left edge stays
    await until(
      async () => Math.abs((await page.locator(text(item.id)).boundingBox())!.width - (before.width + 150)) < 3,
    );
    await shot(page, 'draw-resize-text.png');

    const now = await centre(page, '.handle');
    await drag(page, now, { x: now.x - 2000, y: now.y });
    await until(async () => (await boardJson(t.server.url, id)).texts.find((x: any) => x.id === item.id).width === 160);
    // A double click on the handle is no double click on empty canvas: no editor, no new text.
    await page.mouse.dblclick((await centre(page, '.handle')).x, (await centre(page, '.handle')).y);
    await page.waitForTimeout(300);
    expect(await page.locator('textarea.editor').count()).toBe(0);
    expect((await boardJson(t.server.url, id)).texts).toHaveLength(2);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('on a phone a finger drags the handle to resize, and one finger on empty canvas pans', async () => {
    const id = await makeBoard({ texts: [{ x: 20, y: 20, content: 'narrow' }] });
    const { page, context, errors } = await open(id, { phone: true, items: 1 });
    await page.touchscreen.tap(...(Object.values(await centre(page, '.item.text')) as [number, number]));
    await page.locator('.handle').waitFor();
    const scale = await scaleOf(page);
    const cdp = await context.newCDPSession(page);
    /** One finger pressed at `from`, moved to `to` in steps, and lifted (Playwright's touchscreen only taps). */
    const swipe = async (from: { x: number; y: number }, to: { x: number; y: number }) => {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: from.x, y: from.y }] });
      for (let i = 1; i <= 6; i++)
        await cdp.send('Input.dispatchTouchEvent', {
          type: 'touchMove',
          touchPoints: [{ x: from.x + ((to.x - from.x) * i) / 6, y: from.y + ((to.y - from.y) * i) / 6 }],
        });
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    };
    const before = (await page.locator('.item.text').boundingBox())!.width;
    const at = await centre(page, '.handle');
    await swipe(at, { x: at.x + 120, y: at.y });
    const wanted = (before + 120) / scale;
    const widened = await until(async () => {
      const { width } = (await boardJson(t.server.url, id)).texts[0];
      return Math.abs(width - wanted) < 5 && width; // the swipe is shared live: its steps are stored on the way
    });
    expect(widened).toBeCloseTo(wanted, -1);
    await shot(page, 'draw-resize-phone.png');

    const { etag } = await boardJson(t.server.url, id);
    const view = await worldTransform(page);
    await swipe({ x: 200, y: 700 }, { x: 150, y: 600 });
    await expectPanOnly(page, id, view, etag);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the corner handle resizes an image keeping its ratio; with Shift the ratio is free', async () => {
    const id = await makeBoard({ images: [{ x: 100, y: 100, width: 200, height: 100, dataUrl: PNG_1PX }] });
    const { page, context, errors } = await open(id, { items: 1 });
    const [image] = (await boardJson(t.server.url, id)).images;
    await page.click(`.item.image[data-id="${image.id}"]`);
    const at = await centre(page, '.handle[data-kind=images]');
    const scale = await scaleOf(page);
    await drag(page, at, { x: at.x + 100 * scale, y: at.y + 10 * scale });
    const kept = await until(async () => {
      const found = (await boardJson(t.server.url, id)).images[0];
      return found.width !== 200 && found;
    });
    expect(kept.width).toBeCloseTo(300, 0);
    expect(kept.width / kept.height).toBeCloseTo(2, 2);

    const corner = await centre(page, '.handle[data-kind=images]');
    await drag(page, corner, { x: corner.x - 100 * scale, y: corner.y + 100 * scale }, { shift: true });
    const free = await until(async () => {
      const found = (await boardJson(t.server.url, id)).images[0];
      return found.width !== kept.width && found;
    });
    expect(free.width).toBeCloseTo(200, 0);
    expect(free.height).toBeCloseTo(250, 0);
    expect([free.x, free.y]).toEqual([100, 100]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a plain drag on empty canvas selects what it encloses, and Delete removes exactly that', async () => {
    const id = await makeBoard({
      texts: [
        { x: 100, y: 100, content: 'in one' },
        { x: 300, y: 120, content: 'in two' },
        { x: 100, y: 500, content: 'stays outside' },
      ],
    });
    const { page, context } = await open(id, { items: 3 });
    const before = await worldTransform(page);
    const one = (await page.locator('.item.text:has-text("in one")').boundingBox())!;
    const two = (await page.locator('.item.text:has-text("in two")').boundingBox())!;
    await drag(page, { x: one.x - 20, y: one.y - 20 }, { x: two.x + two.width + 20, y: two.y + two.height + 20 });
    expect(await page.locator('.item.selected').count()).toBe(2);
    expect(await worldTransform(page)).toBe(before); // no pan
    await page.keyboard.press('Delete');
    const after = await until(async () => {
      const board = await boardJson(t.server.url, id);
      return board.texts.length === 1 && board;
    });
    expect(after.texts[0].content).toBe('stays outside');
    await context.close();
  });

  it('dragging one item of a multi-selection moves them all, as one undo step', async () => {
    const id = await makeBoard({
      texts: [
        { x: 100, y: 100, content: 'first' },
        { x: 300, y: 100, content: 'second' },
      ],
      lines: [
        {
          points: [
            [100, 300],
            [300, 320],
          ],
        },
      ],
    });
    const { page, context } = await open(id, { items: 3 });
    await page.keyboard.press('Control+a');
    expect(await page.locator('.selected').count()).toBe(3);
    const scale = await scaleOf(page);
    const from = await centre(page, '.item.text:has-text("second")');
    await drag(page, from, { x: from.x + 50 * scale, y: from.y + 30 * scale });
    const moved = await until(async () => {
      const board = await boardJson(t.server.url, id);
      return board.texts.every((x: any) => x.y !== 100) && board;
    });
    const positions = moved.texts.map((x: any) => [x.x, x.y]).sort((a: number[], b: number[]) => a[0] - b[0]);
    expect(positions[0][0]).toBeCloseTo(150, 0);
    expect(positions[1][0]).toBeCloseTo(350, 0);
    expect(positions[0][1]).toBeCloseTo(130, 0);
    expect(moved.lines[0].points[0][0]).toBeCloseTo(150, 0);
    await page.keyboard.press('Control+z');
    await until(async () => (await boardJson(t.server.url, id)).texts.every((x: any) => x.y === 100));
    expect((await boardJson(t.server.url, id)).lines[0].points[0]).toEqual([100, 300]);
    await context.close();
  });

  it('arrow keys nudge the selection by 1 px, Shift by 10 px; with nothing selected they pan and store nothing', async () => {
    const id = await makeBoard({ texts: [{ x: 100, y: 100, content: 'nudge me' }] });
    const { page, context } = await open(id, { items: 1 });
    const [item] = (await boardJson(t.server.url, id)).texts;
    await page.click(text(item.id));
    await page.keyboard.press('ArrowRight');
    await until(async () => (await boardJson(t.server.url, id)).texts[0].x === 101);
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowLeft');
    await until(async () => {
      const [moved] = (await boardJson(t.server.url, id)).texts;
      return moved.x === 91 && moved.y === 110;
    });

    await page.keyboard.press('Escape');
    const { etag } = await boardJson(t.server.url, id);
    const view = () => worldTransform(page);
    const before = await view();
    await page.keyboard.press('ArrowRight');
    await expectPanOnly(page, id, before, etag);
    await context.close();
  });

  it('the hand tool (button, H, space) pans over items and stores nothing', async () => {
    const id = await makeBoard({ texts: [{ x: 100, y: 100, content: 'do not move me' }] });
    const { page, context } = await open(id, { items: 1 });
    const { etag } = await boardJson(t.server.url, id);
    const view = () => worldTransform(page);
    await page.getByRole('button', { name: 'Hand' }).click();
    expect(await page.getByRole('button', { name: 'Hand' }).getAttribute('aria-pressed')).toBe('true');
    let before = await view();
    let from = await centre(page, '.item.text');
    await drag(page, from, { x: from.x + 120, y: from.y + 60 });
    expect(await view()).not.toBe(before);

    await page.keyboard.press('v');
    await page.keyboard.press('h');
    expect(await page.getByRole('button', { name: 'Hand' }).getAttribute('aria-pressed')).toBe('true');
    await page.keyboard.press('v');
    before = await view();
    from = await centre(page, '.item.text');
    await page.keyboard.down(' ');
    await drag(page, from, { x: from.x - 80, y: from.y + 30 });
    await page.keyboard.up(' ');
    await expectPanOnly(page, id, before, etag);
    await context.close();
  });

  it('another person sees a dragged item move before the drop, and the drag undoes in one step', async () => {
    const id = await makeBoard({ texts: [{ x: 100, y: 100, content: 'follow me' }] });
    const mover = await open(id, { items: 1 });
    const watcher = await open(id, { items: 1 });
    const [item] = (await boardJson(t.server.url, id)).texts;
    const left = () =>
      watcher.page.evaluate(
        (selector) => parseFloat((document.querySelector(selector) as HTMLElement).style.left),
        text(item.id),
      );
    expect(await left()).toBe(100);

    const from = await centre(mover.page, text(item.id));
    await mover.page.mouse.move(from.x, from.y);
    await mover.page.mouse.down();
    for (let i = 1; i <= 10; i++) {
      await mover.page.mouse.move(from.x + i * 20, from.y + i * 5);
      if (i === 5) await mover.page.waitForTimeout(600); // a pause longer than the undo manager's capture timeout
    }
    // Still held: the watcher and the stored board already have it on its way.
    await until(async () => (await left()) > 150);
    expect((await boardJson(t.server.url, id)).texts[0].x).toBeGreaterThan(150);
    await watcher.page.screenshot({ path: join(ARTIFACTS, 'draw-live-drag-watcher.png') });
    await mover.page.mouse.up();
    const dropped = await until(async () => {
      const [moved] = (await boardJson(t.server.url, id)).texts;
      return moved.x > 150 && moved;
    });
    await until(async () => (await left()) === dropped.x);

    await mover.page.keyboard.press('Control+z');
    await until(async () => (await boardJson(t.server.url, id)).texts[0].x === 100);
    expect((await boardJson(t.server.url, id)).texts[0].y).toBe(100);
    expect([...mover.errors, ...watcher.errors]).toEqual([]);
    await mover.context.close();
    await watcher.context.close();
  });

  it('the arrow tool (A) draws a stroke anchored to the texts under its ends, with a head, that follows them', async () => {
    const id = await makeBoard({
      texts: [
        { x: 100, y: 100, content: 'from here' },
        { x: 500, y: 300, content: 'to there' },
      ],
    });
    const { page, context, errors } = await open(id, { items: 2 });
    const texts = (await boardJson(t.server.url, id)).texts;
    const from = texts.find((x: any) => x.content === 'from here');
    const to = texts.find((x: any) => x.content === 'to there');
    await page.keyboard.press('a');
    expect(await page.getByRole('button', { name: 'Arrow' }).getAttribute('aria-pressed')).toBe('true');
    await drag(page, await centre(page, text(from.id)), await centre(page, text(to.id)));
    const [line] = await until(async () => {
      const board = await boardJson(t.server.url, id);
      return board.lines.length === 1 && board.lines;
    });
    expect(line.anchors.start).toMatchObject({ kind: 'text', id: from.id });
    expect(line.anchors.end).toMatchObject({ kind: 'text', id: to.id });
    expect(line.points).toHaveLength(2);
    // It starts and ends on its texts' edges (here the target's top), not under them.
    expect(line.points[0][0]).toBeGreaterThan(from.x);
    expect(line.points[1][1]).toBeCloseTo(to.y, 0);
    expect(await page.locator(`.stroke[data-id="${line.id}"]`).getAttribute('marker-end')).toMatch(/^url\(#arrowhead-/);
    await shot(page, 'draw-arrow.png');

    await fetch(`${t.server.url}/api/boards/${id}/texts/${to.id}/move`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ x: 600, y: 500 }),
    });
    const [followed] = await until(async () => {
      const board = await boardJson(t.server.url, id);
      return board.lines[0].points[1][1] > line.points[1][1] + 150 && board.lines;
    });
    expect(followed.points[1]).toEqual([600 + followed.anchors.end.dx, 500 + followed.anchors.end.dy]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('an arrow drawn to empty canvas has its head too, in the app and the preview', async () => {
    const id = await makeBoard({ texts: [{ x: 100, y: 100, content: 'from here' }] });
    const { page, context, errors } = await open(id, { items: 1 });
    const [from] = (await boardJson(t.server.url, id)).texts;
    await page.keyboard.press('a');
    const start = await centre(page, text(from.id));
    await drag(page, start, { x: start.x + 300, y: start.y + 200 });
    const [line] = await until(async () => {
      const board = await boardJson(t.server.url, id);
      return board.lines.length === 1 && board.lines;
    });
    expect(line).toMatchObject({ arrowhead: 'end', anchors: { start: { id: from.id } } });
    expect(line.anchors.end).toBeUndefined();
    expect(await page.locator(`.stroke[data-id="${line.id}"]`).getAttribute('marker-end')).toMatch(/^url\(#arrowhead-/);
    const svg = await (await fetch(`${t.server.url}/svg-preview/${id}`)).text();
    expect(svg).toMatch(/<polyline class="stroke arrow[^"]*"[^>]*marker-end=/);
    await shot(page, 'draw-arrow-open-end.png');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('an arrow runs edge to edge on the line between the centres after its target moves far below-left, live, stored and in the preview', async () => {
    const id = await makeBoard({
      texts: [
        { x: 600, y: 100, content: 'Source' },
        { x: 950, y: 160, content: 'Target text' },
      ],
    });
    const { page, context, errors } = await open(id, { items: 2 });
    const texts = (await boardJson(t.server.url, id)).texts;
    const from = texts.find((x: any) => x.content === 'Source');
    const to = texts.find((x: any) => x.content === 'Target text');
    await page.keyboard.press('a');
    await drag(page, await centre(page, text(from.id)), await centre(page, text(to.id)));
    const [line] = await until(async () => {
      const board = await boardJson(t.server.url, id);
      return board.lines.length === 1 && board.lines;
    });
    /** The drawn arrow's ends and the two texts' boxes, in world pixels, as the page shows them. */
    const drawn = () =>
      page.evaluate(
        ([lineId, fromId, toId]) => {
          const box = (itemId: string) => {
            const element = document.querySelector<HTMLElement>(`[data-id="${itemId}"]`)!;
            // While dragged, an item is drawn where its lifted layer has carried it (docs/browser-app.md).
            const lifted = element.closest('.lifted-content');
            const world = document.querySelector('.world')!;
            const scale = new DOMMatrix(getComputedStyle(world).transform).a;
            const [origin, carried] = [world, lifted ?? world].map((e) => e.getBoundingClientRect());
            const [x, y] = [
              Number.parseFloat(element.style.left) + (carried.left - origin.left) / scale,
              Number.parseFloat(element.style.top) + (carried.top - origin.top) / scale,
            ];
            return { x, y, width: element.offsetWidth, height: element.offsetHeight };
          };
          const points = (document.querySelector(`.stroke[data-id="${lineId}"]`) as SVGPolylineElement).points;
          return {
            ends: [points[0], points[points.length - 1]].map(({ x, y }) => ({ x, y })),
            from: box(fromId),
            to: box(toId),
          };
        },
        [line.id, from.id, to.id],
      );
    const expectEdgeToEdge = (seen: Awaited<ReturnType<typeof drawn>>, what: string) => {
      expectOnEdge(seen.ends[0], seen.from, centreOf(seen.to), 2, `${what} start`);
      expectOnEdge(seen.ends[1], seen.to, centreOf(seen.from), 2, `${what} end`);
    };
    expectEdgeToEdge(await drawn(), 'drawn');

    await page.keyboard.press('v');
    const at = await centre(page, text(to.id));
    await page.mouse.move(at.x, at.y);
    await page.mouse.down();
    await page.mouse.move(at.x - 300, at.y + 150, { steps: 6 });
    await page.waitForTimeout(100); // a frame for the live write
    expectEdgeToEdge(await drawn(), 'mid-drag');
    await page.mouse.move(at.x - 750, at.y + 400, { steps: 6 });
    await page.mouse.up();
    const seen = await drawn();
    // The release's own write: a live write of the drag can be read first, and is not where it ended.
    const moved = await until(async () => {
      const board = await boardJson(t.server.url, id);
      const points: number[][] = board.lines[0].points;
      return seen.ends.every((end, i) => Math.hypot(points[i][0] - end.x, points[i][1] - end.y) < 0.5) && board;
    });
    expect(seen.to.x + seen.to.width).toBeLessThan(seen.from.x); // below-left, clear of the source
    expect(seen.to.y).toBeGreaterThan(seen.from.y + seen.from.height);
    expectEdgeToEdge(seen, 'after the move');
    await shot(page, 'draw-arrow-rerouted.png');
    // What is stored is what is drawn, so REST and MCP readers see the same arrow.
    const stored = moved.lines[0].points.map(([x, y]: number[]) => ({ x, y }));
    for (const [i, end] of seen.ends.entries()) {
      expect(stored[i].x).toBeCloseTo(end.x, 0);
      expect(stored[i].y).toBeCloseTo(end.y, 0);
    }

    // The preview draws the same route around its own boxes of the texts.
    const svg = await (await fetch(`${t.server.url}/svg-preview/${id}`)).text();
    const rect = (content: string): Box => {
      const match = new RegExp(
        `<g class="text[^"]*"[^>]*><rect x="(-?\\d+)" y="(-?\\d+)" width="(\\d+)" height="(\\d+)"[^>]*/>(?:(?!</g>).)*${content}`,
      ).exec(svg);
      expect(match, content).not.toBeNull();
      const [x, y, width, height] = match!.slice(1, 5).map(Number);
      return { x, y, width, height };
    };
    const arrow = /<polyline class="stroke arrow[^"]*" points="([^"]+)"/.exec(svg);
    expect(arrow).not.toBeNull();
    const ends = arrow![1].split(' ').map((pair) => {
      const [x, y] = pair.split(',').map(Number);
      return { x, y };
    });
    const [source, target] = [rect('Source'), rect('Target text')];
    expectOnEdge(ends[0], source, centreOf(target), 2, 'preview start');
    expectOnEdge(ends.at(-1)!, target, centreOf(source), 2, 'preview end');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the eraser (E) deletes the strokes it passes over, and one undo brings them all back', async () => {
    const id = await makeBoard({
      lines: [
        {
          points: [
            [100, 100],
            [100, 300],
          ],
        },
        {
          points: [
            [200, 100],
            [200, 300],
          ],
        },
        {
          points: [
            [600, 100],
            [600, 300],
          ],
        },
      ],
    });
    const { page, context } = await open(id, { items: 3 });
    const lines = (await boardJson(t.server.url, id)).lines;
    const keep = lines.find((line: any) => line.points[0][0] === 600);
    await page.keyboard.press('e');
    const a = (await page.locator(`.stroke[data-id="${lines[0].id}"]`).boundingBox())!;
    const b = (await page.locator(`.stroke[data-id="${lines[1].id}"]`).boundingBox())!;
    await drag(page, { x: a.x - 30, y: a.y + a.height / 2 }, { x: b.x + 30, y: b.y + b.height / 2 }, { steps: 3 });
    const after = await until(async () => {
      const board = await boardJson(t.server.url, id);
      return board.lines.length === 1 && board;
    });
    expect(after.lines[0].id).toBe(keep.id);
    await page.keyboard.press('Control+z');
    await until(async () => (await boardJson(t.server.url, id)).lines.length === 3);
    await context.close();
  });

  it('every item in the DOM carries its id as data-id', async () => {
    const id = await makeBoard({
      texts: [
        { x: 0, y: 0, content: 'a text' },
        { kind: 'link', x: 0, y: 100, url: 'https://example.com' },
      ],
      lines: [
        {
          points: [
            [0, 200],
            [100, 250],
          ],
        },
      ],
      images: [{ x: 200, y: 0, width: 50, height: 50, dataUrl: PNG_1PX }],
    });
    const { page, context } = await open(id, { items: 4 });
    const board = await boardJson(t.server.url, id);
    const stored = [...board.texts, ...board.lines, ...board.images].map((item: any) => item.id).sort();
    const shown = await page.$$eval('.item, .strokes .stroke', (elements) =>
      elements.map((element) => (element as HTMLElement).dataset.id ?? null),
    );
    expect(shown.sort()).toEqual(stored);
    await context.close();
  });

  it('a new empty board says what to do, until it has an item', async () => {
    for (const [name, options] of [
      ['desktop', {}],
      ['desktop-dark', { dark: true }],
      ['phone', { phone: true }],
      ['phone-dark', { phone: true, dark: true }],
    ] as const) {
      const id = await makeBoard();
      const { page, context } = await open(id, options);
      const hint = page.getByTestId('canvas-hint');
      await hint.waitFor();
      expect(await hint.textContent()).toMatch(options.phone ? /Double-tap to write/ : /Double-click to write/);
      await shot(page, `draw-empty-hint-${name}.png`);
      const added = await fetch(`${t.server.url}/api/boards/${id}/texts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ x: 10, y: 10, content: 'first' }),
      });
      expect(added.ok, await added.text()).toBe(true);
      await hint.waitFor({ state: 'hidden', timeout: 3_000 });
      await context.close();
    }
  }, 60_000); // four browser contexts, one after another

  it('screenshots of a selected text and image with their handles, light and dark, desktop and phone', async () => {
    const id = await makeBoard({
      texts: [{ x: 40, y: 40, content: '# Handles\nDrag the right edge' }],
      images: [{ x: 40, y: 200, width: 120, height: 80, dataUrl: PNG_1PX }],
    });
    for (const [name, options] of [
      ['desktop', {}],
      ['desktop-dark', { dark: true }],
      ['phone', { phone: true }],
      ['phone-dark', { phone: true, dark: true }],
    ] as const) {
      const { page, context } = await open(id, { ...options, items: 2 });
      await page.locator('.item.text').click();
      await page.locator('.handle').waitFor();
      await shot(page, `draw-handle-${name}.png`);
      await context.close();
    }
  }, 60_000); // four browser contexts, one after another
});
