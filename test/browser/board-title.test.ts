/**
 * Board titles in the app (docs/titles.md): renamed in place in the
 * header (click, type, Enter), stored in the document (read back through
 * GET /json), shown in the tab and in "Recently opened" on the landing page,
 * following a rename made elsewhere (REST) live; an over-long title is
 * refused by the same schema as on the server.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, boardJson, until, useChromium } from '../helpers/pages.js';
import { useServer } from '../helpers/server.js';

const t = useServer();
const chrome = useChromium();

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

async function newBoard(body: Record<string, unknown>): Promise<string> {
  const response = await fetch(`${t.server.url}/api/boards`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return ((await response.json()) as { id: string }).id;
}

async function open(id: string, options: { viewport?: typeof DESKTOP; dark?: boolean } = {}) {
  const context = await chrome.browser.newContext({
    viewport: options.viewport ?? DESKTOP,
    colorScheme: options.dark ? 'dark' : 'light',
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${t.server.url}/#${id}`);
  await until(async () => (await page.textContent('[data-testid=status]')) === 'Live');
  return { context, page, errors };
}

const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, name) });

describe('board titles', () => {
  it('renaming in the header stores the title, names the tab and the recent list; Escape cancels', async () => {
    const id = await newBoard({ mode: 'draw' });
    const { context, page, errors } = await open(id);
    const label = page.getByTestId('board-title');
    expect(await label.textContent()).toBe(`Draw board ${id.slice(0, 8)}`);
    expect(await page.title()).toBe(`Draw board ${id.slice(0, 8)}`);

    await label.click();
    const field = page.getByTestId('board-title-field');
    await field.fill('  Launch plan  ');
    await field.press('Enter');
    await until(async () => (await boardJson(t.server.url, id)).title === 'Launch plan');
    expect(await label.textContent()).toBe('Launch plan');
    expect(await page.title()).toBe('Launch plan');

    // Escape leaves the title as it was.
    await label.click();
    await field.fill('Not this');
    await field.press('Escape');
    expect(await label.textContent()).toBe('Launch plan');
    expect(await field.isHidden()).toBe(true);

    // Typing in the field is not a board shortcut (Delete, tool keys).
    await label.click();
    await field.fill('');
    await field.pressSequentially('Ahead');
    await field.press('Enter');
    await until(async () => (await boardJson(t.server.url, id)).title === 'Ahead');

    // A rename made elsewhere follows live.
    await fetch(`${t.server.url}/api/boards/${id}/title`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Renamed by an agent' }),
    });
    await until(async () => (await label.textContent()) === 'Renamed by an agent');
    expect(await page.title()).toBe('Renamed by an agent');

    await page.goto(`${t.server.url}/`);
    const recent = page.locator(`.recent a[data-id="${id}"]`);
    expect(await recent.textContent()).toBe('Renamed by an agent');
    await shot(page, 'board-title-landing.png');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('an over-long title is refused with a message and nothing stored; clearing it brings the fallback back', async () => {
    const id = await newBoard({ mode: 'todo', title: 'Sprint 12' });
    const { context, page, errors } = await open(id);
    const label = page.getByTestId('board-title');
    await until(async () => (await label.textContent()) === 'Sprint 12');
    expect(await page.title()).toBe('Sprint 12');
    await label.click();
    const field = page.getByTestId('board-title-field');
    // The field's maxlength stops typing at 200; a script could set more, which the schema refuses.
    await field.evaluate((input: HTMLInputElement) => {
      input.value = 'x'.repeat(201);
    });
    await field.press('Enter');
    await page.waitForSelector('.toast.warn');
    expect((await boardJson(t.server.url, id)).title).toBe('Sprint 12');
    await field.fill('   ');
    await field.press('Enter');
    await until(async () => (await boardJson(t.server.url, id)).title === undefined);
    expect(await label.textContent()).toBe(`Todo board ${id.slice(0, 8)}`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('screenshots: the header with a title, desktop and phone, light and dark', async () => {
    const id = await newBoard({
      mode: 'draw',
      title: 'Architecture sketch for the Q3 launch review',
      content: { texts: [{ x: 80, y: 80, content: 'A note' }] },
    });
    for (const [viewport, dark, name] of [
      [DESKTOP, false, 'desktop-light'],
      [DESKTOP, true, 'desktop-dark'],
      [PHONE, false, 'phone-light'],
      [PHONE, true, 'phone-dark'],
    ] as const) {
      const { context, page } = await open(id, { viewport, dark });
      await shot(page, `board-title-${name}.png`);
      await page.getByTestId('board-title').click();
      await shot(page, `board-title-${name}-editing.png`);
      await context.close();
    }
  });
});
