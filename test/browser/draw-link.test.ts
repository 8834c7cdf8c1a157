/**
 * The Link tool asks for the address in the app's own dialog (not the
 * browser's native prompt), says what is wrong with an address it cannot
 * take, and places the link where the canvas was pressed.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, boardJson, openBoard, person, until, useChromium } from '../helpers/pages.js';
import { useServer } from '../helpers/server.js';

const t = useServer();
const chrome = useChromium();

describe('the Link tool', () => {
  it('asks in a dialog of the app, refuses an address that is not a web address, and places the link', async () => {
    const { id } = await (await fetch(`${t.server.url}/api/boards`, { method: 'POST' })).json();
    const { context } = await person(chrome.browser);
    const { page } = await openBoard(context, t.server.url, id);
    const native: string[] = [];
    page.on('dialog', (shown) => {
      native.push(shown.message());
      void shown.dismiss();
    });
    await page.click('[data-tool=link]');
    await page.mouse.click(500, 400);
    const asked = page.locator('dialog.modal[aria-label="Add a link"]');
    await asked.waitFor();
    await page.keyboard.type('example dot com');
    await page.keyboard.press('Enter');
    await until(async () => (await asked.locator('[role=alert]').textContent())?.includes('http://'));
    await page.screenshot({ path: join(ARTIFACTS, 'draw-link-dialog.png') });
    await asked.locator('input').fill('https://example.com/page');
    await page.keyboard.press('Enter');
    await until(async () =>
      (await boardJson(t.server.url, id)).texts.some((x: { url?: string }) => x.url === 'https://example.com/page'),
    );
    expect(await asked.count()).toBe(0);
    expect(native).toEqual([]);
    await context.close();
  });
});
