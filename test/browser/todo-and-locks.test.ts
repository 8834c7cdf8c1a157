import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, boardJson, person, until, useChromium } from '../helpers/pages.js';
import { useServer } from '../helpers/server.js';

const t = useServer();
const chrome = useChromium();

async function openBoard(id: string) {
  const who = await person(chrome.browser);
  await who.page.goto(`${t.server.url}/#${id}`);
  return who;
}

describe('todo boards in Chromium', () => {
  it('the landing page creates a todo board from a template', async () => {
    const { page, context } = await person(chrome.browser);
    await page.goto(`${t.server.url}/`);
    await page.selectOption('select[aria-label="Todo template"]', 'bugs');
    await page.click('[data-testid=new-todo]');
    await page.waitForSelector('[data-testid=kanban] .column');
    const titles = await page
      .locator('.column-title')
      .evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));
    expect(titles).toEqual(['Triage', 'Confirmed', 'In progress', 'Fixed']);
    await context.close();
  });

  it('dragging a task to another column stores its new column_id and sort', async () => {
    const created = await (
      await fetch(`${t.server.url}/api/boards`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          mode: 'todo',
          content: {
            columns: [{ title: 'To do' }, { title: 'Doing' }],
            tasks: [
              { columnIndex: 0, name: 'Move me' },
              { columnIndex: 1, name: 'Already here' },
            ],
          },
        }),
      })
    ).json();
    const { page, context } = await openBoard(created.id);
    const card = page.locator('.task:has-text("Move me")');
    await card.waitFor();
    const target = page.locator(`.tasks[data-column-id="${created.ids.columns[1]}"] .task:has-text("Already here")`);
    await card.dragTo(target, { targetPosition: { x: 20, y: 30 } });
    const task = await until(async () => {
      const json = await boardJson(t.server.url, created.id);
      const moved = json.tasks.find((x: any) => x.name === 'Move me');
      return moved.column_id === created.ids.columns[1] && moved;
    });
    const other = (await boardJson(t.server.url, created.id)).tasks.find((x: any) => x.name === 'Already here');
    expect(task.sort).toBeGreaterThan(other.sort);
    await context.close();
  });

  it('the task editor sets priority, due date and done; columns can be added and renamed', async () => {
    const { id } = await (
      await fetch(`${t.server.url}/api/boards`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ mode: 'todo' }),
      })
    ).json();
    const { page, context } = await openBoard(id);
    await page.locator('.column').first().locator('.add-task').click();
    await page.waitForSelector('dialog.modal');
    await page.fill('dialog input[aria-label=Name]', 'Write tests');
    await page.selectOption('dialog select[aria-label=Priority]', 'H');
    await page.fill('dialog input[aria-label="Due date"]', '2026-12-24');
    await page.check('dialog input[aria-label=Done]');
    await page.click('dialog button[value=save]');
    const task = await until(async () =>
      (await boardJson(t.server.url, id)).tasks.find((x: any) => x.name === 'Write tests'),
    );
    expect(task).toMatchObject({ priority: 'H', due_date: '2026-12-24', done: true });
    await page.locator('.add-column').first().click();
    await until(async () => (await boardJson(t.server.url, id)).columns.length === 4);
    const title = page.locator('.column-title').nth(3);
    await title.fill('Review');
    await title.press('Enter');
    await title.blur();
    await until(async () => (await boardJson(t.server.url, id)).columns[3].title === 'Review');
    await context.close();
  });

  it('a column title being typed survives someone else editing the board meanwhile', async () => {
    const { id } = await (
      await fetch(`${t.server.url}/api/boards`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ mode: 'todo' }),
      })
    ).json();
    const { page, context } = await openBoard(id);
    const column = (await boardJson(t.server.url, id)).columns[0];
    const title = page.locator('.column-title').first();
    await title.fill('Typed while others edit');
    await fetch(`${t.server.url}/api/boards/${id}/tasks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ column_id: column.id, name: 'Added by a script' }),
    });
    await page.waitForTimeout(300); // the script's task reaches the page meanwhile
    expect(await title.inputValue()).toBe('Typed while others edit');
    expect(await page.evaluate(() => document.activeElement?.className)).toContain('column-title');
    await title.press('Enter');
    await title.blur();
    await until(async () => (await boardJson(t.server.url, id)).columns[0].title === 'Typed while others edit');
    await page.waitForSelector('text=Added by a script');
    await context.close();
  });

  it('saves a screenshot of a todo board', async () => {
    const created = await (
      await fetch(`${t.server.url}/api/boards`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          mode: 'todo',
          author: 'user:screenshot',
          content: {
            columns: [
              { title: 'Backlog' },
              { title: 'Doing', color: 'blue' },
              { title: 'Done', color: 'green' },
              { title: 'Ideas', lane: 1 },
            ],
            tasks: [
              { columnIndex: 0, name: 'Write the spec', priority: 'H', assignee: 'ann', due_date: '2026-12-01' },
              { columnIndex: 0, name: 'Pick a name', priority: 'L' },
              { columnIndex: 1, name: 'Build the board app', assignee: 'bo', author: 'ai:builder' },
              { columnIndex: 2, name: 'Set up CI', done: true },
              { columnIndex: 3, name: 'Dark mode' },
            ],
            lanes: [
              { lane: 0, title: 'This sprint' },
              { lane: 1, title: 'Later' },
            ],
          },
        }),
      })
    ).json();
    const { page, context } = await openBoard(created.id);
    await page.waitForSelector('.task:has-text("Dark mode")');
    await page.screenshot({ path: join(ARTIFACTS, 'todo-board.png') });
    await context.close();
  });
});

describe('locks in Chromium', () => {
  it('locking shows the key once; without it another browser is read-only, with it it can edit', async () => {
    const { id } = await (await fetch(`${t.server.url}/api/boards`, { method: 'POST' })).json();
    const owner = await openBoard(id);
    await owner.page.waitForSelector('[data-testid=canvas]');
    await owner.page.click('[data-testid=lock]', { timeout: 5_000 });
    await owner.page.click('dialog button[value=ok]', { timeout: 5_000 });
    const key = (await owner.page.locator('dialog code.key').textContent({ timeout: 5_000 }))!;
    expect(key).toMatch(/^[a-z0-9]{8}$/);
    expect(await owner.page.locator('dialog').textContent()).toContain('cannot be recovered');
    await owner.page.click('dialog button[value=ok]', { timeout: 5_000 });
    expect((await (await fetch(`${t.server.url}/api/boards/${id}/meta`)).json()).lockMode).toBe('write');

    const visitor = await openBoard(id);
    await visitor.page.waitForSelector('[data-testid=canvas]', { timeout: 5_000 });
    await visitor.page.waitForSelector('[data-testid=enter-key]:visible', { timeout: 5_000 });
    expect(await visitor.page.locator('.toolbar [data-tool]:visible').count()).toBe(0);
    expect(await visitor.page.locator('.zoom-menu > summary').isVisible()).toBe(true);
    const before = (await boardJson(t.server.url, id)).etag;
    await visitor.page.mouse.dblclick(500, 400);
    await visitor.page.keyboard.press('t');
    await visitor.page.mouse.click(500, 400);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await boardJson(t.server.url, id)).etag).toBe(before);

    await visitor.page.click('[data-testid=enter-key]', { timeout: 5_000 });
    await visitor.page.fill('dialog input[aria-label="Access key"]', key, { timeout: 5_000 });
    await visitor.page.click('dialog button[value=ok]', { timeout: 5_000 });
    await visitor.page.waitForSelector('[data-tool=text]:visible', { timeout: 5_000 });
    await visitor.page.click('[data-tool=text]', { timeout: 5_000 });
    await visitor.page.mouse.click(400, 300);
    await visitor.page.keyboard.type('now with the key');
    await visitor.page.keyboard.press('Control+Enter');
    await until(async () => (await boardJson(t.server.url, id)).texts.length === 1);
    await Promise.all([owner.context.close(), visitor.context.close()]);
  });

  it('an all-locked board asks for its key before it opens', async () => {
    const { id, access_key } = await (
      await fetch(`${t.server.url}/api/boards`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ lock: 'all', mode: 'todo' }),
      })
    ).json();
    const { page, context } = await openBoard(id);
    await page.waitForSelector('dialog input[aria-label="Access key"]');
    await page.fill('dialog input[aria-label="Access key"]', access_key);
    await page.click('dialog button[value=ok]');
    await page.waitForSelector('[data-testid=kanban] .column');
    await context.close();
  });

  it('shows who else is on the board', async () => {
    const { id } = await (await fetch(`${t.server.url}/api/boards`, { method: 'POST' })).json();
    const a = await openBoard(id);
    const b = await openBoard(id);
    await a.page.waitForSelector('[data-testid=canvas]');
    await b.page.waitForSelector('[data-testid=canvas]');
    await b.page.mouse.move(400, 400);
    await b.page.mouse.move(420, 420);
    await a.page.waitForSelector('.people .person', { timeout: 5_000 });
    await a.page.waitForSelector('.cursors .cursor', { timeout: 5_000 });
    await Promise.all([a.context.close(), b.context.close()]);
  });
});
