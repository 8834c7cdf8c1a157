/**
 * Mermaid diagrams follow the app's theme, not only the system's:
 * with the system light, the toggle's dark draws the diagram in Mermaid's dark
 * theme, at once and after a reload; switching back draws it light again. The
 * stored board is untouched: the theme is the person's own.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, boardJson, openBoard, until, useChromium } from '../helpers/pages.js';
import { useServer } from '../helpers/server.js';

const t = useServer();
const chrome = useChromium();

const DIAGRAM = '```mermaid\ngraph TD\n  A[Start] --> B[Done]\n```';

/** The relative luminance (0 dark – 1 light) of the first node's fill in the drawn diagram, once it is drawn. */
async function nodeLuminance(page: Page): Promise<number> {
  const fill = await page
    .locator('.item.mermaid svg .node rect')
    .first()
    .evaluate((el) => getComputedStyle(el).fill);
  const [r, g, b] = fill.match(/\d+(\.\d+)?/g)!.map(Number);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}

describe('Mermaid diagrams in the app theme', { timeout: 60_000 }, () => {
  it('the theme toggle redraws a diagram in the dark theme while the system is light, and back', async () => {
    const response = await fetch(`${t.server.url}/api/boards`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content: { texts: [{ x: 60, y: 60, content: DIAGRAM }] } }),
    });
    const { id } = (await response.json()) as { id: string };
    const context = await chrome.browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
    const { page, errors } = await openBoard(context, t.server.url, id);
    await page.waitForSelector('.item.mermaid svg .node rect');
    expect(await nodeLuminance(page)).toBeGreaterThan(0.6);

    await page.click('[data-testid=theme-toggle]');
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await until(async () => (await nodeLuminance(page)) < 0.4, 10_000);
    await page.screenshot({ path: `${ARTIFACTS}/mermaid-dark.png` });

    // The forced theme holds after a reload: the first drawing is already dark.
    await page.reload();
    await page.waitForSelector('.item.mermaid svg .node rect');
    expect(await nodeLuminance(page)).toBeLessThan(0.4);

    await page.click('[data-testid=theme-toggle]');
    await until(async () => (await nodeLuminance(page)) > 0.6, 10_000);
    expect((await boardJson(t.server.url, id)).texts.map((text: { content: string }) => text.content)).toEqual([
      DIAGRAM,
    ]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
