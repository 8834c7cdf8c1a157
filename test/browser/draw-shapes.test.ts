/**
 * Shapes, frames and connectors in the browser app (the contract's shapes extension, "Browser",
 * issue 57 point 4), with real pointer input: the tools draw what the board
 * stores (GET /json), REST-made ones appear live, labels and titles are edited
 * in place, frames carry their members, and arrows end on a shape's outline.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { boardJson, exportFile, openBoard, seriousIn, until, useChromium } from '../helpers/pages.js';
import { useServer } from '../helpers/server.js';

const t = useServer();
const chrome = useChromium();

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const SHOTS = mkdtempSync(join(tmpdir(), 'draw-shapes-'));

type At = { x: number; y: number };

async function makeBoard(content: Record<string, unknown[]> = {}): Promise<string> {
  const response = await fetch(`${t.server.url}/api/boards`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ content }),
  });
  return ((await response.json()) as { id: string }).id;
}

async function post(id: string, path: string, body: unknown): Promise<any> {
  const response = await fetch(`${t.server.url}/api/boards/${id}/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json();
}

async function open(id: string, options: { phone?: boolean; dark?: boolean; items?: number } = {}) {
  const context = await chrome.browser.newContext({
    ...(options.phone
      ? { viewport: PHONE, hasTouch: true, isMobile: true, deviceScaleFactor: 2 }
      : { viewport: DESKTOP }),
    colorScheme: options.dark ? 'dark' : 'light',
  });
  return { context, ...(await openBoard(context, t.server.url, id, options)) };
}

/** Where world point `at` is on the screen, by the world layer's transform. */
const toScreen = (page: Page, at: At): Promise<At> =>
  page.evaluate(({ x, y }) => {
    const world = document.querySelector('.world')!;
    const m = new DOMMatrix(getComputedStyle(world).transform);
    const origin = world.parentElement!.getBoundingClientRect();
    return { x: origin.left + m.e + m.a * x, y: origin.top + m.f + m.d * y };
  }, at);

async function drag(page: Page, from: At, to: At, options: { shift?: boolean } = {}): Promise<void> {
  await page.mouse.move(from.x, from.y);
  if (options.shift) await page.keyboard.down('Shift');
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps: 8 });
  await page.mouse.up();
  if (options.shift) await page.keyboard.up('Shift');
}

const centreOf = async (page: Page, selector: string): Promise<At> => {
  const box = (await page.locator(selector).boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
};

/** Drags in world coordinates. */
async function dragWorld(page: Page, from: At, to: At, options: { shift?: boolean } = {}): Promise<void> {
  await drag(page, await toScreen(page, from), await toScreen(page, to), options);
}

describe('shapes, frames and connectors in the app', () => {
  it('shapes, a frame and a labelled arrow made through REST appear live for a person watching', async () => {
    const id = await makeBoard({ texts: [{ x: 0, y: 0, content: 'here' }] });
    const { page, context, errors } = await open(id, { items: 1 });
    const frame = await post(id, 'frames', { x: 40, y: 120, width: 600, height: 300, title: 'Checkout' });
    const box = await post(id, 'shapes', { shape: 'rectangle', x: 80, y: 180, width: 160, height: 90, label: 'Cart' });
    const oval = await post(id, 'shapes', {
      shape: 'ellipse',
      x: 400,
      y: 180,
      width: 160,
      height: 90,
      label: 'Pay **now**',
      color: 'blue',
      fill: 'semi',
    });
    await post(id, 'strokes', {
      points: [
        [0, 0],
        [1, 1],
      ],
      anchors: {
        start: { kind: 'shape', id: box.id, dx: 0, dy: 0 },
        end: { kind: 'shape', id: oval.id, dx: 0, dy: 0 },
      },
      arrowhead: 'end',
      label: 'next',
    });
    await page.locator(`.item.shape[data-id="${oval.id}"][data-shape=ellipse].fill-semi`).waitFor();
    await page.locator(`.item.shape[data-id="${box.id}"][data-kind=shapes]`).waitFor();
    expect(await page.locator(`[data-id="${oval.id}"] .shape-label strong`).textContent()).toBe('now');
    expect(await page.locator(`.item.frame[data-id="${frame.id}"] .frame-title`).textContent()).toBe('Checkout');
    await until(async () => (await page.locator('.stroke-label').textContent()) === 'next');
    // The frame lies behind the strokes and shapes; the label is centred in its shape.
    const order = await page.evaluate(() => {
      const world = document.querySelector('.world')!;
      const children = [...world.children].map((child) => child.getAttribute('class') ?? '');
      return children.findIndex((c) => c.includes('frame-layer')) < children.findIndex((c) => c.includes('strokes'));
    });
    expect(order).toBe(true);
    const shape = (await page.locator(`[data-id="${box.id}"]`).boundingBox())!;
    const label = (await page.locator(`[data-id="${box.id}"] .shape-label`).boundingBox())!;
    expect(Math.abs(shape.x + shape.width / 2 - (label.x + label.width / 2))).toBeLessThan(2);
    expect(Math.abs(shape.y + shape.height / 2 - (label.y + label.height / 2))).toBeLessThan(2);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('R, O and D draw a rectangle, an ellipse and a diamond by drag, Shift keeps 1:1, a click makes the default size, F a frame', async () => {
    const id = await makeBoard({ texts: [{ x: 0, y: 0, content: 'corner' }] });
    const { page, context, errors } = await open(id, { items: 1 });
    await page.locator('[data-testid=canvas]').focus();
    const drawn: { key: string; shape: string; from: At; to: At; shift?: boolean }[] = [
      { key: 'r', shape: 'rectangle', from: { x: 100, y: 100 }, to: { x: 300, y: 180 } },
      { key: 'o', shape: 'ellipse', from: { x: 400, y: 100 }, to: { x: 520, y: 260 } },
      { key: 'd', shape: 'diamond', from: { x: 600, y: 100 }, to: { x: 760, y: 160 }, shift: true },
    ];
    for (const { key, from, to, shift } of drawn) {
      await page.keyboard.press(key);
      await dragWorld(page, from, to, { shift });
    }
    const shapes = await until(async () => {
      const board = await boardJson(t.server.url, id);
      return board.shapes.length === 3 && board.shapes;
    });
    const byKind = (shape: string) => shapes.find((s: any) => s.shape === shape);
    expect(byKind('rectangle')).toMatchObject({ x: 100, y: 100, width: 200, height: 80, fill: 'none' });
    expect(byKind('ellipse')).toMatchObject({ x: 400, y: 100, width: 120, height: 160 });
    expect(byKind('diamond')).toMatchObject({ x: 600, y: 100, width: 160, height: 160 }); // Shift: 1:1
    // After drawing, the Select tool is back and the new shape is selected (tldraw).
    expect(await page.locator('[data-testid=canvas]').getAttribute('data-tool')).toBe('select');
    expect(await page.locator(`.item.shape[data-id="${byKind('diamond').id}"]`).getAttribute('class')).toContain(
      'selected',
    );
    await page.keyboard.press('r');
    const click = await toScreen(page, { x: 200, y: 400 });
    await page.mouse.click(click.x, click.y);
    await page.keyboard.press('f');
    await dragWorld(page, { x: 80, y: 600 }, { x: 480, y: 800 });
    const board = await until(async () => {
      const b = await boardJson(t.server.url, id);
      return b.shapes.length === 4 && b.frames.length === 1 && b;
    });
    expect(board.shapes.find((s: any) => s.x === 120)).toMatchObject({
      shape: 'rectangle',
      y: 350,
      width: 160,
      height: 100,
    });
    expect(board.frames[0]).toMatchObject({ x: 80, y: 600, width: 400, height: 200 });
    // The framed text kept its tool, on B.
    expect(await page.locator('[data-tool=diagram]').getAttribute('title')).toBe('Framed text (B)');
    expect(await page.locator('[data-tool=frame]').getAttribute('title')).toBe('Frame (F)');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a double-click edits a shape label, a frame title and an arrow label, stored; Enter edits the selected shape', async () => {
    const id = await makeBoard({
      shapes: [
        { shape: 'rectangle', x: 100, y: 100, width: 200, height: 100 },
        { shape: 'diamond', x: 500, y: 100, width: 200, height: 100, label: 'old' },
      ],
      frames: [{ x: 60, y: 300, width: 400, height: 200, title: 'Draft' }],
      lines: [
        {
          points: [
            [100, 600],
            [500, 600],
          ],
          arrowhead: 'end',
        },
      ],
    });
    const { page, context, errors } = await open(id, { items: 4 });
    const board = await boardJson(t.server.url, id);
    const [rect, diamond] = [...board.shapes].sort((a: any, b: any) => a.x - b.x);
    await page.dblclick(`.item.shape[data-id="${rect.id}"]`);
    await page.locator('textarea.editor.label').fill('Start here');
    await page.keyboard.press('Escape');
    await until(
      async () => (await boardJson(t.server.url, id)).shapes.find((s: any) => s.id === rect.id).label === 'Start here',
    );
    await page.locator(`[data-id="${rect.id}"] .shape-label`).filter({ hasText: 'Start here' }).waitFor();

    await page.dblclick(`.item.frame[data-id="${board.frames[0].id}"] .frame-title`);
    await page.locator('textarea.editor.label').fill('Release plan');
    await page.keyboard.press('Enter'); // a title is one line: Enter ends it
    await until(async () => (await boardJson(t.server.url, id)).frames[0].title === 'Release plan');

    const middle = await toScreen(page, { x: 300, y: 600 });
    await page.mouse.dblclick(middle.x, middle.y);
    await page.locator('textarea.editor.label').fill('yes');
    await page.keyboard.press('Enter');
    await until(async () => (await boardJson(t.server.url, id)).lines[0].label === 'yes');
    await until(async () => (await page.locator('.stroke-label').textContent()) === 'yes');

    await page.click(`.item.shape[data-id="${diamond.id}"]`);
    await page.keyboard.press('Enter');
    const area = page.locator('textarea.editor.label');
    expect(await area.inputValue()).toBe('old');
    await area.fill('new');
    await page.keyboard.press('Escape');
    await until(
      async () => (await boardJson(t.server.url, id)).shapes.find((s: any) => s.id === diamond.id).label === 'new',
    );
    // One undo takes back the whole edit of the label.
    await page.keyboard.press('Control+z');
    await until(
      async () => (await boardJson(t.server.url, id)).shapes.find((s: any) => s.id === diamond.id).label === 'old',
    );
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the handle resizes a shape (Shift keeps its ratio) and a frame; the palette colours and the fill bar fills the selected shape', async () => {
    const id = await makeBoard({
      shapes: [{ shape: 'rectangle', x: 100, y: 100, width: 200, height: 100 }],
      frames: [{ x: 500, y: 100, width: 300, height: 200, title: 'Area' }],
    });
    const { page, context, errors } = await open(id, { items: 2 });
    const { shapes, frames } = await boardJson(t.server.url, id);
    const [shape, frame] = [shapes[0], frames[0]];
    const scale = await page.evaluate(
      () => new DOMMatrix(getComputedStyle(document.querySelector('.world')!).transform).a,
    );
    await page.click(`.item.shape[data-id="${shape.id}"]`);
    const handle = page.locator('.handle[data-kind=shapes]');
    await handle.waitFor();
    const at = await centreOf(page, '.handle');
    await drag(page, at, { x: at.x + 100 * scale, y: at.y + 20 * scale });
    const stored = async () => (await boardJson(t.server.url, id)).shapes[0];
    await until(async () => Math.abs((await stored()).width - 300) < 2 && Math.abs((await stored()).height - 120) < 2);
    const now = await centreOf(page, '.handle');
    await drag(page, now, { x: now.x + 150 * scale, y: now.y }, { shift: true }); // 300×120 → 450×180
    await until(async () => Math.abs((await stored()).width - 450) < 2 && Math.abs((await stored()).height - 180) < 2);
    expect(await stored()).toMatchObject({ x: 100, y: 100 });

    await page.getByRole('button', { name: 'Colour: auto' }).click();
    await page.locator('.ink-palette [data-color=red]').click();
    await until(async () => (await stored()).color === 'red');
    const fillBar = page.locator('[data-testid=fill-bar]');
    await fillBar.waitFor();
    expect(await fillBar.locator('[data-fill=none]').getAttribute('aria-pressed')).toBe('true');
    await fillBar.locator('[data-fill=solid]').click();
    await until(async () => (await stored()).fill === 'solid');
    await page.locator(`.item.shape.fill-solid[data-id="${shape.id}"]`).waitFor();
    expect(await fillBar.locator('[data-fill=solid]').getAttribute('aria-pressed')).toBe('true');

    await page.click(`.item.frame[data-id="${frame.id}"] .frame-title`);
    await page.locator('.handle[data-kind=frames]').waitFor();
    expect(await fillBar.isVisible()).toBe(false); // a frame has no fill
    const corner = await centreOf(page, '.handle');
    await drag(page, corner, { x: corner.x + 50 * scale, y: corner.y + 100 * scale });
    await until(async () => {
      const f = (await boardJson(t.server.url, id)).frames[0];
      return Math.abs(f.width - 350) < 2 && Math.abs(f.height - 300) < 2 && f.x === 500;
    });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('dragging a frame carries its members, live and stored; each item moves once; a member dragged out stays behind; undo', async () => {
    const id = await makeBoard({
      frames: [{ x: 100, y: 100, width: 500, height: 300, title: 'Group' }],
      shapes: [
        { shape: 'rectangle', x: 150, y: 150, width: 100, height: 80, label: 'in' },
        { shape: 'ellipse', x: 400, y: 250, width: 100, height: 80, label: 'also in' },
        { shape: 'diamond', x: 700, y: 150, width: 100, height: 80, label: 'out' },
      ],
      texts: [{ x: 300, y: 300, content: 'a member' }],
    });
    const { page, context, errors } = await open(id, { items: 5 });
    const board = await boardJson(t.server.url, id);
    const shape = (label: string) => board.shapes.find((s: any) => s.label === label);
    const [frame, inside, also, outside, text] = [
      board.frames[0],
      shape('in'),
      shape('also in'),
      shape('out'),
      board.texts[0],
    ];
    const where = async () => {
      const b = await boardJson(t.server.url, id);
      const at = (item: any) => item && [item.x, item.y];
      return {
        frame: at(b.frames[0]),
        inside: at(b.shapes.find((s: any) => s.id === inside.id)),
        also: at(b.shapes.find((s: any) => s.id === also.id)),
        outside: at(b.shapes.find((s: any) => s.id === outside.id)),
        text: at(b.texts[0]),
      };
    };
    const scale = await page.evaluate(
      () => new DOMMatrix(getComputedStyle(document.querySelector('.world')!).transform).a,
    );
    const title = await centreOf(page, `.item.frame[data-id="${frame.id}"] .frame-title`);
    const before = (await page.locator(`[data-id="${inside.id}"]`).boundingBox())!;
    await page.mouse.move(title.x, title.y);
    await page.mouse.down();
    await page.mouse.move(title.x + 200 * scale, title.y + 100 * scale, { steps: 8 });
    // The dragger sees the members travel with the frame before the drop.
    const during = (await page.locator(`[data-id="${inside.id}"]`).boundingBox())!;
    expect(during.x - before.x).toBeCloseTo(200 * scale, 0);
    await page.mouse.up();
    await until(async () => (await where()).frame[0] === 300);
    expect(await where()).toEqual({
      frame: [300, 200],
      inside: [350, 250],
      also: [600, 350],
      outside: [700, 150],
      text: [500, 400],
    });
    expect(text.id).toBeDefined();
    // The frame and one of its members selected: each moves once, not twice.
    await page.click(`.item.frame[data-id="${frame.id}"] .frame-title`);
    await page.click(`.item.shape[data-id="${inside.id}"]`, { modifiers: ['Shift'] }); // not two presses on the title: a double-click edits it
    const title2 = await centreOf(page, `.item.frame[data-id="${frame.id}"] .frame-title`);
    await drag(page, title2, { x: title2.x + 100 * scale, y: title2.y });
    await until(async () => (await where()).frame[0] === 400);
    expect(await where()).toMatchObject({ frame: [400, 200], inside: [450, 250], also: [700, 350] });
    // A member dragged out leaves the frame: the next drag of the frame leaves it where it is.
    await page.keyboard.press('Escape');
    await drag(page, await centreOf(page, `[data-id="${also.id}"]`), await toScreen(page, { x: 1000, y: 700 }));
    await until(async () => (await where()).also[0] > 900);
    const left = (await where()).also;
    await page.keyboard.press('Escape');
    const title3 = await centreOf(page, `.item.frame[data-id="${frame.id}"] .frame-title`);
    await drag(page, title3, { x: title3.x, y: title3.y + 50 * scale });
    await until(async () => (await where()).frame[1] === 250);
    expect(await where()).toMatchObject({ inside: [450, 300], also: left });
    // One undo takes the last frame drag back, its members with it.
    await page.keyboard.press('Control+z');
    await until(async () => (await where()).frame[1] === 200);
    expect(await where()).toMatchObject({ inside: [450, 250], also: left });
    // Dropped wholly inside the frame, an item is a member: geometry decides, nothing is stored for it.
    await page.keyboard.press('Escape');
    const out = await centreOf(page, `[data-id="${outside.id}"]`);
    await drag(page, out, { x: out.x, y: out.y + 150 * scale });
    await until(async () => (await where()).outside[1] === 300);
    const dropped = (await where()).outside; // snapping may have nudged its x
    await page.keyboard.press('Escape');
    const title4 = await centreOf(page, `.item.frame[data-id="${frame.id}"] .frame-title`);
    await drag(page, title4, { x: title4.x - 100 * scale, y: title4.y });
    await until(async () => (await where()).frame[0] === 300);
    expect(await where()).toMatchObject({ outside: [dropped[0] - 100, 300], inside: [350, 250] });
    // Aligned with another item (Alt+S, bottom edges), the frame takes what it holds along, as a drag does.
    const down = left[1] + 80 - 500; // the shape dragged out ends lower than the frame
    expect(down).toBeGreaterThan(0);
    await page.click(`.item.frame[data-id="${frame.id}"] .frame-title`);
    await page.click(`.item.shape[data-id="${also.id}"]`, { modifiers: ['Shift'] });
    await page.keyboard.press('Alt+s');
    await until(async () => (await where()).frame[1] === 200 + down);
    expect(await where()).toMatchObject({
      inside: [350, 250 + down],
      outside: [dropped[0] - 100, 300 + down],
      also: left,
    });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the arrow tool binds to shapes: anchored with kind shape, ending on the ellipse and diamond outlines, rerouted when one moves', async () => {
    const id = await makeBoard({
      shapes: [
        { shape: 'diamond', x: 100, y: 100, width: 200, height: 100 },
        { shape: 'ellipse', x: 500, y: 300, width: 200, height: 120 },
      ],
    });
    const { page, context, errors } = await open(id, { items: 2 });
    const [diamond, ellipse] = [...(await boardJson(t.server.url, id)).shapes].sort((a: any, b: any) => a.x - b.x);
    await page.locator('[data-testid=canvas]').focus();
    await page.keyboard.press('a');
    await dragWorld(page, { x: 200, y: 150 }, { x: 600, y: 360 });
    const line = await until(async () => (await boardJson(t.server.url, id)).lines[0]);
    expect(line.anchors).toMatchObject({
      start: { kind: 'shape', id: diamond.id },
      end: { kind: 'shape', id: ellipse.id },
    });
    /** 1 on the outline: |dx|/a + |dy|/b for a diamond, (dx/a)² + (dy/b)² for an ellipse. */
    const onDiamond = ([x, y]: number[], s: any) =>
      Math.abs(x - (s.x + s.width / 2)) / (s.width / 2) + Math.abs(y - (s.y + s.height / 2)) / (s.height / 2);
    const onEllipse = ([x, y]: number[], s: any) =>
      ((x - (s.x + s.width / 2)) / (s.width / 2)) ** 2 + ((y - (s.y + s.height / 2)) / (s.height / 2)) ** 2;
    expect(onDiamond(line.points[0], diamond)).toBeCloseTo(1, 1);
    expect(onEllipse(line.points[1], ellipse)).toBeCloseTo(1, 1);
    // Moved by someone else, the ellipse takes the arrow's end along, still on its outline.
    await post(id, `shapes/${ellipse.id}/move`, { x: 500, y: 500 });
    const moved = { ...ellipse, y: 500 };
    const rerouted = await until(async () => {
      const l = (await boardJson(t.server.url, id)).lines[0];
      return l.points[1][1] > 450 && l;
    });
    expect(onEllipse(rerouted.points[1], moved)).toBeCloseTo(1, 1);
    await until(async () => {
      const points = await page.locator(`.stroke[data-id="${line.id}"]`).getAttribute('points');
      return points === rerouted.points.map((p: number[]) => p.join(',')).join(' ');
    });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('exports a frame alone (PNG, SVG) from the Export menu and the context menu; copy and paste carry a frame with its members', async () => {
    const id = await makeBoard({
      frames: [{ x: 100, y: 100, width: 400, height: 250, title: 'Inside' }],
      shapes: [
        { shape: 'rectangle', x: 150, y: 150, width: 120, height: 80, label: 'member' },
        { shape: 'ellipse', x: 700, y: 100, width: 120, height: 80, label: 'outside' },
      ],
    });
    const { page, context, errors } = await open(id, { items: 3 });
    const exported = (label: string) => exportFile(page, label);
    const textOf = (svg: string) =>
      page.evaluate((text) => new DOMParser().parseFromString(text, 'image/svg+xml').documentElement.textContent, svg);
    const board = await exported('SVG of the board');
    expect(await textOf(board.bytes.toString('utf8'))).toMatch(/Inside[\s\S]*member|member[\s\S]*Inside/);
    expect(await textOf(board.bytes.toString('utf8'))).toContain('outside');

    const frame = (await boardJson(t.server.url, id)).frames[0];
    await page.click(`.item.frame[data-id="${frame.id}"] .frame-title`);
    const svg = await exported('SVG of the frame');
    expect(svg.name).toBe(`board-${id.slice(0, 8)}-frame.svg`);
    const words = await textOf(svg.bytes.toString('utf8'));
    expect(words).toContain('member');
    expect(words).toContain('Inside');
    expect(words).not.toContain('outside');
    const png = await exported('PNG of the frame');
    expect(png.name).toBe(`board-${id.slice(0, 8)}-frame.png`);
    // The frame's box and the export's 24 px margin, at this screen's pixel ratio of 1.
    expect([png.bytes.readUInt32BE(16), png.bytes.readUInt32BE(20)]).toEqual([448, 298]);
    // The context menu offers the frame's export only while one frame is selected.
    await page.click(`.item.frame[data-id="${frame.id}"] .frame-title`, { button: 'right' });
    await page.getByRole('menuitem', { name: 'SVG of the frame' }).waitFor();
    await page.keyboard.press('Escape');
    await page.click('.item.shape[data-shape=ellipse]', { button: 'right' });
    await page.getByRole('menuitem', { name: 'SVG of the selection' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'SVG of the frame' }).count()).toBe(0);
    await page.keyboard.press('Escape');

    await page.click(`.item.frame[data-id="${frame.id}"] .frame-title`);
    await page.keyboard.press('Control+c');
    const at = await toScreen(page, { x: 100, y: 500 });
    await page.mouse.move(at.x, at.y);
    await page.keyboard.press('Control+v');
    const pasted = await until(async () => {
      const b = await boardJson(t.server.url, id);
      return b.frames.length === 2 && b.shapes.length === 3 && b;
    });
    const copy = pasted.frames.find((f: any) => f.id !== frame.id);
    expect(copy).toMatchObject({ title: 'Inside', width: 400, height: 250 });
    const member = pasted.shapes.find((s: any) => s.label === 'member' && s.y > 400);
    expect([member.x - copy.x, member.y - copy.y]).toEqual([50, 50]);
    // One undo takes the whole paste back.
    await page.keyboard.press('Control+z');
    await until(async () => (await boardJson(t.server.url, id)).frames.length === 1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the eraser erases a shape on its outline (a filled one inside too), a text anywhere, a frame on its edge only and never its members; undo brings them back', async () => {
    const id = await makeBoard({
      shapes: [
        { shape: 'rectangle', x: 0, y: 0, width: 200, height: 120, label: 'Hollow' },
        { shape: 'ellipse', x: 300, y: 0, width: 200, height: 120, fill: 'solid', label: 'Filled' },
      ],
      texts: [
        { x: 600, y: 40, content: 'Erase me' },
        { x: 300, y: 430, content: 'Held' },
      ],
      frames: [{ x: 0, y: 300, width: 500, height: 200, title: 'Area' }],
      lines: [
        {
          points: [
            [100, 400],
            [400, 400],
          ],
        },
      ],
    });
    const { page, context } = await open(id, { items: 6 });
    await page.keyboard.press('e');
    const swipe = async (from: At, to: At) => drag(page, await toScreen(page, from), await toScreen(page, to));
    const board = () => boardJson(t.server.url, id);
    await swipe({ x: 40, y: 60 }, { x: 160, y: 60 }); // inside the hollow rectangle, clear of its outline
    await swipe({ x: 360, y: 60 }, { x: 440, y: 60 }); // inside the filled ellipse
    await swipe({ x: 590, y: 50 }, { x: 700, y: 50 }); // across the text
    await swipe({ x: 250, y: 350 }, { x: 250, y: 450 }); // inside the frame, across the stroke it holds
    const erased = await until(async () => {
      const now = await board();
      return now.shapes.length === 1 && now.texts.length === 1 && now.lines.length === 0 && now;
    });
    expect(erased.shapes[0].label).toBe('Hollow');
    expect(erased.frames).toHaveLength(1);
    expect(erased.texts[0].content).toBe('Held');
    await swipe({ x: -20, y: 60 }, { x: 20, y: 60 }); // across the rectangle's left side
    await swipe({ x: 100, y: 480 }, { x: 100, y: 520 }); // across the frame's bottom edge
    await until(async () => {
      const now = await board();
      return now.shapes.length === 0 && now.frames.length === 0;
    });
    expect((await board()).texts.map((text: { content: string }) => text.content)).toEqual(['Held']); // what it held stays
    await page.keyboard.press('Control+z');
    await until(async () => (await board()).frames.length === 1);
    await context.close();
  });

  it('offline, a frame and a shape drawn wait with the other edits, reach the server on reconnect, and undo takes one back', async () => {
    const id = await makeBoard({ texts: [{ x: 0, y: 0, content: 'start' }] });
    const { page, context, errors } = await open(id, { items: 1 });
    await context.setOffline(true);
    await until(async () => (await page.textContent('[data-testid=status]'))?.startsWith('Offline'));
    await page.locator('[data-testid=canvas]').focus();
    await page.keyboard.press('f');
    await dragWorld(page, { x: 100, y: 100 }, { x: 500, y: 400 });
    await page.keyboard.press('o');
    await dragWorld(page, { x: 150, y: 150 }, { x: 300, y: 250 });
    await page.locator('.item.shape[data-shape=ellipse]').waitFor();
    await until(async () => (await page.textContent('[data-testid=status]'))?.includes('2 edit(s) waiting'));
    expect((await boardJson(t.server.url, id)).shapes).toEqual([]);
    await context.setOffline(false);
    const board = await until(async () => {
      const b = await boardJson(t.server.url, id);
      return b.shapes.length === 1 && b.frames.length === 1 && b;
    }, 15_000);
    expect(board.shapes[0]).toMatchObject({ shape: 'ellipse', x: 150, y: 150, width: 150, height: 100 });
    await page.keyboard.press('Control+z');
    await until(async () => (await boardJson(t.server.url, id)).shapes.length === 0);
    expect((await boardJson(t.server.url, id)).frames).toHaveLength(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('screenshots of a small diagram, desktop and phone, light and dark', async () => {
    const id = await makeBoard({
      frames: [{ x: 40, y: 60, width: 760, height: 330, title: 'Sign-up flow' }],
      shapes: [
        { sourceId: 's', shape: 'ellipse', x: 80, y: 160, width: 150, height: 90, label: 'Start' },
        {
          sourceId: 'f',
          shape: 'rectangle',
          x: 320,
          y: 150,
          width: 180,
          height: 110,
          label: 'Fill in the **form**',
          color: 'blue',
          fill: 'semi',
        },
        {
          sourceId: 'ok',
          shape: 'diamond',
          x: 590,
          y: 140,
          width: 170,
          height: 130,
          label: 'Valid?',
          color: 'orange',
          fill: 'solid',
        },
        {
          sourceId: 'e',
          shape: 'rectangle',
          x: 590,
          y: 460,
          width: 170,
          height: 80,
          label: 'Show errors',
          color: 'red',
        },
      ],
      lines: [
        {
          points: [
            [0, 0],
            [1, 1],
          ],
          arrowhead: 'end',
          anchors: { start: { kind: 'shape', id: 's', dx: 0, dy: 0 }, end: { kind: 'shape', id: 'f', dx: 0, dy: 0 } },
        },
        {
          points: [
            [0, 0],
            [1, 1],
          ],
          arrowhead: 'end',
          label: 'submit',
          anchors: { start: { kind: 'shape', id: 'f', dx: 0, dy: 0 }, end: { kind: 'shape', id: 'ok', dx: 0, dy: 0 } },
        },
        {
          points: [
            [0, 0],
            [1, 1],
          ],
          arrowhead: 'end',
          label: 'no',
          color: 'red',
          anchors: { start: { kind: 'shape', id: 'ok', dx: 0, dy: 0 }, end: { kind: 'shape', id: 'e', dx: 0, dy: 0 } },
        },
      ],
    });
    for (const phone of [false, true])
      for (const dark of [false, true]) {
        const { page, context, errors } = await open(id, { phone, dark, items: 8 });
        await page.keyboard.press('0');
        await page.waitForFunction(() => document.querySelectorAll('.stroke-label').length === 2);
        const name = `draw-diagram-${phone ? 'phone' : 'desktop'}-${dark ? 'dark' : 'light'}.png`;
        await page.screenshot({ path: join(SHOTS, name) });
        expect(await seriousIn(page, '.viewport'), name).toEqual([]); // labels, titles and the frame readable
        if (!dark) {
          // The shape tools' menu (More on a phone), and a label being typed.
          await page.locator(phone ? '[data-testid=toolbar-more]' : '[data-testid=shape-button]').click();
          await page.locator('button[data-tool=ellipse]').waitFor();
          await page.screenshot({ path: join(SHOTS, `draw-shape-tools-${phone ? 'phone' : 'desktop'}.png`) });
          expect(await seriousIn(page, '.toolbar')).toEqual([]);
          await page.keyboard.press('Escape');
          await page.locator('button[data-tool=ellipse]').waitFor({ state: 'hidden' });
          if (!phone) {
            await page.dblclick('.item.shape[data-shape=diamond]');
            await page.locator('textarea.editor.label').waitFor();
            await page.screenshot({ path: join(SHOTS, 'draw-shape-editing.png') });
            expect(await seriousIn(page, '[data-testid=fill-bar]')).toEqual([]);
            await page.keyboard.press('Escape');
          }
        }
        expect(errors).toEqual([]);
        await context.close();
      }
    console.log(`diagram screenshots in ${SHOTS}`);
  });
});
