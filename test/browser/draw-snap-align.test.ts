/**
 * Issue 56 part 3, snapping and alignment on draw boards, held to tldraw and
 * Figma habits: a dragged selection snaps its edges and centres to other
 * items' within a few screen pixels at any zoom, with guides while it drags
 * and none after; Ctrl held moves freely; align and distribute by tldraw's
 * keys and by the arrange bar's buttons, each one write that one undo takes
 * back. Each asserts on the stored board (GET /json).
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createBoard } from '../helpers/http.js';
import { boardJson, openBoard, until, useChromium } from '../helpers/pages.js';
import { useServer } from '../helpers/server.js';

const t = useServer();
const chrome = useChromium();

const SHOTS = join(tmpdir(), 'draw-snap-align');
mkdirSync(SHOTS, { recursive: true });

type Item = { id: string; x: number; y: number; content: string };

/** Opens board `id` as a new person (a phone: 390×844 and touch), waiting until its `items` are drawn. */
async function open(id: string, items: number, options: { phone?: boolean; dark?: boolean } = {}) {
  const context = await chrome.browser.newContext({
    ...(options.phone
      ? { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 }
      : { viewport: { width: 1280, height: 800 } }),
    colorScheme: options.dark ? 'dark' : 'light',
  });
  return { context, ...(await openBoard(context, t.server.url, id, { items })) };
}

const texts = async (id: string): Promise<Item[]> => (await boardJson(t.server.url, id)).texts;
const byContent = async (id: string, content: string) => (await texts(id)).find((x) => x.content === content)!;
const boxOf = async (page: Page, itemId: string) => (await page.locator(`[data-id="${itemId}"]`).boundingBox())!;
const guides = (page: Page) => page.locator('.snap-guides line');

/** Presses the centre of `itemId` and moves the mouse by (dx, dy) screen pixels in steps, still pressed. */
async function pressAndMove(page: Page, itemId: string, dx: number, dy: number): Promise<void> {
  const box = await boxOf(page, itemId);
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y + dy, { steps: 8 });
}

describe('draw snapping and alignment', () => {
  it('a dragged text snaps its left edge to another text, with a guide during the drag and none after; Ctrl held moves it freely', async () => {
    const id = await createBoard(t.server.url, {
      content: {
        texts: [
          { x: 100, y: 100, content: 'the anchor, a longer text' },
          { x: 400, y: 300, content: 'mover' },
        ],
      },
    });
    const { page, context, errors } = await open(id, 2);
    const [anchor, mover] = [await byContent(id, 'the anchor, a longer text'), await byContent(id, 'mover')];
    const [a, m] = [await boxOf(page, anchor.id), await boxOf(page, mover.id)];
    // 3 screen pixels right of the anchor's left edge, and far from any of its horizontal lines.
    await pressAndMove(page, mover.id, a.x - m.x + 3, 40);
    await guides(page).first().waitFor({ state: 'attached' });
    const line = guides(page).first();
    expect(await line.getAttribute('data-axis')).toBe('x');
    expect(Number(await line.getAttribute('x1'))).toBe(100);
    // The guide reaches from the anchor down to the dragged text.
    expect(Number(await line.getAttribute('y1'))).toBe(100);
    expect(Number(await line.getAttribute('y2'))).toBeGreaterThan(300);
    await page.mouse.up();
    await guides(page).first().waitFor({ state: 'detached' });
    const snapped = await until(async () => {
      const stored = await byContent(id, 'mover');
      return stored.x === 100 && stored.y !== 300 && stored;
    });
    expect(snapped.y).toBe(340);

    // Ctrl held: the same 3 pixels off the anchor's edge stay 3 pixels off, and no guide shows.
    const now = await boxOf(page, mover.id);
    await page.keyboard.down('Control');
    await pressAndMove(page, mover.id, a.x - now.x + 3, 40);
    await until(async () => (await byContent(id, 'mover')).y === 380);
    expect(await guides(page).count()).toBe(0);
    await page.mouse.up();
    await page.keyboard.up('Control');
    await until(async () => (await byContent(id, 'mover')).x === 103);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('snaps within the same screen pixels at another zoom: centres line up, a far edge does not snap', async () => {
    const id = await createBoard(t.server.url, {
      content: {
        texts: [
          { x: 100, y: 100, content: 'anchor' },
          { x: 400, y: 300, content: 'mover' },
        ],
      },
    });
    const { page, context } = await open(id, 2);
    await page.locator('[data-testid=canvas]').focus();
    await page.keyboard.press('+'); // 125%
    const [anchor, mover] = [await byContent(id, 'anchor'), await byContent(id, 'mover')];
    await until(async () => (await boxOf(page, anchor.id)).width > 0);
    const [a, m] = [await boxOf(page, anchor.id), await boxOf(page, mover.id)];
    // The mover's vertical centre 4 screen pixels under the anchor's: it snaps onto it (3.2 world pixels at 125%).
    await pressAndMove(page, mover.id, 200, a.y + a.height / 2 - (m.y + m.height / 2) + 4);
    await page.locator('.snap-guides line[data-axis="y"]').first().waitFor({ state: 'attached' });
    await page.mouse.up();
    const middle = (anchor.y * 2 + a.height / 1.25) / 2;
    const moved = await until(async () => {
      const stored = await byContent(id, 'mover');
      return stored.y !== 300 && stored;
    });
    expect(moved.y + m.height / 1.25 / 2).toBeCloseTo(middle, 0);

    // 12 screen pixels off the anchor's top (9.6 world pixels): past the snap's reach, so it stays off.
    const before = await byContent(id, 'mover');
    const again = await boxOf(page, mover.id);
    await pressAndMove(page, mover.id, -40, a.y - again.y + 12);
    expect(await page.locator('.snap-guides line[data-axis="y"]').count()).toBe(0);
    await page.mouse.up();
    const off = await until(async () => {
      const stored = await byContent(id, 'mover');
      return stored.x !== before.x && stored;
    });
    expect(off.y).toBeCloseTo(anchor.y + 9.6, 0);
    await context.close();
  });

  it('aligns and distributes the selection by tldraw’s keys, each undone by one Ctrl+Z', async () => {
    const id = await createBoard(t.server.url, {
      content: {
        texts: [
          { x: 100, y: 100, content: 'one' },
          { x: 260, y: 180, content: 'a wider second text' },
          { x: 700, y: 260, content: 'three' },
        ],
      },
    });
    const { page, context, errors } = await open(id, 3);
    const before = await texts(id);
    const at = (items: Item[], content: string) => items.find((x) => x.content === content)!;
    await page.locator('[data-testid=canvas]').focus();
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Alt+a');
    await until(async () => (await texts(id)).every((x) => x.x === 100));
    expect((await texts(id)).map((x) => x.y).sort()).toEqual([100, 180, 260]); // only x moved
    expect(
      await page.evaluate(() => document.querySelector<HTMLElement>('[data-testid=canvas]')?.dataset.tool),
    ).not.toBe('arrow');
    await page.keyboard.press('Control+z');
    await until(
      async () => JSON.stringify((await texts(id)).map((x) => x.x)) === JSON.stringify(before.map((x) => x.x)),
    );

    await page.keyboard.press('Alt+w');
    await until(async () => (await texts(id)).every((x) => x.y === 100));
    await page.keyboard.press('Control+z');
    await until(async () => at(await texts(id), 'three').y === 260);

    // Distribute: the first and last stay, the gaps between the three become equal.
    await page.keyboard.press('Shift+Alt+h');
    const spread = await until(async () => {
      const now = await texts(id);
      return at(now, 'a wider second text').x !== 260 && now;
    });
    const scale = await page.evaluate(
      () => new DOMMatrix(getComputedStyle(document.querySelector('.world')!).transform).a,
    );
    const width = async (content: string) => (await boxOf(page, at(spread, content).id)).width / scale;
    expect(at(spread, 'one').x).toBe(100);
    expect(at(spread, 'three').x).toBe(700);
    const firstGap = at(spread, 'a wider second text').x - (100 + (await width('one')));
    const secondGap = 700 - (at(spread, 'a wider second text').x + (await width('a wider second text')));
    expect(Math.abs(firstGap - secondGap)).toBeLessThan(0.5);
    await page.keyboard.press('Control+z');
    await until(async () => at(await texts(id), 'a wider second text').x === 260);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the arrange bar shows for two or more items and aligns by a click; a stroke anchored to a text follows it', async () => {
    const id = await createBoard(t.server.url, {
      content: {
        texts: [
          { x: 100, y: 120, content: 'left' },
          { x: 400, y: 300, content: 'right' },
        ],
      },
    });
    const { page, context, errors } = await open(id, 2);
    const [left, right] = [await byContent(id, 'left'), await byContent(id, 'right')];
    const bar = page.getByTestId('arrange-bar');
    await page.click(`[data-id="${left.id}"]`);
    expect(await bar.isVisible()).toBe(false);
    await page.click(`[data-id="${right.id}"]`, { modifiers: ['Shift'] });
    await bar.waitFor();
    expect(await bar.locator('[data-arrange="distribute-horizontal"]').isDisabled()).toBe(true); // three or more
    await page.screenshot({ path: join(SHOTS, 'desktop-light-bar.png') });
    await bar.locator('[data-arrange="align-bottom"]').click();
    await until(async () => (await byContent(id, 'left')).y !== 120);
    const [l, r] = [await boxOf(page, left.id), await boxOf(page, right.id)];
    expect(Math.abs(l.y + l.height - (r.y + r.height))).toBeLessThan(1);
    expect((await byContent(id, 'right')).y).toBe(300); // the lowest stays
    expect(await page.locator('.item.selected').count()).toBe(2); // the selection stays for the next click
    await page.keyboard.press('Control+z');
    await until(async () => (await byContent(id, 'left')).y === 120);

    // An arrow from one text to the other, selected with them (Ctrl+A): the texts align, the arrow follows its ends.
    await page.keyboard.press('a');
    const [lb, rb] = [await boxOf(page, left.id), await boxOf(page, right.id)];
    await page.mouse.move(lb.x + lb.width / 2, lb.y + lb.height / 2);
    await page.mouse.down();
    await page.mouse.move(rb.x + rb.width / 2, rb.y + rb.height / 2, { steps: 6 });
    await page.mouse.up();
    const [arrow] = await until(async () => {
      const { lines } = await boardJson(t.server.url, id);
      return lines.length === 1 && lines;
    });
    await page.keyboard.press('v');
    await page.keyboard.press('Control+a');
    await bar.locator('[data-arrange="align-left"]').click();
    await until(async () => (await byContent(id, 'right')).x === 100);
    expect((await byContent(id, 'left')).x).toBe(100);
    const [followed] = (await boardJson(t.server.url, id)).lines;
    expect([followed.anchors.start.id, followed.anchors.end.id]).toEqual([left.id, right.id]);
    expect(followed.points[1][0]).toBeLessThan(arrow.points[1][0] - 200); // its end went left with the right text
    await page.keyboard.press('Control+z');
    await until(async () => (await byContent(id, 'right')).x === 400);
    expect((await boardJson(t.server.url, id)).lines[0].points).toEqual(arrow.points);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('looks right: guides and the bar at 1280×800 and 390×844, light and dark', async () => {
    const id = await createBoard(t.server.url, {
      content: {
        texts: [
          { x: 20, y: 40, content: 'anchor' },
          { x: 40, y: 260, content: 'mover' },
          { x: 200, y: 420, content: 'third' },
        ],
      },
    });
    for (const dark of [false, true]) {
      const { page, context } = await open(id, 3, { dark });
      const [anchor, mover] = [await byContent(id, 'anchor'), await byContent(id, 'mover')];
      const [a, m] = [await boxOf(page, anchor.id), await boxOf(page, mover.id)];
      await pressAndMove(page, mover.id, a.x - m.x + 2, 30);
      await guides(page).first().waitFor({ state: 'attached' });
      await page.screenshot({ path: join(SHOTS, `desktop-${dark ? 'dark' : 'light'}-guides.png`) });
      await page.mouse.up();
      await guides(page).first().waitFor({ state: 'detached' });
      await page.keyboard.press('Control+z');
      await until(async () => (await byContent(id, 'mover')).x === 40);
      await context.close();

      const phone = await open(id, 3, { phone: true, dark });
      await phone.page.locator('[data-testid=canvas]').focus();
      await phone.page.keyboard.press('Control+a');
      const bar = phone.page.getByTestId('arrange-bar');
      await bar.waitFor();
      const button = (await bar.locator('[data-arrange="align-left"]').boundingBox())!;
      expect(button.width).toBeGreaterThanOrEqual(44);
      const barBox = (await bar.boundingBox())!;
      expect(barBox.x).toBeGreaterThanOrEqual(0);
      expect(barBox.x + barBox.width).toBeLessThanOrEqual(390);
      expect(barBox.height).toBeLessThan(2 * 44); // one row
      await phone.page.screenshot({ path: join(SHOTS, `phone-${dark ? 'dark' : 'light'}-bar.png`) });
      await phone.page.touchscreen.tap(button.x + button.width / 2, button.y + button.height / 2);
      await until(async () => (await texts(id)).every((x) => x.x === 20));
      await phone.page.keyboard.press('Control+z');
      await until(async () => (await byContent(id, 'mover')).x === 40);
      await phone.context.close();
    }
  });
});
