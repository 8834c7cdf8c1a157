/**
 * The browser app under a person's hand: real input sent through Chromium's own
 * input pipeline (CDP `Input.dispatch*`, as `page.mouse` does), so each event
 * goes through the browser's hit testing and dispatch before our handlers, and
 * the frame it causes is painted. Gestures: hover, wheel pan, Ctrl+wheel zoom
 * (a notch, then a rest long enough for the board to be drawn again at its new
 * scale), a hand-tool drag, dragging one text, dragging a selection of 50 texts
 * and of every item (Ctrl+A), and a two-finger pinch on a phone. Each is measured per input event (the time Chromium takes to accept
 * it, which waits for the page when the page is busy) and as frame times while
 * the gesture runs. Baseline: the same gestures on a board holding one text, in
 * the same run, pages of the two boards loaded in turn.
 */
import { rm } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { MAX_BATCH_OPS } from '../../schema/index.js';
import { chromiumAvailable, launchChromium } from '../../test/helpers/browser.js';
import { tempDataDir, testEnv } from '../../test/helpers/child-server.js';
import { client } from '../../test/helpers/http.js';
import { createBoard } from '../lib/clients.js';
import { spawnService } from '../lib/processes.js';
import type { Row, Section } from '../lib/report.js';
import { ms, percentile, ratio } from '../lib/stats.js';
import { fullDrawContent } from './import.js';

/** The texts the drags move: named so the page can find them, placed apart from every other item. */
const TARGET = 'Drag target';

/** tsx names the functions it compiles with a `__name` helper the page lacks: give it one that does nothing. */
const KEEP_NAMES = 'window.__name = (f) => f;';

const GESTURES = [
  'hover',
  'wheel pan',
  'ctrl+wheel zoom',
  'hand-tool drag',
  'drag one text',
  'drag 50 selected texts',
  'drag every item (Ctrl+A)',
  'pinch (phone)',
] as const;
type Gesture = (typeof GESTURES)[number];
type Samples = { events: number[]; frames: number[] };
type Measures = Record<Gesture, Samples>;

const SHAPE_KINDS = ['rectangle', 'ellipse', 'diamond'] as const;

/** The quota board with 50 of its texts turned into drag targets, apart from the rest (which lie at y >= -200). */
export function quotaBoardWithTargets() {
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
  return content;
}

/** The shapes extension's kinds at their quotas: 1,000 labelled shapes in rows, and a frame around every half row. */
function shapesAtQuota() {
  const shapes = Array.from({ length: 1000 }, (_, i) => ({
    type: 'add_shape',
    shape: SHAPE_KINDS[i % 3],
    x: (i % 40) * 180,
    y: 4200 + Math.floor(i / 40) * 120,
    width: 140,
    height: 80,
    label: `Step ${i}`,
    fill: i % 2 ? 'semi' : 'none',
  }));
  const frames = Array.from({ length: 50 }, (_, i) => ({
    type: 'add_frame',
    x: (i % 2) * 3600 - 20,
    y: 4200 + Math.floor(i / 2) * 120 - 20,
    width: 3600,
    height: 120,
    title: `Stage ${i}`,
  }));
  return [...shapes, ...frames];
}

/**
 * A board at every draw quota: the import (its cap of 2,550 items counts shapes
 * and frames too, so it holds the texts, strokes and images), then the shapes
 * and frames in batches of the most a batch takes.
 */
export async function createQuotaBoard(baseUrl: string): Promise<string> {
  const id = await createBoard(baseUrl, { content: quotaBoardWithTargets() });
  const api = client(baseUrl);
  const ops = shapesAtQuota();
  for (let at = 0; at < ops.length; at += MAX_BATCH_OPS) {
    const answer = await api.post(`/api/boards/${id}/batch`, { ops: ops.slice(at, at + MAX_BATCH_OPS) });
    if (answer.status !== 200) throw new Error(`batch: ${answer.status} ${answer.text}`);
  }
  return id;
}

/** The items of createQuotaBoard's board. */
export const QUOTA_ITEMS = 500 + 2000 + 50 + 1000 + 50;

/** Frame times from the page's own animation frames, between start() and stop(). */
const startFrames = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { benchFrames: number[]; benchRecording: boolean };
    w.benchFrames = [];
    w.benchRecording = true;
    let last = performance.now();
    const tick = (now: number) => {
      w.benchFrames.push(now - last);
      last = now;
      if (w.benchRecording) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
const stopFrames = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { benchFrames: number[]; benchRecording: boolean };
    w.benchRecording = false;
    return w.benchFrames.slice(2);
  });

/** Sends each input and times how long Chromium takes to accept it, recording frames meanwhile. */
async function timed(page: Page, inputs: (() => Promise<unknown>)[], into: Samples): Promise<void> {
  await startFrames(page);
  for (const input of inputs) {
    const started = performance.now();
    await input();
    into.events.push(performance.now() - started);
  }
  into.frames.push(...(await stopFrames(page)));
}

const mouse = (cdp: CDPSession, type: string, x: number, y: number, extra: Record<string, unknown> = {}) =>
  cdp.send('Input.dispatchMouseEvent', { type, x, y, ...extra } as never);

async function canvasRect(page: Page) {
  return page.evaluate(() => {
    const r = document.querySelector('[data-testid=canvas]')!.getBoundingClientRect();
    return { left: r.left, top: r.top, width: r.width, height: r.height };
  });
}

/** The screen box around the drag targets, and the centre of the first. */
async function targets(page: Page) {
  return page.evaluate((target) => {
    const rects = [...document.querySelectorAll<HTMLElement>('.item[data-id]')]
      .filter((el) => el.textContent?.startsWith(target))
      .map((el) => el.getBoundingClientRect());
    return {
      left: Math.min(...rects.map((r) => r.left)),
      top: Math.min(...rects.map((r) => r.top)),
      right: Math.max(...rects.map((r) => r.right)),
      bottom: Math.max(...rects.map((r) => r.bottom)),
      first: { x: rects[0].left + rects[0].width / 2, y: rects[0].top + rects[0].height / 2 },
      count: rects.length,
    };
  }, TARGET);
}

/** Opens a board and waits until it is drawn, live, and fitted to the screen. */
async function open(context: BrowserContext, url: string, boardId: string, expected: number): Promise<Page> {
  const page = await context.newPage();
  await page.addInitScript(KEEP_NAMES);
  await page.goto(`${url}/#${boardId}`);
  await page.waitForFunction(
    (count) => document.querySelectorAll('.item, .strokes .stroke').length >= count,
    expected,
    { timeout: 60_000 },
  );
  await page.waitForFunction(() => document.body.textContent?.includes('Live'), undefined, { timeout: 30_000 });
  await page.locator('[data-testid=canvas]').focus();
  await page.keyboard.press('0');
  await page.waitForTimeout(500);
  return page;
}

async function desktopGestures(page: Page, steps: number, into: Measures): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const rect = await canvasRect(page);
  const centre = { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
  // hover: the select tool's pointer crosses the board, over items and empty canvas
  await timed(
    page,
    Array.from({ length: steps }, (_, i) => () => {
      const t = i / steps;
      return mouse(
        cdp,
        'mouseMoved',
        rect.left + 40 + t * (rect.width - 80),
        rect.top + 40 + ((i * 13) % (rect.height - 80)),
      );
    }),
    into.hover,
  );
  // wheel pan: a trackpad's scroll, back and forth so the board stays in view
  await timed(
    page,
    Array.from(
      { length: steps },
      (_, i) => () =>
        mouse(cdp, 'mouseWheel', centre.x, centre.y, { deltaX: 0, deltaY: Math.floor(i / 20) % 2 ? -40 : 40 }),
    ),
    into['wheel pan'],
  );
  // Ctrl+wheel: a mouse notch in or out, then a rest past the view's redraw at the new scale (view.ts, 200 ms)
  const notches = Math.max(8, Math.round(steps / 5));
  await timed(
    page,
    Array.from({ length: notches }, (_, i) => async () => {
      await mouse(cdp, 'mouseWheel', centre.x, centre.y, { deltaX: 0, deltaY: i % 4 < 2 ? -100 : 100, modifiers: 2 });
      await page.waitForTimeout(260);
    }),
    into['ctrl+wheel zoom'],
  );
  await page.keyboard.press('0');
  await page.waitForTimeout(300);
  // hand tool: press, drag, release
  await page.keyboard.press('h');
  await mouse(cdp, 'mousePressed', centre.x, centre.y, { button: 'left', clickCount: 1 });
  await timed(
    page,
    Array.from({ length: steps }, (_, i) => () => {
      const swing = i % 40 < 20 ? i % 20 : 20 - (i % 20);
      return mouse(cdp, 'mouseMoved', centre.x + swing * 6, centre.y + swing * 3, { button: 'left', buttons: 1 });
    }),
    into['hand-tool drag'],
  );
  await mouse(cdp, 'mouseReleased', centre.x, centre.y, { button: 'left', clickCount: 1 });
  await page.keyboard.press('v');
  await page.keyboard.press('0');
  await page.waitForTimeout(300);
  await drag(page, cdp, false, steps, into['drag one text']);
  await page.keyboard.press('Escape');
  await drag(page, cdp, true, steps, into['drag 50 selected texts']);
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+a');
  await drag(page, cdp, false, steps, into['drag every item (Ctrl+A)']);
  await cdp.detach();
}

/** Drags the first drag target, alone or after a selection box drawn around all of them. */
async function drag(page: Page, cdp: CDPSession, all: boolean, steps: number, into: Samples): Promise<void> {
  const box = await targets(page);
  if (all) {
    await mouse(cdp, 'mousePressed', box.left - 12, box.top - 12, { button: 'left', clickCount: 1 });
    for (let i = 1; i <= 4; i++)
      await mouse(
        cdp,
        'mouseMoved',
        box.left - 12 + ((box.right - box.left + 24) * i) / 4,
        box.top - 12 + ((box.bottom - box.top + 24) * i) / 4,
        { button: 'left', buttons: 1 },
      );
    await mouse(cdp, 'mouseReleased', box.right + 12, box.bottom + 12, { button: 'left', clickCount: 1 });
  }
  const { x, y } = box.first;
  await mouse(cdp, 'mouseMoved', x, y);
  await mouse(cdp, 'mousePressed', x, y, { button: 'left', clickCount: 1 });
  await timed(
    page,
    Array.from({ length: steps }, (_, i) => () => {
      const swing = i % 40 < 20 ? i % 20 : 20 - (i % 20);
      return mouse(cdp, 'mouseMoved', x + swing * 4, y + swing * 2, { button: 'left', buttons: 1 });
    }),
    into,
  );
  await mouse(cdp, 'mouseReleased', x, y, { button: 'left', clickCount: 1 });
}

/** Two fingers pinch out and in about the middle of a phone's canvas. */
async function pinch(page: Page, steps: number, into: Samples): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const rect = await canvasRect(page);
  const centre = { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
  const fingers = (spread: number) => [
    { x: centre.x - spread, y: centre.y, id: 0 },
    { x: centre.x + spread, y: centre.y, id: 1 },
  ];
  const touch = (type: string, spread: number) =>
    cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : fingers(spread) } as never);
  await touch('touchStart', 40);
  await timed(
    page,
    Array.from({ length: steps }, (_, i) => () => {
      const swing = i % 40 < 20 ? i % 20 : 20 - (i % 20);
      return touch('touchMove', 40 + swing * 5);
    }),
    into,
  );
  await touch('touchEnd', 0);
  await cdp.detach();
}

const empty = (): Measures =>
  Object.fromEntries(GESTURES.map((gesture) => [gesture, { events: [], frames: [] }])) as unknown as Measures;

export async function browserInputScenario(quick: boolean): Promise<Section> {
  const title = 'Browser app under real input: hover, pan, drags and pinch on a board at its quotas';
  if (!chromiumAvailable())
    return { title, baseline: 'n/a', rows: [], notes: ['Skipped: /usr/bin/chromium is missing.'] };
  const dataDir = await tempDataDir();
  const server = await spawnService(testEnv(dataDir, { RATE_LIMITS: 'off' }));
  const browser = await launchChromium();
  try {
    const post = (body: unknown) => createBoard(server.url, body);
    const boards = {
      full: { id: await createQuotaBoard(server.url), items: QUOTA_ITEMS, measures: empty() },
      base: {
        id: await post({ content: { texts: [{ x: 0, y: 0, content: `${TARGET} 0` }] } }),
        items: 1,
        measures: empty(),
      },
    };
    const runs = quick ? 1 : 3;
    const steps = quick ? 40 : 120;
    for (let run = 0; run < runs; run++) {
      for (const board of run % 2 ? [boards.base, boards.full] : [boards.full, boards.base]) {
        const desktop = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        await desktopGestures(await open(desktop, server.url, board.id, board.items), steps, board.measures);
        await desktop.close();
        const phone = await browser.newContext({
          viewport: { width: 390, height: 844 },
          hasTouch: true,
          isMobile: true,
        });
        await pinch(await open(phone, server.url, board.id, board.items), steps, board.measures['pinch (phone)']);
        await phone.close();
      }
    }
    const rows: Row[] = [];
    for (const gesture of GESTURES) {
      const [ours, base] = [boards.full.measures[gesture], boards.base.measures[gesture]];
      const p = (samples: number[], q: number) =>
        percentile(
          [...samples].sort((a, b) => a - b),
          q,
        );
      rows.push(
        {
          measure: `${gesture}: time per input event, p50`,
          ours: ms(p(ours.events, 50)),
          baseline: ms(p(base.events, 50)),
          ratio: ratio(p(ours.events, 50), p(base.events, 50)),
          note: `${ours.events.length} events`,
        },
        {
          measure: `${gesture}: frame time, p95`,
          ours: ms(p(ours.frames, 95)),
          baseline: ms(p(base.frames, 95)),
          ratio: ratio(p(ours.frames, 95), p(base.frames, 95)),
          note: `${ours.frames.length} frames`,
        },
      );
      // A zoom's stall is one long frame per notch: the worst frame says how long the board froze.
      if (gesture === 'ctrl+wheel zoom')
        rows.push({
          measure: `${gesture}: worst frame`,
          ours: ms(Math.max(...ours.frames)),
          baseline: ms(Math.max(...base.frames)),
          ratio: ratio(Math.max(...ours.frames), Math.max(...base.frames)),
          note: 'the longest the board froze',
        });
    }
    return {
      title,
      baseline: 'the same gestures, in the same run, on a board holding a single text; both fitted to the screen.',
      rows,
      notes: [
        'Board at its quotas: 500 texts, 2,000 strokes of 50 points, 50 images, 1,000 labelled shapes and 50 frames, all on screen (fitted).',
        'Ctrl+wheel zoom: each event is a notch and the 260 ms rest after it (the board is drawn again at its new scale 200 ms after a zoom rests), so its time per event is 260 ms plus any stall; its frames include that redraw.',
        `Drag every item: Ctrl+A then a drag of one of them; the baseline board holds one item, so this is ${QUOTA_ITEMS.toLocaleString('en')} items against one.`,
        'Input goes through Chromium (CDP Input.dispatchMouseEvent / dispatchTouchEvent), not dispatched to the DOM: the browser hit-tests and paints each event. Desktop 1280×800; phone 390×844 with touch.',
        'Headless Chromium without a GPU (software compositing): absolute times are pessimistic; the ratio is the figure.',
      ],
    };
  } finally {
    await browser.close();
    server.process.kill('SIGTERM');
    await server.exited;
    await rm(dataDir, { recursive: true, force: true });
  }
}
