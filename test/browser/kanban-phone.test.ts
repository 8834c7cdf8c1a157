/**
 * A kanban card moved on a phone, with no drag and no keyboard: the card
 * editor's Column field moves it to another column (of any row), to the end
 * of that column. And a sideways swipe on the kanban stays on the page: the
 * board's scroller keeps overscroll to itself, so it is never the browser's
 * Back gesture.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, boardJson, openBoard, useChromium } from '../helpers/pages.js';
import { useServer } from '../helpers/server.js';

const t = useServer();
const chrome = useChromium();

async function post(path: string, body: unknown): Promise<any> {
  const response = await fetch(`${t.server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.ok, `${path}: ${response.status}`).toBe(true);
  return response.json();
}

describe('a kanban card on a phone', () => {
  it('moves to another column through the card editor, and a swipe never leaves the page', async () => {
    const { id } = await post('/api/boards', { mode: 'todo' });
    const [first, second] = (await boardJson(t.server.url, id)).columns;
    await post(`/api/boards/${id}/tasks`, { column_id: second.id, name: 'Already there' });
    const task = await post(`/api/boards/${id}/tasks`, { column_id: first.id, name: 'Move me' });
    const context = await chrome.browser.newContext({
      viewport: { width: 390, height: 844 },
      hasTouch: true,
      isMobile: true,
      deviceScaleFactor: 2,
    });
    const { page } = await openBoard(context, t.server.url, id);
    await page.locator('.task:has-text("Move me")').tap();
    const column = page.locator('dialog[open] select[aria-label=Column]');
    await column.waitFor();
    expect(await column.inputValue()).toBe(first.id);
    expect(await column.locator('option').allTextContents()).toContain(`Row 1 › ${second.title}`);
    await page.screenshot({ path: join(ARTIFACTS, 'kanban-phone-move-to.png') });
    await column.selectOption(second.id);
    await page.locator('dialog[open] button.primary').tap();
    await page.waitForSelector('dialog', { state: 'detached' });
    const moved = async () => (await boardJson(t.server.url, id)).tasks.find((x: { id: string }) => x.id === task.id);
    await expect.poll(async () => (await moved())?.column_id).toBe(second.id);
    const there = (await boardJson(t.server.url, id)).tasks.filter(
      (x: { column_id: string }) => x.column_id === second.id,
    );
    expect(there.map((x: { name: string }) => x.name)).toEqual(['Already there', 'Move me']);
    // The browser's swipe-to-go-back only starts where the page lets overscroll through.
    for (const selector of ['html', 'body', '.kanban'])
      expect(
        await page
          .locator(selector)
          .first()
          .evaluate((element) => getComputedStyle(element).overscrollBehaviorX),
      ).not.toBe('auto');
    await context.close();
  });
});
