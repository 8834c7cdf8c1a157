/**
 * Touch targets on a phone (390×844, coarse pointer): every control a finger
 * can press on a draw board, a todo board and the header menu is at least
 * 44×44 px (Apple's guideline) where it takes the press, Undo and Redo are in
 * the draw toolbar's one row, and a board opens fitted to its content.
 */
import { join } from 'node:path';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createBoard } from '../helpers/http.js';
import { ARTIFACTS, boardJson, openBoard, until, useChromium } from '../helpers/pages.js';
import { useServer } from '../helpers/server.js';

const t = useServer();
const chrome = useChromium();

const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  hasTouch: true,
  isMobile: true,
  deviceScaleFactor: 2,
};
/** Apple's Human Interface Guidelines: a touch target is at least 44×44 points. */
const MIN_TARGET_PX = 44;

/**
 * The visible controls outside the canvas's items (which scale with the zoom) smaller than 44×44 where they take a
 * press: their box, grown by a `::before`/`::after` that is absolutely placed over them (a hit area around a small
 * look) or by the label around a field.
 */
const tooSmall = (page: Page) =>
  page.evaluate((min) => {
    const selector =
      'button, input:not([type=hidden]), select, textarea, summary, [role=button], a, .swatch, [tabindex="0"]';
    const small: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>(selector)) {
      if (!element.checkVisibility({ visibilityProperty: true }) || element.closest('.items')) continue;
      const box = element.getBoundingClientRect();
      let [width, height] = [box.width, box.height];
      for (const pseudo of ['::before', '::after']) {
        const style = getComputedStyle(element, pseudo);
        if (style.content === 'none' || style.position !== 'absolute') continue;
        width = Math.max(width, parseFloat(style.width) || 0);
        height = Math.max(height, parseFloat(style.height) || 0);
      }
      const label = element.closest('label'); // a press on a field's label is a press on the field
      if (label) {
        const around = label.getBoundingClientRect();
        [width, height] = [Math.max(width, around.width), Math.max(height, around.height)];
      }
      if (width < min - 0.5 || height < min - 0.5) {
        const name = element.getAttribute('aria-label') ?? element.textContent?.trim().slice(0, 20) ?? '';
        small.push(
          `${element.tagName.toLowerCase()}.${element.className} "${name}" ${Math.round(width)}×${Math.round(height)}`,
        );
      }
    }
    return small;
  }, MIN_TARGET_PX);

const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, name) });

describe('touch targets on a phone', { timeout: 120_000 }, () => {
  it('on a draw board every control, the More menu and the header menu included, is at least 44×44 px', async () => {
    const id = await createBoard(t.server.url, { content: { texts: [{ x: 40, y: 40, content: 'touch' }] } });
    const context = await chrome.browser.newContext(PHONE);
    const { page, errors } = await openBoard(context, t.server.url, id, { items: 1 });
    expect(await page.evaluate(() => matchMedia('(pointer: coarse)').matches)).toBe(true);
    expect(await tooSmall(page)).toEqual([]);
    await page.getByTestId('toolbar-more').tap();
    await page.locator('.toolbar-more').waitFor({ state: 'visible' });
    await shot(page, 'touch-draw-more-390.png');
    expect(await tooSmall(page)).toEqual([]);
    await page.getByTestId('toolbar-more').tap();
    await page.getByRole('button', { name: 'Board actions' }).tap();
    await page.locator('[data-testid=lock]').waitFor({ state: 'visible' });
    await shot(page, 'touch-header-menu-390.png');
    expect(await tooSmall(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.getByTestId('toolbar-more').tap();
    await shot(page, 'touch-draw-more-dark-390.png');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('Undo and Redo are in the one row of the draw toolbar, and undo and redo a delete (stored)', async () => {
    const id = await createBoard(t.server.url, { content: { texts: [{ x: 60, y: 60, content: 'drag me' }] } });
    const context = await chrome.browser.newContext(PHONE);
    const { page, errors } = await openBoard(context, t.server.url, id, { items: 1 });
    const toolbar = page.locator('.toolbar');
    const undo = toolbar.getByRole('button', { name: 'Undo' });
    const redo = toolbar.getByRole('button', { name: 'Redo' });
    expect(await undo.isVisible()).toBe(true); // without opening More
    expect(await redo.isVisible()).toBe(true);
    const middles = await toolbar.evaluate((bar) =>
      [...bar.querySelectorAll<HTMLElement>('button, summary')]
        .filter((el) => el.checkVisibility())
        .map((el) => el.getBoundingClientRect())
        .map((box) => Math.round(box.top + box.height / 2)),
    );
    expect(Math.max(...middles) - Math.min(...middles), JSON.stringify(middles)).toBeLessThanOrEqual(4);
    expect((await toolbar.boundingBox())!.height).toBeLessThanOrEqual(60);
    const rightmost = await toolbar.evaluate((bar) =>
      Math.max(
        ...[...bar.querySelectorAll<HTMLElement>('button, summary')]
          .filter((el) => el.checkVisibility())
          .map((el) => el.getBoundingClientRect().right),
      ),
    );
    expect(rightmost).toBeLessThanOrEqual(390); // every control on the screen, none pushed past its edge
    await shot(page, 'touch-draw-390.png');

    // A tap selects the text and More's Delete removes it; Undo brings it back, Redo removes it again.
    await page.locator('.item').tap();
    await page.getByTestId('toolbar-more').tap();
    await page.locator('.toolbar-more button:text-is("Delete")').tap();
    const count = () => boardJson(t.server.url, id).then((board) => board.texts.length as number);
    await until(async () => (await count()) === 0);
    await undo.tap();
    await until(async () => (await count()) === 1);
    await redo.tap();
    await until(async () => (await count()) === 0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a board opens fitted to its content', async () => {
    const texts = Array.from({ length: 15 }, (_, i) => ({
      x: (i % 5) * 400,
      y: Math.floor(i / 5) * 500,
      content: `item ${i + 1}`,
    }));
    const id = await createBoard(t.server.url, { content: { texts } });
    const context = await chrome.browser.newContext(PHONE);
    const { page, errors } = await openBoard(context, t.server.url, id, { items: 15 });
    const shown = () =>
      page.evaluate(() => {
        const frame = document.querySelector('[data-testid=canvas]')!.getBoundingClientRect();
        return [...document.querySelectorAll('.item')].filter((item) => {
          const box = item.getBoundingClientRect();
          return (
            box.left >= frame.left && box.top >= frame.top && box.right <= frame.right && box.bottom <= frame.bottom
          );
        }).length;
      });
    await until(async () => (await shown()) === 15);
    await shot(page, 'touch-fitted-390.png');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('on a todo board with a card every control is at least 44×44 px', async () => {
    const id = await createBoard(t.server.url, { mode: 'todo' });
    const context = await chrome.browser.newContext(PHONE);
    const { page, errors } = await openBoard(context, t.server.url, id);
    const quickAdd = page.locator('.quick-add').first();
    await quickAdd.tap();
    await quickAdd.fill('Buy milk');
    await quickAdd.press('Enter');
    await page.locator('.task').first().waitFor();
    await page.locator('.quick-add').first().blur();
    await shot(page, 'touch-todo-390.png');
    expect(await tooSmall(page)).toEqual([]);
    // The done box keeps its look and takes a press over its whole hit area.
    const done = page.locator('.task input[type=checkbox]').first();
    const box = (await done.boundingBox())!;
    await page.touchscreen.tap(box.x + box.width / 2 + 14, box.y + box.height / 2);
    await until(async () => (await boardJson(t.server.url, id)).tasks?.[0]?.done === true);
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, 'touch-todo-dark-390.png');
    expect(errors).toEqual([]);
    await context.close();
  });
});
