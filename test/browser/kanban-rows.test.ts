/**
 * Kanban habits: "+ Column" puts the focus in the new column's title, ready
 * to be typed over; "New row" gives the row the columns of the row above it;
 * an empty column is deleted only after asking, and Undo brings it back (and
 * only it: each action is its own undo step, however quickly they follow).
 */
import { describe, expect, it } from 'vitest';
import { boardJson, openBoard, person, until, useChromium } from '../helpers/pages.js';
import { useServer } from '../helpers/server.js';

const t = useServer();
const chrome = useChromium();

async function todoBoard(): Promise<string> {
  const response = await fetch(`${t.server.url}/api/boards`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ mode: 'todo' }),
  });
  return ((await response.json()) as { id: string }).id;
}

type Column = { id: string; title: string; lane: number; sort: number };
const columnsOf = async (id: string): Promise<Column[]> => (await boardJson(t.server.url, id)).columns;

describe('kanban rows and columns', () => {
  it('"+ Column" focuses the new title; "New row" copies the row above; an empty column is asked about and comes back with Undo', async () => {
    const id = await todoBoard();
    const before = await columnsOf(id);
    const { context } = await person(chrome.browser);
    const { page } = await openBoard(context, t.server.url, id);

    await page.locator('.add-column').first().click();
    await until(
      async () => (await page.evaluate(() => document.activeElement?.matches('input.column-title'))) === true,
    );
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe('New column');
    await page.keyboard.type('Review');
    await page.keyboard.press('Enter');
    await until(async () => (await columnsOf(id)).some((column) => column.title === 'Review'));

    await page.click('.kanban-toolbar button:has-text("New row")');
    const rowOne = [...before.map((column) => column.title), 'Review'];
    await until(async () => (await columnsOf(id)).filter((column) => column.lane === 1).length === rowOne.length);
    const rowTwo = (await columnsOf(id)).filter((column) => column.lane === 1).sort((a, b) => a.sort - b.sort);
    expect(rowTwo.map((column) => column.title)).toEqual(rowOne);

    const review = (await columnsOf(id)).find((column) => column.title === 'Review' && column.lane === 0) as Column;
    const remove = page.locator(`.column[data-column-id="${review.id}"] button[aria-label^="Delete column"]`);
    await remove.click();
    const asked = page.locator('dialog[open]');
    await asked.waitFor();
    expect(await asked.textContent()).toContain('"Review" will be deleted');
    await asked.locator('button[value=cancel]').click();
    await page.waitForSelector('dialog', { state: 'detached' });
    expect((await columnsOf(id)).some((column) => column.id === review.id)).toBe(true);
    await remove.click();
    await page.locator('dialog[open] button.primary').click();
    await until(async () => !(await columnsOf(id)).some((column) => column.id === review.id));
    await page.click('.kanban-toolbar button:has-text("Undo")');
    await until(async () => (await columnsOf(id)).some((column) => column.id === review.id));
    // Undo takes back the last action only, however quickly it followed the others: the new row stays.
    expect((await columnsOf(id)).filter((column) => column.lane === 1).length).toBe(rowOne.length);
    await context.close();
  });
});
