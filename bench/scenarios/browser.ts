/**
 * The browser app with a board filled to its quotas (500 texts, 2000 strokes of
 * 50 points, 50 images): time to first render, and the time a paste of 200
 * items takes to land on screen. Baseline: the same measures on a one-item
 * board (a one-item paste) in the same run, so the ratio is the cost of the
 * content. Chromium is Debian's, headless. Gestures under real input are
 * browser-input.ts.
 */
import { rm } from 'node:fs/promises';
import { chromiumAvailable, launchChromium } from '../../test/helpers/browser.js';
import { tempDataDir, testEnv } from '../../test/helpers/child-server.js';
import { createBoard } from '../lib/clients.js';
import { spawnService } from '../lib/processes.js';
import type { Section } from '../lib/report.js';
import { ms, ratio, summarize } from '../lib/stats.js';
import { createQuotaBoard, QUOTA_ITEMS } from './browser-input.js';

type Measure = { render: number[]; painted: number[] };

/** tsx names the functions it compiles with a `__name` helper the page lacks: give it one that does nothing. */
const KEEP_NAMES = 'window.__name = (f) => f;';

async function measure(url: string, boardId: string, expected: number, runs: number): Promise<Measure> {
  const browser = await launchChromium();
  const result: Measure = { render: [], painted: [] };
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
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return result;
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
  const title = 'Browser app: first render and pasting';
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
    const post = (body: unknown) => createBoard(server.url, body);
    const full = await createQuotaBoard(server.url);
    const empty = await post({ content: { texts: [{ x: 0, y: 0, content: 'One text' }] } });
    const runs = quick ? 2 : 5;
    const ours = await measure(server.url, full, QUOTA_ITEMS, runs);
    const base = await measure(server.url, empty, 1, runs);
    const [renderOurs, renderBase] = [summarize(ours.render), summarize(base.render)];
    const [paintedOurs, paintedBase] = [summarize(ours.painted), summarize(base.painted)];
    const pastes = { ours: [] as number[], base: [] as number[] };
    for (let run = 0; run < runs; run++) {
      pastes.ours.push(await pasteTime(server.url, await post({}), 150, 50));
      pastes.base.push(await pasteTime(server.url, await post({}), 1, 0));
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
