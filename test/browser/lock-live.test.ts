import { describe, expect, it } from 'vitest';
import { boardJson, person, until, useChromium } from '../helpers/pages.js';
import { useServer } from '../helpers/server.js';

const t = useServer();
const chrome = useChromium();

describe('the person who locks a board', () => {
  // Issue 16: after "I have saved it" the status stayed Offline and edits piled up as "N edit(s) waiting" until a reload.
  it('stays live with the key just given, and their next edit reaches the server', async () => {
    const { id } = await (
      await fetch(`${t.server.url}/api/boards`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ mode: 'todo' }),
      })
    ).json();
    const { page, context, errors } = await person(chrome.browser);
    await page.goto(`${t.server.url}/#${id}`);
    await page.waitForSelector('[data-testid=kanban] .column');
    await page.waitForSelector('[data-testid=status]:text-is("Live")');
    await page.click('[data-testid=lock]');
    await page.click('dialog button[value=ok]');
    const key = (await page.locator('dialog code.key').textContent())!;
    await page.click('dialog button[value=ok]');

    await page.locator('.column').first().locator('.add-task').click();
    await page.fill('dialog input[aria-label=Name]', 'Written after locking');
    await page.click('dialog button[value=save]');
    await page.waitForSelector('[data-testid=status]:text-is("Live")', { timeout: 5_000 });
    const task = await until(async () =>
      (await boardJson(t.server.url, id, key)).tasks.find((x: any) => x.name === 'Written after locking'),
    );
    expect(task).toBeTruthy();
    expect(await page.locator('[data-testid=status]').textContent()).toBe('Live');
    expect(errors).toEqual([]);
    await context.close();
  });
});
