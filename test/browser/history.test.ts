/** The History panel (docs/history.md "Browser") in Chromium against the real server. */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, boardJson, person, until, useChromium } from '../helpers/pages.js';
import { useServer } from '../helpers/server.js';

const t = useServer();
const chrome = useChromium();

/** Versions are recorded ~3 s after a burst settles: every wait for one polls, up to this long. */
const VERSION_WAIT_MS = 15_000;

type Summary = {
  version: number;
  at: string;
  authors: string[];
  counts: Record<string, number>;
  changes: { added: number; updated: number; removed: number };
  restoredFrom?: number;
};

async function rest(method: string, path: string, body?: unknown, key?: string): Promise<any> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (key) headers['x-board-key'] = key;
  const response = await fetch(`${t.server.url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

const versions = async (id: string, key?: string): Promise<Summary[]> =>
  (await rest('GET', `/api/boards/${id}/versions`, undefined, key)).versions;

/** Waits for the newest version to pass `check`, and returns it. */
const newestVersion = (id: string, check: (version: Summary) => boolean, key?: string) =>
  until(async () => {
    const [newest] = await versions(id, key);
    return newest && check(newest) ? newest : undefined;
  }, VERSION_WAIT_MS);

/** A draw board with three texts, recorded as a version; returns the board and that version. */
async function drawBoardWithHistory(
  options: { lock?: 'write' } = {},
): Promise<{ id: string; key?: string; good: Summary }> {
  const created = await rest('POST', '/api/boards', options.lock ? { lock: options.lock } : {});
  const key: string | undefined = created.access_key;
  for (const [index, content] of ['Alpha', 'Beta', 'Gamma'].entries())
    await rest('POST', `/api/boards/${created.id}/texts`, { x: index * 500, y: 0, content, postit: true }, key);
  const good = await newestVersion(created.id, (version) => version.counts.texts === 3, key);
  return { id: created.id, key, good };
}

async function openHistory(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'History', exact: true }).click();
  await page.waitForSelector('aside.history:visible .version');
}

describe('the History panel', () => {
  it('a board vandalised from REST is restored from the panel, after a confirmation, and converges for another person and in /json', async () => {
    const { id, good } = await drawBoardWithHistory();
    const ids: string[] = (await boardJson(t.server.url, id)).texts.map((text: { id: string }) => text.id);
    for (const textId of ids) await rest('DELETE', `/api/boards/${id}/texts/${textId}`);
    const vandalised = await newestVersion(id, (version) => version.counts.texts === 0);
    expect(vandalised.changes.removed).toBe(3);

    const alice = await person(chrome.browser);
    const bob = await person(chrome.browser);
    alice.page.setDefaultTimeout(5_000);
    bob.page.setDefaultTimeout(5_000);
    await Promise.all([alice.page.goto(`${t.server.url}/#${id}`), bob.page.goto(`${t.server.url}/#${id}`)]);
    await alice.page.waitForSelector('[data-testid=status]:text-is("Live")');
    await bob.page.waitForSelector('[data-testid=status]:text-is("Live")');

    // Keyboard reachable: the button has a name and focus, Enter opens the panel.
    await alice.page.getByRole('button', { name: 'History', exact: true }).focus();
    await alice.page.keyboard.press('Enter');
    await alice.page.waitForSelector('aside.history:visible .version');
    expect(await alice.page.getAttribute('[data-testid=history]', 'aria-expanded')).toBe('true');
    const first = alice.page.locator('.version').first();
    expect(await first.getAttribute('data-version')).toBe(String(vandalised.version));
    expect(await first.locator('.changes').textContent()).toBe('+0 ~0 −3');
    expect(await first.locator('.authors').textContent()).toBe('AI (rest)');
    expect(await first.locator('time').textContent()).toMatch(/just now|min ago/);
    expect(await first.locator('time').getAttribute('title')).toBeTruthy();

    // Choosing the version before shows it read-only; the live board stays as it is.
    await alice.page.click(`.version[data-version="${good.version}"]`);
    await alice.page.waitForSelector('.version-view img');
    expect(
      await alice.page
        .locator('.version-view img')
        .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
    ).toBe(true);
    // A data: URL: opened in a tab of its own, the picture has no origin (a blob: URL would be a page of ours).
    expect(await alice.page.locator('.version-view img').getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    expect(await alice.page.locator('.item.text').count()).toBe(0);
    await alice.page.screenshot({ path: join(ARTIFACTS, 'history-desktop-light.png') });
    await alice.page.emulateMedia({ colorScheme: 'dark' });
    await alice.page.screenshot({ path: join(ARTIFACTS, 'history-desktop-dark.png') });
    await alice.page.emulateMedia({ colorScheme: 'light' });

    // Declining the confirmation changes nothing; accepting restores.
    await alice.page.click('[data-testid=restore]');
    await alice.page.waitForSelector('dialog.modal:has-text("Restore version")');
    await alice.page.click('dialog.modal button[value=cancel]');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await boardJson(t.server.url, id)).texts).toHaveLength(0);
    await alice.page.click('[data-testid=restore]');
    await alice.page.click('dialog.modal button[value=ok]');

    await bob.page.waitForSelector('.item.text:has-text("Gamma")', { timeout: 10_000 });
    expect(await bob.page.locator('.item.text').count()).toBe(3);
    await alice.page.waitForSelector('.item.text:has-text("Alpha")');
    const json = await boardJson(t.server.url, id);
    expect(json.texts.map((text: { content: string }) => text.content).sort()).toEqual(['Alpha', 'Beta', 'Gamma']);
    const restored = await newestVersion(id, (version) => version.restoredFrom === good.version);
    // The open list takes in the restore's version by itself.
    await alice.page.waitForSelector(
      `.version[data-version="${restored.version}"]:has-text("Restored from v${good.version}")`,
      { timeout: VERSION_WAIT_MS },
    );
    expect(alice.errors).toEqual([]);
    expect(bob.errors).toEqual([]);
    await Promise.all([alice.context.close(), bob.context.close()]);
  }, 60_000);

  it('on a phone the panel is a sheet over the board, in light and dark', async () => {
    const { id, good } = await drawBoardWithHistory();
    const { page, context, errors } = await person(chrome.browser, { width: 390, height: 844 });
    page.setDefaultTimeout(5_000);
    await page.goto(`${t.server.url}/#${id}`);
    await page.waitForSelector('.item.text:has-text("Alpha")');
    await openHistory(page);
    const sheet = await page.locator('aside.history').boundingBox();
    expect(sheet!.width).toBeGreaterThanOrEqual(389);
    await page.screenshot({ path: join(ARTIFACTS, 'history-phone-light.png') });
    await page.click(`.version[data-version="${good.version}"]`);
    await page.waitForSelector('.version-view img');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: join(ARTIFACTS, 'history-phone-dark.png') });
    // A wide board is small once fitted to a phone: pressed, the picture takes its own size and scrolls.
    await page.click('.version-view .picture');
    expect(await page.locator('.version-view .picture').getAttribute('aria-pressed')).toBe('true');
    expect((await page.locator('.version-view img').boundingBox())!.width).toBeGreaterThan(390);
    await page.screenshot({ path: join(ARTIFACTS, 'history-phone-zoomed.png') });
    // Escape goes back to the list, then closes the panel and gives the focus back to its button.
    await page.keyboard.press('Escape');
    await page.waitForSelector('.version-view', { state: 'hidden' });
    await page.keyboard.press('Escape');
    await page.waitForSelector('aside.history', { state: 'hidden' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('history');
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it('is not in an embed, which is read-only and minimal', async () => {
    const { id } = await drawBoardWithHistory();
    const { page, context, errors } = await person(chrome.browser);
    page.setDefaultTimeout(5_000);
    await page.goto(`${t.server.url}/?embed=1#${id}`);
    await page.waitForSelector('.item.text:has-text("Alpha")');
    expect(await page.locator('[data-testid=history]').count()).toBe(0);
    expect(await page.locator('[data-testid=restore]').count()).toBe(0);
    await page.screenshot({ path: join(ARTIFACTS, 'history-embed.png') });
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it('is read-only for a visitor without the key of a write-locked board; with the key it restores', async () => {
    const { id, key, good } = await drawBoardWithHistory({ lock: 'write' });
    const ids: string[] = (await boardJson(t.server.url, id, key)).texts.map((text: { id: string }) => text.id);
    await rest('DELETE', `/api/boards/${id}/texts/${ids[0]}`, undefined, key);
    await newestVersion(id, (version) => version.counts.texts === 2);

    const visitor = await person(chrome.browser);
    visitor.page.setDefaultTimeout(5_000);
    await visitor.page.goto(`${t.server.url}/#${id}`);
    await visitor.page.waitForSelector('[data-testid=enter-key]:visible');
    await openHistory(visitor.page);
    await visitor.page.click(`.version[data-version="${good.version}"]`);
    await visitor.page.waitForSelector('.version-view img');
    expect(await visitor.page.locator('[data-testid=restore]').count()).toBe(0);

    // The owner holds the key for the session (as after locking or entering it): Restore sends it.
    const owner = await person(chrome.browser);
    owner.page.setDefaultTimeout(5_000);
    await owner.context.addInitScript(([board, secret]) => sessionStorage.setItem(`boards.key.${board}`, secret), [
      id,
      key!,
    ] as const);
    await owner.page.goto(`${t.server.url}/#${id}`);
    await owner.page.waitForSelector('[data-testid=status]:text-is("Live")');
    await openHistory(owner.page);
    await owner.page.click(`.version[data-version="${good.version}"]`);
    await owner.page.click('[data-testid=restore]');
    await owner.page.click('dialog.modal button[value=ok]');
    await until(async () => (await boardJson(t.server.url, id, key)).texts.length === 3, 10_000);
    await visitor.page.waitForSelector(`.item.text:has-text("Alpha")`, { timeout: 10_000 });
    expect(await visitor.page.locator('.item.text').count()).toBe(3);
    expect([...visitor.errors, ...owner.errors]).toEqual([]);
    await Promise.all([visitor.context.close(), owner.context.close()]);
  }, 60_000);

  it('an offline edit made before a restore merges after reconnect', async () => {
    const created = await rest('POST', '/api/boards', { mode: 'todo', content: { columns: [{ title: 'To do' }] } });
    const id: string = created.id;
    const column: string = created.ids.columns[0];
    for (const name of ['Keep me', 'Also keep'])
      await rest('POST', `/api/boards/${id}/tasks`, { column_id: column, name });
    const good = await newestVersion(id, (version) => version.counts.tasks === 2);

    const { page, context, errors } = await person(chrome.browser);
    page.setDefaultTimeout(5_000);
    await page.goto(`${t.server.url}/#${id}`);
    await page.waitForSelector('.task:has-text("Also keep")');
    await page.waitForSelector('[data-testid=status]:text-is("Live")');
    await context.setOffline(true);
    await page.waitForSelector('[data-testid=status]:has-text("Offline")');
    await page.locator('.column').first().locator('.add-task').click();
    await page.fill('dialog input[aria-label=Name]', 'Added offline');
    await page.press('dialog input[aria-label=Name]', 'Enter');
    await page.waitForSelector('.task:has-text("Added offline")');
    const names = async () =>
      ((await boardJson(t.server.url, id)).tasks as { name: string }[]).map((task) => task.name).sort();
    expect(await names()).toEqual(['Also keep', 'Keep me']);

    // Meanwhile the board is wrecked and restored, from REST.
    for (const task of (await boardJson(t.server.url, id)).tasks)
      await rest('DELETE', `/api/boards/${id}/tasks/${task.id}`);
    await newestVersion(id, (version) => version.counts.tasks === 0);
    const restored = await rest('POST', `/api/boards/${id}/versions/${good.version}/restore`);
    expect(restored).toMatchObject({ ok: true, restoredFrom: good.version });

    await context.setOffline(false);
    await until(async () => (await names()).includes('Added offline'), 15_000);
    expect(await names()).toEqual(['Added offline', 'Also keep', 'Keep me']);
    await page.waitForSelector('[data-testid=status]:text-is("Live")');
    await page.waitForSelector('.task:has-text("Keep me")');
    expect(await page.locator('.task').count()).toBe(3);
    // The todo board's panel lists the restore.
    await openHistory(page);
    await page.waitForSelector(
      `.version[data-version="${restored.version}"]:has-text("Restored from v${good.version}")`,
    );
    await page.screenshot({ path: join(ARTIFACTS, 'history-todo.png') });
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
});
