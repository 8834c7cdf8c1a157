/**
 * The compact toolbars: the draw toolbar is one row at 1280×800
 * because the inks sit behind one colour button and its palette (tldraw,
 * Excalidraw), and a phone's header is one row because its secondary buttons
 * fold behind "⋯".
 */
import { join } from 'node:path';
import type { BrowserContextOptions, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { INK_COLORS } from '../../schema/index.js';
import { ARTIFACTS, boardJson, openBoard, seriousIn, until, useChromium } from '../helpers/pages.js';
import { useServer } from '../helpers/server.js';

const t = useServer();
const chrome = useChromium();

const DESKTOP = { viewport: { width: 1280, height: 800 } };
const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  hasTouch: true,
  isMobile: true,
  deviceScaleFactor: 2,
};

async function createBoard(body: Record<string, unknown>): Promise<{ id: string; ids?: any }> {
  const response = await fetch(`${t.server.url}/api/boards`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`POST /api/boards: ${response.status} ${await response.text()}`);
  return response.json();
}

async function open(id: string, options: BrowserContextOptions = DESKTOP) {
  const context = await chrome.browser.newContext(options);
  return { context, ...(await openBoard(context, t.server.url, id, { items: 1 })) };
}

/** The rounded middles of the visible controls in `bar` (a link's box is shorter than a button's): one row means they are within a few pixels. */
const middles = (bar: Locator) =>
  bar.evaluate((element) =>
    [...element.querySelectorAll<HTMLElement>('button, summary, a, .status')]
      .filter((el) => el.checkVisibility())
      .map((el) => {
        const box = el.getBoundingClientRect();
        return Math.round(box.top + box.height / 2);
      }),
  );
const spread = (values: number[]) => Math.max(...values) - Math.min(...values);
const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, name) });

describe('compact toolbars', { timeout: 90_000 }, () => {
  it('at 1280×800 the draw toolbar is one row; the colour palette recolours the selected text, by mouse and by keyboard', async () => {
    const { id } = await createBoard({ content: { texts: [{ x: 100, y: 100, content: 'recolour me' }] } });
    const { page, context, errors } = await open(id);
    const toolbar = page.locator('.toolbar');
    const rows = await middles(toolbar);
    expect(rows.length).toBeGreaterThan(15);
    expect(spread(rows), JSON.stringify(rows)).toBeLessThanOrEqual(4);
    expect(await page.locator('.toolbar .swatch').first().isVisible()).toBe(false); // the inks wait in the palette

    const button = page.getByRole('button', { name: 'Colour: auto' });
    await page.locator('.item.text:has-text("recolour me")').click();
    await button.click();
    const palette = page.locator('.ink-palette');
    await palette.waitFor({ state: 'visible' });
    expect(await palette.locator('[data-color]').count()).toBe(INK_COLORS.length - 1); // black is auto's twin
    // Under its button, within the screen.
    const [box, under] = [(await palette.boundingBox())!, (await button.boundingBox())!];
    expect(box.y).toBeGreaterThanOrEqual(under.y + under.height);
    expect(box.x + box.width).toBeLessThanOrEqual(1280);
    await shot(page, 'toolbar-palette-1280.png');
    expect(await seriousIn(page, '.toolbar')).toEqual([]);
    await palette.locator('[data-color=red]').click();
    await palette.waitFor({ state: 'hidden' });
    await until(async () => (await boardJson(t.server.url, id)).texts[0].color === 'red');
    expect(await page.getByRole('button', { name: 'Colour: red' }).isVisible()).toBe(true);
    expect(await page.getAttribute('[data-color=red]', 'aria-pressed')).toBe('true');

    // Keyboard: Enter opens it on the current ink, arrows move, Escape closes without touching the selection, Enter picks.
    await page.getByRole('button', { name: 'Colour: red' }).focus();
    await page.keyboard.press('Enter');
    await palette.waitFor({ state: 'visible' });
    await until(() => page.evaluate(() => (document.activeElement as HTMLElement).dataset.color === 'red'));
    await page.keyboard.press('Escape');
    await palette.waitFor({ state: 'hidden' });
    expect(await page.locator('.item.selected').count()).toBe(1);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Colour: red');
    await page.keyboard.press('Enter');
    await until(() => page.evaluate(() => (document.activeElement as HTMLElement).dataset.color === 'red')); // the popover's toggle event focuses the current ink
    await page.keyboard.press('ArrowRight'); // red → blue
    await page.keyboard.press('ArrowDown'); // one row of the grid down
    const picked = await page.evaluate(() => (document.activeElement as HTMLElement).dataset.color);
    const columns = await palette.evaluate((grid) => getComputedStyle(grid).gridTemplateColumns.split(' ').length);
    expect(picked).toBe(INK_COLORS.filter((ink) => ink !== 'black')[2 + columns]);
    await page.keyboard.press('Enter');
    await palette.waitFor({ state: 'hidden' });
    const board = await until(async () => {
      const json = await boardJson(t.server.url, id);
      return json.texts[0].color === picked && json;
    });
    expect(board.texts[0]).toMatchObject({ x: 100, y: 100 }); // the arrow keys stayed in the palette: no nudge
    expect(errors).toEqual([]);
    await context.close();
  });

  it('at 390×844 the header is one row; Share, Lock and the theme toggle are behind its "⋯" menu', async () => {
    const { id } = await createBoard({ content: { texts: [{ x: 40, y: 40, content: 'phone' }] } });
    const { page, context, errors } = await open(id, PHONE);
    const header = page.locator('header.bar');
    const rows = await middles(header);
    expect(spread(rows), JSON.stringify(rows)).toBeLessThanOrEqual(4);
    expect((await header.boundingBox())!.height).toBeLessThanOrEqual(48);
    await shot(page, 'toolbar-phone-header-390.png');
    expect(await page.locator('[data-testid=lock]').isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Board actions' }).tap();
    for (const selector of ['[data-testid=lock]', '[data-testid=theme-toggle]', '[data-testid=share]'])
      expect(await page.locator(selector).isVisible(), selector).toBe(true);
    await shot(page, 'toolbar-phone-header-menu-390.png');
    expect(await seriousIn(page, 'header.bar')).toEqual([]);
    await page.locator('[data-testid=theme-toggle]').tap(); // acts, and closes the menu
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBeTruthy();
    await page.locator('[data-testid=lock]').waitFor({ state: 'hidden' });
    await shot(page, 'toolbar-phone-header-dark-390.png');
    expect(errors).toEqual([]);
    await context.close();
  });
});
