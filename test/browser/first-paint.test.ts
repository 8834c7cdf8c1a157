/**
 * First paint from the JSON snapshot (web/src/first-paint.ts): a draw board opened for the first time in a browser
 * is drawn from `GET /json/{id}` before its Yjs sync has happened; the sync
 * then takes over, dropping what the board no longer holds and adding what it
 * gained meanwhile. A board this browser opened before is not fetched twice.
 * Both requests the first paint waits for leave before the app's own script
 * has arrived (web/src/main.ts).
 */
import type { WebSocketRoute } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { until, useChromium } from '../helpers/pages.js';
import { useServer } from '../helpers/server.js';

const t = useServer();
const chrome = useChromium();

async function post(path: string, body: unknown): Promise<{ id: string }> {
  const response = await fetch(`${t.server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBeLessThan(300);
  return (await response.json()) as { id: string };
}

describe('first paint of a draw board', () => {
  it('draws the snapshot before the sync, then follows the document', async () => {
    const board = await post('/api/boards', {
      content: {
        texts: [
          { x: 0, y: 0, content: 'kept' },
          { x: 300, y: 0, content: 'erased meanwhile' },
        ],
        lines: [
          {
            points: [
              [0, 200],
              [200, 260],
            ],
            color: 'blue',
          },
        ],
      },
    });
    const json = (await (await fetch(`${t.server.url}/json/${board.id}`)).json()) as {
      texts: { id: string; content: string }[];
      lines: { id: string }[];
    };
    const erased = json.texts.find((text) => text.content === 'erased meanwhile')!.id;

    const context = await chrome.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    // The Yjs socket waits until the test lets it through: what is drawn until then came from the snapshot.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.routeWebSocket(/\/collab/, async (socket: WebSocketRoute) => {
      await released;
      socket.connectToServer();
    });
    await page.goto(`${t.server.url}/#${board.id}`);
    await until(async () => (await page.locator('.item[data-id], .strokes .stroke[data-id]').count()) === 3);
    expect(await page.textContent('[data-testid=status]')).not.toBe('Live');
    expect(await page.locator(`[data-id="${json.lines[0].id}"]`).count()).toBe(1);

    // Meanwhile the board changes: one text erased, one added.
    expect((await fetch(`${t.server.url}/api/boards/${board.id}/texts/${erased}`, { method: 'DELETE' })).status).toBe(
      200,
    );
    const added = await post(`/api/boards/${board.id}/texts`, { x: 0, y: 400, content: 'added meanwhile' });
    release();
    await until(async () => (await page.textContent('[data-testid=status]')) === 'Live', 10_000);
    await until(async () => (await page.locator(`[data-id="${erased}"]`).count()) === 0);
    await until(async () => (await page.locator(`[data-id="${added.id}"]`).textContent())?.includes('added meanwhile'));
    expect(await page.locator('.item[data-id], .strokes .stroke[data-id]').count()).toBe(3);

    // Opened again in the same browser: its copy is in IndexedDB, the snapshot is not fetched twice.
    const second = await context.newPage();
    const snapshots: string[] = [];
    second.on('request', (request) => request.url().includes('/json/') && snapshots.push(request.url()));
    await second.goto(`${t.server.url}/#${board.id}`);
    await until(async () => (await second.textContent('[data-testid=status]')) === 'Live', 10_000);
    await until(async () => (await second.locator('.item[data-id]').count()) === 2);
    expect(snapshots).toEqual([]);
    await context.close();
  });

  it("asks for the board's meta and snapshot before the app's script has arrived, then draws them", async () => {
    const board = await post('/api/boards', { content: { texts: [{ x: 0, y: 0, content: 'early' }] } });
    const context = await chrome.browser.newContext();
    const page = await context.newPage();
    // The app's chunk (all of the app but its small entry) is held until both board requests have gone out.
    const asked: string[] = [];
    page.on(
      'request',
      (request) =>
        /\/(json\/|api\/boards\/[^/]+\/meta)/.test(request.url()) && asked.push(new URL(request.url()).pathname),
    );
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held = 0;
    await page.route(/\/assets\/app-[^/]+\.js$/, async (route) => {
      held++;
      await released;
      await route.continue();
    });
    await page.goto(`${t.server.url}/#${board.id}`);
    await until(() => asked.length === 2);
    expect(held).toBeGreaterThan(0);
    expect(await page.locator('[data-testid=canvas]').count()).toBe(0);
    expect(asked.sort()).toEqual([`/api/boards/${board.id}/meta`, `/json/${board.id}`]);
    release();
    await until(async () => (await page.locator('.item[data-id]').textContent())?.includes('early'));
    expect(asked).toHaveLength(2); // the app took them: it asked for neither again
    await context.close();
  });

  it('a todo board and a key-locked board open as before (no snapshot to draw)', async () => {
    const todo = await post('/api/boards', { mode: 'todo' });
    const locked = (await (
      await fetch(`${t.server.url}/api/boards`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ lock: 'all', content: { texts: [{ x: 0, y: 0, content: 'secret' }] } }),
      })
    ).json()) as { id: string };
    const context = await chrome.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${t.server.url}/#${todo.id}`);
    await page.waitForSelector('[data-testid=kanban]');
    await page.goto(`${t.server.url}/#${locked.id}`);
    await until(
      async () =>
        (await page.locator('dialog[open], [role=dialog]').count()) > 0 ||
        (await page.textContent('body'))?.includes('locked'),
    );
    expect(await page.locator('.item[data-id]').count()).toBe(0);
    await context.close();
  });
});
