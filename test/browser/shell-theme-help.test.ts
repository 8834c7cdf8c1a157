/**
 * The app shell: the light/dark theme and its toggle, the `?`
 * shortcuts overlay, the "Locked: view only" banner, the phone's one-row draw
 * toolbar, and the docs/ screenshots.
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { TOOLS } from '../../web/src/draw/toolbar.js';
import { ARTIFACTS, boardJson, openBoard, until, useChromium } from '../helpers/pages.js';
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
/** The bound: the phone toolbar never takes more than 15% of the screen's height. */
const PHONE_TOOLBAR_MAX_PX = 0.15 * 844;

async function createBoard(body: Record<string, unknown>): Promise<{ id: string; access_key?: string; ids?: any }> {
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
  return { context, ...(await openBoard(context, t.server.url, id)) };
}

const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, name) });

const SAMPLE = {
  texts: [
    { x: 60, y: 40, content: '# Sprint review\nWhat we shipped, what is next.' },
    { x: 60, y: 170, content: 'Ship the export', postit: true },
    { x: 280, y: 170, content: 'Phone toolbar', postit: true },
    { x: 500, y: 150, content: '- [x] Dark theme\n- [ ] Shortcuts overlay\n- [ ] Locked banner', diagram: true },
    { x: 60, y: 400, content: 'Maroon ink', color: 'maroon' },
    { x: 260, y: 400, content: 'Purple ink', color: 'purple' },
    { x: 460, y: 400, content: 'Blue ink', color: 'blue' },
  ],
  lines: [
    {
      points: [
        [60, 480],
        [200, 520],
        [340, 480],
      ],
      color: 'maroon',
    },
    {
      points: [
        [380, 480],
        [520, 520],
        [660, 480],
      ],
      color: 'purple',
    },
    {
      points: [
        [60, 550],
        [660, 550],
      ],
    },
  ],
};

describe('app shell', { timeout: 90_000 }, () => {
  it('the theme follows the system, the toggle switches it and a reload keeps the choice, on boards and the landing page', async () => {
    const { id } = await createBoard({ content: SAMPLE });
    const { page, context, errors } = await open(id);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await background(page)).toBe('rgb(23, 24, 26)');
    // The dark inks are lifted on the dark page; the stored colour name is unchanged.
    expect(await page.locator('.item.text:has-text("Maroon ink")').evaluate((el) => getComputedStyle(el).color)).toBe(
      'rgb(212, 106, 106)',
    );
    expect(
      await page
        .locator('.strokes .stroke')
        .first()
        .evaluate((el) => getComputedStyle(el).stroke),
    ).toBe('rgb(212, 106, 106)');
    expect((await boardJson(t.server.url, id)).texts.find((x: any) => x.content === 'Maroon ink').color).toBe('maroon');
    await page.waitForTimeout(300);
    await shot(page, 'shell-dark-draw-1280.png');
    copyFileSync(join(ARTIFACTS, 'shell-dark-draw-1280.png'), join(process.cwd(), 'docs/screenshot-dark.png'));

    await page.click('[data-testid=theme-toggle]'); // dark (from the system) to light
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    expect(await background(page)).toBe('rgb(247, 247, 245)');
    expect(await page.locator('.item.text:has-text("Maroon ink")').evaluate((el) => getComputedStyle(el).color)).toBe(
      'rgb(128, 0, 0)',
    );
    await page.reload();
    await page.waitForSelector('[data-testid=canvas]');
    expect(await background(page)).toBe('rgb(247, 247, 245)'); // the system still says dark
    await page.click('[data-testid=theme-toggle]');
    expect(await background(page)).toBe('rgb(23, 24, 26)');
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await background(page)).toBe('rgb(23, 24, 26)'); // a choice beats the system
    expect(await page.getAttribute('[data-testid=theme-toggle]', 'aria-label')).toBe('Switch to the light theme');

    await page.goto(`${t.server.url}/`);
    await page.waitForSelector('[data-testid=new-draw]');
    expect(await background(page)).toBe('rgb(23, 24, 26)');
    await page.click('[data-testid=theme-toggle]');
    expect(await background(page)).toBe('rgb(247, 247, 245)');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('? and the header button list every shortcut of the board kind; Escape closes the list', async () => {
    const { id } = await createBoard({ content: SAMPLE });
    const { page, context, errors } = await open(id);
    await page.locator('[data-testid=canvas]').click({ position: { x: 900, y: 600 } });
    await page.keyboard.press('Shift+?');
    const help = page.locator('[data-testid=help]');
    await help.waitFor();
    const text = (await help.textContent())!;
    for (const { key, label } of TOOLS) expect(text).toContain(`${key.toUpperCase()}${label} tool`);
    for (const words of [
      'Ctrl + C / Ctrl + X / Ctrl + V',
      'Ctrl + D',
      'Ctrl + A',
      'Shift + arrow keys',
      'Ctrl + Z',
      '0Fit the board',
      'Shift + 0Zoom to 100%',
      'Shift + 2Zoom to the selection',
    ])
      expect(text).toContain(words);
    await shot(page, 'shell-help-draw-1280.png');
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });
    // A key typed in the overlay's absence still picks a tool: the overlay did not leave a listener behind.
    await page.keyboard.press('p');
    expect(await page.getAttribute('button[data-tool=pen]', 'aria-pressed')).toBe('true');
    await context.close();

    const todo = await createBoard({ mode: 'todo' });
    const kanban = await open(todo.id);
    await kanban.page.click('[data-testid=help-button]');
    const list = (await kanban.page.locator('[data-testid=help]').textContent())!;
    expect(list).toContain('Alt + ← / →');
    expect(list).toContain('Add the card and stay ready for the next');
    expect(list).not.toContain('Pen tool');
    await kanban.page.keyboard.press('Escape');
    await kanban.page.locator('[data-testid=help]').waitFor({ state: 'detached' });
    expect([...errors, ...kanban.errors]).toEqual([]);
    await kanban.context.close();
  });

  it('a visitor on a write-locked board sees "Locked: view only" and gets in with the key from the banner', async () => {
    const { id, access_key: key } = await createBoard({ content: SAMPLE, lock: 'write' });
    const { page, context, errors } = await open(id);
    const banner = page.locator('[data-testid=locked-banner]');
    await banner.waitFor();
    expect(await banner.textContent()).toContain('Locked: view only.');
    // Looking needs no key: the zoom and Export stay, the tools go.
    await page.locator('.zoom-menu > summary').waitFor();
    expect(await page.locator('.export-menu > summary').isVisible()).toBe(true);
    expect(await page.locator('.toolbar [data-tool]:visible, .toolbar .undo:visible').count()).toBe(0);
    await shot(page, 'shell-locked-1280.png');
    await banner.locator('button').click();
    await page.fill('dialog input[aria-label="Access key"]', key!);
    await page.keyboard.press('Enter');
    await banner.waitFor({ state: 'hidden' });
    await page.locator('.toolbar').waitFor();
    // Now an editor: a text typed on the canvas is stored.
    await page.keyboard.press('t');
    await page.locator('[data-testid=canvas]').click({ position: { x: 900, y: 600 } });
    await page.keyboard.type('written with the key');
    await page.keyboard.press('Escape');
    await until(async () =>
      (await boardJson(t.server.url, id, key)).texts.some((x: any) => x.content === 'written with the key'),
    );
    expect(errors).toEqual([]);
    await context.close();
  });

  it('on a 390×844 phone the draw toolbar is one row of at most 15% of the height, and every tool is reachable', async () => {
    const { id } = await createBoard({ content: SAMPLE });
    const { page, context, errors } = await open(id, PHONE);
    const toolbar = page.locator('.toolbar');
    await page.waitForTimeout(300);
    await shot(page, 'shell-phone-390.png');
    const height = (await toolbar.boundingBox())!.height;
    expect(height).toBeLessThanOrEqual(PHONE_TOOLBAR_MAX_PX);
    writeFileSync(
      join(ARTIFACTS, 'phone-toolbar.json'),
      JSON.stringify({ heightPx: height, maxPx: PHONE_TOOLBAR_MAX_PX }),
    );
    // One row: every visible control's top within a few pixels of the first's.
    const tops = await toolbar.evaluate((bar) =>
      [...bar.querySelectorAll<HTMLElement>('button, summary')]
        .filter((el) => el.checkVisibility())
        .map((el) => Math.round(el.getBoundingClientRect().top)),
    );
    expect(Math.max(...tops) - Math.min(...tops), JSON.stringify(tops)).toBeLessThanOrEqual(4);
    expect((await toolbar.boundingBox())!.width).toBeLessThanOrEqual(390);
    copyFileSync(join(ARTIFACTS, 'shell-phone-390.png'), join(process.cwd(), 'docs/screenshot-phone.png'));

    const more = page.locator('[data-testid=toolbar-more]');
    for (const { tool } of TOOLS) {
      const button = page.locator(`button[data-tool=${tool}]`);
      if (!(await button.isVisible())) {
        await more.tap();
        await button.waitFor({ state: 'visible' });
      }
      await button.tap();
      expect(await button.getAttribute('aria-pressed')).toBe('true');
      expect(await page.locator('.toolbar-more').isVisible()).toBe(false); // picking a tool closes the menu
    }
    await more.tap();
    await shot(page, 'shell-phone-more-390.png');
    for (const name of ['Image', 'Delete']) // Undo and Redo stay in the row (touch-targets.test.ts)
      expect(await page.locator(`.toolbar-more button:text-is("${name}")`).isVisible()).toBe(true);
    expect(await page.locator('.toolbar-more .zoom-menu > summary').isVisible()).toBe(true);
    expect(await page.locator('.toolbar-more .swatch').count()).toBeGreaterThan(10);

    // One finger draws with the pen, from the row: the stroke is stored.
    // Closes the menu; the Link tool, the last one picked, then asks for an address in its dialog, which Escape cancels.
    await page.locator('[data-testid=canvas]').tap({ position: { x: 300, y: 700 } });
    await page.locator('dialog[open][aria-label="Add a link"]').waitFor();
    await page.keyboard.press('Escape');
    await page.waitForSelector('dialog', { state: 'detached' });
    await page.locator('button[data-tool=pen]').tap();
    const before = (await boardJson(t.server.url, id)).lines.length;
    const box = (await page.locator('[data-testid=canvas]').boundingBox())!;
    const cdp = await context.newCDPSession(page);
    const from = { x: box.x + 80, y: box.y + box.height - 120 };
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [from] });
    for (let i = 1; i <= 8; i++)
      await cdp.send('Input.dispatchTouchEvent', {
        type: 'touchMove',
        touchPoints: [{ x: from.x + i * 25, y: from.y - i * 5 }],
      });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await until(async () => (await boardJson(t.server.url, id)).lines.length === before + 1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('takes the docs/ screenshots of a draw board and a todo board at 1280×800', async () => {
    const { id } = await createBoard({ content: SAMPLE });
    const draw = await open(id);
    await draw.page.emulateMedia({ colorScheme: 'light' });
    await draw.page.waitForTimeout(300);
    await shot(draw.page, 'shell-draw-1280.png');
    copyFileSync(join(ARTIFACTS, 'shell-draw-1280.png'), join(process.cwd(), 'docs/screenshot-draw.png'));
    await draw.context.close();

    const todo = await createBoard({
      mode: 'todo',
      content: {
        columns: [{ title: 'To do' }, { title: 'Doing' }, { title: 'Done' }],
        tasks: [
          { columnIndex: 0, name: 'Write the release notes', priority: 'H', assignee: 'ana' },
          { columnIndex: 0, name: 'Check the phone layout', priority: 'M' },
          { columnIndex: 1, name: 'Dark theme', assignee: 'bo' },
          { columnIndex: 2, name: 'Shortcuts overlay', done: true },
        ],
      },
    });
    const kanban = await open(todo.id);
    await kanban.page.emulateMedia({ colorScheme: 'light' });
    await kanban.page.waitForSelector('.task');
    await shot(kanban.page, 'shell-todo-1280.png');
    copyFileSync(join(ARTIFACTS, 'shell-todo-1280.png'), join(process.cwd(), 'docs/screenshot-todo.png'));
    await kanban.page.emulateMedia({ colorScheme: 'dark' });
    await shot(kanban.page, 'shell-todo-dark-1280.png');
    const landing = await kanban.context.newPage();
    await landing.goto(`${t.server.url}/`);
    await landing.waitForSelector('[data-testid=example]');
    await landing.waitForTimeout(1500);
    await shot(landing, 'shell-landing-1280.png');
    await landing.emulateMedia({ colorScheme: 'dark' });
    await shot(landing, 'shell-landing-dark-1280.png');
    await kanban.context.close();
  });
});
