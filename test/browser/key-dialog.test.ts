import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, boardJson, person, useChromium } from '../helpers/pages.js';
import { useServer } from '../helpers/server.js';

const t = useServer();
const chrome = useChromium();

async function lockedBoard(lock: 'write' | 'all'): Promise<{ id: string; key: string }> {
  const created = await (
    await fetch(`${t.server.url}/api/boards`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'todo', lock }),
    })
  ).json();
  return { id: created.id, key: created.access_key };
}

describe('access keys in any case', () => {
  // Issue 16: the key dialog refused an upper-case key ("Please match the requested format").
  it('the key dialog opens an all-locked board with its key typed in upper case, on Enter', async () => {
    const { id, key } = await lockedBoard('all');
    const { page, context, errors } = await person(chrome.browser);
    page.setDefaultTimeout(5_000);
    await page.goto(`${t.server.url}/#${id}`);
    const input = page.locator('dialog input[aria-label="Access key"]');
    await input.fill(key.toUpperCase());
    await page.screenshot({ path: join(ARTIFACTS, 'key-dialog-1280.png') });
    expect(await input.evaluate((field: HTMLInputElement) => field.validity.valid)).toBe(true);
    await input.press('Enter');
    await page.waitForSelector('[data-testid=kanban] .column');
    await page.waitForSelector('[data-testid=status]:text-is("Live")');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a wrong key keeps the dialog open with the error beside the field; the right one then opens the board', async () => {
    const { id, key } = await lockedBoard('all');
    const { page, context, errors } = await person(chrome.browser);
    page.setDefaultTimeout(5_000);
    await page.goto(`${t.server.url}/#${id}`);
    const input = page.locator('dialog input[aria-label="Access key"]');
    await input.fill('zzzzzzzz');
    await input.press('Enter');
    const error = page.locator('dialog [role=alert]');
    await error.waitFor();
    expect(await error.textContent()).toContain('does not open this board');
    expect(await page.locator('dialog[open]').count()).toBe(1);
    await page.screenshot({ path: join(ARTIFACTS, 'key-dialog-wrong-1280.png') });
    await input.fill(key);
    await input.press('Enter');
    await page.waitForSelector('[data-testid=kanban] .column');
    expect(await page.locator('dialog[open]').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('REST takes an upper-case key in X-Board-Key and in verify-key', async () => {
    const { id, key } = await lockedBoard('all');
    const upper = key.toUpperCase();
    expect((await boardJson(t.server.url, id, upper)).boardId).toBe(id);
    const verified = await fetch(`${t.server.url}/api/boards/${id}/verify-key`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: upper }),
    });
    expect(verified.status).toBe(200);
    expect(await verified.json()).toEqual({ ok: true });
    const wrong = await fetch(`${t.server.url}/api/boards/${id}/verify-key`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: 'ZZZZZZZZ' }),
    });
    expect(await wrong.json()).toEqual({ ok: false });
  });

  it('saves a screenshot of the key dialog at 390x844', async () => {
    const { id } = await lockedBoard('all');
    const { page, context } = await person(chrome.browser, { width: 390, height: 844 });
    await page.goto(`${t.server.url}/#${id}`);
    await page.waitForSelector('dialog input[aria-label="Access key"]', { timeout: 5_000 });
    await page.screenshot({ path: join(ARTIFACTS, 'key-dialog-390.png') });
    await context.close();
  });
});
