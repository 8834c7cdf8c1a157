/**
 * One Markdown renderer: a text's `_it_`, `__bold__` and `~~strike~~` are
 * italic, bold and struck on the canvas, in a card's description and in the
 * preview History shows (regression: the canvas showed them literally while
 * the preview styled them). And a post-it is a note, not a small label.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, boardJson, openBoard, person, until, useChromium } from '../helpers/pages.js';
import { useServer } from '../helpers/server.js';

const t = useServer();
const chrome = useChromium();

const STYLED = 'Some _it_, __bold__ and ~~strike~~ here';

async function rest(method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${t.server.url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** The styled words inside `root` (a CSS selector) as the page shows them: element name and text. */
async function styled(page: Page, root: string): Promise<string[]> {
  return page.$$eval(`${root} :is(em, strong, s)`, (elements) =>
    elements.map((element) => `${element.localName}:${element.textContent}`),
  );
}

describe('one Markdown renderer', { timeout: 90_000 }, () => {
  it('_it_, __bold__ and ~~strike~~ are em, strong and s on the canvas, as in the preview History shows', async () => {
    const { id } = await rest('POST', '/api/boards');
    const text = await rest('POST', `/api/boards/${id}/texts`, { x: 40, y: 40, content: STYLED });
    const { page, errors } = await openBoard(
      await chrome.browser.newContext({ viewport: { width: 1280, height: 800 } }),
      t.server.url,
      id,
      { items: 1 },
    );
    const item = `.item.text[data-id="${text.id}"]`;
    expect(await styled(page, item)).toEqual(['em:it', 'strong:bold', 's:strike']);
    expect(await page.textContent(item)).toBe('Some it, bold and strike here');

    // History's picture of the version is the server's preview: the same words in the same styles.
    const version = await until(async () => (await rest('GET', `/api/boards/${id}/versions`)).versions[0], 15_000);
    await page.getByRole('button', { name: 'History', exact: true }).click();
    await page.click(`.version[data-version="${version.version}"]`);
    await page.waitForSelector('.version-view img');
    const svg = await page.$eval('.version-view img', (img: HTMLImageElement) =>
      fetch(img.src).then((response) => response.text()),
    );
    expect(svg).toContain('<tspan font-style="italic">it</tspan>');
    expect(svg).toContain('<tspan font-weight="bold">bold</tspan>');
    expect(svg).toContain('<tspan text-decoration="line-through">strike</tspan>');
    expect(svg).not.toMatch(/__|~~|_it_/);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('a card description renders the same Markdown', async () => {
    const created = await rest('POST', '/api/boards', {
      mode: 'todo',
      content: { columns: [{ title: 'To do' }], tasks: [{ columnIndex: 0, name: 'Styled', description: STYLED }] },
    });
    const { page, context, errors } = await person(chrome.browser);
    page.setDefaultTimeout(10_000);
    await page.goto(`${t.server.url}/#${created.id}`);
    await page.click(`.task[data-id="${created.ids.tasks[0]}"]`);
    await page.waitForSelector('dialog [data-testid=card-description] em');
    expect(await styled(page, 'dialog [data-testid=card-description]')).toEqual(['em:it', 'strong:bold', 's:strike']);
    await page.screenshot({ path: join(ARTIFACTS, 'markdown-card-description.png') });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('headings, lists, code, quotes and links render; a checkbox rewrites its own source line', async () => {
    const { id } = await rest('POST', '/api/boards');
    const content = [
      '# Plan',
      '',
      '1. first *step*',
      '2. second',
      '   - nested',
      '',
      '- [ ] book the room',
      '- [x] draft the post',
      '',
      '> quoted',
      '```',
      'let x = 1;',
      '```',
      'See https://example.org and [docs](https://example.org/docs), not [this](javascript:alert(1)).',
    ].join('\n');
    const text = await rest('POST', `/api/boards/${id}/texts`, { x: 40, y: 40, content });
    const context = await chrome.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openBoard(context, t.server.url, id, { items: 1 });
    const item = page.locator(`.item.text[data-id="${text.id}"]`);
    expect(await item.locator('.md-h1').textContent()).toBe('Plan');
    expect(await item.locator('.md-li').evaluateAll((rows) => rows.map((row) => row.textContent))).toEqual([
      'first step',
      'second',
      'nested',
    ]);
    expect(await item.locator('.md-li[data-marker="2. "]').count()).toBe(1);
    expect(await item.locator('.md-code').textContent()).toBe('let x = 1;');
    expect(await item.locator('.md-quote').textContent()).toBe('quoted');
    const links = await item
      .locator('a')
      .evaluateAll((anchors) =>
        anchors.map((a) => [a.getAttribute('href'), a.getAttribute('target'), a.getAttribute('rel')]),
      );
    expect(links).toEqual([
      ['https://example.org', '_blank', 'noopener noreferrer'],
      ['https://example.org/docs', '_blank', 'noopener noreferrer'],
    ]);
    expect(await item.textContent()).toContain('[this](javascript:alert(1))');

    await item.locator('input[aria-label="book the room"]').click();
    await until(async () => (await boardJson(t.server.url, id)).texts[0].content.includes('- [x] book the room'));
    expect((await boardJson(t.server.url, id)).texts[0].content).toBe(
      content.replace('- [ ] book the room', '- [x] book the room'),
    );
    await page.screenshot({ path: join(ARTIFACTS, 'markdown-desktop-light.png') });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: join(ARTIFACTS, 'markdown-desktop-dark.png') });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(ARTIFACTS, 'markdown-phone-dark.png') });
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('a post-it is a note', { timeout: 90_000 }, () => {
  it('"Buy milk" is a 200×200 note on the canvas and in the answered bbox; a resized width is kept', async () => {
    const { id } = await rest('POST', '/api/boards');
    const note = await rest('POST', `/api/boards/${id}/texts`, { x: 40, y: 40, content: 'Buy milk', postit: true });
    expect(note.bbox).toMatchObject({ width: 200, height: 200 });
    const wide = await rest('POST', `/api/boards/${id}/texts`, {
      x: 300,
      y: 40,
      content: 'A resized note',
      postit: true,
      width: 320,
    });
    expect(wide.bbox).toMatchObject({ width: 320, height: 200 });
    const label = await rest('POST', `/api/boards/${id}/texts`, { x: 40, y: 300, content: 'Buy milk' });
    expect(label.bbox.width).toBeLessThan(100);

    for (const [viewport, scheme] of [
      [{ width: 1280, height: 800 }, 'light'],
      [{ width: 390, height: 844 }, 'dark'],
    ] as const) {
      const context = await chrome.browser.newContext({
        viewport,
        colorScheme: scheme,
        hasTouch: viewport.width < 600,
      });
      const { page, errors } = await openBoard(context, t.server.url, id, { items: 3 });
      const size = (itemId: string) =>
        page.$eval(`[data-id="${itemId}"]`, (element: HTMLElement) => [element.offsetWidth, element.offsetHeight]);
      expect(await size(note.id)).toEqual([200, 200]);
      expect(await size(wide.id)).toEqual([320, 200]);
      await page.screenshot({ path: join(ARTIFACTS, `postit-${viewport.width}-${scheme}.png`) });
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});
