/**
 * A user's SVG image holds script: opened on its own in Chromium, it must run
 * nothing on our origin even when every Content-Security-Policy header is lost
 * on the way (a proxy that drops it), because it is a download; and when its
 * Content-Disposition is lost instead, its own sandboxed policy still holds.
 * The app and the embed still show it, and a raster image opened on its own
 * is shown, not downloaded.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { person, until, useChromium } from '../helpers/pages.js';
import { useServer } from '../helpers/server.js';

const t = useServer();
const chrome = useChromium();

/** Where the planted script reports that it ran; the browser's router answers it, the server never sees it. */
const RAN = '/__script-ran';

const HOSTILE_SVG =
  `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" onload="fetch('${RAN}?by=onload')">` +
  `<script>document.title = 'ran'; fetch('${RAN}?by=script')</script>` +
  '<rect width="40" height="40" fill="red"/></svg>';
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

async function boardWith(dataUrls: string[]): Promise<{ boardId: string; imageIds: string[] }> {
  const created = await fetch(`${t.server.url}/api/boards`, { method: 'POST' });
  const boardId = ((await created.json()) as { id: string }).id;
  const imageIds: string[] = [];
  for (const [index, dataUrl] of dataUrls.entries()) {
    const response = await fetch(`${t.server.url}/api/boards/${boardId}/images`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ x: index * 60, y: 0, width: 40, height: 40, dataUrl }),
    });
    expect(response.ok).toBe(true);
    imageIds.push(((await response.json()) as { id: string }).id);
  }
  return { boardId, imageIds };
}

const svgDataUrl = `data:image/svg+xml;base64,${Buffer.from(HOSTILE_SVG).toString('base64')}`;

/**
 * A context whose answers lose the named headers on the way, as behind a proxy
 * that drops them; it records every report of the planted script.
 */
async function behindProxyDropping(dropped: RegExp): Promise<{ context: BrowserContext; page: Page; ran: string[] }> {
  const { context, page } = await person(chrome.browser);
  page.setDefaultTimeout(10_000);
  const ran: string[] = [];
  await context.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    if (url.pathname === RAN) {
      ran.push(url.search);
      return route.fulfill({ status: 204 });
    }
    const response = await route.fetch();
    const headers = Object.fromEntries(Object.entries(response.headers()).filter(([name]) => !dropped.test(name)));
    return route.fulfill({ response, headers });
  });
  return { context, page, ran };
}

/** Opens `url` as a page; a download is what the browser makes of an attachment. */
async function open(page: Page, url: string): Promise<{ download?: string }> {
  const download = page.waitForEvent('download').catch(() => undefined);
  let started: string | undefined;
  try {
    await page.goto(url);
  } catch (error) {
    if (!/Download is starting/.test((error as Error).message)) throw error;
    started = (await download)?.suggestedFilename();
  }
  await page.waitForTimeout(500); // time for an onload handler and a fetch to be seen
  return { download: started };
}

describe("a user's SVG opened on its own", () => {
  it('with every Content-Security-Policy header stripped, it is a download and its script never runs', async () => {
    const { boardId, imageIds } = await boardWith([svgDataUrl]);
    const { context, page, ran } = await behindProxyDropping(/^content-security-policy/);
    const { download } = await open(page, `${t.server.url}/api/boards/${boardId}/images/${imageIds[0]}`);
    expect(download).toBe(`image-${imageIds[0]}.svg`);
    expect(ran).toEqual([]);
    expect(await page.title()).not.toBe('ran');
    await context.close();
  });

  it('with its Content-Disposition stripped instead, its own sandboxed policy keeps the script from running', async () => {
    const { boardId, imageIds } = await boardWith([svgDataUrl]);
    const { context, page, ran } = await behindProxyDropping(/^content-disposition$/);
    const url = `${t.server.url}/api/boards/${boardId}/images/${imageIds[0]}`;
    const { download } = await open(page, url);
    expect(download).toBeUndefined();
    expect(page.url()).toBe(url); // shown as a page this time
    expect(ran).toEqual([]);
    // In a sandbox: an origin of its own, not ours, whatever could run in it.
    expect(await page.evaluate(() => origin)).toBe('null');
    // Refused scripts may be reported against the image's own policy; nothing else may be.
    for (const violation of chrome.takeViolations()) expect(violation.startsWith(url)).toBe(true);
    await context.close();
  });

  it('the check sees a script that runs: with both headers stripped, it runs (what the two layers prevent)', async () => {
    const { boardId, imageIds } = await boardWith([svgDataUrl]);
    const { context, page, ran } = await behindProxyDropping(/^content-security-policy|^content-disposition$/);
    await open(page, `${t.server.url}/api/boards/${boardId}/images/${imageIds[0]}`);
    await until(() => ran.length === 2);
    expect(ran.sort()).toEqual(['?by=onload', '?by=script']);
    await context.close();
  });

  it('a raster image opened on its own is shown, not downloaded', async () => {
    const { boardId, imageIds } = await boardWith([PNG]);
    const { context, page } = await person(chrome.browser);
    page.setDefaultTimeout(10_000);
    const { download } = await open(page, `${t.server.url}/api/boards/${boardId}/images/${imageIds[0]}`);
    expect(download).toBeUndefined();
    expect(await page.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
    await context.close();
  });
});

describe("a user's SVG in the app and the embed", () => {
  it('is shown on the canvas beside a raster image, and runs nothing there', async () => {
    const { boardId, imageIds } = await boardWith([svgDataUrl, PNG]);
    const { context, page } = await person(chrome.browser);
    page.setDefaultTimeout(10_000);
    const ran: string[] = [];
    context.on('request', (request) => {
      if (request.url().includes(RAN)) ran.push(request.url());
    });
    for (const path of [`/#${boardId}`, `/?embed=1#${boardId}`]) {
      await page.goto(`${t.server.url}${path}`);
      for (const [index, id] of imageIds.entries()) {
        const img = page.locator(`[data-id="${id}"] img`);
        const width = await until(
          () => img.evaluate((element: HTMLImageElement) => element.naturalWidth || false),
          10_000,
        );
        expect(width).toBe(index === 0 ? 40 : 1);
      }
    }
    expect(ran).toEqual([]);
    expect(await page.title()).not.toBe('ran');
    await context.close();
  });

  it('on an all-locked board, fetched with the key, is no blob: URL that would open as a page of our origin', async () => {
    const { boardId, imageIds } = await boardWith([svgDataUrl]);
    const locked = await fetch(`${t.server.url}/api/boards/${boardId}/lock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'all' }),
    });
    const { key } = (await locked.json()) as { key: string };
    const { context, page } = await person(chrome.browser);
    page.setDefaultTimeout(10_000);
    await context.addInitScript(([name, value]) => sessionStorage.setItem(name, value), [`boards.key.${boardId}`, key]);
    await page.goto(`${t.server.url}/#${boardId}`);
    const img = page.locator(`[data-id="${imageIds[0]}"] img`);
    await until(() => img.evaluate((element: HTMLImageElement) => element.naturalWidth || false), 10_000);
    // What "Open image in new tab" does: the picture's URL as a page of its own. Its origin, not a policy,
    // decides what a script in it could reach.
    const src = (await img.getAttribute('src'))!;
    const opened = await context.newPage();
    await opened.goto(src).catch(() => undefined); // Chromium may refuse a data: URL as a page, which is as good
    expect(await opened.evaluate(() => origin).catch(() => 'null')).toBe('null');
    await context.close();
  });
});
