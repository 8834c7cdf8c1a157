/**
 * A post-it's colour tints the note, as sticky notes are coloured: in the app
 * (light and dark) and in the board's preview; the default ink keeps the
 * yellow note.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { postitFill } from '../../board/render/preview-ink.js';
import { ARTIFACTS, openBoard, useChromium } from '../helpers/pages.js';
import { useServer } from '../helpers/server.js';

const t = useServer();
const chrome = useChromium();

/** The contrast of a note's words on its background, as the page computes both. */
function contrast(page: Page, text: string): Promise<number> {
  return page.locator(`.item.postit:has-text("${text}")`).evaluate((note) => {
    const style = getComputedStyle(note);
    const luminance = (css: string) => {
      // rgb(0-255 …), or color(srgb 0-1 …) as a color-mix() is computed.
      const scale = css.startsWith('color(') ? 1 : 255;
      const [r, g, b] = (css.match(/[\d.]+/g) ?? []).slice(0, 3).map((c) => {
        const v = Number(c) / scale;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const [a, b] = [luminance(style.color), luminance(style.backgroundColor)].sort((x, y) => y - x);
    return (a + 0.05) / (b + 0.05);
  });
}

describe('a coloured post-it', () => {
  it('is a note of its colour in the app, light and dark, and in the preview', async () => {
    const response = await fetch(`${t.server.url}/api/boards`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        content: {
          texts: [
            { x: 40, y: 40, content: 'plain note', postit: true },
            { x: 300, y: 40, content: 'red note', postit: true, color: 'red' },
            { x: 560, y: 40, content: 'blue note', postit: true, color: 'blue' },
          ],
        },
      }),
    });
    const { id } = (await response.json()) as { id: string };
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await chrome.browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme });
      const { page } = await openBoard(context, t.server.url, id, { items: 3 });
      const background = (text: string) =>
        page.locator(`.item.postit:has-text("${text}")`).evaluate((note) => getComputedStyle(note).backgroundColor);
      const [plain, red, blue] = [
        await background('plain note'),
        await background('red note'),
        await background('blue note'),
      ];
      expect(new Set([plain, red, blue]).size, `${colorScheme}: ${plain} ${red} ${blue}`).toBe(3);
      // The words stay readable on every note (WCAG's 4.5:1).
      for (const text of ['plain note', 'red note', 'blue note'])
        expect(await contrast(page, text), `${colorScheme}: ${text}`).toBeGreaterThanOrEqual(4.5);
      await page.screenshot({ path: join(ARTIFACTS, `postit-tint-${colorScheme}.png`) });
      await context.close();
    }
    const svg = await (await fetch(`${t.server.url}/svg-preview/${id}`)).text();
    expect(svg).toContain(`fill="${postitFill('red')}"`);
    expect(svg).toContain(`fill="${postitFill(undefined)}"`);
    expect(postitFill('red')).not.toBe(postitFill(undefined));
  });
});
