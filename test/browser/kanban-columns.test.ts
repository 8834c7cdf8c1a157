/**
 * Columns reorder as cards do: Alt+← / → in a column's title moves it one place
 * along its row (the focus stays in the title, a title being typed goes with
 * it), and its ⠿ grip drags it to another place or another row. Each move is
 * one undo step.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBoard } from '../helpers/http.js';
import { ARTIFACTS, boardJson, openBoard, until, useChromium } from '../helpers/pages.js';
import { useServer } from '../helpers/server.js';

const t = useServer();
const chrome = useChromium();

type Column = { id: string; title: string; lane: number; sort: number };

/** The titles of row `lane`'s columns, in order, as the server has them. */
async function row(id: string, lane = 0): Promise<string[]> {
  const { columns } = (await boardJson(t.server.url, id)) as { columns: Column[] };
  return columns
    .filter((column) => column.lane === lane)
    .sort((a, b) => a.sort - b.sort)
    .map((column) => column.title);
}

describe('moving kanban columns', () => {
  it('by Alt+arrows in the title and by dragging the grip, within a row and to another', async () => {
    const id = await createBoard(t.server.url, {
      mode: 'todo',
      content: { columns: [{ title: 'To do' }, { title: 'Doing' }, { title: 'Done' }, { title: 'Later', lane: 1 }] },
    });
    expect(await row(id)).toEqual(['To do', 'Doing', 'Done']);
    const context = await chrome.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openBoard(context, t.server.url, id);
    const title = (name: string) => page.locator(`input.column-title[value="${name}"]`);

    await title('Doing').focus();
    await page.keyboard.press('Alt+ArrowLeft');
    await until(async () => (await row(id)).join() === 'Doing,To do,Done');
    // It moved on screen too, at once (the render does not wait for the title to be left).
    await until(
      async () => (await page.locator('.lane[data-lane="0"] .column-title').first().inputValue()) === 'Doing',
    );
    // The focus stayed in the moved column's title, which goes on moving; what is typed in it goes along.
    await page.keyboard.press('End');
    await page.keyboard.type('!');
    await page.keyboard.press('Alt+ArrowRight');
    await page.keyboard.press('Alt+ArrowRight');
    await until(async () => (await row(id)).join() === 'To do,Done,Doing!');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe('Doing!');
    await page.keyboard.press('Alt+ArrowRight'); // already the last: nothing moves
    await page.keyboard.press('Escape');

    // The grip of "Done" dropped on the left half of "To do": first in the row.
    const grip = (name: string) => page.locator(`.column:has(input.column-title[value="${name}"]) .column-grip`);
    await grip('Done').dragTo(page.locator('.lane[data-lane="0"] .column').first(), {
      targetPosition: { x: 10, y: 40 },
    });
    await until(async () => (await row(id)).join() === 'Done,To do,Doing!');
    await page.screenshot({ path: join(ARTIFACTS, 'kanban-columns-moved.png') });
    // And to the second row, after "Later".
    const later = (await page.locator('.lane[data-lane="1"] .column').first().boundingBox())!;
    await grip('To do').dragTo(page.locator('.lane[data-lane="1"] .columns'), {
      targetPosition: { x: later.width + 40, y: 40 },
    });
    await until(async () => (await row(id, 1)).join() === 'Later,To do');
    expect(await row(id)).toEqual(['Done', 'Doing!']);

    // Each move is one step: Undo puts "To do" back in the first row, between the two.
    await page.click('.kanban-toolbar button:has-text("Undo")');
    await until(async () => (await row(id)).join() === 'Done,To do,Doing!');
    expect(errors).toEqual([]);
    await context.close();
  });
});
