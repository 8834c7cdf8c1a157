/**
 * A kanban card moved on a phone, with no mouse and no keyboard: the card
 * editor's Column field moves it to another column (of any row), to the end
 * of that column; a finger held on it lifts it and drops it between cards. And a sideways swipe on the kanban stays on the page: the
 * board's scroller keeps overscroll to itself, so it is never the browser's
 * Back gesture.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, boardJson, openBoard, until, useChromium } from '../helpers/pages.js';
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

/** A 390×844 touch phone. */
const phone = () =>
  chrome.browser.newContext({
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
    deviceScaleFactor: 2,
  });

describe('a kanban card on a phone', () => {
  it('moves to another column through the card editor, and a swipe never leaves the page', async () => {
    const { id } = await post('/api/boards', { mode: 'todo' });
    const [first, second] = (await boardJson(t.server.url, id)).columns;
    await post(`/api/boards/${id}/tasks`, { column_id: second.id, name: 'Already there' });
    const task = await post(`/api/boards/${id}/tasks`, { column_id: first.id, name: 'Move me' });
    const context = await phone();
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

  it('moves by a finger held on it and dragged: into another column, between its cards, with no editor opened', async () => {
    const { id } = await post('/api/boards', { mode: 'todo' });
    const [first, second] = (await boardJson(t.server.url, id)).columns;
    await post(`/api/boards/${id}/tasks`, { column_id: second.id, name: 'Top' });
    await post(`/api/boards/${id}/tasks`, { column_id: second.id, name: 'Bottom' });
    await post(`/api/boards/${id}/tasks`, { column_id: first.id, name: 'Carry me' });
    const context = await phone();
    const { page } = await openBoard(context, t.server.url, id);
    const cdp = await context.newCDPSession(page);
    const centre = async (selector: string) => {
      const box = (await page.locator(selector).boundingBox())!;
      return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    };
    const from = await centre('.task:has-text("Carry me")');
    const touch = (type: string, points: { x: number; y: number }[]) =>
      cdp.send('Input.dispatchTouchEvent', { type: type as 'touchStart', touchPoints: points });
    const moveTo = async (a: { x: number; y: number }, b: { x: number; y: number }) => {
      for (let i = 1; i <= 8; i++)
        await touch('touchMove', [{ x: a.x + ((b.x - a.x) * i) / 8, y: a.y + ((b.y - a.y) * i) / 8 }]);
    };
    await touch('touchStart', [from]);
    await page.waitForSelector('.task.lifted');
    // The phone shows one column at a time: held at the row's right side, the row scrolls to the next.
    const edge = { x: 385, y: from.y };
    await moveTo(from, edge);
    const secondList = page.locator(`.tasks[data-column-id="${second.id}"]`);
    await until(async () => ((await secondList.boundingBox())?.x ?? Infinity) < 40);
    // Away from the side the row stops scrolling: the cards are read once it has (a frame without a scroll).
    const middle = { x: 195, y: from.y };
    await moveTo(edge, middle);
    const strip = page.locator('.lane[data-lane="0"] .columns');
    await until(() =>
      strip.evaluate(
        (row) =>
          new Promise<boolean>((resolve) => {
            const before = row.scrollLeft;
            requestAnimationFrame(() => requestAnimationFrame(() => resolve(row.scrollLeft === before)));
          }),
      ),
    );
    const top = (await page.locator('.task:has-text("Top")').boundingBox())!;
    const bottom = (await page.locator('.task:has-text("Bottom")').boundingBox())!;
    // Between the two cards: below Top's middle, above Bottom's; clear of the row's sides, which would scroll it again.
    const to = { x: Math.min(Math.max(top.x + top.width / 2, 60), 330), y: (top.y + top.height + bottom.y) / 2 + 1 };
    expect(to.x).toBeGreaterThan(top.x);
    expect(to.x).toBeLessThan(top.x + top.width);
    await moveTo(middle, to);
    expect(await page.locator(`.tasks.over[data-column-id="${second.id}"]`).count()).toBe(1);
    await page.screenshot({ path: join(ARTIFACTS, 'kanban-phone-drag.png') });
    await touch('touchEnd', []);
    // The drop reaches the server through the Yjs connection: waited for as long as `until` waits.
    await expect
      .poll(
        async () => {
          const tasks = (await boardJson(t.server.url, id)).tasks as {
            column_id: string;
            name: string;
            sort: number;
          }[];
          return tasks
            .filter((x) => x.column_id === second.id)
            .sort((a, b) => a.sort - b.sort)
            .map((x) => x.name);
        },
        { timeout: 5_000 },
      )
      .toEqual(['Top', 'Carry me', 'Bottom']);
    expect(await page.locator('dialog[open]').count()).toBe(0);
    expect(await page.locator('.task.lifted, .tasks.over').count()).toBe(0);
    await context.close();
  });
});
