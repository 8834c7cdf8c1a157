/**
 * A text is shared as it is typed: the other people on the board see it grow
 * while its editor is still open (as in tldraw and Miro), the person typing
 * undoes the whole edit in one step, and History gets a version per burst of
 * typing, not one per key.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, boardJson, openBoard, person, until, useChromium } from '../helpers/pages.js';
import { useServer } from '../helpers/server.js';

/** A settle far longer than a slow typist's pause between keys, so that the typing is one burst (at most 10 s long). */
const SETTLE_MS = 1_000;
const t = useServer({ NOTIFICATION_SETTLE_MS: String(SETTLE_MS), NOTIFICATION_MAX_WAIT_MS: undefined });
const chrome = useChromium();

/** Versions are recorded once a burst settles (at most ~10 s into a long one). */
const VERSION_WAIT_MS = 15_000;
/** A slow typist: 8 keys a second. */
const KEY_DELAY_MS = 120;

async function post(path: string, body: unknown): Promise<any> {
  const response = await fetch(`${t.server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.ok, `${path}: ${response.status}`).toBe(true);
  return response.json();
}

async function versionCount(id: string): Promise<number> {
  const response = await fetch(`${t.server.url}/api/boards/${id}/versions`);
  return ((await response.json()) as { versions: unknown[] }).versions.length;
}

/** The texts a page shows, as their rendered words. */
const shownTexts = (page: Page) => page.locator('.item.text').allTextContents();

/** Two people on a new draw board, A's and B's pages open and Live. */
async function twoOnABoard(content?: string) {
  const { id } = await post('/api/boards', { mode: 'draw' });
  if (content) await post(`/api/boards/${id}/texts`, { x: 300, y: 200, content });
  const a = await person(chrome.browser);
  const b = await person(chrome.browser);
  const pageA = (await openBoard(a.context, t.server.url, id, { items: content ? 1 : 0 })).page;
  const pageB = (await openBoard(b.context, t.server.url, id, { items: content ? 1 : 0 })).page;
  return { id, pageA, pageB, close: () => Promise.all([a.context.close(), b.context.close()]) };
}

/**
 * Types `words` on A, slowly, and meanwhile waits for B to show a part of them
 * (more than nothing, less than all) while A's editor is still open; returns that part.
 */
async function partSeenWhileTyping(pageA: Page, pageB: Page, before: string, words: string): Promise<string> {
  const typing = pageA.keyboard.type(words, { delay: KEY_DELAY_MS });
  try {
    const part = await until(async () => {
      const [shown] = await shownTexts(pageB);
      return shown !== undefined && shown.trim() !== before.trim() ? shown : undefined;
    }, words.length * KEY_DELAY_MS);
    expect(await pageA.locator('textarea.editor').count(), 'A was still typing').toBe(1);
    await pageB.screenshot({ path: join(ARTIFACTS, 'draw-live-text-b.png') });
    return part;
  } finally {
    await typing;
  }
}

describe('a text typed on one page, seen on another', () => {
  it('B sees a new text as A types it; one undo on A takes the whole text away; the typing is one version, or a few', async () => {
    const { id, pageA, pageB, close } = await twoOnABoard();
    const versionsBefore = await versionCount(id);
    await pageA.click('[data-tool=text]');
    await pageA.mouse.click(400, 300);
    await pageA.waitForSelector('textarea.editor');
    const words = 'Shared while it is typed';
    const part = await partSeenWhileTyping(pageA, pageB, '', words);
    expect(words.startsWith(part.trim()) && part.trim().length < words.length, `B saw "${part}"`).toBe(true);
    // A's own drafts redraw the text under the editor: it stays hidden and the editor keeps every key.
    expect(await pageA.locator('textarea.editor').inputValue()).toBe(words);
    expect(await pageA.locator('.item.text').isVisible()).toBe(false);
    await pageA.screenshot({ path: join(ARTIFACTS, 'draw-live-text-a.png') });
    await pageA.keyboard.press('Control+Enter');

    await until(async () => (await shownTexts(pageB))[0] === words);
    expect((await boardJson(t.server.url, id)).texts.map((text: any) => text.content)).toEqual([words]);
    // Typed over ~3 s: one burst, recorded once it settles, whatever the number of keys.
    await until(async () => (await versionCount(id)) > versionsBefore, VERSION_WAIT_MS);
    await new Promise((resolve) => setTimeout(resolve, 2 * SETTLE_MS)); // a later settle would have recorded by now
    expect(await versionCount(id)).toBeLessThanOrEqual(versionsBefore + 2);

    await pageA.keyboard.press('Control+z');
    await until(async () => (await boardJson(t.server.url, id)).texts.length === 0);
    await until(async () => (await shownTexts(pageB)).length === 0);
    await close();
  });

  it('B sees an edit of a text as A types it; one undo on A puts the text back as it was, pauses and all', async () => {
    const { id, pageA, pageB, close } = await twoOnABoard('Before');
    await pageA.locator('.item.text').dblclick();
    await pageA.waitForSelector('textarea.editor');
    await pageA.keyboard.press('End');
    const part = await partSeenWhileTyping(pageA, pageB, 'Before', ' and after');
    expect(part.startsWith('Before') && part.length < 'Before and after'.length, `B saw "${part}"`).toBe(true);
    await pageA.waitForTimeout(600); // a pause longer than the undo manager's 400 ms grouping
    await pageA.keyboard.type(' again');
    await pageA.keyboard.press('Escape');
    await until(async () => (await shownTexts(pageB))[0] === 'Before and after again');

    await pageA.keyboard.press('Control+z');
    await until(async () => (await boardJson(t.server.url, id)).texts[0]?.content === 'Before');
    await until(async () => (await shownTexts(pageB))[0] === 'Before');
    await close();
  });

  it('a new text typed and emptied again is not stored; an over-long edit is refused with a message and the text stays as it was', async () => {
    const { id, pageA, close } = await twoOnABoard('Kept');
    await pageA.mouse.dblclick(700, 500);
    await pageA.waitForSelector('textarea.editor');
    await pageA.keyboard.type('gone');
    await until(async () => (await boardJson(t.server.url, id)).texts.length === 2); // drafted
    for (let i = 0; i < 4; i++) await pageA.keyboard.press('Backspace');
    await pageA.keyboard.press('Escape');
    await until(async () => (await boardJson(t.server.url, id)).texts.length === 1);

    await pageA.locator('.item.text').dblclick();
    await pageA.keyboard.press('End');
    await pageA.keyboard.type(' and more');
    await until(async () => (await boardJson(t.server.url, id)).texts[0].content === 'Kept and more'); // drafted
    await pageA.locator('textarea.editor').fill('x'.repeat(100_001));
    await pageA.keyboard.press('Escape');
    await pageA.waitForSelector('.toast:has-text("at most 100000 characters")');
    await until(async () => (await boardJson(t.server.url, id)).texts[0].content === 'Kept');
    expect(await shownTexts(pageA)).toEqual(['Kept']);
    await close();
  });

  it('two people typing in one text at once see that the other is editing, and both keep their words', async () => {
    const { id, pageA, pageB, close } = await twoOnABoard('notes');
    await pageA.locator('.item.text').dblclick();
    await pageA.waitForSelector('textarea.editor');
    await pageB.locator('.item.text').dblclick();
    await pageB.waitForSelector('textarea.editor');
    await until(async () => (await pageA.locator('[data-testid=editing-mark]').textContent())?.endsWith('is editing'));
    await until(async () => (await pageB.locator('[data-testid=editing-mark]').count()) === 1);
    // B's pointer is over the text A types in: it shows no name label there (the mark names B).
    const editorB = (await pageB.locator('textarea.editor').boundingBox())!;
    await pageB.mouse.move(editorB.x + 12, editorB.y + 8);
    await until(async () => (await pageA.locator('.cursor.typing').count()) === 1);
    expect(await pageA.locator('.cursor span:visible').count()).toBe(0);
    await pageA.keyboard.press('End');
    await pageB.keyboard.press('Home');
    await Promise.all([
      pageA.keyboard.type(' from A', { delay: KEY_DELAY_MS / 2 }),
      pageB.keyboard.type('B: ', { delay: KEY_DELAY_MS / 2 }),
    ]);
    const both = 'B: notes from A';
    await until(async () => (await pageA.locator('textarea.editor').inputValue()) === both);
    await until(async () => (await pageB.locator('textarea.editor').inputValue()) === both);
    await pageA.screenshot({ path: join(ARTIFACTS, 'draw-two-typing-a.png') });
    await pageA.keyboard.press('Escape');
    await pageB.keyboard.press('Escape');
    await until(async () => (await boardJson(t.server.url, id)).texts[0]?.content === both);
    await until(async () => (await shownTexts(pageA))[0] === both && (await shownTexts(pageB))[0] === both);
    await until(async () => (await pageA.locator('[data-testid=editing-mark]').count()) === 0);
    await close();
  });
});
