import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBoard, PNG_1PX } from '../helpers/http.js';
import { ARTIFACTS, boardJson, person, serviceWorkerControls, until, useChromium } from '../helpers/pages.js';
import { useServer } from '../helpers/server.js';

const t = useServer();
const chrome = useChromium();

const PNG_4X3 = 'iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAAEElEQVR4nGOQqzgBRww4OQA4KhBpUsYmbgAAAABJRU5ErkJggg==';

const taskNames = async (id: string) =>
  ((await boardJson(t.server.url, id)).tasks as { name: string }[]).map((task) => task.name).sort();

describe('opening boards offline', () => {
  // Issue 16: offline, "Recently opened" did nothing and threw an uncaught "Failed to fetch";
  // a reload showed the browser's error page, though the board was in IndexedDB.
  it('a board seen before opens offline from Recently opened and after a reload; its edits reach the server on reconnect', async () => {
    const created = await (
      await fetch(`${t.server.url}/api/boards`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          mode: 'todo',
          content: { columns: [{ title: 'To do' }], tasks: [{ columnIndex: 0, name: 'Seen online' }] },
        }),
      })
    ).json();
    const id: string = created.id;
    const { page, context, errors } = await person(chrome.browser);
    page.setDefaultTimeout(5_000);
    await page.goto(`${t.server.url}/#${id}`);
    await page.waitForSelector('.task:has-text("Seen online")');
    await page.waitForSelector('[data-testid=status]:text-is("Live")');
    // The service worker holds the app shell once it controls the page.
    await serviceWorkerControls(page);
    await page.click('a.home');
    await page.waitForSelector('.recent a');

    await context.setOffline(true);
    await page.reload();
    await page.click(`.recent a[href="#${id}"]`);
    await page.waitForSelector('.task:has-text("Seen online")');
    await page.waitForSelector('[data-testid=status]:has-text("Offline")');
    await page.locator('.column').first().locator('.add-task').click();
    await page.fill('dialog input[aria-label=Name]', 'Added offline');
    await page.press('dialog input[aria-label=Name]', 'Enter');
    await page.waitForSelector('.task:has-text("Added offline")');
    // Edits are counted by item: the task's later change is the same one edit.
    await page.locator('.task:has-text("Added offline") input[type=checkbox]').check();
    await page.waitForSelector('[data-testid=status]:text-is("Offline · 1 edit(s) waiting")');
    await page.screenshot({ path: join(ARTIFACTS, 'offline-board.png') });

    await page.reload(); // still offline: the shell from the service worker, the board from IndexedDB
    await page.waitForSelector('.task:has-text("Added offline")');
    // What waits is still told after the reload (the edit waits in IndexedDB).
    await page.waitForSelector('[data-testid=status]:text-is("Offline · 1 edit(s) waiting")');
    expect(await taskNames(id)).toEqual(['Seen online']);

    await context.setOffline(false);
    await until(async () => (await taskNames(id)).includes('Added offline'), 15_000);
    expect(await taskNames(id)).toEqual(['Added offline', 'Seen online']);
    await page.waitForSelector('[data-testid=status]:text-is("Live")');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('images seen online show after a reload offline: the image itself, else its stored thumbnail', async () => {
    const picture = `data:image/png;base64,${PNG_4X3}`;
    const created = await (
      await fetch(`${t.server.url}/api/boards`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          content: {
            texts: [{ x: 0, y: 0, content: 'Seen online' }],
            images: [
              { sourceId: 'bare', x: 0, y: 60, width: 160, height: 120, dataUrl: picture },
              { sourceId: 'thumbed', x: 200, y: 60, width: 160, height: 120, dataUrl: picture, thumbDataUrl: PNG_1PX },
            ],
          },
        }),
      })
    ).json();
    const id: string = created.id;
    const [bare, thumbed] = created.ids.images as string[];
    const { page, context, errors } = await person(chrome.browser);
    page.setDefaultTimeout(5_000);
    await page.goto(`${t.server.url}/#${id}`);
    await serviceWorkerControls(page);
    await page.reload(); // the board as a person sees it again: its requests go through the worker
    await page.waitForSelector('[data-testid=status]:text-is("Live")');
    /** What each image element shows once it has settled: its picture's width, and whether it is marked broken. */
    const shown = (imageId: string) =>
      page
        .waitForFunction((itemId) => {
          const img = document.querySelector<HTMLImageElement>(`[data-id="${itemId}"] img`);
          if (!img?.complete || (!img.naturalWidth && !img.classList.contains('broken'))) return false;
          return { naturalWidth: img.naturalWidth, broken: img.classList.contains('broken') };
        }, imageId)
        .then((handle) => handle.jsonValue() as Promise<{ naturalWidth: number; broken: boolean }>);
    expect(await shown(bare)).toEqual({ naturalWidth: 4, broken: false });

    await context.setOffline(true);
    await page.reload();
    await page.waitForSelector('.item.text:has-text("Seen online")');
    await page.waitForSelector('[data-testid=status]:has-text("Offline")');
    expect(await shown(bare)).toEqual({ naturalWidth: 4, broken: false });
    expect(await shown(thumbed)).toEqual({ naturalWidth: 4, broken: false });
    await page.screenshot({ path: join(ARTIFACTS, 'offline-images.png') });

    // Without the worker's copy (evicted, or never fetched): the thumbnail stored in the document.
    await page.evaluate(() => caches.delete('board-images'));
    await page.reload();
    await page.waitForSelector('.item.text:has-text("Seen online")');
    expect(await shown(thumbed)).toEqual({ naturalWidth: 1, broken: false });
    expect((await shown(bare)).broken).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('an image added offline is kept and shown where it goes, through a reload, and goes on the board once, back online', async () => {
    const id = await createBoard(t.server.url, { content: { texts: [{ x: 0, y: 0, content: 'Seen online' }] } });
    const { page, context, errors } = await person(chrome.browser);
    page.setDefaultTimeout(5_000);
    await page.goto(`${t.server.url}/#${id}`);
    await page.waitForSelector('[data-testid=status]:text-is("Live")');
    await serviceWorkerControls(page);

    await context.setOffline(true);
    await page.waitForSelector('[data-testid=status]:has-text("Offline")');
    await page.setInputFiles('.toolbar input[type=file]', {
      name: 'picture.png',
      mimeType: 'image/png',
      buffer: Buffer.from(PNG_4X3, 'base64'),
    });
    await page.waitForSelector('.toast:has-text("the image is kept here")');
    await page.waitForSelector('.waiting-image img');
    await page.screenshot({ path: join(ARTIFACTS, 'offline-image-waiting.png') });
    await page.reload(); // still offline: the image waits in IndexedDB
    await page.waitForSelector('.item.text:has-text("Seen online")');
    await page.waitForSelector('.waiting-image img');
    expect((await boardJson(t.server.url, id)).images).toEqual([]);

    await context.setOffline(false);
    await until(async () => (await boardJson(t.server.url, id)).images.length === 1, 15_000);
    await page.waitForSelector('.waiting-image', { state: 'detached' });
    await page.waitForSelector('.item.image img');
    // Sent once: another connection (a reload online) finds nothing left to send.
    await page.reload();
    await page.waitForSelector('[data-testid=status]:text-is("Live")');
    expect(await page.locator('.waiting-image').count()).toBe(0);
    expect((await boardJson(t.server.url, id)).images).toHaveLength(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('offline, a board this browser never opened says so instead of failing', async () => {
    const { id } = await (await fetch(`${t.server.url}/api/boards`, { method: 'POST' })).json();
    const { page, context, errors } = await person(chrome.browser);
    page.setDefaultTimeout(5_000);
    await page.goto(`${t.server.url}/`);
    await serviceWorkerControls(page);
    await context.setOffline(true);
    await page.goto(`${t.server.url}/#${id}`);
    await page.waitForSelector('main.message h1:text-is("You are offline")');
    expect(errors).toEqual([]);
    await context.close();
  });
});
