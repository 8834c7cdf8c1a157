/**
 * A board opens on its content: a Mermaid diagram that is laid out wider than
 * the screen after the board was first looked at is not clipped at the edge;
 * the view fits again once it has its size (the person had not moved it).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, openBoard, until, useChromium } from '../helpers/pages.js';
import { useServer } from '../helpers/server.js';

const t = useServer();
const chrome = useChromium();

const WIDE = `\`\`\`mermaid\nflowchart LR\n${Array.from({ length: 10 }, (_, i) => `  N${i}[Step number ${i}] --> N${i + 1}[Step number ${i + 1}]`).join('\n')}\n\`\`\``;

describe('opening a board with a diagram', () => {
  it('fits the diagram once it is laid out, not its placeholder', async () => {
    const response = await fetch(`${t.server.url}/api/boards`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content: { texts: [{ x: 1000, y: 100, content: WIDE }] } }),
    });
    const { id } = (await response.json()) as { id: string };
    // Mermaid arrives only once the board is open and Live (as on a slow first visit): every first fit sees the placeholder.
    const context = await chrome.browser.newContext({
      viewport: { width: 1280, height: 800 },
      serviceWorkers: 'block',
    });
    let release = () => {};
    const open = new Promise<void>((resolve) => (release = resolve));
    await context.route(/\/assets\/mermaid\.core-[^/]*\.js$/, async (route) => {
      await open;
      await route.continue();
    });
    const { page } = await openBoard(context, t.server.url, id, { items: 1 });
    expect(await page.locator('.item.mermaid svg').count()).toBe(0);
    release();
    await page.waitForSelector('.item.mermaid svg');
    const viewport = (await page.locator('[data-testid=canvas]').boundingBox()) ?? { x: 0, width: 0 };
    await until(async () => {
      const box = await page.locator('.item.mermaid').boundingBox();
      return box !== null && box.x >= viewport.x && box.x + box.width <= viewport.x + viewport.width;
    });
    await page.screenshot({ path: join(ARTIFACTS, 'draw-open-fit.png') });
    expect(await page.locator('.item.mermaid svg').count()).toBe(1);
    await context.close();
  });
});
