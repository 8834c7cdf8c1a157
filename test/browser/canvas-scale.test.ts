/**
 * What keeps a full draw board smooth under a person's hand
 * (docs/browser-app.md, "Rendering and picking at scale"): the world stays one
 * composited layer however its items are spread, strokes are picked by their
 * geometry rather than hit-tested by the browser, and a drag moves its items
 * as one lifted layer that lands where the document has them. The figures are
 * bench/scenarios/browser-input.ts; these hold the mechanisms.
 */

import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
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

  it('moves a lifted selection of shapes, a frame and texts without laying out the page again at each pointer move, snapping as it goes', async () => {
    const id = await makeBoard({
      texts: [
        { x: 20, y: 40, content: 'Inside' },
        { x: 700, y: 0, content: 'Snapped to' },
      ],
      shapes: Array.from({ length: 12 }, (_, i) => ({
        shape: (['rectangle', 'ellipse', 'diamond'] as const)[i % 3],
        x: 20 + (i % 4) * 150,
        y: 120 + Math.floor(i / 4) * 100,
        width: 120,
        height: 70,
        label: `Step ${i}`,
      })),
      frames: [{ x: 0, y: 0, width: 640, height: 440, title: 'Stage' }],
    });
    const page = await open(id, 15);
    const frame = (await page.locator('.item.frame .frame-title').boundingBox())!;
    const from = { x: frame.x + 10, y: frame.y + frame.height / 2 };
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(from.x + 6, from.y + 4);
    await until(async () => (await page.locator('.lifted .item').count()) === 14); // the frame and its members
    const cdp = await page.context().newCDPSession(page);
    const layerizations: unknown[] = [];
    cdp.on('Tracing.dataCollected', ({ value }) =>
      layerizations.push(...value.filter((event) => event.name === 'PaintArtifactCompositor::Update')),
    );
    await cdp.send('Tracing.start', { transferMode: 'ReportEvents', traceConfig: { includedCategories: ['blink'] } });
    for (let i = 1; i <= 20; i++) await page.mouse.move(from.x + 6 + i * 7, from.y + 4 - (i % 5));
    await page.locator('.snap-guides line').first().waitFor({ state: 'attached' }); // snapping to the text outside
    const ended = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.end');
    await ended;
    await cdp.detach();
    // Each frame of the drag is the compositor's scroll of the lifted layer: the page's layers are laid out at
    // most for the live writes that redraw something, not at each of the 20 moves (every one of them before).
    expect(layerizations.length).toBeLessThan(6);
    await page.mouse.up();
    await until(async () => (await boardJson(t.server.url, id)).frames[0].x > 100);
    await page.context().close();
  });

  it('holds "Saving…" through a drag that writes every frame, and says "Live" once it is stored', async () => {
    const id = await makeBoard({ texts: [{ x: 0, y: 0, content: 'Dragged' }] });
    const page = await open(id, 1);
    const watcher = await open(id, 1); // someone else here, whose cursor moves refresh the header
    const status = page.locator('.status');
    await until(async () => (await status.textContent()) === 'Live');
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { statuses: string[] }).statuses = seen;
      const element = document.querySelector('.status')!;
      new MutationObserver(() => seen.push(element.textContent ?? '')).observe(element, {
        childList: true,
        characterData: true,
        subtree: true,
      });
    });
    const box = (await page.locator('.item', { hasText: 'Dragged' }).boundingBox())!;
    await page.mouse.move(box.x + 10, box.y + 10);
    await page.mouse.down();
    for (let i = 1; i <= 20; i++) await page.mouse.move(box.x + 10 + i * 6, box.y + 10 + i * 3);
    await page.mouse.up();
    await until(async () => (await boardJson(t.server.url, id)).texts[0].x > 0);
    // "Live" comes while the other person's cursor keeps moving: their moves do not hold it back again and again.
    let step = 0;
    await until(async () => {
      await watcher.mouse.move(300 + (step++ % 20) * 10, 300);
      return (await status.textContent()) === 'Live';
    });
    // One "Saving…" for the whole drag, then "Live": not a flip at each frame's write and its answer.
    expect(await page.evaluate(() => (window as unknown as { statuses: string[] }).statuses)).toEqual([
      'Saving…',
      'Live',
    ]);
    await page.context().close();
    await watcher.context().close();
  });

  it('draws the board again at its new scale once a zoom rests: crisp after zooming in from far out', async () => {
    const id = await makeBoard({
      texts: [{ x: 0, y: 0, content: 'Crisp after a zoom' }],
      shapes: [{ shape: 'ellipse', x: 0, y: 80, width: 200, height: 80, label: 'Ellipse' }],
    });
    const page = await open(id, 2);
    // The page's timers run on the test's clock: a zoom has rested when the test says so, however slow the machine.
    await page.clock.install();
    const cdp = await page.context().newCDPSession(page);
    const shot = async () => Buffer.from((await cdp.send('Page.captureScreenshot', { format: 'png' })).data, 'base64');
    for (let i = 0; i < 10; i++) await page.keyboard.press('-');
    await page.clock.runFor(1000); // rested far out: drawn again small
    for (let i = 0; i < 13; i++) await page.keyboard.press('=');
    const stretched = sharpness(await shot()); // the small picture, scaled up (1.6 times less sharp here)
    await page.clock.runFor(1000); // rested
    await until(async () => sharpness(await shot()) > 1.3 * stretched);
    await cdp.detach();
    await page.context().close();
  });
});

/** How sharp a screenshot is: the sum of its squared differences between neighbouring pixels' brightness. */
function sharpness(shot: Buffer): number {
  const { width, height, data } = PNG.sync.read(shot);
  const light = (x: number, y: number) => {
    const at = (y * width + x) * 4;
    return data[at] + data[at + 1] + data[at + 2];
  };
  let sum = 0;
  for (let y = 0; y < height - 1; y++)
    for (let x = 0; x < width - 1; x++)
      sum += (light(x + 1, y) - light(x, y)) ** 2 + (light(x, y + 1) - light(x, y)) ** 2;
  return sum;
}
