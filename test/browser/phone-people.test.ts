/**
 * Other people on the board, seen from a phone: the header keeps to the
 * screen (its "⋯" menu reachable, no sideways scroll) however many are here,
 * on both kinds of board; and an embed viewer is nobody: it is not among the
 * people and moves no cursor on their board.
 */
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, openBoard, person, until, useChromium } from '../helpers/pages.js';
import { useServer } from '../helpers/server.js';

const t = useServer();
const chrome = useChromium();
const PHONE = { width: 390, height: 844 };

async function newBoard(mode: 'draw' | 'todo'): Promise<string> {
  const response = await fetch(`${t.server.url}/api/boards`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ mode }),
  });
  return ((await response.json()) as { id: string }).id;
}

async function phone(colorScheme: 'light' | 'dark' = 'light'): Promise<BrowserContext> {
  return chrome.browser.newContext({
    viewport: PHONE,
    hasTouch: true,
    isMobile: true,
    deviceScaleFactor: 2,
    colorScheme,
  });
}

const chips = (page: Page) => page.locator('.people .person');

describe('the people on a board, on a desktop', () => {
  it('shows three chips, then a count of the rest', async () => {
    const id = await newBoard('draw');
    const others = await Promise.all(Array.from({ length: 4 }, () => person(chrome.browser)));
    for (const other of others) await openBoard(other.context, t.server.url, id);
    const context = await chrome.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page: board } = await openBoard(context, t.server.url, id);
    await until(async () => (await board.locator('.people .person.more').textContent()) === '+2');
    expect(await chips(board).count()).toBe(3);
    expect(await board.locator('.people-count').isVisible()).toBe(false);
    await Promise.all([context.close(), ...others.map((other) => other.context.close())]);
  });
});

describe('the people on a board, from a phone', () => {
  for (const [mode, scheme] of [
    ['draw', 'light'],
    ['todo', 'dark'],
  ] as const) {
    it(`on a ${mode} board, the phone header keeps its menu on screen with four other people here`, async () => {
      const id = await newBoard(mode);
      const others = await Promise.all(Array.from({ length: 4 }, () => person(chrome.browser)));
      for (const other of others) await openBoard(other.context, t.server.url, id);
      const context = await phone(scheme);
      const { page } = await openBoard(context, t.server.url, id);
      const count = page.locator('.people-count');
      await until(async () => (await count.textContent()) === '4');
      expect(await count.isVisible()).toBe(true);
      expect(await page.locator('.people').evaluate((list) => list.scrollWidth <= list.clientWidth)).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      const toggle = page.locator('.header-menu-toggle');
      const box = await toggle.boundingBox();
      expect(box && box.x + box.width).toBeLessThanOrEqual(PHONE.width);
      await page.screenshot({ path: join(ARTIFACTS, `phone-people-${mode}-${scheme}.png`) });
      await toggle.click();
      await until(() => page.locator('.header-menu-list').evaluate((list) => list.matches(':popover-open')));
      await context.close();
      await Promise.all(others.map((other) => other.context.close()));
    });
  }

  it('an embed viewer is not among the people and moves no cursor on their board', async () => {
    const id = await newBoard('draw');
    const editor = await person(chrome.browser);
    const { page } = await openBoard(editor.context, t.server.url, id);
    const viewer = await chrome.browser.newContext({ viewport: { width: 800, height: 600 } });
    const embed = await viewer.newPage();
    await embed.goto(`${t.server.url}/?embed=1#${id}`);
    await embed.waitForSelector('[data-testid=canvas]');
    await embed.mouse.move(300, 300);
    await embed.mouse.move(320, 320);
    // Someone who joins after the viewer and points: once the editor sees them, it would have seen the viewer too.
    const later = await person(chrome.browser);
    const { page: laterPage } = await openBoard(later.context, t.server.url, id);
    await laterPage.mouse.move(400, 400);
    await laterPage.mouse.move(420, 420);
    await until(async () => (await page.locator('.cursor').count()) === 1);
    expect(await chips(page).count()).toBe(1);
    // The embed shows where the others point, without their names over the board.
    await until(async () => (await embed.locator('.cursor').count()) === 1);
    expect(await embed.locator('.cursor span').isVisible()).toBe(false);
    await Promise.all([editor.context.close(), viewer.close(), later.context.close()]);
  });
});
