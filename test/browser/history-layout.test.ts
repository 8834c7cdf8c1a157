/**
 * Opening History at 1280×800 leaves the board where it was: the draw toolbar
 * stays one row and neither it nor the canvas moves, and the todo board's
 * toolbar and rows stay put (the panel lies over the board's right side).
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createBoard } from '../helpers/http.js';
import { ARTIFACTS, openBoard, useChromium } from '../helpers/pages.js';
import { useServer } from '../helpers/server.js';

const t = useServer();
const chrome = useChromium();

/** The rounded top and height of each element, by selector. */
const layout = (page: Page, selectors: string[]) =>
  page.evaluate(
    (list) =>
      list.map((selector) => {
        const box = document.querySelector(selector)!.getBoundingClientRect();
        return { selector, top: Math.round(box.top), height: Math.round(box.height), width: Math.round(box.width) };
      }),
    selectors,
  );

async function openHistory(page: Page): Promise<void> {
  await page.getByTestId('history').click();
  await page.locator('#history-panel').waitFor({ state: 'visible' });
}

describe('History beside the board at 1280×800', { timeout: 90_000 }, () => {
  it('on a draw board the toolbar stays one row and the canvas does not move', async () => {
    const id = await createBoard(t.server.url, { content: { texts: [{ x: 100, y: 100, content: 'history open' }] } });
    const context = await chrome.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openBoard(context, t.server.url, id, { items: 1 });
    const selectors = ['.toolbar', '[data-testid=canvas]'];
    const before = await layout(page, selectors);
    const item = (await page.locator('.item').boundingBox())!;
    await openHistory(page);
    await page.screenshot({ path: join(ARTIFACTS, 'history-open-draw-1280.png') });
    const after = await layout(page, selectors);
    expect(after.map(({ top, height }) => ({ top, height }))).toEqual(
      before.map(({ top, height }) => ({ top, height })),
    );
    expect((await page.locator('.item').boundingBox())!).toEqual(item); // the board stays where it was under the panel
    // Every control of the toolbar is still in its one row, and none lies under the panel.
    const controls = await page.locator('.toolbar').evaluate((bar) =>
      [...bar.querySelectorAll<HTMLElement>('button, summary')]
        .filter((el) => el.checkVisibility())
        .map((el) => {
          const box = el.getBoundingClientRect();
          const [x, y] = [box.left + box.width / 2, box.top + box.height / 2];
          return { middle: Math.round(y), reachable: el.contains(document.elementFromPoint(x, y)) };
        }),
    );
    expect(controls.length).toBeGreaterThan(15);
    expect(Math.max(...controls.map((c) => c.middle)) - Math.min(...controls.map((c) => c.middle))).toBeLessThanOrEqual(
      4,
    );
    expect(controls.filter((c) => !c.reachable)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('on a todo board the toolbar, the filter bar and the rows do not move', async () => {
    const id = await createBoard(t.server.url, { mode: 'todo' });
    const context = await chrome.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openBoard(context, t.server.url, id);
    const selectors = ['.kanban-toolbar', '.kanban-filter', '.lanes'];
    const before = await layout(page, selectors);
    await openHistory(page);
    await page.screenshot({ path: join(ARTIFACTS, 'history-open-todo-1280.png') });
    const after = await layout(page, selectors);
    expect(after.map(({ top, height }) => ({ top, height }))).toEqual(
      before.map(({ top, height }) => ({ top, height })),
    );
    expect(errors).toEqual([]);
    await context.close();
  });
});
