/**
 * The browser app with a board filled to its quotas (500 texts, 2000 strokes of
 * 50 points, 50 images): time to first render, frame time while panning and
 * while dragging a selection of 50 texts, and the time a paste of 200 items
 * takes to land on screen. Baseline: the same measures on a one-item board
 * (a one-item selection, a one-item paste) in the same run, so the ratio is
 * the cost of the content. Chromium is Debian's, headless.
 */
import { rm } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { chromiumAvailable, launchChromium } from '../../test/helpers/browser.js';
import { tempDataDir, testEnv } from '../../test/helpers/child-server.js';
import { spawnService } from '../lib/processes.js';
import type { Section } from '../lib/report.js';
import { ms, ratio, summarize } from '../lib/stats.js';
import { fullDrawContent } from './import.js';

type Measure = { render: number[]; painted: number[]; frames: number[]; drag: number[] };

/** tsx names the functions it compiles with a `__name` helper the page lacks: give it one that does nothing. */
const KEEP_NAMES = 'window.__name = (f) => f;';

/** The texts a drag moves: named so the page can find them, placed apart from every other item. */
const TARGET = 'Drag target';

async function measure(
  url: string,
  boardId: string,
  expected: number,
  runs: number,
  panFrames: number,
): Promise<Measure> {
  const browser = await launchChromium();
  const result: Measure = { render: [], painted: [], frames: [], drag: [] };
  try {
    for (let run = 0; run < runs; run++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await page.addInitScript(KEEP_NAMES);
      await page.goto(`${url}/#${boardId}`);
      // first render: every item of the board in the DOM, measured from navigation start
      const rendered = await page.waitForFunction(
        (count) => {
          const items = document.querySelectorAll('.item, .strokes .stroke').length;
          return items >= count ? performance.now() : false;
        },
        expected,
        { timeout: 60_000, polling: 'raf' },
      );
      result.render.push((await rendered.jsonValue()) as number);
      // The next frame after it and the first task after that frame: its layout and paint are done by then
      // (and so is whatever task ran first, such as the Yjs sync that follows a snapshot's first paint).
      result.painted.push(
        await page.evaluate(
          () =>
            new Promise<number>((resolve) =>
              requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 0)),
            ),
        ),
      );
      const frames = await page.evaluate(async (count) => {
        const viewport = document.querySelector('[data-testid=canvas]')!;
        const deltas: number[] = [];
        let last = performance.now();
        for (let i = 0; i < count; i++) {
          viewport.dispatchEvent(new WheelEvent('wheel', { deltaX: 7, deltaY: 5, bubbles: true, cancelable: true }));
          await new Promise((resolve) => requestAnimationFrame(resolve));
          const now = performance.now();
          deltas.push(now - last);
          last = now;
        }
        return deltas;
      }, panFrames);
      result.frames.push(...frames.slice(5));
      result.drag.push(...(await dragFrames(page, panFrames)));
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return result;
}

/**
 * Frame times while the texts named TARGET are dragged as one selection: the
 * view is fitted, a selection box is drawn around them (from empty canvas),
 * then one of them is dragged a few pixels a frame.
 */
async function dragFrames(page: Page, count: number): Promise<number[]> {
  await page.keyboard.press('0');
  await page.waitForTimeout(300);
  const box = await page.evaluate((target) => {
    const rects = [...document.querySelectorAll<HTMLElement>('.item[data-id]')]
      .filter((el) => el.textContent?.startsWith(target))
      .map((el) => el.getBoundingClientRect());
    const left = Math.min(...rects.map((r) => r.left)),
      top = Math.min(...rects.map((r) => r.top));
    const right = Math.max(...rects.map((r) => r.right)),
      bottom = Math.max(...rects.map((r) => r.bottom));
    return {
      left,
      top,
      right,
      bottom,
      first: { x: rects[0].left + rects[0].width / 2, y: rects[0].top + rects[0].height / 2 },
      n: rects.length,
    };
  }, TARGET);
  await page.mouse.move(box.left - 12, box.top - 12);
  await page.mouse.down();
  await page.mouse.move(box.right + 12, box.bottom + 12, { steps: 4 });
  await page.mouse.up();
  await page.evaluate(() => {
    const w = window as unknown as { dragFrames: number[]; dragging: boolean };
    w.dragFrames = [];
    w.dragging = true;
    let last = performance.now();
    const tick = (now: number) => {
      w.dragFrames.push(now - last);
      last = now;
      if (w.dragging) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await page.mouse.move(box.first.x, box.first.y);
  await page.mouse.down();
  for (let i = 1; i <= count; i++) await page.mouse.move(box.first.x + i * 2, box.first.y + i);
  await page.mouse.up();
  return (
    await page.evaluate(() => {
      const w = window as unknown as { dragFrames: number[]; dragging: boolean };
      w.dragging = false;
      return w.dragFrames;
    })
  ).slice(3);
}

/** Milliseconds from a paste of `items` (texts and strokes, as the app's own clipboard payload) to all of them on screen. */
async function pasteTime(url: string, boardId: string, texts: number, strokes: number): Promise<number> {
  const browser = await launchChromium();
  try {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await page.addInitScript(KEEP_NAMES);
    await page.goto(`${url}/#${boardId}`);
    await page.waitForSelector('[data-testid=canvas]');
    await page.waitForFunction(() => document.body.textContent?.includes('Live'), undefined, { timeout: 30_000 });
    return await page.evaluate(
      ({ texts, strokes }) => {
        const now = new Date().toISOString();
        const payload = {
          type: 'board-items',
          version: 1,
          board: crypto.randomUUID(),
          box: { x: 0, y: 0, width: 1800, height: 1100 },
          texts: Array.from({ length: texts }, (_, i) => ({
            id: crypto.randomUUID(),
            x: (i % 15) * 120,
            y: Math.floor(i / 15) * 90,
            content: `**Item ${i}**\n- [ ] task ${i}`,
            author: 'user:bench',
            last_updated: now,
          })),
          links: [],
          strokes: Array.from({ length: strokes }, (_, i) => ({
            id: crypto.randomUUID(),
            points: [
              [i * 30, 1000],
              [i * 30 + 20, 1040],
              [i * 30 + 10, 1080],
            ],
            color: 'red',
            width: 3,
            author: 'user:bench',
            last_updated: now,
          })),
          images: [],
        };
        const before = document.querySelectorAll('.item, .strokes .stroke').length;
        const data = new DataTransfer();
        data.setData('application/x-board-items+json', JSON.stringify(payload));
        const started = performance.now();
        document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data }));
        return new Promise<number>((resolve, reject) => {
          // A paste the app refused would never land: give up after 20 s rather than hang the run.
          const check = () => {
            if (document.querySelectorAll('.item, .strokes .stroke').length >= before + texts + strokes)
              resolve(performance.now() - started);
            else if (performance.now() - started > 20_000)
              reject(new Error(`the paste of ${texts + strokes} items did not land`));
            else requestAnimationFrame(check);
          };
          check();
        });
      },
      { texts, strokes },
    );
  } finally {
    await browser.close();
  }
}

export async function browserScenario(quick: boolean): Promise<Section> {
  const title = 'Browser app: first render, panning, dragging and pasting';
  if (!chromiumAvailable()) {
    return {
      title,
      baseline: 'n/a',
      rows: [],
      notes: ['Skipped: /usr/bin/chromium is missing (scripts/install-chromium.sh installs it).'],
    };
  }
  const dataDir = await tempDataDir();
  const server = await spawnService(testEnv(dataDir, { RATE_LIMITS: 'off' }));
  try {
    const post = async (body: unknown) =>
      (await (
        await fetch(`${server.url}/api/boards`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).json()) as { id: string };
    // 50 of the 500 texts are drag targets, apart from the other items (which lie at y >= -200).
    const content = fullDrawContent();
    content.texts.splice(
      0,
      50,
      ...Array.from({ length: 50 }, (_, i) => ({
        x: (i % 10) * 200,
        y: -3000 + Math.floor(i / 10) * 150,
        content: `${TARGET} ${i}`,
      })),
    );
    const full = await post({ content });
    const empty = await post({ content: { texts: [{ x: 0, y: 0, content: `${TARGET} 0` }] } });
    const runs = quick ? 2 : 5;
    const frames = quick ? 60 : 240;
    const ours = await measure(server.url, full.id, 2550, runs, frames);
    const base = await measure(server.url, empty.id, 1, runs, frames);
    const [renderOurs, renderBase, frameOurs, frameBase] = [
      summarize(ours.render),
      summarize(base.render),
      summarize(ours.frames),
      summarize(base.frames),
    ];
    const [dragOurs, dragBase] = [summarize(ours.drag), summarize(base.drag)];
    const [paintedOurs, paintedBase] = [summarize(ours.painted), summarize(base.painted)];
    const pastes = { ours: [] as number[], base: [] as number[] };
    for (let run = 0; run < runs; run++) {
      pastes.ours.push(await pasteTime(server.url, (await post({})).id, 150, 50));
      pastes.base.push(await pasteTime(server.url, (await post({})).id, 1, 0));
    }
    const [pasteOurs, pasteBase] = [summarize(pastes.ours), summarize(pastes.base)];
    return {
      title,
      baseline: 'the same measures, in the same run, on a board holding a single text (the cost of the app itself).',
      rows: [
        {
          measure: 'time to first render (all items in the DOM), p50',
          ours: ms(renderOurs.p50),
          baseline: ms(renderBase.p50),
          ratio: ratio(renderOurs.p50, renderBase.p50),
          note: `${runs} page loads each; from navigation start`,
        },
        {
          measure: 'the same, until the frame after it is laid out and painted, p50',
          ours: ms(paintedOurs.p50),
          baseline: ms(paintedBase.p50),
          ratio: ratio(paintedOurs.p50, paintedBase.p50),
          note: 'figure only: includes the task that runs first after it',
        },
        {
          measure: 'frame time while panning, p50',
          ours: ms(frameOurs.p50),
          baseline: ms(frameBase.p50),
          ratio: ratio(frameOurs.p50, frameBase.p50),
          note: `${frameOurs.n} frames; a wheel pan every frame`,
        },
        {
          measure: 'frame time while panning, p99',
          ours: ms(frameOurs.p99),
          baseline: ms(frameBase.p99),
          ratio: ratio(frameOurs.p99, frameBase.p99),
        },
        {
          measure: 'frame time while dragging a selection of 50 texts, p50',
          ours: ms(dragOurs.p50),
          baseline: ms(dragBase.p50),
          ratio: ratio(dragOurs.p50, dragBase.p50),
          note: `${dragOurs.n} frames; baseline: one text dragged on the one-item board`,
        },
        {
          measure: 'frame time while dragging a selection of 50 texts, p99',
          ours: ms(dragOurs.p99),
          baseline: ms(dragBase.p99),
          ratio: ratio(dragOurs.p99, dragBase.p99),
        },
        {
          measure: 'paste of 200 items (150 texts, 50 strokes) until all are on screen, p50',
          ours: ms(pasteOurs.p50),
          baseline: ms(pasteBase.p50),
          ratio: ratio(pasteOurs.p50, pasteBase.p50),
          note: `${runs} pastes each, on an empty board; baseline: a paste of one text; target < 200 ms`,
        },
      ],
      notes: [
        'Headless Chromium renders without a GPU here (software compositing), so absolute frame times are pessimistic; the ratio is the figure to watch.',
      ],
    };
  } finally {
    server.process.kill('SIGTERM');
    await server.exited;
    await rm(dataDir, { recursive: true, force: true });
  }
}
