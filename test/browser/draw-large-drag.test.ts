/**
 * A drag of a large selection (texts and strokes, every item after Ctrl+A):
 * the person dragging sees every item follow the pointer, strokes included,
 * before anything is drawn again; the people watching see it travel before the
 * release, at a slower rate than a small drag's; the release puts every item
 * where the drag ends, and one undo takes the whole drag back.
 */
import { describe, expect, it } from 'vitest';
import { createBoard } from '../helpers/http.js';
import { boardJson, openBoard, person, until, useChromium } from '../helpers/pages.js';
import { useServer } from '../helpers/server.js';

const t = useServer();
const chrome = useChromium();

const TEXTS = 150;
const STROKES = 150;

type Item = { id: string; x: number; y: number; points?: number[][] };

describe('dragging a large selection', () => {
  it('moves every item under the pointer, is seen moving by others before the release, and lands where it ends', async () => {
    const content = {
      texts: Array.from({ length: TEXTS }, (_, i) => ({
        x: (i % 15) * 60,
        y: Math.floor(i / 15) * 40,
        content: `t${i}`,
      })),
      lines: Array.from({ length: STROKES }, (_, i) => ({
        points: [
          [(i % 15) * 60, 500 + Math.floor(i / 15) * 30],
          [(i % 15) * 60 + 40, 510 + Math.floor(i / 15) * 30],
        ],
      })),
    };
    const id = await createBoard(t.server.url, { content });
    const before = await boardJson(t.server.url, id);
    const dragger = await person(chrome.browser);
    const watcher = await person(chrome.browser);
    const { page } = await openBoard(dragger.context, t.server.url, id, { items: TEXTS + STROKES });
    const seen = (await openBoard(watcher.context, t.server.url, id, { items: TEXTS + STROKES })).page;
    await page.locator('[data-testid=canvas]').focus();
    await page.keyboard.press('Control+a');
    expect(await page.locator('.item.selected, .stroke.selected').count()).toBe(TEXTS + STROKES);

    const t0 = (before.texts as (Item & { content: string })[]).find((text) => text.content === 't0')!.id;
    const first = (await page.locator(`[data-id="${t0}"]`).boundingBox())!;
    const strokeId = before.lines[0].id as string;
    const stroke = page.locator(`[data-id="${strokeId}"]`);
    const strokeBefore = (await stroke.boundingBox())!;
    // Where the watcher sees the text before the drag: its first shared write can come before the dragger's checks end.
    const watched = seen.locator(`[data-id="${t0}"]`);
    const watchedBefore = (await watched.boundingBox())!;
    const [x, y] = [first.x + first.width / 2, first.y + first.height / 2];
    await page.mouse.move(x, y);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++) await page.mouse.move(x + i * 8, y + i * 4);
    // The stroke follows the pointer on the dragger's screen (it moves with the lifted layer).
    await until(async () => {
      const box = (await stroke.boundingBox())!;
      return Math.abs(box.x - strokeBefore.x - 80) < 2 && Math.abs(box.y - strokeBefore.y - 40) < 2;
    });
    // Held still mid-drag, the watcher sees the selection moved before the release.
    await until(async () => ((await watched.boundingBox())?.x ?? 0) > watchedBefore.x + 1);
    await page.mouse.move(x + 100, y + 50);
    await page.mouse.up();

    const moved = (item: Item, from: Item) => item.x - from.x;
    await until(async () => {
      const after = await boardJson(t.server.url, id);
      const scale = await page.evaluate(
        () => new DOMMatrix(getComputedStyle(document.querySelector('.world')!).transform).a,
      );
      const dx = 100 / scale;
      return (after.texts as Item[]).every((text) => {
        const from = (before.texts as Item[]).find((entry) => entry.id === text.id)!;
        return Math.abs(moved(text, from) - dx) < 1;
      });
    });
    const after = await boardJson(t.server.url, id);
    const line = (after.lines as Item[]).find((entry) => entry.id === strokeId)!;
    const lineBefore = (before.lines as Item[]).find((entry) => entry.id === strokeId)!;
    expect(line.points![0][0]).toBeGreaterThan(lineBefore.points![0][0]);
    // On the dragger's screen the stroke is drawn where the document now has it.
    await until(async () => ((await stroke.boundingBox())?.x ?? 0) > strokeBefore.x + 90);

    // One undo takes the whole drag back.
    await page.keyboard.press('Control+z');
    await until(async () => {
      const undone = await boardJson(t.server.url, id);
      return (undone.texts as Item[]).every((text) => {
        const from = (before.texts as Item[]).find((entry) => entry.id === text.id)!;
        return text.x === from.x && text.y === from.y;
      });
    });
    await Promise.all([dragger.context.close(), watcher.context.close()]);
  });
});
