/**
 * The draw canvas by keyboard alone, as the todo board's cards already are:
 * with the canvas focused, Tab and Shift+Tab select and focus the next and
 * previous item in reading order and bring it into view; each item is named
 * (kind, start of its text, author); links inside texts are no extra tab
 * stops; Enter edits the focused text, Delete removes it (one undo brings it
 * back) and Escape gives the focus back to the canvas. Judged by the focus the
 * page shows and by the stored board.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createBoard } from '../helpers/http.js';
import { ARTIFACTS, boardJson, openBoard, until, useChromium } from '../helpers/pages.js';
import { useServer } from '../helpers/server.js';

const t = useServer();
const chrome = useChromium();

const CONTENT = {
  texts: [
    { x: 600, y: 100, content: 'Second in row one' },
    { x: 100, y: 110, content: 'First in row one' },
    { x: 100, y: 400, content: 'Third, with [a link](https://example.com) and\n- [ ] a task' },
    { x: 2600, y: 1600, content: 'Far away', postit: true },
  ],
  lines: [
    {
      points: [
        [100, 260],
        [500, 280],
      ],
    },
  ],
};

/** What has the focus: an item (its name, whether it is selected and wholly on the canvas), the canvas, or something else. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement;
    const canvas = document.querySelector('[data-testid=canvas]')!;
    if (element === canvas) return { on: 'canvas' };
    if (!element.dataset?.id || !canvas.contains(element)) return { on: element.tagName.toLowerCase() };
    const [box, frame] = [element.getBoundingClientRect(), canvas.getBoundingClientRect()];
    return {
      on: 'item',
      name: element.getAttribute('aria-label'),
      selected: element.classList.contains('selected') && document.querySelectorAll('.selected').length === 1,
      inView: box.left >= frame.left && box.top >= frame.top && box.right <= frame.right && box.bottom <= frame.bottom,
    };
  });

const item = (name: RegExp) => ({ on: 'item', name: expect.stringMatching(name), selected: true, inView: true });

describe('the draw canvas by keyboard', { timeout: 90_000 }, () => {
  it('Tab walks the items in reading order; Enter edits, Delete removes (undone by Ctrl+Z), Escape goes back to the canvas', async () => {
    const id = await createBoard(t.server.url, { content: CONTENT });
    const context = await chrome.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openBoard(context, t.server.url, id, { items: 5 });
    for (let i = 0; i < 4; i++) await page.keyboard.press('='); // zoomed in: most items lie outside the canvas
    await page.getByTestId('canvas').focus();

    const order = [
      /^Text: First in row one, by AI \(import\)$/,
      /^Text: Second in row one, by AI \(import\)$/,
      /^Stroke, by AI \(import\)$/,
      /^Text: Third, with a link/,
      /^Post-it: Far away, by AI \(import\)$/,
    ];
    for (const name of order) {
      await page.keyboard.press('Tab');
      expect(await focused(page)).toEqual(item(name));
    }
    await page.screenshot({ path: join(ARTIFACTS, 'draw-keyboard-focus.png') });
    await page.keyboard.press('Shift+Tab');
    expect(await focused(page)).toEqual(item(order[3]));
    // The link and the checkbox inside the text are reached through the text, not as tab stops of their own.
    expect(
      await page.locator('.item a, .item input').evaluateAll((all) => all.map((el) => el.getAttribute('tabindex'))),
    ).toEqual(['-1', '-1']);

    // Enter edits the focused text; Escape ends the edit and keeps it.
    await page.keyboard.press('Enter');
    const editor = page.locator('.editor');
    await editor.waitFor();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' edited');
    await page.keyboard.press('Escape');
    await until(async () =>
      (await boardJson(t.server.url, id)).texts.some((text: { content: string }) =>
        text.content.endsWith('a task edited'),
      ),
    );

    // Delete removes the focused item and leaves the focus on the canvas; one undo brings it back.
    await page.keyboard.press('Tab');
    expect(await focused(page)).toEqual(item(order[4]));
    await page.keyboard.press('Delete');
    await until(async () => (await boardJson(t.server.url, id)).texts.length === 3);
    expect(await focused(page)).toEqual({ on: 'canvas' });
    await page.keyboard.press('Control+z');
    await until(async () => (await boardJson(t.server.url, id)).texts.length === 4);

    // Escape gives the focus back to the canvas; Shift+Tab from the first item too; Tab from the last leaves the canvas.
    await page.keyboard.press('Tab');
    expect(await focused(page)).toEqual(item(order[0]));
    await page.keyboard.press('Escape');
    expect(await focused(page)).toEqual({ on: 'canvas' });
    expect(await page.locator('.selected').count()).toBe(0);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Shift+Tab');
    expect(await focused(page)).toEqual({ on: 'canvas' });
    for (let i = 0; i < order.length; i++) await page.keyboard.press('Tab');
    expect(await focused(page)).toEqual(item(order[4]));
    await page.keyboard.press('Tab');
    expect((await focused(page)).on).not.toMatch(/^(item|canvas)$/); // on to what follows the canvas, as from the canvas itself
    expect(errors).toEqual([]);
    await context.close();
  });
});
