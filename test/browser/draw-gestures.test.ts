/**
 * Bugs found by trying draw boards as a person would: double-click and double-tap editing, Escape on a new text, middle-button
 * pan and text selection, fitting Mermaid diagrams, the editor's first line,
 * Ctrl+wheel zoom steps and readable author names in tooltips.
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
const MERMAID =
  '```mermaid\nflowchart TD\n  Start --> Plan --> Build --> Test --> Ship\n  Plan --> Research --> Build\n```';

/** A board made through REST with `texts`, opened by a person (a phone is a touch device). */
async function openBoard(texts: Record<string, unknown>[] = [], options: { phone?: boolean; embed?: boolean } = {}) {
  const response = await fetch(`${t.server.url}/api/boards`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ content: { texts } }),
  });
  const { id } = (await response.json()) as { id: string };
  const context = await chrome.browser.newContext(
    options.phone ? { viewport: PHONE, hasTouch: true, isMobile: true, deviceScaleFactor: 2 } : { viewport: DESKTOP },
  );
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${t.server.url}/${options.embed ? '?embed=1' : ''}#${id}`);
  await page.waitForSelector('[data-testid=canvas]');
  if (!options.embed) await until(async () => (await page.textContent('[data-testid=status]')) === 'Live');
  if (texts.length) await page.waitForSelector('.item');
  return { id, context, page, errors };
}

/** The canvas view: its offset on screen and the world transform (pan and scale). */
function view(page: Page): Promise<{ left: number; top: number; x: number; y: number; scale: number }> {
  return page.evaluate(() => {
    const rect = document.querySelector('[data-testid=canvas]')!.getBoundingClientRect();
    const matrix = new DOMMatrix(getComputedStyle(document.querySelector('.world')!).transform);
    return { left: rect.left, top: rect.top, x: matrix.e, y: matrix.f, scale: matrix.a };
  });
}

async function centreOf(page: Page, selector: string): Promise<{ x: number; y: number }> {
  const box = (await page.locator(selector).boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/**
 * Two taps 150 ms apart by their own timestamps: the app tells a double tap by
 * the events' times, which a loaded machine's slow round trips would stretch.
 */
async function doubleTap(page: Page, at: { x: number; y: number }): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const start = Date.now() / 1000;
  const touch = (type: 'touchStart' | 'touchEnd', after: number) =>
    cdp.send('Input.dispatchTouchEvent', {
      type,
      touchPoints: type === 'touchEnd' ? [] : [{ x: at.x, y: at.y }],
      timestamp: start + after,
    });
  await touch('touchStart', 0);
  await touch('touchEnd', 0.05);
  await touch('touchStart', 0.15);
  await touch('touchEnd', 0.2);
  await cdp.detach();
}

const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, name) });

describe('draw gestures', () => {
  it('double-click on a text opens it for editing; double-click on empty canvas creates a text there', async () => {
    const { id, page, context, errors } = await openBoard([{ x: 100, y: 100, content: 'edit me' }]);
    const text = page.locator('.item.text:has-text("edit me")');
    await text.dblclick();
    const editor = page.locator('textarea.editor');
    await editor.waitFor({ timeout: 2_000 }).catch(() => {
      throw new Error('double-click on a text did not open the editor');
    });
    expect(await editor.inputValue()).toBe('edit me');
    await page.keyboard.press('End');
    await page.keyboard.type(', edited');
    await page.keyboard.press('Control+Enter');
    await until(async () => (await boardJson(t.server.url, id)).texts[0]?.content === 'edit me, edited');

    const before = await view(page);
    await page.mouse.dblclick(700, 500);
    await editor.waitFor({ timeout: 2_000 }).catch(() => {
      throw new Error('double-click on empty canvas did not open an editor for a new text');
    });
    await page.keyboard.type('made by double-click');
    await page.keyboard.press('Control+Enter');
    const made = await until(async () =>
      (await boardJson(t.server.url, id)).texts.find((item: any) => item.content === 'made by double-click'),
    );
    expect(made.x).toBeCloseTo((700 - before.left - before.x) / before.scale, -1);
    expect(made.y).toBeCloseTo((500 - before.top - before.y) / before.scale, -1);
    expect((await boardJson(t.server.url, id)).texts).toHaveLength(2);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('double-tap on a phone edits an existing text and creates one on empty canvas', async () => {
    const { id, page, context } = await openBoard([{ x: 20, y: 20, content: 'tap me twice' }], { phone: true });
    await doubleTap(page, await centreOf(page, '.item.text:has-text("tap me twice")'));
    const editor = page.locator('textarea.editor');
    await editor.waitFor({ timeout: 2_000 }).catch(() => {
      throw new Error('double-tap on a text did not open the editor');
    });
    await page.waitForTimeout(400); // the editor must survive the taps' trailing events
    expect(await editor.isVisible(), 'the editor closed right after the double-tap').toBe(true);
    expect(await editor.inputValue()).toBe('tap me twice');
    await shot(page, 'draw-phone-edit.png');
    await page.keyboard.press('End');
    await page.keyboard.type(' (edited)');
    await page.touchscreen.tap(300, 700); // a tap elsewhere ends editing
    await until(async () => (await boardJson(t.server.url, id)).texts[0]?.content === 'tap me twice (edited)');

    await doubleTap(page, { x: 200, y: 500 });
    await editor.waitFor({ timeout: 2_000 }).catch(() => {
      throw new Error('double-tap on empty canvas did not open an editor for a new text');
    });
    await page.waitForTimeout(400);
    await page.keyboard.type('made by double-tap');
    await page.touchscreen.tap(300, 750);
    await until(async () =>
      (await boardJson(t.server.url, id)).texts.some((item: any) => item.content === 'made by double-tap'),
    );
    await context.close();
  });

  it('on a phone zoomed far out, a new text is typed at a readable size, and the view comes back after', async () => {
    const { id, page, context } = await openBoard(
      [
        { x: 0, y: 0, content: 'one corner' },
        { x: 3000, y: 6000, content: 'the other' },
      ],
      { phone: true },
    );
    await until(async () => (await view(page)).scale < 0.2); // fitted to the far corners
    const before = await view(page);
    const at = { x: 200, y: 400 };
    const world = {
      x: (at.x - before.left - before.x) / before.scale,
      y: (at.y - before.top - before.y) / before.scale,
    };
    await doubleTap(page, at);
    const editor = page.locator('textarea.editor');
    await editor.waitFor({ timeout: 2_000 });
    await until(async () => (await view(page)).scale === 1);
    const fontPx = await editor.evaluate((area) => parseFloat(getComputedStyle(area).fontSize));
    expect(fontPx).toBeGreaterThanOrEqual(12); // on the screen, at 100%
    const box = (await editor.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    const canvas = (await page.locator('[data-testid=canvas]').boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(canvas.y + canvas.height / 2 + 1); // above a phone's keyboard
    await page.keyboard.type('readable');
    await shot(page, 'draw-phone-edit-zoomed-out.png');
    await page.keyboard.press('Escape');
    await until(async () => (await view(page)).scale === before.scale);
    expect(await view(page)).toEqual(before);
    const made = await until(async () =>
      (await boardJson(t.server.url, id)).texts.find((text: { content: string }) => text.content === 'readable'),
    );
    expect(Math.abs(made.x - world.x)).toBeLessThan(2);
    expect(Math.abs(made.y - world.y)).toBeLessThan(2);
    await context.close();
  });

  it('Escape ends editing and keeps what was typed; an empty new text is never stored', async () => {
    const { id, page, context } = await openBoard();
    const etag = (await boardJson(t.server.url, id)).etag;
    await page.click('[data-tool=text]');
    await page.mouse.click(400, 300);
    await page.waitForSelector('textarea.editor');
    await page.keyboard.press('Escape');
    await page.waitForSelector('textarea.editor', { state: 'detached' });
    expect(await page.locator('.item.text').count(), 'Escape on an empty new text left an "Empty text" item').toBe(0);
    await page.waitForTimeout(500);
    expect((await boardJson(t.server.url, id)).etag, 'an empty new text reached the server').toBe(etag);

    await page.click('[data-tool=text]');
    await page.mouse.click(400, 300);
    await page.waitForSelector('textarea.editor');
    await page.keyboard.type('kept on Escape');
    await page.keyboard.press('Escape');
    await page.waitForSelector('.item.text:has-text("kept on Escape")', { timeout: 2_000 }).catch(() => {
      throw new Error('Escape threw away the typed text');
    });
    const json = await until(async () => {
      const board = await boardJson(t.server.url, id);
      return board.texts.length === 1 && board.texts[0].content === 'kept on Escape' && board;
    });
    expect(json.texts).toHaveLength(1);
    expect(await page.locator('.placeholder').count()).toBe(0);
    await context.close();
  });

  it('middle-button drag pans and pastes nothing; canvas text is not selectable, Ctrl+A highlights nothing', async () => {
    const { id, page, context } = await openBoard([{ x: 100, y: 100, content: 'some words to select' }]);
    const etag = (await boardJson(t.server.url, id)).etag;
    const pastes: string[] = [];
    await page.exposeFunction('notePaste', (type: string) => pastes.push(type));
    await page.evaluate(() => document.addEventListener('paste', () => (window as any).notePaste('paste'), true));
    const before = await view(page);
    await page.mouse.move(600, 500);
    await page.mouse.down({ button: 'middle' });
    await page.mouse.move(650, 540, { steps: 5 });
    await page.mouse.up({ button: 'middle' });
    const after = await view(page);
    expect(after.x - before.x).toBeCloseTo(50, 0);
    expect(after.y - before.y).toBeCloseTo(40, 0);
    // Linux pastes the primary selection on a middle click unless the click is cancelled.
    expect(pastes, 'the middle click pasted').toEqual([]);

    // Canvas text cannot be selected; Ctrl+A on the canvas does not highlight the interface.
    expect(
      await page.locator('.item.text .md-p').evaluate((row) => getComputedStyle(row).userSelect),
      'canvas text is selectable',
    ).toBe('none');
    await page.locator('[data-testid=canvas]').click({ position: { x: 900, y: 500 } });
    await page.keyboard.press('Control+a');
    expect(await page.evaluate(() => getSelection()!.toString()), 'Ctrl+A highlighted the page').toBe('');
    expect(await page.locator('.item.text.selected').count(), 'Ctrl+A selects every item').toBe(1);

    // The editor stays selectable.
    await page.keyboard.press('Enter');
    await page.waitForSelector('textarea.editor');
    expect(await page.locator('textarea.editor').evaluate((area) => getComputedStyle(area).userSelect)).toBe('text');
    await page.keyboard.press('Control+a');
    expect(
      await page.evaluate(() => {
        const area = document.querySelector('textarea.editor') as HTMLTextAreaElement;
        return area.value.slice(area.selectionStart, area.selectionEnd);
      }),
    ).toBe('some words to select');
    await page.keyboard.press('Escape');
    await page.waitForTimeout(300);
    expect((await boardJson(t.server.url, id)).etag).toBe(etag);
    await context.close();
  });

  for (const [name, size] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`the embed fits a Mermaid diagram once it is drawn, without a scrollbar (${name})`, async () => {
      const texts = [
        { x: 0, y: 0, content: 'A plan' },
        { x: 0, y: 60, content: MERMAID },
      ];
      const { page, context } = await openBoard(texts, { embed: true, phone: name === 'phone' });
      await page.waitForSelector('.item.text.mermaid svg', { timeout: 20_000 });
      await page.waitForTimeout(300);
      await shot(page, `draw-embed-mermaid-${name}.png`);
      const diagram = (await page.locator('.item.text.mermaid').boundingBox())!;
      expect(diagram.x, 'diagram cut off on the left').toBeGreaterThanOrEqual(0);
      expect(diagram.y, 'diagram cut off at the top').toBeGreaterThanOrEqual(0);
      expect(diagram.x + diagram.width, 'diagram cut off on the right').toBeLessThanOrEqual(size.width);
      expect(diagram.y + diagram.height, 'diagram cut off at the bottom').toBeLessThanOrEqual(size.height);
      // Fitted to the drawn diagram, not to "Drawing diagram…": it fills most of one side.
      expect(Math.max(diagram.width / size.width, diagram.height / size.height)).toBeGreaterThan(0.6);
      const scroll = await page.evaluate(() => ({
        h: document.documentElement.scrollHeight - innerHeight,
        w: document.documentElement.scrollWidth - innerWidth,
      }));
      expect(scroll, 'the embed has a scrollbar').toEqual({ h: 0, w: 0 });
      await context.close();
    });
  }

  it('the fit key (0) fits a diagram that is still being drawn', async () => {
    const { page, context } = await openBoard([{ x: 2000, y: 1500, content: MERMAID }]);
    await page.locator('[data-testid=canvas]').click({ position: { x: 10, y: 10 } });
    await page.keyboard.press('0');
    await page.waitForSelector('.item.text.mermaid svg', { timeout: 20_000 });
    await page.waitForTimeout(300);
    const canvas = (await page.locator('[data-testid=canvas]').boundingBox())!;
    const diagram = (await page.locator('.item.text.mermaid').boundingBox())!;
    expect(diagram.y + diagram.height, 'diagram cut off at the bottom').toBeLessThanOrEqual(canvas.y + canvas.height);
    expect(diagram.x + diagram.width, 'diagram cut off on the right').toBeLessThanOrEqual(canvas.x + canvas.width);
    expect(diagram.y).toBeGreaterThanOrEqual(canvas.y);
    await context.close();
  });

  for (const [name, size] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`the new-text editor shows its first line whole (${name})`, async () => {
      const { page, context } = await openBoard([], { phone: name === 'phone' });
      await page.click('[data-tool=text]');
      const at = { x: size.width / 3, y: size.height / 2 };
      if (name === 'phone') await page.touchscreen.tap(at.x, at.y);
      else await page.mouse.click(at.x, at.y);
      const editor = page.locator('textarea.editor');
      await editor.waitFor();
      await page.keyboard.type('First line gyqp\nsecond line\nthird line\nfourth line');
      await shot(page, `draw-editor-${name}.png`);
      const metrics = await editor.evaluate((area: HTMLTextAreaElement) => ({
        scrollTop: area.scrollTop,
        scrollHeight: area.scrollHeight,
        clientHeight: area.clientHeight,
      }));
      expect(metrics.scrollTop, 'the editor scrolled its first line out of view').toBe(0);
      expect(metrics.scrollHeight, 'the editor is shorter than its text').toBeLessThanOrEqual(metrics.clientHeight);
      // The editor opens where the text was placed, inside the visible canvas.
      const box = (await editor.boundingBox())!;
      const canvas = (await page.locator('[data-testid=canvas]').boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(canvas.y);
      expect(Math.abs(box.x - at.x)).toBeLessThan(20);
      await context.close();
    });
  }

  it('one Ctrl+wheel notch zooms about 1.1x, a small trackpad delta a little', async () => {
    const { page, context } = await openBoard([{ x: 100, y: 100, content: 'zoom' }]);
    await page.mouse.move(640, 400);
    const start = (await view(page)).scale;
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -100);
    await until(async () => (await view(page)).scale !== start);
    const notch = (await view(page)).scale / start;
    await page.mouse.wheel(0, -4);
    await until(async () => (await view(page)).scale !== start * notch);
    const small = (await view(page)).scale / (start * notch);
    await page.keyboard.up('Control');
    expect(notch, 'one wheel notch').toBeGreaterThan(1.05);
    expect(notch, 'one wheel notch').toBeLessThan(1.15);
    expect(small).toBeGreaterThan(1);
    expect(small).toBeLessThan(1.01);
    await context.close();
  });

  it('tooltips name authors readably: you, AI (rest), AI (mcp), Guest <4 hex>', async () => {
    const other = '8788fd30-1c2d-4e5f-8a9b-0c1d2e3f4a5b';
    const { id, page, context } = await openBoard([
      { x: 0, y: 0, content: 'by a script', author: 'ai:rest' },
      { x: 0, y: 80, content: 'by an agent', author: 'ai:mcp' },
      { x: 0, y: 160, content: 'by someone else', author: `user:${other}` },
    ]);
    await page.click('[data-tool=text]');
    await page.mouse.click(500, 400);
    await page.waitForSelector('textarea.editor');
    await page.keyboard.type('by me');
    await page.keyboard.press('Control+Enter');
    await page.waitForSelector('.item.text:has-text("by me")');
    const title = (content: string) => page.locator(`.item.text:has-text("${content}")`).getAttribute('title');
    expect(await title('by a script')).toBe('by AI (rest)');
    expect(await title('by an agent')).toBe('by AI (mcp)');
    expect(await title('by someone else')).toBe('by Guest 8788');
    expect(await title('by me')).toBe('by you');
    // The stored author is still the full tag.
    const mine = (await boardJson(t.server.url, id)).texts.find((item: any) => item.content === 'by me');
    expect(mine.author).toMatch(/^user:[0-9a-f-]{36}$/);
    await context.close();
  });
});
