/**
 * Issue 20, the kanban's Trello habits in Chromium: colour swatches, quick
 * entry, the filter bar (the server's own query_tasks), Alt+arrow moves, the
 * description's checklist, and a layout whose "+ Column" is always on screen.
 * Every gesture is checked on the stored board (GET /json).
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, type McpClient } from '../helpers/mcp.js';
import { ARTIFACTS, boardJson, injectAxe, person, until, useChromium } from '../helpers/pages.js';
import { useServer } from '../helpers/server.js';

const t = useServer();
const chrome = useChromium();
let mcp: McpClient;
beforeAll(async () => {
  mcp = await connectMcp(t.server.url);
});
afterAll(() => mcp?.close());

type Task = { id: string; name: string; column_id: string; sort: number; color?: string; description?: string };
type Content = { columns: { title: string }[]; tasks: Record<string, unknown>[] };

async function todoBoard(content: Content): Promise<{ id: string; columns: string[]; tasks: string[] }> {
  const response = await fetch(`${t.server.url}/api/boards`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ mode: 'todo', content }),
  });
  const created = await response.json();
  return { id: created.id, columns: created.ids.columns, tasks: created.ids.tasks };
}

async function openBoard(
  id: string,
  viewport?: { width: number; height: number },
  colorScheme: 'light' | 'dark' = 'light',
) {
  const who = await person(chrome.browser, viewport);
  await who.page.emulateMedia({ colorScheme });
  who.page.setDefaultTimeout(8_000);
  await who.page.goto(`${t.server.url}/#${id}`);
  await who.page.waitForSelector('[data-testid=kanban] .column', { timeout: 20_000 }); // the first page of a file loads the app cold
  await who.page.waitForSelector('[data-testid=status]:text-is("Live")');
  return who;
}

const tasksOf = async (id: string) => (await boardJson(t.server.url, id)).tasks as Task[];
const shownIds = (page: Page) =>
  page.$$eval('.task', (cards) => cards.map((card) => (card as HTMLElement).dataset.id!).sort());

const past = '2020-01-15';
const future = '2099-01-15';

describe('kanban, Trello habits', () => {
  it('a label swatch in the card editor sets the stored colour; a column swatch the column colour', async () => {
    const board = await todoBoard({ columns: [{ title: 'To do' }], tasks: [{ columnIndex: 0, name: 'Paint me' }] });
    const { page, context, errors } = await openBoard(board.id);
    await page.click(`.task[data-id="${board.tasks[0]}"]`);
    await page.click('dialog [role=group][aria-label=Label] button[data-color=red]');
    await page.click('dialog button[value=save]');
    await until(async () => (await tasksOf(board.id))[0].color === 'red');
    await page.waitForSelector(`.task.c-red[data-id="${board.tasks[0]}"]`);

    await page.click(`.column[data-id="${board.columns[0]}"] button.swatch[data-color=blue]`);
    await until(async () => (await boardJson(t.server.url, board.id)).columns[0].color === 'blue');
    await page.click(`.column[data-id="${board.columns[0]}"] button.swatch[data-color=none]`);
    await until(async () => !(await boardJson(t.server.url, board.id)).columns[0].color);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('quick entry adds three cards in a row by typing and Enter, the field keeping focus', async () => {
    const board = await todoBoard({ columns: [{ title: 'To do' }], tasks: [] });
    const { page, context } = await openBoard(board.id);
    const field = page.locator('.quick-add').first();
    await field.click();
    for (const name of ['First', 'Second', 'Third']) {
      await page.keyboard.type(name);
      await page.keyboard.press('Enter');
      await page.waitForSelector(`.task:has-text("${name}")`);
      expect(await field.inputValue()).toBe('');
      // Once, on a loaded CI machine, this ran before the field was back (not reproduced since): polled briefly.
      await until(() => field.evaluate((element) => element === document.activeElement), 2_000);
    }
    const stored = await until(async () => {
      const tasks = await tasksOf(board.id);
      return tasks.length === 3 && tasks;
    });
    expect(stored.map((task) => task.name)).toEqual(['First', 'Second', 'Third']);
    expect(stored.every((task) => task.column_id === board.columns[0])).toBe(true);
    await context.close();
  });

  it('the filter bar shows the cards query_tasks answers for the same filter (assignee, priority, overdue)', async () => {
    const board = await todoBoard({
      columns: [{ title: 'To do' }, { title: 'Doing' }],
      tasks: [
        { columnIndex: 0, name: 'Alice late high', assignee: 'Alice', priority: 'H', due_date: past },
        { columnIndex: 0, name: 'Alice later', assignee: 'alice', priority: 'L', due_date: future },
        { columnIndex: 1, name: 'Bob late', assignee: 'Bob', priority: 'H', due_date: past },
        { columnIndex: 1, name: 'Bob late but done', assignee: 'Bob', due_date: past, done: true },
        { columnIndex: 1, name: 'Nobody', description: 'needle in here' },
      ],
    });
    const { page, context } = await openBoard(board.id);
    expect((await shownIds(page)).length).toBe(5);
    const server = async (query: object) =>
      ((await mcp.call('query_tasks', { board_id: board.id, ...query })).tasks as Task[]).map((task) => task.id).sort();

    await page.selectOption('select[aria-label="Filter by assignee"]', 'Alice');
    await until(async () => (await shownIds(page)).length === 2);
    expect(await shownIds(page)).toEqual(await server({ assignee: 'Alice' }));

    await page.selectOption('select[aria-label="Filter by priority"]', 'H');
    await until(async () => (await shownIds(page)).length === 1);
    expect(await shownIds(page)).toEqual(await server({ assignee: 'Alice', priority: 'H' }));

    await page.selectOption('select[aria-label="Filter by assignee"]', '');
    await page.check('input[aria-label="Only overdue"]');
    await until(async () => (await shownIds(page)).length === 2);
    expect(await shownIds(page)).toEqual(await server({ priority: 'H', overdue: true }));
    expect(await page.locator('.task.overdue .badge.overdue').count()).toBe(2);
    expect(await page.locator('.column .count').allTextContents()).toEqual(['1/2', '1/3']);
    await page.screenshot({ path: join(ARTIFACTS, 'kanban-filter-1280.png') });

    await page.selectOption('select[aria-label="Filter by priority"]', '');
    await until(async () => (await shownIds(page)).length === 2);
    expect(await shownIds(page)).toEqual(await server({ overdue: true }));

    await page.click('button.filter-clear');
    await page.fill('input[aria-label="Filter by text"]', 'needle');
    await until(async () => (await shownIds(page)).length === 1);
    expect(await page.locator('.task .name').allTextContents()).toEqual(['Nobody']);
    await context.close();
  });

  it('Alt+arrows move the focused card between and within columns, by keyboard alone', async () => {
    const board = await todoBoard({
      columns: [{ title: 'To do' }, { title: 'Doing' }],
      tasks: [
        { columnIndex: 0, name: 'Mover' },
        { columnIndex: 0, name: 'Stayer' },
        { columnIndex: 1, name: 'Already there' },
      ],
    });
    const { page, context } = await openBoard(board.id);
    const mover = board.tasks[0];
    await page.focus(`.task[data-id="${mover}"]`);
    expect(await page.getAttribute(`.task[data-id="${mover}"]`, 'aria-label')).toContain('Mover');
    await page.keyboard.press('Alt+ArrowRight');
    await until(
      async () => (await tasksOf(board.id)).find((task) => task.id === mover)!.column_id === board.columns[1],
    );
    await page.waitForSelector(`.tasks[data-column-id="${board.columns[1]}"] .task[data-id="${mover}"]:focus`);
    const order = async () =>
      (await tasksOf(board.id))
        .filter((task) => task.column_id === board.columns[1])
        .sort((a, b) => a.sort - b.sort)
        .map((task) => task.name);
    expect(await order()).toEqual(['Mover', 'Already there']);

    await page.keyboard.press('Alt+ArrowDown'); // focus followed the card
    await until(async () => (await order())[1] === 'Mover');
    expect(await order()).toEqual(['Already there', 'Mover']);
    await page.keyboard.press('Alt+ArrowLeft');
    await until(
      async () => (await tasksOf(board.id)).find((task) => task.id === mover)!.column_id === board.columns[0],
    );
    await page.keyboard.press('Alt+ArrowLeft'); // no column there: nothing moves
    await page.waitForTimeout(200);
    expect((await tasksOf(board.id)).find((task) => task.id === mover)!.column_id).toBe(board.columns[0]);
    await context.close();
  });

  it('the card editor renders the description; toggling a checklist box changes the stored description', async () => {
    const description = '**Steps**\n- [ ] write\n- [x] test';
    const board = await todoBoard({
      columns: [{ title: 'To do' }],
      tasks: [{ columnIndex: 0, name: 'Checklist', description }],
    });
    const { page, context } = await openBoard(board.id);
    await page.waitForSelector(`.task[data-id="${board.tasks[0]}"] .badge.checklist:text-is("☑ 1/2")`);
    await page.click(`.task[data-id="${board.tasks[0]}"]`);
    await page.waitForSelector('dialog [data-testid=card-description] strong:text-is("Steps")');
    expect(await page.isHidden('dialog textarea[aria-label=Description]')).toBe(true);
    await page.click('dialog [data-testid=card-description] input[aria-label=write]');
    await until(async () => (await tasksOf(board.id))[0].description === '**Steps**\n- [x] write\n- [x] test');
    await page.screenshot({ path: join(ARTIFACTS, 'kanban-card-editor-1280.png') });
    await page.click('dialog button.edit-description');
    expect(await page.inputValue('dialog textarea[aria-label=Description]')).toBe('**Steps**\n- [x] write\n- [x] test');
    await page.click('dialog button[value=cancel]'); // the toggle was stored at once, Cancel keeps it
    await page.waitForTimeout(200);
    expect((await tasksOf(board.id))[0].description).toBe('**Steps**\n- [x] write\n- [x] test');
    await page.waitForSelector(`.task[data-id="${board.tasks[0]}"] .badge.checklist:text-is("☑ 2/2")`);
    await context.close();
  });

  it('axe finds no serious or critical violation on the board with a filter on, nor in the card editor', async () => {
    const board = await todoBoard({
      columns: [{ title: 'To do' }],
      tasks: [
        {
          columnIndex: 0,
          name: 'Audit me',
          assignee: 'Alice',
          priority: 'H',
          due_date: past,
          color: 'red',
          description: '- [ ] one',
        },
      ],
    });
    const { page, context } = await openBoard(board.id);
    await injectAxe(page);
    // The kanban and its editor only: the header is the shell's, audited with the app's pages.
    const serious = async (scope: string) =>
      (
        await page.evaluate(
          async (selector) => (await (window as any).axe.run(document.querySelector(selector))).violations,
          scope,
        )
      )
        .filter((violation: { impact: string }) => violation.impact === 'serious' || violation.impact === 'critical')
        .map(
          (violation: { id: string; nodes: { target: string[] }[] }) =>
            `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
        );
    await page.selectOption('select[aria-label="Filter by priority"]', 'H');
    expect(await serious('[data-testid=kanban]')).toEqual([]);
    await page.click(`.task[data-id="${board.tasks[0]}"]`);
    await page.waitForSelector('dialog[open] [data-testid=card-description]');
    expect(await serious('dialog[open]')).toEqual([]);
    await context.close();
  });

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    it(`at ${viewport.width}x${viewport.height} "+ Column" stays on screen however many columns; the columns scroll sideways`, async () => {
      const columns = Array.from({ length: 8 }, (_, index) => ({ title: `Column ${index + 1}` }));
      const board = await todoBoard({
        columns,
        tasks: [
          { columnIndex: 0, name: 'Late one', due_date: past, priority: 'H', assignee: 'Alice' },
          { columnIndex: 0, name: 'Plain', description: '- [ ] a\n- [ ] b' },
        ],
      });
      for (const scheme of ['light', 'dark'] as const) {
        const { page, context } = await openBoard(board.id, viewport, scheme);
        const add = page.locator('.add-column').first();
        const box = (await add.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.y).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
        expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
        // The strip of columns scrolls inside the board; the page itself does not.
        const strip = await page.$eval('.columns', (element) => ({
          scroll: element.scrollWidth,
          client: element.clientWidth,
        }));
        expect(strip.scroll).toBeGreaterThan(strip.client);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
        await page.$eval('.columns', (element) => (element.scrollLeft = element.scrollWidth));
        const after = (await add.boundingBox())!;
        expect(after.x + after.width).toBeLessThanOrEqual(viewport.width);
        // No control of a column header is cut: every swatch is whole inside its column.
        const cut = await page.$$eval(
          '.column',
          (cols) =>
            cols.filter((column) => {
              const outer = column.getBoundingClientRect();
              return [...column.querySelectorAll('header > *, .swatch')].some((control) => {
                const inner = control.getBoundingClientRect();
                return inner.left < outer.left - 0.5 || inner.right > outer.right + 0.5;
              });
            }).length,
        );
        expect(cut).toBe(0);
        await page.$eval('.columns', (element) => (element.scrollLeft = 0));
        await page.screenshot({ path: join(ARTIFACTS, `kanban-${viewport.width}-${scheme}.png`) });
        await add.click();
        await until(
          async () => (await boardJson(t.server.url, board.id)).columns.length === 9 + (scheme === 'dark' ? 1 : 0),
        );
        await context.close();
      }
    });
  }
});
