/**
 * The browser app with a board filled to its quotas (500 texts, 2000 strokes of
 * 50 points, 50 images): time to first render, and frame time while panning.
 * Baseline: the same measures on an empty board in the same run, so the ratio
 * is the cost of the content. Chromium is Debian's, headless.
 */
import { rm } from 'node:fs/promises';
import { chromiumAvailable, launchChromium } from '../../test/helpers/browser.js';
import { startChildServer, tempDataDir } from '../../test/helpers/child-server.js';
import type { Section } from '../lib/report.js';
import { ms, ratio, summarize } from '../lib/stats.js';
import { fullDrawContent } from './import.js';

type Measure = { render: number[]; frames: number[] };

async function measure(url: string, boardId: string, expected: number, runs: number, panFrames: number): Promise<Measure> {
  const browser = await launchChromium();
  const result: Measure = { render: [], frames: [] };
  try {
    for (let run = 0; run < runs; run++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
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
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return result;
}

export async function browserScenario(quick: boolean): Promise<Section> {
  const title = 'Browser app: first render and panning';
  if (!chromiumAvailable()) {
    return { title, baseline: 'n/a', rows: [], notes: ['Skipped: /usr/bin/chromium is missing (scripts/install-chromium.sh installs it).'] };
  }
  const dataDir = await tempDataDir();
  const server = await startChildServer(dataDir, { RATE_LIMITS: 'off' });
  try {
    const post = async (body: unknown) => (await (await fetch(`${server.url}/api/boards`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json()) as { id: string };
    const full = await post({ content: fullDrawContent() });
    const empty = await post({ content: { texts: [{ x: 0, y: 0, content: 'one note' }] } });
    const runs = quick ? 2 : 5;
    const frames = quick ? 60 : 240;
    const ours = await measure(server.url, full.id, 2550, runs, frames);
    const base = await measure(server.url, empty.id, 1, runs, frames);
    const [renderOurs, renderBase, frameOurs, frameBase] = [summarize(ours.render), summarize(base.render), summarize(ours.frames), summarize(base.frames)];
    return {
      title,
      baseline: 'the same measures, in the same run, on a board holding a single text (the cost of the app itself).',
      rows: [
        { measure: 'time to first render (all items in the DOM), p50', ours: ms(renderOurs.p50), baseline: ms(renderBase.p50), ratio: ratio(renderOurs.p50, renderBase.p50), note: `${runs} page loads each; from navigation start` },
        { measure: 'frame time while panning, p50', ours: ms(frameOurs.p50), baseline: ms(frameBase.p50), ratio: ratio(frameOurs.p50, frameBase.p50), note: `${frameOurs.n} frames; a wheel pan every frame` },
        { measure: 'frame time while panning, p99', ours: ms(frameOurs.p99), baseline: ms(frameBase.p99), ratio: ratio(frameOurs.p99, frameBase.p99) },
      ],
      notes: ['Headless Chromium renders without a GPU here (software compositing), so absolute frame times are pessimistic; the ratio is the figure to watch.'],
    };
  } finally {
    server.process.kill('SIGTERM');
    await server.exited;
    await rm(dataDir, { recursive: true, force: true });
  }
}
