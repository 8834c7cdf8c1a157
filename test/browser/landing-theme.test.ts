/**
 * The landing page's theme toggle restyles its live example too: the example
 * is an embed in a frame of its own, which hears the choice this browser stores.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, person, until, useChromium } from '../helpers/pages.js';
import { useServer } from '../helpers/server.js';

const t = useServer();
const chrome = useChromium();

describe('the landing page theme', () => {
  it('switches the embedded example with the page, both ways', async () => {
    const { page, context, errors } = await person(chrome.browser);
    await page.goto(`${t.server.url}/`);
    const frame = page.frameLocator('[data-testid=example]');
    await frame.locator('[data-testid=canvas]').waitFor();
    const themes = () =>
      Promise.all([
        page.evaluate(() => document.documentElement.dataset.theme ?? null),
        frame.locator('html').evaluate((html) => (html as HTMLElement).dataset.theme ?? null),
      ]);
    await page.click('[data-testid=theme-toggle]');
    const chosen = (await themes())[0];
    expect(chosen === 'dark' || chosen === 'light').toBe(true);
    await until(async () => (await themes())[1] === chosen);
    await page.screenshot({ path: join(ARTIFACTS, 'landing-theme-toggled.png') });
    await page.click('[data-testid=theme-toggle]');
    const back = (await themes())[0];
    expect(back).not.toBe(chosen);
    await until(async () => (await themes())[1] === back);
    expect(errors).toEqual([]);
    await context.close();
  });
});
