/**
 * Touch on a phone, as draw/pointer.ts handles it: two fingers
 * pinch-zoom the canvas about their midpoint and pan with it (leaving the
 * selection as it was before they landed), one finger pans
 * empty canvas and moves the item it presses (stored), and a finger held still
 * selects: a selection box on empty canvas, the item alone on an item. The
 * view is the person's own (nothing of it is stored); a selection is checked by
 * what Delete then removes from the stored board.
 */
import type { CDPSession, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, boardJson, openBoard, until, useChromium } from '../helpers/pages.js';
import { useServer } from '../helpers/server.js';

const t = useServer();
const chrome = useChromium();

async function phoneBoard(texts: { x: number; y: number; content: string }[] = [{ x: 60, y: 60, content: 'drag me' }]) {
  const response = await fetch(`${t.server.url}/api/boards`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ content: { texts } }),
  });
  const { id } = (await response.json()) as { id: string };
  const context = await chrome.browser.newContext({
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
    deviceScaleFactor: 2,
  });
  const { page } = await openBoard(context, t.server.url, id, { items: texts.length });
  return { id, context, page, cdp: await context.newCDPSession(page) };
}

const world = (page: Page) =>
  page.evaluate(() => {
    const m = new DOMMatrix(getComputedStyle(document.querySelector('.world')!).transform);
    return { x: m.e, y: m.f, scale: m.a };
  });

type Touch = { x: number; y: number; id?: number };
const touch = (cdp: CDPSession, type: 'touchStart' | 'touchMove' | 'touchEnd', touchPoints: Touch[]) =>
  cdp.send('Input.dispatchTouchEvent', { type, touchPoints });
/** One finger pressed at `from`, held still `holdMs`, then moved to `to` in 8 moves and lifted. */
async function oneFinger(cdp: CDPSession, from: Touch, to: Touch, holdMs = 0): Promise<void> {
  await touch(cdp, 'touchStart', [from]);
  if (holdMs) await new Promise((resolve) => setTimeout(resolve, holdMs));
  for (let i = 1; i <= 8; i++)
    await touch(cdp, 'touchMove', [{ x: from.x + ((to.x - from.x) * i) / 8, y: from.y + ((to.y - from.y) * i) / 8 }]);
  await touch(cdp, 'touchEnd', []);
}
const centre = async (page: Page, text: string) => {
  const box = (await page.locator(`.item:has-text("${text}")`).boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
};
/** Two fingers from `a` to `b` in `steps` moves. */
async function twoFingers(cdp: CDPSession, a: [Touch, Touch], b: [Touch, Touch], steps = 8): Promise<void> {
  const at = (i: number) =>
    a.map((p, k) => ({ x: p.x + ((b[k].x - p.x) * i) / steps, y: p.y + ((b[k].y - p.y) * i) / steps, id: k }));
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(0) });
  for (let i = 1; i <= steps; i++)
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(i) });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

/** The view before and after two fingers go from `a` to `b` on a new phone board, which they must not change. */
async function twoFingerView(a: [Touch, Touch], b: [Touch, Touch]) {
  const { id, context, page, cdp } = await phoneBoard();
  const before = await boardJson(t.server.url, id);
  const start = await world(page);
  await twoFingers(cdp, a, b);
  const after = await world(page);
  const canvasX = (await page.locator('[data-testid=canvas]').boundingBox())!.x;
  expect((await boardJson(t.server.url, id)).texts).toEqual(before.texts);
  await context.close();
  return { start, after, canvasX };
}

describe('touch on a phone', { timeout: 90_000 }, () => {
  it('two fingers spreading zoom in, about their midpoint, and do not change the board', async () => {
    const {
      start,
      after: zoomed,
      canvasX,
    } = await twoFingerView(
      [
        { x: 150, y: 500 },
        { x: 240, y: 500 },
      ],
      [
        { x: 90, y: 500 },
        { x: 300, y: 500 },
      ],
    );
    expect(zoomed.scale).toBeGreaterThan(start.scale * 1.8);
    // The world point under the midpoint stays under it.
    const under = (v: { x: number; y: number; scale: number }) => (195 - canvasX - v.x) / v.scale;
    expect(Math.abs(under(zoomed) - under(start))).toBeLessThan(3);
  });

  it('one finger pans on empty canvas, and moves an item it drags (stored)', async () => {
    const { id, context, page, cdp } = await phoneBoard();
    const start = await world(page);
    await oneFinger(cdp, { x: 200, y: 600 }, { x: 260, y: 650 });
    const panned = await world(page);
    expect(panned.x - start.x).toBeGreaterThan(40);
    const from = await centre(page, 'drag me');
    await oneFinger(cdp, from, { x: from.x + 80, y: from.y + 120 });
    const moved = await until(async () => {
      const text = (await boardJson(t.server.url, id)).texts[0];
      return text.y > 60 && text;
    });
    expect(moved.x).toBeGreaterThan(60);
    await context.close();
  });

  it('two fingers moving together pan the view by their motion, at the same zoom', async () => {
    const { start, after: panned } = await twoFingerView(
      [
        { x: 150, y: 500 },
        { x: 240, y: 500 },
      ],
      [
        { x: 250, y: 420 },
        { x: 340, y: 420 },
      ],
    );
    expect(panned.scale).toBeCloseTo(start.scale, 5);
    expect(panned.x - start.x).toBeCloseTo(100, 0);
    expect(panned.y - start.y).toBeCloseTo(-80, 0);
  });

  it('a finger held still on empty canvas draws a selection box; Delete removes exactly what it held', async () => {
    const { id, context, page, cdp } = await phoneBoard([
      { x: 40, y: 60, content: 'one' },
      { x: 40, y: 160, content: 'two' },
      { x: 40, y: 400, content: 'three' },
    ]);
    const [one, two, three] = [await centre(page, 'one'), await centre(page, 'two'), await centre(page, 'three')];
    const start = await world(page);
    await oneFinger(cdp, { x: 8, y: one.y - 40 }, { x: 380, y: (two.y + three.y) / 2 }, 800);
    expect(await world(page)).toEqual(start); // held, so no pan
    expect(await page.locator('.item.selected').count()).toBe(2);
    await page.screenshot({ path: `${ARTIFACTS}/touch-long-press-box.png` });
    await page.keyboard.press('Delete');
    const texts = await until(async () => {
      const json = await boardJson(t.server.url, id);
      return json.texts.length === 1 && json.texts;
    });
    expect(texts.map((text: { content: string }) => text.content)).toEqual(['three']);
    await context.close();
  });

  it('a finger that moves before the long press pans instead of selecting', async () => {
    const { context, page, cdp } = await phoneBoard();
    const start = await world(page);
    await touch(cdp, 'touchStart', [{ x: 200, y: 600 }]);
    await touch(cdp, 'touchMove', [{ x: 230, y: 600 }]);
    await new Promise((resolve) => setTimeout(resolve, 800));
    await touch(cdp, 'touchMove', [{ x: 260, y: 640 }]);
    await touch(cdp, 'touchEnd', []);
    expect((await world(page)).x - start.x).toBeCloseTo(60, 0);
    expect(await page.locator('.rubber:not([hidden])').count()).toBe(0);
    await context.close();
  });

  it('a finger held on an item selects it alone with its handle and does not move it; Delete removes it', async () => {
    const { id, context, page, cdp } = await phoneBoard([
      { x: 40, y: 60, content: 'keep' },
      { x: 40, y: 200, content: 'hold me' },
    ]);
    const before = (await boardJson(t.server.url, id)).texts.find(
      (text: { content: string }) => text.content === 'hold me',
    );
    const at = await centre(page, 'hold me');
    await oneFinger(cdp, at, { x: at.x + 80, y: at.y + 120 }, 800);
    await expect.poll(() => page.locator('.item.selected').count()).toBe(1);
    expect(await page.locator('.item.selected').textContent()).toContain('hold me');
    await expect.poll(() => page.locator('.handle').isVisible()).toBe(true);
    const after = (await boardJson(t.server.url, id)).texts.find(
      (text: { content: string }) => text.content === 'hold me',
    );
    expect({ x: after.x, y: after.y }).toEqual({ x: before.x, y: before.y });
    await page.keyboard.press('Delete');
    const texts = await until(async () => {
      const json = await boardJson(t.server.url, id);
      return json.texts.length === 1 && json.texts;
    });
    expect(texts[0].content).toBe('keep');
    await context.close();
  });

  it('a pinch that starts on an item zooms without selecting or moving it; one that starts beside a selection keeps it', async () => {
    const { id, context, page, cdp } = await phoneBoard([
      { x: 40, y: 60, content: 'pinched on' },
      { x: 40, y: 300, content: 'selected' },
    ]);
    const before = await boardJson(t.server.url, id);
    const on = await centre(page, 'pinched on');
    const start = await world(page);
    await twoFingers(
      cdp,
      [on, { x: on.x + 60, y: on.y + 200 }],
      [
        { x: on.x - 40, y: on.y - 40 },
        { x: on.x + 100, y: on.y + 300 },
      ],
    );
    await until(async () => (await world(page)).scale > start.scale * 1.2);
    expect(await page.locator('.item.selected').count()).toBe(0);
    expect((await boardJson(t.server.url, id)).texts).toEqual(before.texts);

    // A finger held on an item selects it; a pinch beside it, its first finger on empty canvas, leaves it selected.
    await oneFinger(cdp, await centre(page, 'selected'), await centre(page, 'selected'), 800);
    await expect.poll(() => page.locator('.item.selected').count()).toBe(1);
    await twoFingers(
      cdp,
      [
        { x: 300, y: 700 },
        { x: 340, y: 760 },
      ],
      [
        { x: 280, y: 680 },
        { x: 360, y: 790 },
      ],
    );
    expect(await page.locator('.item.selected').textContent()).toContain('selected');
    expect(await page.locator('.item.selected').count()).toBe(1);
    await context.close();
  });
});
