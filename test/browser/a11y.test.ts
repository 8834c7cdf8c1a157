/**
 * Accessibility: axe-core, injected from its package, finds no
 * serious or critical violation on the landing page, a draw board and a todo
 * board, in the light and the dark theme; every draw tool button has a name.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { injectAxe, until, useChromium } from '../helpers/pages.js';
import { useServer } from '../helpers/server.js';

const t = useServer();
const chrome = useChromium();

type Violation = { id: string; impact: string; help: string; nodes: { target: string[] }[] };

/** The serious and critical violations on the page as it is, one line each. */
async function violations(page: Page): Promise<string[]> {
  await injectAxe(page);
  const found: Violation[] = await page.evaluate(async () => (await (window as any).axe.run(document)).violations);
  return found
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.impact} ${v.id} (${v.help}): ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 5)
          .join(', ')}`,
    );
}

async function createBoard(body: Record<string, unknown>): Promise<string> {
  const response = await fetch(`${t.server.url}/api/boards`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return ((await response.json()) as { id: string }).id;
}

const DRAW = {
  content: {
    texts: [
      { x: 40, y: 40, content: '# Title\n- [ ] a task\n[a link](https://example.com)' },
      { x: 40, y: 200, content: 'note', postit: true },
    ],
    lines: [
      {
        points: [
          [40, 300],
          [300, 320],
        ],
        color: 'maroon',
      },
    ],
  },
};
const TODO = {
  mode: 'todo',
  content: {
    columns: [{ title: 'To do' }, { title: 'Done' }],
    tasks: [
      { columnIndex: 0, name: 'First', priority: 'H', due_date: '2020-01-01' },
      { columnIndex: 1, name: 'Second', done: true },
    ],
  },
};

describe('accessibility', { timeout: 90_000 }, () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`axe finds no serious or critical violation on the landing page, a draw board and a todo board (${scheme})`, async () => {
      const context = await chrome.browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: scheme });
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      await page.goto(`${t.server.url}/`);
      await page.waitForSelector('[data-testid=example]');
      const found: Record<string, string[]> = { landing: await violations(page) };
      for (const [name, body, ready] of [
        ['draw', DRAW, '.item'],
        ['todo', TODO, '.task'],
      ] as const) {
        await page.goto(`${t.server.url}/#${await createBoard(body)}`);
        await page.waitForSelector(ready);
        await until(async () => (await page.textContent('[data-testid=status]')) === 'Live', 10_000);
        found[name] = await violations(page);
      }
      expect(found).toEqual({ landing: [], draw: [], todo: [] });
      await context.close();
    });
  }

  it('every draw tool button has an accessible name', async () => {
    const context = await chrome.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${t.server.url}/#${await createBoard(DRAW)}`);
    await page.waitForSelector('.toolbar');
    const unnamed = await page
      .locator('.toolbar button')
      .evaluateAll((buttons) =>
        buttons.filter((b) => !(b.getAttribute('aria-label') || b.textContent?.trim())).map((b) => b.outerHTML),
      );
    expect(unnamed).toEqual([]);
    await context.close();
  });
});
