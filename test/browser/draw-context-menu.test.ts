/**
 * Issue 56, the canvas's context menu: a right-click (a long press on a touch
 * screen) opens the keyboard's actions, each from the one action registry with
 * its label, shortcut and enabled state; it selects an unselected item first,
 * offers paste and select all on empty canvas, moves by the keyboard, closes
 * on Escape and on a press outside, stays on a phone's screen, follows the
 * theme, and a visitor who may only look gets only what changes nothing.
 */
import { join } from 'node:path';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createBoard } from '../helpers/http.js';
import { ARTIFACTS, boardJson, injectAxe, openBoard, until, useChromium } from '../helpers/pages.js';
import { useServer } from '../helpers/server.js';

const t = useServer();
const chrome = useChromium();

const CONTENT = {
  texts: [
    { x: 100, y: 100, content: 'Alpha' },
    { x: 400, y: 100, content: 'Beta' },
  ],
};

const makeBoard = (body: Record<string, unknown> = { content: CONTENT }) => createBoard(t.server.url, body);

type Options = { phone?: boolean; dark?: boolean; clipboard?: boolean; items?: number };

async function open(
  id: string,
  options: Options = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await chrome.browser.newContext({
    ...(options.phone
      ? { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 }
      : { viewport: { width: 1280, height: 800 } }),
    colorScheme: options.dark ? 'dark' : 'light',
    acceptDownloads: true,
  });
  if (options.clipboard)
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.server.url });
  return { context, ...(await openBoard(context, t.server.url, id, { items: options.items ?? 2 })) };
}

const menu = (page: Page) => page.getByTestId('context-menu');
/** The menu's entries as (action name, label, shortcut, disabled). */
const entries = (page: Page) =>
  page.$$eval('[data-testid=context-menu] [role=menuitem]', (buttons) =>
    buttons.map((button) => ({
      name: (button as HTMLElement).dataset.action,
      label: button.querySelector('span')?.textContent,
      shortcut: button.querySelector('kbd')?.textContent ?? null,
      disabled: (button as HTMLButtonElement).disabled,
    })),
  );
const names = async (page: Page) => (await entries(page)).map((entry) => entry.name);

async function centre(page: Page, selector: string): Promise<{ x: number; y: number }> {
  const box = (await page.locator(selector).boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

async function rightClick(page: Page, at: { x: number; y: number }): Promise<void> {
  await page.mouse.click(at.x, at.y, { button: 'right' });
  await menu(page).waitFor();
}

const focusedAction = (page: Page) =>
  page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.action ?? null);

/** The world position under a screen point. */
const toWorld = (page: Page, at: { x: number; y: number }) =>
  page.evaluate(({ x, y }) => {
    const rect = document.querySelector('[data-testid=canvas]')!.getBoundingClientRect();
    const m = new DOMMatrix(getComputedStyle(document.querySelector('.world')!).transform);
    return { x: (x - rect.left - m.e) / m.a, y: (y - rect.top - m.f) / m.a };
  }, at);

describe('the context menu', () => {
  it('a right-click on an unselected item selects it alone and lists the actions, with their shortcuts', async () => {
    const id = await makeBoard();
    const { page, context, errors } = await open(id);
    await page.locator('.item.text:has-text("Alpha")').click();
    await rightClick(page, await centre(page, '.item.text:has-text("Beta")'));
    expect(await page.locator('.item.selected').allTextContents()).toEqual(['Beta']);
    expect(await entries(page)).toEqual([
      { name: 'copy', label: 'Copy', shortcut: 'Ctrl+C', disabled: false },
      { name: 'cut', label: 'Cut', shortcut: 'Ctrl+X', disabled: false },
      { name: 'paste', label: 'Paste', shortcut: 'Ctrl+V', disabled: false },
      { name: 'duplicate', label: 'Duplicate the selection', shortcut: 'Ctrl+D', disabled: false },
      { name: 'delete', label: 'Delete the selection', shortcut: 'Del', disabled: false },
      { name: 'select-all', label: 'Select every item', shortcut: 'Ctrl+A', disabled: false },
      { name: 'export-png-selection', label: 'PNG of the selection', shortcut: null, disabled: false },
      { name: 'export-svg-selection', label: 'SVG of the selection', shortcut: null, disabled: false },
    ]);
    // The right button started no gesture: nothing moved, no selection box.
    expect((await boardJson(t.server.url, id)).texts.map((text: { x: number }) => text.x).sort()).toEqual([100, 400]);

    // The keyboard: the first entry has the focus, arrows move (wrapping), Escape closes back to the canvas.
    expect(await focusedAction(page)).toBe('copy');
    await page.keyboard.press('ArrowUp');
    expect(await focusedAction(page)).toBe('export-svg-selection');
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowDown');
    expect(await focusedAction(page)).toBe('cut');
    await page.keyboard.press('Escape');
    await menu(page).waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('canvas');
    expect(await page.locator('.item.selected').count()).toBe(1); // the menu's Escape leaves the selection

    // Enter picks: Delete removes the item the menu was opened on, and nothing else.
    await rightClick(page, await centre(page, '.item.text:has-text("Beta")'));
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowDown');
    expect(await focusedAction(page)).toBe('delete');
    await page.keyboard.press('Enter');
    await until(async () => (await boardJson(t.server.url, id)).texts.length === 1);
    expect((await boardJson(t.server.url, id)).texts[0].content).toBe('Alpha');
    await menu(page).waitFor({ state: 'hidden' });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the keyboard opens it too (Shift+F10, the Menu key), on the selection, with the focus on its first entry', async () => {
    const id = await makeBoard();
    const { page, context, errors } = await open(id);
    await page.locator('.item.text:has-text("Beta")').click();
    await page.keyboard.press('Shift+F10');
    await menu(page).waitFor();
    expect(await focusedAction(page)).toBe('copy');
    expect(await names(page)).toContain('delete');
    expect(await page.locator('.item.selected').allTextContents()).toEqual(['Beta']);
    const box = (await menu(page).boundingBox())!;
    const beta = (await page.locator('.item.text:has-text("Beta")').boundingBox())!;
    expect(Math.abs(box.x - (beta.x + beta.width / 2))).toBeLessThan(2); // at the middle of the selection
    expect(errors).toEqual([]);
    await context.close();
  });

  it('on empty canvas it offers paste and select all; a press outside closes it', async () => {
    const id = await makeBoard();
    const { page, context } = await open(id);
    await page.locator('.item.text:has-text("Alpha")').click();
    await rightClick(page, { x: 900, y: 600 });
    expect(await names(page)).toEqual(['paste', 'select-all']);
    expect(await page.locator('.item.selected').count()).toBe(0);
    await page.mouse.click(1100, 700);
    await menu(page).waitFor({ state: 'hidden' });

    await rightClick(page, { x: 900, y: 600 });
    await menu(page)
      .getByRole('menuitem', { name: /Select every item/ })
      .click();
    await menu(page).waitFor({ state: 'hidden' });
    expect(await page.locator('.item.selected').count()).toBe(2);
    await page.getByTestId('selection-box').waitFor();
    // A right-click inside the selection's box, between its items, is on the selection.
    const alpha = (await page.locator('.item.text:has-text("Alpha")').boundingBox())!;
    const beta = (await page.locator('.item.text:has-text("Beta")').boundingBox())!;
    await rightClick(page, { x: (alpha.x + alpha.width + beta.x) / 2, y: alpha.y + alpha.height / 2 });
    expect(await names(page)).toContain('duplicate');
    expect(await page.locator('.item.selected').count()).toBe(2);
    await context.close();
  });

  it('a click, a right-click and Escape, then a click again on the same text is two clicks, not a double click that edits it', async () => {
    const id = await makeBoard();
    const { page, context } = await open(id);
    const alpha = await centre(page, '.item.text:has-text("Alpha")');
    await page.mouse.click(alpha.x, alpha.y);
    await rightClick(page, alpha);
    await page.keyboard.press('Escape');
    await menu(page).waitFor({ state: 'hidden' });
    await page.mouse.click(alpha.x, alpha.y); // well within the 500 ms of a double click
    expect(await page.locator('textarea.editor').count()).toBe(0);
    expect(await page.locator('.item.selected:has-text("Alpha")').count()).toBe(1);
    await context.close();
  });

  it('copy, paste (where the menu was opened) and duplicate from the menu write what the keys do', async () => {
    const id = await makeBoard();
    const { page, context, errors } = await open(id, { clipboard: true });
    await rightClick(page, await centre(page, '.item.text:has-text("Alpha")'));
    await menu(page).getByRole('menuitem', { name: /Copy/ }).click();
    await until(async () => (await page.evaluate(() => navigator.clipboard.readText())).includes('Alpha'));

    const at = { x: 700, y: 500 };
    await rightClick(page, at);
    const world = await toWorld(page, at);
    await menu(page).getByRole('menuitem', { name: /Paste/ }).click();
    const pasted = await until(async () => {
      const texts = (await boardJson(t.server.url, id)).texts;
      return texts.length === 3 && texts.find((text: { x: number }) => text.x !== 100 && text.x !== 400);
    });
    expect(pasted.content).toBe('Alpha');
    expect(pasted.x).toBeCloseTo(world.x, 0);
    expect(pasted.y).toBeCloseTo(world.y, 0);

    // The paste is selected: Duplicate copies it 16 px down and right, one undo takes that back.
    await rightClick(page, await centre(page, `.item.text[data-id="${pasted.id}"]`));
    await menu(page)
      .getByRole('menuitem', { name: /Duplicate/ })
      .click();
    const copy = await until(async () => {
      const texts = (await boardJson(t.server.url, id)).texts;
      return texts.length === 4 && texts.find((text: { x: number }) => Math.abs(text.x - (pasted.x + 16)) < 0.5);
    });
    expect(copy.y).toBeCloseTo(pasted.y + 16, 0);
    await page.keyboard.press('Control+z');
    await until(async () => (await boardJson(t.server.url, id)).texts.length === 3);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('fills a selected shape from the menu, as the fill bar does; a text has no fill in its menu', async () => {
    const id = await makeBoard({
      content: {
        texts: [{ x: 400, y: 100, content: 'Beta' }],
        shapes: [{ shape: 'rectangle', x: 100, y: 100, width: 160, height: 90, label: 'Box' }],
      },
    });
    const { page, context, errors } = await open(id);
    await rightClick(page, await centre(page, '.item.text:has-text("Beta")'));
    expect(await names(page)).not.toContain('fill-solid');
    await page.keyboard.press('Escape');
    await rightClick(page, await centre(page, '.item.shape'));
    expect(await names(page)).toEqual(expect.arrayContaining(['fill-none', 'fill-semi', 'fill-solid']));
    await menu(page)
      .getByRole('menuitem', { name: /Solid fill/ })
      .click();
    await until(async () => (await boardJson(t.server.url, id)).shapes[0].fill === 'solid');
    await page.keyboard.press('Control+z');
    await until(async () => (await boardJson(t.server.url, id)).shapes[0].fill === 'none');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('exports the selection from the menu, as the Export menu does', async () => {
    const id = await makeBoard();
    const { page, context, errors } = await open(id);
    await rightClick(page, await centre(page, '.item.text:has-text("Beta")'));
    const download = page.waitForEvent('download');
    await menu(page).getByRole('menuitem', { name: 'PNG of the selection' }).click();
    expect((await download).suggestedFilename()).toBe(`board-${id.slice(0, 8)}-selection.png`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a visitor who may only look gets copy, select all and export, and nothing that changes the board', async () => {
    const id = await makeBoard({ content: CONTENT, lock: 'write' });
    const { page, context, errors } = await open(id);
    await page.locator('[data-testid=locked-banner]').waitFor();
    await rightClick(page, await centre(page, '.item.text:has-text("Alpha")'));
    expect(await names(page)).toEqual(['copy', 'select-all', 'export-png-selection', 'export-svg-selection']);
    expect(await page.locator('.item.selected').allTextContents()).toEqual(['Alpha']);
    await page.keyboard.press('Escape');
    await rightClick(page, { x: 900, y: 600 });
    expect(await names(page)).toEqual(['select-all']);
    await menu(page)
      .getByRole('menuitem', { name: /Select every item/ })
      .click();
    expect(await page.locator('.item.selected').count()).toBe(2);
    expect(await page.locator('[data-testid=selection-box] .box-handle:visible').count()).toBe(0); // no resizing
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a long press opens it on a phone, inside the screen, with entries a finger can take', async () => {
    const id = await makeBoard({
      content: {
        texts: [
          { x: 20, y: 40, content: 'left' },
          { x: 300, y: 500, content: 'far right' },
        ],
      },
    });
    const { page, context, errors } = await open(id, { phone: true });
    const cdp: CDPSession = await context.newCDPSession(page);
    const touch = (type: 'touchStart' | 'touchEnd', at?: { x: number; y: number }) =>
      cdp.send('Input.dispatchTouchEvent', { type, touchPoints: at ? [at] : [] });
    // Held on an item near the right edge: it is selected alone and the menu opens under the finger, on screen.
    const item = (await page.locator('.item.text:has-text("far right")').boundingBox())!;
    await touch('touchStart', { x: Math.min(item.x + item.width, 390) - 8, y: item.y + item.height / 2 });
    await menu(page).waitFor();
    await touch('touchEnd');
    expect(await page.locator('.item.selected').allTextContents()).toEqual(['far right']);
    expect(await names(page)).toContain('delete');
    const box = (await menu(page).boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(box.y + box.height).toBeLessThanOrEqual(844);
    for (const entry of await menu(page).getByRole('menuitem').all())
      expect((await entry.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await page.screenshot({ path: join(ARTIFACTS, 'draw-context-menu-long-press.png') });
    await menu(page)
      .getByRole('menuitem', { name: /Delete/ })
      .tap();
    await until(async () => (await boardJson(t.server.url, id)).texts.length === 1);

    // Held on empty canvas and lifted where it was: the canvas's menu, not a selection box.
    await touch('touchStart', { x: 200, y: 700 });
    await page.waitForFunction(() => !document.querySelector<HTMLElement>('.rubber')!.hidden); // the long press fired
    await touch('touchEnd');
    await menu(page).waitFor();
    expect(await names(page)).toEqual(['paste', 'select-all']);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('screenshots of the menu, light and dark, desktop and phone; it takes the theme, and axe finds nothing serious in it', async () => {
    const id = await makeBoard();
    const backgrounds: string[] = [];
    for (const [name, options] of [
      ['desktop', {}],
      ['desktop-dark', { dark: true }],
      ['phone', { phone: true }],
      ['phone-dark', { phone: true, dark: true }],
    ] as const) {
      const { page, context } = await open(id, options);
      const at = await centre(page, '.item.text:has-text("Beta")');
      if ('phone' in options) {
        const cdp = await context.newCDPSession(page);
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [at] });
        await menu(page).waitFor();
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      } else await rightClick(page, at);
      backgrounds.push(await menu(page).evaluate((element) => getComputedStyle(element).backgroundColor));
      await injectAxe(page);
      const found: { id: string; impact: string }[] = await page.evaluate(
        async () => (await (window as any).axe.run('[data-testid=context-menu]')).violations,
      );
      expect(
        found.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
        name,
      ).toEqual([]);
      await page.screenshot({ path: join(ARTIFACTS, `draw-context-menu-${name}.png`) });
      await context.close();
    }
    expect(backgrounds[0]).not.toBe(backgrounds[1]);
    expect(backgrounds[2]).not.toBe(backgrounds[3]);
  }, 60_000); // four browser contexts, one after another
});
