/**
 * The box (`bbox`) that add_text and add_link answer is the size the
 * app lays the item out at: texts and links written over REST, the board
 * opened in the app, each item's box read from the DOM.
 */
import { describe, expect, it } from 'vitest';
import { openBoard, useChromium } from '../helpers/pages.js';
import { useServer } from '../helpers/server.js';

const t = useServer();
const chrome = useChromium();

/** How far the answered size may be from the app's: kerning and sub-pixel rounding. */
const TOLERANCE_PX = 4;

const TEXTS = [
  { content: 'A plain text' },
  { content: 'Buy milk\nCall the bank\nShip the release notes', postit: true },
  { content: '# Launch plan\nWho does what, and by when.' },
  { content: '## Risks\n- the API is late\n- [ ] book the room\n- [x] draft the post\n\nNotes follow.' },
  {
    content:
      'A long paragraph that the app wraps because it is wider than the widest a text grows without a width of its own, which is 480 pixels.',
  },
  { content: 'Set width, wrapped inside it: one two three four five six seven', width: 200 },
  { content: 'An agent wrote this', author: 'ai:planner' },
  { content: 'A framed diagram', diagram: true },
  { content: 'Buy milk', postit: true },
  { content: 'A resized note holds more words on a line than a new one', postit: true, width: 300 },
  { content: `A tall note\n${'- a line of it\n'.repeat(12)}end`, postit: true },
  { content: 'Some _it_, __bold__ and ~~strike~~ here' },
  { content: '1. first *step*\n2. second\n   - nested\n\n> quoted\n```\nlet x = 1;\n\n```\n---\n`code` end' },
];

describe('laid-out sizes', { timeout: 60_000 }, () => {
  it('add_text and add_link answer the box the app lays the item out in', async () => {
    const { id } = (await t.api.post('/api/boards')).body;
    const answered = new Map<string, { width: number; height: number }>();
    let y = 0;
    for (const text of TEXTS) {
      const { body, status } = await t.api.post(`/api/boards/${id}/texts`, { x: 40, y, ...text });
      expect(status).toBe(200);
      answered.set(body.id, body.bbox);
      y += body.bbox.height + 40;
    }
    for (const url of ['https://example.org', 'https://docs.example.org/guide/start']) {
      const { body } = await t.api.post(`/api/boards/${id}/links`, { x: 600, y: answered.size * 10, url });
      answered.set(body.id, body.bbox);
    }

    const context = await chrome.browser.newContext({ viewport: { width: 1400, height: 900 }, colorScheme: 'light' });
    const { page, errors } = await openBoard(context, t.server.url, id, { items: answered.size });
    const measured = await page.evaluate(
      (ids) =>
        ids.map((itemId) => {
          const element = document.querySelector<HTMLElement>(`[data-id="${itemId}"]`)!;
          return { width: element.offsetWidth, height: element.offsetHeight };
        }),
      [...answered.keys()],
    );
    const rows = [...answered.values()].map((size, i) => ({ answered: size, app: measured[i] }));
    for (const [i, { answered: size, app }] of rows.entries()) {
      const what = `item ${i}: answered ${JSON.stringify(size)}, app ${JSON.stringify(app)}`;
      expect(Math.abs(size.width - app.width), what).toBeLessThanOrEqual(TOLERANCE_PX);
      expect(Math.abs(size.height - app.height), what).toBeLessThanOrEqual(TOLERANCE_PX);
    }
    expect(errors).toEqual([]);
    await context.close();
  });
});
