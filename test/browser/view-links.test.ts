/**
 * View-only links in the app (docs/sharing.md, "Browser"): the Share dialog
 * makes, lists and revokes them; `/#v_<token>` opens the board read-only and
 * live, with a banner, no tool that changes it and no Share; a revoked link
 * says so at once rather than reconnecting; the embed and a todo board take a
 * token too. Real pointer and keyboard input; the stored board is the judge.
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createBoard } from '../helpers/http.js';
import { boardJson, openBoard, person, seriousIn, useChromium } from '../helpers/pages.js';
import { useServer } from '../helpers/server.js';

const t = useServer();
const chrome = useChromium();
const SHOTS = join(tmpdir(), 'view-links-shots');
mkdirSync(SHOTS, { recursive: true });

const PHONE = { width: 390, height: 844 };
const texts = async (id: string) =>
  ((await boardJson(t.server.url, id)).texts as { content: string }[]).map((x) => x.content).sort();

/** Opens the Share dialog from the header (through "⋯" on a phone). */
async function openShare(page: Page): Promise<void> {
  const menu = page.locator('[data-testid=header-menu]');
  if (await menu.isVisible()) await menu.click();
  await page.click('[data-testid=share]');
  await page.waitForSelector('dialog[open] [data-testid=view-links]');
}

/** Makes a view-only link in the open Share dialog, typed and entered by keyboard; answers its URL. */
async function makeLink(page: Page, label: string): Promise<string> {
  await page.locator('[data-testid=view-link-label]').fill(label);
  await page.locator('[data-testid=view-link-label]').press('Enter');
  const made = page.locator('dialog[open] .share-made input');
  await made.waitFor();
  await page.waitForSelector(`dialog[open] [data-testid=view-links] li:has-text("${label}")`);
  return made.inputValue();
}

/** Opens `url` as someone else and waits until the board is drawn and Live. */
async function openAsViewer(url: string, options: { viewport?: typeof PHONE; dark?: boolean } = {}) {
  const context = await chrome.browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 800 },
    colorScheme: options.dark ? 'dark' : 'light',
    ...(options.viewport && { hasTouch: true, isMobile: true }),
  });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(url);
  await page.waitForSelector('[data-testid=canvas], [data-testid=kanban]');
  await page.waitForSelector('[data-testid=status]:text-is("Live")');
  return { context, page, errors };
}

describe('view-only links in the app', { timeout: 90_000 }, () => {
  it('Share makes a link; it opens read-only and live, and keys that edit change nothing on the server', async () => {
    const id = await createBoard(t.server.url, { content: { texts: [{ x: 200, y: 200, content: 'Shared note' }] } });
    const editorContext = await chrome.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const editor = await openBoard(editorContext, t.server.url, id, { items: 1 });
    // By keyboard alone: Enter on Share, the edit link's Copy has the focus, Tab to the label, Enter makes the link.
    const focused = () => editor.page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
    await editor.page.locator('[data-testid=share]').focus();
    await editor.page.keyboard.press('Enter');
    await editor.page.waitForSelector('dialog[open] [data-testid=view-links]');
    expect(await focused()).toBe('copy-edit-link');
    expect(await editor.page.locator('dialog[open] input[aria-label="Edit link"]').inputValue()).toBe(
      `${t.server.url}/#${id}`,
    );
    await editor.page.keyboard.press('Tab');
    expect(await focused()).toBe('view-link-label');
    await editor.page.keyboard.type('for the client');
    await editor.page.keyboard.press('Enter');
    const made = editor.page.locator('dialog[open] .share-made input');
    await made.waitFor();
    await editor.page.waitForSelector('dialog[open] [data-testid=view-links] li:has-text("for the client")');
    expect(await focused()).toBe('copy-view-link');
    const url = await made.inputValue();
    expect(url).toMatch(/\/#v_[A-Za-z0-9_-]{22}$/);
    await editor.page.screenshot({ path: join(SHOTS, 'share-dialog-1280-light.png') });
    await editor.page.keyboard.press('Escape');
    await editor.page.waitForSelector('dialog[open]', { state: 'detached' });
    expect(await focused()).toBe('share');

    const viewer = await openAsViewer(url);
    const { page } = viewer;
    await page.waitForSelector('[data-testid=view-banner]:has-text("View-only link")');
    await page.waitForSelector('[data-id]:has-text("Shared note")');
    expect(await page.locator('[data-tool]:visible').count()).toBe(0);
    for (const gone of ['share', 'lock', 'enter-key', 'locked-banner'])
      expect(await page.locator(`[data-testid=${gone}]:visible`).count(), gone).toBe(0);
    const title = page.locator('[data-testid=board-title]');
    expect(await title.isDisabled()).toBe(true);
    // Its name and tooltip offer no rename to someone who cannot rename it.
    expect(await title.getAttribute('title')).toBeFalsy();
    expect(await title.getAttribute('aria-label')).not.toContain('rename');
    expect(await page.locator('.export-menu').isVisible()).toBe(true);
    expect(page.url()).not.toContain(id);
    await page.screenshot({ path: join(SHOTS, 'view-1280-light.png') });

    // Every key that edits, on the focused canvas and on the selected text: nothing happens.
    await page.locator('[data-testid=canvas]').click({ position: { x: 900, y: 600 } });
    for (const key of ['Control+a', 'Delete', 'Control+d', 'Backspace', 't', 'Control+z'])
      await page.keyboard.press(key);
    await page.locator('[data-id]:has-text("Shared note")').dblclick();
    await page.keyboard.type('typed by the viewer');
    await page.keyboard.press('Control+Enter');
    expect(await page.locator('textarea.editor').count()).toBe(0);

    // The editor's edit shows for the viewer live; by then the viewer's keys, had they written, would be stored too.
    await editor.page.click('[data-tool=text]');
    await editor.page.mouse.click(500, 500);
    await editor.page.waitForSelector('textarea.editor');
    await editor.page.keyboard.type('Live from the editor');
    await editor.page.keyboard.press('Control+Enter');
    await page.waitForSelector('[data-id]:has-text("Live from the editor")');
    expect(await texts(id)).toEqual(['Live from the editor', 'Shared note']);
    expect(await page.locator('[data-id]:has-text("typed by the viewer")').count()).toBe(0);

    // History can be looked at, not restored.
    await page.click('[data-testid=history]');
    await page.locator('[data-version]').first().click();
    await page.waitForSelector('.version-view img');
    expect(await page.locator('[data-testid=restore]:visible').count()).toBe(0);
    expect(viewer.errors).toEqual([]);
    expect(editor.errors).toEqual([]);
    await viewer.context.close();
    await editorContext.close();
  });

  it('revoking in the Share dialog tells the viewer the link was revoked within a second, and the landing page forgets it', async () => {
    const id = await createBoard(t.server.url, { content: { texts: [{ x: 200, y: 200, content: 'Soon private' }] } });
    const editorContext = await chrome.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const editor = await openBoard(editorContext, t.server.url, id, { items: 1 });
    await openShare(editor.page);
    const url = await makeLink(editor.page, 'temporary');
    const viewer = await openAsViewer(url);
    await viewer.page.goto(`${t.server.url}/`); // the landing page lists it, marked view only
    await viewer.page.waitForSelector('.recent li:has-text("view only")');
    await viewer.page.locator('.recent').screenshot({ path: join(SHOTS, 'recent-1280-light.png') });
    await viewer.page.click('.recent li:has-text("view only") a');
    await viewer.page.waitForSelector('[data-testid=status]:text-is("Live")');

    await editor.page.click('dialog[open] button[aria-label="Revoke temporary"]');
    const confirm = editor.page.locator('dialog[open]', { hasText: 'Revoke this link?' }).getByRole('button', {
      name: 'Revoke',
      exact: true,
    });
    await confirm.waitFor();
    await editor.page.screenshot({ path: join(SHOTS, 'revoke-confirm-1280-light.png') });
    await confirm.click();
    const revoked = Date.now();
    await viewer.page.waitForSelector('h1:text-is("This view-only link was revoked")', { timeout: 3_000 });
    expect(Date.now() - revoked).toBeLessThan(1_500);
    await editor.page.waitForSelector('dialog[open] [data-testid=view-links] li:text-is("None yet.")');
    expect(await viewer.page.locator('[data-testid=canvas]').count()).toBe(0);
    // The browser's copy of the board goes with the link.
    const token = url.slice(url.indexOf('#') + 1);
    await viewer.page.waitForFunction(
      async (name) => !(await indexedDB.databases()).some((db) => db.name === name),
      `board-${token}`,
    );
    await viewer.page.screenshot({ path: join(SHOTS, 'revoked-1280-light.png') });
    // No reconnect loop: the page stays as it is, and the landing page no longer offers the link.
    await viewer.page.goto(`${t.server.url}/`);
    await viewer.page.waitForSelector('.recent');
    expect(await viewer.page.locator('.recent li:has-text("view only")').count()).toBe(0);
    await viewer.page.goto(url);
    await viewer.page.waitForSelector('h1:text-is("This link no longer works")');
    expect(viewer.errors).toEqual([]);
    await viewer.context.close();
    await editorContext.close();
  });

  it('the embed takes a token, read-only, and says when it is revoked', async () => {
    const id = await createBoard(t.server.url, { content: { texts: [{ x: 50, y: 50, content: 'Embedded' }] } });
    const made = (await t.api.post(`/api/boards/${id}/view-links`, {})).body;
    const context = await chrome.browser.newContext({ viewport: { width: 800, height: 500 } });
    const page = await context.newPage();
    await page.goto(`${t.server.url}/?embed=1#${made.token}`);
    await page.waitForSelector('[data-id]:has-text("Embedded")');
    // Live: an edit made elsewhere shows, so the socket the revocation closes is open.
    await t.api.post(`/api/boards/${id}/texts`, { x: 50, y: 150, content: 'Added live' });
    await page.waitForSelector('[data-id]:has-text("Added live")');
    expect(await page.locator('.bar:visible, [data-testid=view-banner], [data-tool]:visible').count()).toBe(0);
    await t.api.del(`/api/boards/${id}/view-links/${made.id}`);
    await page.waitForSelector('h1:text-is("This view-only link was revoked")');
    await context.close();
  });

  it('a todo board opens by its token: no card can be added or moved, exports stay', async () => {
    const created = await t.api.post('/api/boards', {
      mode: 'todo',
      content: {
        columns: [{ title: 'To do' }, { title: 'Done' }],
        tasks: [{ columnIndex: 0, name: 'Stay here' }],
      },
    });
    const { id } = created.body;
    const { token } = (await t.api.post(`/api/boards/${id}/view-links`, { label: 'kanban' })).body;
    const viewer = await openAsViewer(`${t.server.url}/#${token}`);
    const { page } = viewer;
    await page.waitForSelector('[data-testid=view-banner]');
    const card = page.locator('.task:has-text("Stay here")');
    await card.focus();
    await page.keyboard.press('Alt+ArrowRight');
    await card.click();
    expect(await page.locator('dialog[open]').count()).toBe(0);
    expect(await page.locator('.add-task:visible').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toContain(token);
    const stored = await boardJson(t.server.url, id);
    expect(stored.tasks.map((task: { column_id: string }) => task.column_id)).toEqual([created.body.ids.columns[0]]);
    expect(viewer.errors).toEqual([]);
    await viewer.context.close();
  });

  it('Share on a write-locked board asks for the key, and says when the board holds its 20 links', async () => {
    const created = (await t.api.post('/api/boards', { lock: 'write' })).body;
    const { page, context, errors } = await person(chrome.browser, PHONE);
    page.setDefaultTimeout(10_000);
    await page.goto(`${t.server.url}/#${created.id}`);
    await page.waitForSelector('[data-testid=locked-banner]');
    await openShare(page);
    await page.locator('[data-testid=view-link-label]').fill('needs the key');
    await page.click('[data-testid=make-view-link]');
    const key = page.locator('dialog[open] input[aria-label="Access key"]');
    await key.fill(created.access_key);
    await key.press('Enter');
    await page.waitForSelector('dialog[open] [data-testid=view-links] li:has-text("needs the key")');
    await page.screenshot({ path: join(SHOTS, 'share-dialog-390-light.png') });
    for (let i = 1; i < 20; i++)
      await t.api.post(`/api/boards/${created.id}/view-links`, {}, { 'x-board-key': created.access_key });
    await page.click('[data-testid=make-view-link]');
    await page.waitForSelector('dialog[open] [role=alert]:has-text("revoke one to make another")');
    expect(errors).toEqual([]);
    await context.close();
  });

  it("an all-locked board's link asks for the key, which a wrong one does not pass, then opens read-only", async () => {
    const created = (await t.api.post('/api/boards', { lock: 'all', mode: 'todo' })).body;
    const { token } = (
      await t.api.post(`/api/boards/${created.id}/view-links`, {}, { 'x-board-key': created.access_key })
    ).body;
    const { page, context, errors } = await person(chrome.browser);
    page.setDefaultTimeout(10_000);
    await page.goto(`${t.server.url}/#${token}`);
    const key = page.locator('dialog[open] input[aria-label="Access key"]');
    await key.fill('zzzzzzzz');
    await key.press('Enter');
    await page.waitForSelector('dialog[open] [role=alert]:has-text("does not open this board")');
    await key.fill(created.access_key);
    await key.press('Enter');
    await page.waitForSelector('[data-testid=kanban]');
    await page.waitForSelector('[data-testid=view-banner]');
    await page.waitForSelector('[data-testid=status]:text-is("Live")');
    expect(await page.locator('[data-testid=share], [data-testid=lock]').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  // The copy this browser kept loads as an update the server refuses a read-only connection and never acknowledges.
  it('a view-only link opened again from this browser is Live, not Saving… for ever (and a write-locked board still is)', async () => {
    const locked = (
      await t.api.post('/api/boards', { lock: 'write', content: { texts: [{ x: 9, y: 9, content: 'A' }] } })
    ).body;
    const { token } = (
      await t.api.post(`/api/boards/${locked.id}/view-links`, {}, { 'x-board-key': locked.access_key })
    ).body;
    for (const name of [token, locked.id]) {
      const viewer = await openAsViewer(`${t.server.url}/#${name}`);
      await viewer.page.waitForSelector('[data-id]:has-text("A")');
      await viewer.page.waitForFunction(
        async (db) => (await indexedDB.databases()).some((x) => x.name === db),
        `board-${name}`,
      );
      await viewer.page.reload();
      await viewer.page.waitForSelector('[data-testid=status]:text-is("Live")');
      await viewer.context.close();
    }
  });

  it('looks right on a phone and a desktop, light and dark', async () => {
    const id = await createBoard(t.server.url, { content: { texts: [{ x: 40, y: 40, content: 'Phone view' }] } });
    const { token } = (await t.api.post(`/api/boards/${id}/view-links`, { label: 'phone' })).body;
    for (const viewport of [PHONE, { width: 1280, height: 800 }])
      for (const dark of [false, true]) {
        const name = `${viewport.width}-${dark ? 'dark' : 'light'}`;
        const viewer = await openAsViewer(`${t.server.url}/#${token}`, {
          viewport: viewport === PHONE ? PHONE : undefined,
          dark,
        });
        await viewer.page.waitForSelector('[data-testid=view-banner]');
        expect(await viewer.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
          viewport.width,
        );
        await viewer.page.screenshot({ path: join(SHOTS, `view-${name}.png`) });
        expect(await seriousIn(viewer.page, 'body'), name).toEqual([]);
        if (viewport === PHONE) {
          await viewer.page.getByRole('button', { name: 'Board actions' }).tap();
          await viewer.page.waitForSelector('.header-menu-list:popover-open');
          await viewer.page.screenshot({ path: join(SHOTS, `view-menu-${name}.png`) });
        }
        await viewer.context.close();
        const context = await chrome.browser.newContext({
          viewport,
          colorScheme: dark ? 'dark' : 'light',
          ...(viewport === PHONE && { hasTouch: true, isMobile: true }),
        });
        const editor = await openBoard(context, t.server.url, id, { items: 1 });
        await openShare(editor.page);
        await makeLink(editor.page, `made at ${name}`);
        await editor.page.screenshot({ path: join(SHOTS, `share-dialog-${name}.png`) });
        expect(await seriousIn(editor.page, 'dialog[open]'), name).toEqual([]);
        await context.close();
      }
  });
});
