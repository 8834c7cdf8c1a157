/**
 * What keeps a full draw board smooth under a person's hand
 * (docs/browser-app.md, "Rendering and picking at scale"): the world stays one
 * composited layer however its items are spread, strokes are picked by their
 * geometry rather than hit-tested by the browser, and a drag moves its items
 * as one lifted layer that lands where the document has them. The figures are
 * bench/scenarios/browser-input.ts; these hold the mechanisms.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createBoard } from '../helpers/http.js';
import { boardJson, openBoard, until, useChromium } from '../helpers/pages.js';
import { useServer } from '../helpers/server.js';

const t = useServer();
const chrome = useChromium();

/** 300 texts spread over 7,500 × 4,000 px and 200 strokes: sparse, as a real board is. */
function spreadContent() {
  return {
    texts: Array.from({ length: 300 }, (_, i) => ({
      x: (i % 25) * 300,
      y: Math.floor(i / 25) * 330,
      content: `Note ${i}`,
    })),
    lines: Array.from({ length: 200 }, (_, i) => ({
      points: Array.from({ length: 20 }, (_, k) => [i * 30 + k * 3, 4200 + ((i * 7 + k * 11) % 300)]),
      color: i % 2 ? 'blue' : 'red',
    })),
  };
}

const makeBoard = (content: unknown) => createBoard(t.server.url, { content });

async function open(id: string, items: number): Promise<Page> {
  const context = await chrome.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const { page } = await openBoard(context, t.server.url, id, { items });
  await page.locator('[data-testid=canvas]').focus();
  await page.keyboard.press('0');
  await page.waitForTimeout(400);
  return page;
}

/** The composited layers Chromium draws the page with. */
async function layerCount(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  let layers: unknown[] = [];
  cdp.on('LayerTree.layerTreeDidChange', (event) => {
    if (event.layers) layers = event.layers;
  });
  await cdp.send('LayerTree.enable');
  await page.mouse.move(600, 400);
  await page.mouse.move(620, 420);
  await until(() => layers.length > 0);
  await page.waitForTimeout(300);
  await cdp.detach();
  return layers.length;
}

describe('a draw board at scale', () => {
  it('stays a handful of composited layers, whatever the spread of its items', async () => {
    const page = await open(await makeBoard(spreadContent()), 500);
    // One layer per cluster of texts would be hundreds here.
    expect(await layerCount(page)).toBeLessThan(25);
    await page.context().close();
  });

  it('takes no pointer events on strokes, and still picks one by a press near it; Delete removes it', async () => {
    const id = await makeBoard({
      texts: [{ x: 0, y: 0, content: 'Beside the stroke' }],
      lines: [
        {
          points: [
            [100, 200],
            [400, 200],
          ],
          color: 'red',
        },
      ],
    });
    const page = await open(id, 2);
    const stroke = page.locator('.strokes .stroke');
    expect(await stroke.evaluate((element) => getComputedStyle(element).pointerEvents)).toBe('none');
    const strokeId = await stroke.getAttribute('data-id');
    // A point of the line, 3 screen pixels off it: the browser would hit nothing there.
    const at = await page.evaluate(() => {
      const line = document.querySelector<SVGPolylineElement>('.strokes .stroke')!;
      const mid = new DOMPoint(250, 200).matrixTransform(line.getScreenCTM()!);
      return { x: mid.x, y: mid.y + 3 };
    });
    await page.mouse.click(at.x, at.y);
    await until(async () => (await stroke.getAttribute('class'))?.includes('selected'));
    await page.keyboard.press('Delete');
    await until(async () => (await boardJson(t.server.url, id)).lines.length === 0);
    const json = await boardJson(t.server.url, id);
    expect(json.texts).toHaveLength(1);
    expect(json.lines.map((line: { id: string }) => line.id)).not.toContain(strokeId);
    await page.context().close();
  });

  it('drags a selection as one lifted layer, written live, that lands where the document has it', async () => {
    const id = await makeBoard({
      texts: [
        { x: 0, y: 0, content: 'First' },
        { x: 200, y: 0, content: 'Second' },
        { x: 0, y: 400, content: 'Left alone' },
      ],
    });
    const page = await open(id, 3);
    const watcher = await open(id, 3);
    await page.keyboard.press('Control+a');
    const first = (await page.locator('.item', { hasText: 'First' }).boundingBox())!;
    const alone = page.locator('.item', { hasText: 'Left alone' });
    await alone.click({ modifiers: ['Shift'] }); // out of the selection again
    const from = { x: first.x + first.width / 2, y: first.y + first.height / 2 };
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++) await page.mouse.move(from.x + i * 10, from.y + i * 8);
    // Mid-drag: the two moved texts are in the lifted layer, the other stays; the watcher already sees them move.
    expect(await page.locator('.lifted .item').count()).toBe(2);
    expect(await page.locator('.items .item', { hasText: 'Left alone' }).count()).toBe(1);
    await until(async () => {
      const json = await boardJson(t.server.url, id);
      return json.texts.find((text: { content: string }) => text.content === 'Second').x > 200;
    });
    await page.mouse.up();
    await until(async () => (await page.locator('.lifted .item').count()) === 0);
    const json = await boardJson(t.server.url, id);
    const stored = (content: string) => json.texts.find((text: { content: string }) => text.content === content);
    for (const content of ['First', 'Second']) {
      const element = page.locator('.items .item', { hasText: content });
      const style = await element.evaluate((el: HTMLElement) => ({
        x: parseFloat(el.style.left),
        y: parseFloat(el.style.top),
      }));
      expect(style).toEqual({ x: stored(content).x, y: stored(content).y });
      // The watcher draws them where the document has them too.
      await until(async () => {
        const left = await watcher.locator('.item', { hasText: content }).evaluate((el: HTMLElement) => el.style.left);
        return parseFloat(left) === stored(content).x;
      });
    }
    expect(stored('First').x).toBeGreaterThan(50);
    expect(stored('Left alone')).toMatchObject({ x: 0, y: 400 });
    await page.keyboard.press('Control+z');
    await until(async () => (await boardJson(t.server.url, id)).texts.every((text: { x: number }) => text.x <= 200));
    await page.context().close();
    await watcher.context().close();
  });
});
