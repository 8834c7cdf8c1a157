import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PNG_1PX } from '../helpers/http.js';
import { connectMcp } from '../helpers/mcp.js';
import { ARTIFACTS, boardJson, person, until, useChromium } from '../helpers/pages.js';
import { useServer } from '../helpers/server.js';

const t = useServer();
const chrome = useChromium();

async function newDrawBoard() {
  const { page, context, errors } = await person(chrome.browser);
  await page.goto(`${t.server.url}/`);
  await page.click('[data-testid=new-draw]');
  await page.waitForSelector('[data-testid=canvas]');
  await until(async () => (await page.textContent('[data-testid=status]')) === 'Live');
  const id = new URL(page.url()).hash.slice(1);
  return { page, context, errors, id };
}

async function typeText(page: import('playwright-core').Page, x: number, y: number, text: string) {
  await page.click('[data-tool=text]');
  await page.mouse.click(x, y);
  await page.waitForSelector('textarea.editor');
  await page.keyboard.type(text);
  await page.keyboard.press('Control+Enter');
}

describe('draw boards in Chromium', () => {
  it('the landing page creates a board; a text added in the page reaches the server and a second browser within a second', async () => {
    const alice = await newDrawBoard();
    expect(alice.id).toMatch(/^[0-9a-f-]{36}$/);
    const bob = await person(chrome.browser);
    await bob.page.goto(`${t.server.url}/#${alice.id}`);
    await bob.page.waitForSelector('[data-testid=canvas]');
    await until(async () => (await bob.page.textContent('[data-testid=status]')) === 'Live');

    const typed = Date.now();
    await typeText(alice.page, 400, 300, 'Hello from Alice');
    await bob.page.waitForSelector('.item.text:has-text("Hello from Alice")', { timeout: 1_000 });
    expect(Date.now() - typed).toBeLessThan(2_000);
    const json = await boardJson(t.server.url, alice.id);
    expect(json.texts).toEqual([
      expect.objectContaining({ content: 'Hello from Alice', author: expect.stringMatching(/^user:[0-9a-f-]{36}$/) }),
    ]);
    expect(alice.errors).toEqual([]);
    await Promise.all([alice.context.close(), bob.context.close()]);
  });

  it('REST and MCP writes appear in the page live; AI-authored items are marked', async () => {
    const { page, context, id } = await newDrawBoard();
    await fetch(`${t.server.url}/api/boards/${id}/texts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ x: 50, y: 50, content: 'from a script' }),
    });
    await page.waitForSelector('.item.text.ai:has-text("from a script")', { timeout: 2_000 });
    const mcp = await connectMcp(t.server.url);
    try {
      await mcp.call('add_text', { board_id: id, x: 50, y: 200, content: 'from an agent', postit: true });
    } finally {
      await mcp.close();
    }
    await page.waitForSelector('.item.text.postit.ai:has-text("from an agent")', { timeout: 2_000 });
    await context.close();
  });

  it('a stroke drawn with the mouse lands in /json', async () => {
    const { page, context, id } = await newDrawBoard();
    await page.click('[data-tool=pen]');
    await page.click('[data-testid=ink-button]'); // the inks are in the colour button's palette
    await page.click('[data-color=red]');
    await page.mouse.move(300, 300);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++) await page.mouse.move(300 + i * 20, 300 + i * 8);
    await page.mouse.up();
    const json = await until(async () => {
      const board = await boardJson(t.server.url, id);
      return board.lines.length === 1 && board;
    });
    expect(json.lines[0]).toMatchObject({ color: 'red', width: 3 });
    expect(json.lines[0].points.length).toBeGreaterThanOrEqual(10);
    await context.close();
  });

  it('a pasted image is uploaded with a thumbnail; a pasted URL becomes a link pill', async () => {
    const { page, context, id } = await newDrawBoard();
    await page.locator('[data-testid=canvas]').click({ position: { x: 10, y: 10 } });
    await page.evaluate(async (dataUrl) => {
      const bytes = await (await fetch(dataUrl)).blob();
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], 'pixel.png', { type: 'image/png' }));
      document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer }));
    }, PNG_1PX);
    const json = await until(async () => {
      const board = await boardJson(t.server.url, id);
      return board.images.length === 1 && board;
    });
    expect(json.images[0].thumbDataUrl).toMatch(/^data:image\/(webp|jpeg);base64,/);
    await page.waitForSelector('.item.image img', { state: 'attached', timeout: 3_000 });

    await page.evaluate(() => {
      const transfer = new DataTransfer();
      transfer.setData('text/plain', 'https://example.org/some/page');
      document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer }));
    });
    await page.waitForSelector('.item.link a:has-text("example.org")', { timeout: 3_000 });
    const links = (await boardJson(t.server.url, id)).texts.filter((item: any) => item.kind === 'link');
    expect(links).toEqual([expect.objectContaining({ url: 'https://example.org/some/page' })]);
    await context.close();
  });

  it('an image over the size limit is refused with a clear message', async () => {
    const { page, context, id } = await newDrawBoard();
    await page.evaluate(() => {
      const big = new Uint8Array(1_000_000);
      big.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      const transfer = new DataTransfer();
      transfer.items.add(new File([big], 'huge.png', { type: 'image/png' }));
      document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer }));
    });
    await page.waitForSelector('.toast.error:has-text("at most")');
    expect((await boardJson(t.server.url, id)).images).toEqual([]);
    await context.close();
  });

  it('offline: edits made without a network reach the server and the others on reconnect', async () => {
    const alice = await newDrawBoard();
    const bob = await person(chrome.browser);
    await bob.page.goto(`${t.server.url}/#${alice.id}`);
    await bob.page.waitForSelector('[data-testid=canvas]');
    await alice.context.setOffline(true);
    await until(async () => (await alice.page.textContent('[data-testid=status]'))?.startsWith('Offline'));
    await typeText(alice.page, 300, 300, 'written offline');
    await alice.page.waitForSelector('.item.text:has-text("written offline")');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await boardJson(t.server.url, alice.id)).texts).toEqual([]);
    await alice.context.setOffline(false);
    await until(async () => (await boardJson(t.server.url, alice.id)).texts.length === 1, 15_000);
    await bob.page.waitForSelector('.item.text:has-text("written offline")', { timeout: 5_000 });
    await Promise.all([alice.context.close(), bob.context.close()]);
  });

  it("undo takes back the person's own edit; Y toggles post-it on the hovered text", async () => {
    const { page, context, id } = await newDrawBoard();
    await typeText(page, 300, 300, 'toggle me');
    const text = page.locator('.item.text:has-text("toggle me")');
    await text.waitFor();
    await text.hover();
    await page.keyboard.press('y');
    await until(async () => (await boardJson(t.server.url, id)).texts[0]?.postit === true);
    await page.locator('[data-testid=canvas]').click({ position: { x: 20, y: 700 } });
    await page.keyboard.press('Control+z');
    await until(async () => (await boardJson(t.server.url, id)).texts[0]?.postit !== true);
    await context.close();
  });

  it('a Mermaid seed renders as an SVG diagram', async () => {
    const { page, context } = await person(chrome.browser);
    const location = (await fetch(`${t.server.url}/draw?seed=mermaid-flowchart`, { redirect: 'manual' })).headers.get(
      'location',
    )!;
    await page.goto(location);
    await page.waitForSelector('.item.text.mermaid svg', { timeout: 20_000 });
    expect(await page.locator('.item.text.mermaid svg g').count()).toBeGreaterThan(3);
    await page.screenshot({ path: join(ARTIFACTS, 'draw-mermaid.png') });
    await context.close();
  });

  it('an embed is read-only: no editing controls, and no gesture changes the board', async () => {
    const { id } = (await (
      await fetch(`${t.server.url}/api/boards`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          content: {
            texts: [
              { x: 0, y: 0, content: 'look, do not touch' },
              { x: 300, y: 0, content: '- [ ] a task' },
            ],
          },
        }),
      })
    ).json()) as { id: string };
    const before = (await boardJson(t.server.url, id)).etag;
    const { page, context } = await person(chrome.browser, { width: 800, height: 500 });
    await page.goto(`${t.server.url}/?embed=1#${id}`);
    const text = page.locator('.item.text:has-text("look, do not touch")');
    await text.waitFor();
    // An embed shows no button at all, not even History (history.test.ts).
    expect(await page.locator('.toolbar:visible, .bar:visible, button:visible').count()).toBe(0);
    const box = (await text.boundingBox())!;
    await page.mouse.move(box.x + 5, box.y + 5);
    await page.mouse.down();
    await page.mouse.move(box.x + 200, box.y + 150);
    await page.mouse.up();
    await text.dblclick();
    for (const key of ['Delete', 'Backspace', 't', 'y', 'Control+z', 'p']) await page.keyboard.press(key);
    await page
      .locator('.md-task input')
      .click({ force: true })
      .catch(() => {});
    await page.evaluate(() => {
      const transfer = new DataTransfer();
      transfer.setData('text/plain', 'https://pasted.test');
      document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer }));
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await boardJson(t.server.url, id)).etag).toBe(before);
    await context.close();
  });

  it('a deleted board shows a clear message', async () => {
    const { id } = (await (await fetch(`${t.server.url}/api/boards`, { method: 'POST' })).json()) as { id: string };
    await fetch(`${t.server.url}/api/boards/${id}`, { method: 'DELETE' });
    const { page, context } = await person(chrome.browser);
    await page.goto(`${t.server.url}/#${id}`);
    await page.waitForSelector('h1:has-text("erased")');
    await context.close();
  });

  it('saves a screenshot of a draw board', async () => {
    const { page, context, id } = await newDrawBoard();
    const post = (path: string, body: unknown) =>
      fetch(`${t.server.url}/api/boards/${id}/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    await post('texts', {
      x: 40,
      y: 40,
      content: '# Launch plan\n- [x] Draft the spec\n- [ ] Build the board\n- [ ] Ship it',
      postit: true,
      author: 'user:screenshot',
    });
    await post('texts', {
      x: 320,
      y: 40,
      content: '```mermaid\nflowchart LR\n  Idea --> Plan --> Ship\n```',
      author: 'user:screenshot',
    });
    await post('texts', {
      x: 40,
      y: 260,
      content: 'Notes from the **agent**:\nthe API is ready',
      author: 'ai:planner',
    });
    await post('strokes', {
      points: [
        [260, 120],
        [300, 110],
        [318, 90],
      ],
      color: 'blue',
      author: 'user:screenshot',
    });
    await post('links', { x: 320, y: 260, url: 'https://example.org/spec' });
    await page.waitForSelector('.item.text.mermaid svg', { timeout: 20_000 });
    await page.screenshot({ path: join(ARTIFACTS, 'draw-board.png') });
    await context.close();
  });
});
