/**
 * Zoom you can read: the toolbar shows the zoom as a percentage, and its menu
 * zooms in and out, to fit, to 100% and to the selection (also Shift+0 and
 * Shift+2). A person who may only look (a write-locked board without the key)
 * keeps the zoom and Export; on a todo board, the exports.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, openBoard, until, useChromium } from '../helpers/pages.js';
import { useServer } from '../helpers/server.js';

const t = useServer();
const chrome = useChromium();

async function createBoard(body: Record<string, unknown>): Promise<{ id: string; ids: { texts: string[] } }> {
  const response = await fetch(`${t.server.url}/api/boards`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return response.json();
}

const CONTENT = {
  texts: [
    { x: 0, y: 0, content: 'Top left' },
    { x: 3000, y: 2000, content: 'Far corner' },
  ],
};

/** The scale the world is drawn at (1 is 100%). */
const worldScale = (page: Page) =>
  page.evaluate(() => {
    const world = document.querySelector<HTMLElement>('.world');
    return Number(/scale\(([\d.e-]+)\)/.exec(world?.style.transform ?? '')?.[1]);
  });

const shown = (page: Page) => page.locator('.zoom-menu > summary').textContent();

async function pick(page: Page, zoom: string): Promise<void> {
  await page.click('.zoom-menu > summary');
  await page.click(`.zoom-menu [data-zoom="${zoom}"]`);
}

describe('the zoom menu', () => {
  it('shows the zoom and sets it: in, to 100%, to fit, to the selection', async () => {
    const { id, ids } = await createBoard({ content: CONTENT });
    const context = await chrome.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openBoard(context, t.server.url, id, { items: 2 });
    // The board opens fitted (its far corner is off a 100% view), and the percentage says how far.
    await until(async () => (await worldScale(page)) < 0.5);
    expect(await shown(page)).toBe(`${Math.round((await worldScale(page)) * 100)}%`);

    await pick(page, 'zoom-100');
    await until(async () => (await shown(page)) === '100%');
    expect(await worldScale(page)).toBe(1);
    await pick(page, 'zoom-in');
    await until(async () => (await shown(page)) === '125%');

    // Escape closes it, as it does the Export menu, and gives the focus back to its button.
    await page.click('.zoom-menu > summary');
    await page.keyboard.press('Escape');
    await until(async () => !(await page.locator('.zoom-menu').evaluate((menu) => (menu as HTMLDetailsElement).open)));
    expect(await page.evaluate(() => document.activeElement?.matches('.zoom-menu > summary'))).toBe(true);
    await page.click('.zoom-menu > summary');
    await page.screenshot({ path: join(ARTIFACTS, 'draw-zoom-menu.png') });
    // Nothing is selected: there is no selection to zoom to.
    expect(await page.locator('.zoom-menu [data-zoom="zoom-selection"]').isDisabled()).toBe(true);
    await page.click('.zoom-menu [data-zoom="fit"]');
    await until(async () => (await worldScale(page)) < 0.5);

    // Shift+2 brings the selected text to the middle of the screen, at no more than 100%.
    await page.click('.item.text:has-text("Far corner")');
    await page.keyboard.press('Shift+Digit2');
    await until(async () => (await shown(page)) === '100%');
    const canvas = (await page.locator('[data-testid=canvas]').boundingBox())!;
    const far = (await page.locator(`[data-id="${ids.texts[1]}"]`).boundingBox())!;
    expect(Math.abs(far.x + far.width / 2 - (canvas.x + canvas.width / 2))).toBeLessThan(2);
    expect(Math.abs(far.y + far.height / 2 - (canvas.y + canvas.height / 2))).toBeLessThan(2);
    await page.keyboard.press('0');
    await until(async () => (await worldScale(page)) < 0.5);
    await page.keyboard.press('Shift+Digit0');
    await until(async () => (await shown(page)) === '100%');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a person who may only look keeps the zoom and Export, in the row on a phone too; a todo board its exports', async () => {
    const { id } = await createBoard({ content: CONTENT, lock: 'write' });
    for (const [name, viewport] of [
      ['desktop', { width: 1280, height: 800 }],
      ['phone', { width: 390, height: 844 }],
    ] as const) {
      const context = await chrome.browser.newContext({ viewport, colorScheme: name === 'phone' ? 'dark' : 'light' });
      const { page, errors } = await openBoard(context, t.server.url, id, { items: 2 });
      await page.locator('[data-testid=locked-banner]').waitFor();
      expect(await page.locator('.toolbar [data-tool]:visible, .toolbar .undo:visible').count()).toBe(0);
      expect(await page.locator('.export-menu > summary').isVisible()).toBe(true);
      await pick(page, 'zoom-100');
      await until(async () => (await shown(page)) === '100%');
      await page.click('.zoom-menu > summary');
      await page.screenshot({ path: join(ARTIFACTS, `draw-zoom-view-only-${name}.png`) });
      expect(errors).toEqual([]);
      await context.close();
    }

    const todo = await createBoard({ mode: 'todo', lock: 'write' });
    const context = await chrome.browser.newContext({ viewport: { width: 390, height: 844 } });
    const { page } = await openBoard(context, t.server.url, todo.id);
    await page.locator('[data-testid=locked-banner]').waitFor();
    expect(await page.locator('.kanban-toolbar a:text-is("Export CSV")').isVisible()).toBe(true);
    expect(await page.locator('.kanban-toolbar button:visible').count()).toBe(0);
    await context.close();
  });
});
