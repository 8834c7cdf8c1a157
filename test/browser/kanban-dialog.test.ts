import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, boardJson, person, until, useChromium } from '../helpers/pages.js';
import { useServer } from '../helpers/server.js';

const t = useServer();
const chrome = useChromium();

/** A todo board holding one column and, when named, one task in it. */
async function todoBoard(task?: string): Promise<{ id: string; columnId: string; taskId?: string }> {
  const content = { columns: [{ title: 'To do' }], tasks: task ? [{ columnIndex: 0, name: task }] : [] };
  const created = await (
    await fetch(`${t.server.url}/api/boards`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'todo', content }),
    })
  ).json();
  return { id: created.id, columnId: created.ids.columns[0], taskId: created.ids.tasks[0] };
}

async function openBoard(id: string, viewport?: { width: number; height: number }) {
  const who = await person(chrome.browser, viewport);
  who.page.setDefaultTimeout(5_000); // a step that cannot happen fails the test on its own line
  await who.page.goto(`${t.server.url}/#${id}`);
  await who.page.waitForSelector('[data-testid=kanban] .column');
  await who.page.waitForSelector('[data-testid=status]:text-is("Live")');
  return who;
}

const tasksOf = async (id: string) => (await boardJson(t.server.url, id)).tasks as { id: string; name: string }[];

describe('the kanban task dialog', () => {
  // Issue 16: the form's implicit submit hit its first button, Delete.
  it('Enter in the name field saves the edit and does not delete the task', async () => {
    const board = await todoBoard('Draft the plan');
    const { page, context, errors } = await openBoard(board.id);
    await page.click('.task:has-text("Draft the plan")');
    await page.fill('dialog input[aria-label=Name]', 'Draft the plan, v2');
    await page.press('dialog input[aria-label=Name]', 'Enter');
    await page.waitForSelector('dialog', { state: 'detached' });
    await page.waitForSelector('.task:has-text("Draft the plan, v2")');
    await until(async () => (await tasksOf(board.id))[0]?.name === 'Draft the plan, v2');
    expect((await tasksOf(board.id)).map((task) => task.id)).toEqual([board.taskId]);
    expect(errors).toEqual([]);
    await context.close();
  });

  // Issue 16: Enter on a focused card reached the dialog it opened, and deleted the task.
  it('Enter on a focused card opens its dialog and deletes nothing', async () => {
    const board = await todoBoard('Keep me');
    const { page, context } = await openBoard(board.id);
    await page.focus('.task:has-text("Keep me")');
    await page.keyboard.press('Enter');
    await page.waitForSelector('dialog[open] input[aria-label=Name]');
    expect(await page.inputValue('dialog input[aria-label=Name]')).toBe('Keep me');
    await page.waitForTimeout(300);
    expect(await page.locator('dialog[open]').count()).toBe(1);
    expect((await tasksOf(board.id)).map((task) => task.name)).toEqual(['Keep me']);
    await context.close();
  });

  // Issue 16: names typed in the browser went round the shared schema, so " Alice " kept its spaces.
  it('the dialog trims the name and assignee as REST and MCP do', async () => {
    const board = await todoBoard('Trim me');
    const { page, context } = await openBoard(board.id);
    await page.click('.task:has-text("Trim me")');
    await page.fill('dialog input[aria-label=Name]', '  Trimmed  ');
    await page.fill('dialog input[aria-label=Assignee]', ' Alice ');
    await page.press('dialog input[aria-label=Name]', 'Enter');
    const stored = await until(async () =>
      (await boardJson(t.server.url, board.id)).tasks.find((task: { name: string }) => task.name === 'Trimmed'),
    );
    expect(stored.assignee).toBe('Alice');
    await context.close();
  });

  it('Delete asks first; declining keeps the task and the edit being made, confirming deletes it', async () => {
    const board = await todoBoard('Maybe delete me');
    const { page, context } = await openBoard(board.id);
    await page.click('.task:has-text("Maybe delete me")');
    await page.fill('dialog input[aria-label=Name]', 'Edited before Delete');
    await page.click('dialog button[value=delete]');
    const confirm = page.locator('dialog[open][aria-label="Delete this task?"]');
    await confirm.waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'task-delete-confirm-1280.png') });
    await confirm.locator('button[value=cancel]').click();
    await confirm.waitFor({ state: 'detached' });
    expect(await page.inputValue('dialog[open] input[aria-label=Name]')).toBe('Edited before Delete');
    expect((await tasksOf(board.id)).map((task) => task.name)).toEqual(['Maybe delete me']);

    await page.click('dialog button[value=delete]');
    await confirm.locator('button[value=ok]').click();
    await page.waitForSelector('dialog', { state: 'detached' });
    await until(async () => (await tasksOf(board.id)).length === 0);
    expect(await page.locator('.task').count()).toBe(0);
    await context.close();
  });

  // Issue 16: "+ Task" created a "New task" on the server before the dialog opened, so Cancel left a stub.
  it('cancelling "+ Task" creates nothing; saving it creates the task with what was typed', async () => {
    const board = await todoBoard();
    const { page, context } = await openBoard(board.id);
    await page.click('.add-task');
    await page.waitForSelector('dialog[open] input[aria-label=Name]');
    await page.click('dialog button[value=cancel]');
    await page.waitForSelector('dialog', { state: 'detached' });
    await page.waitForTimeout(500); // a stub, if made, would have reached the server by now
    expect(await tasksOf(board.id)).toEqual([]);
    expect(await page.locator('.task').count()).toBe(0);

    await page.click('.add-task');
    await page.fill('dialog input[aria-label=Name]', 'Made on Save');
    await page.press('dialog input[aria-label=Name]', 'Enter');
    await until(async () => (await tasksOf(board.id)).length > 0);
    expect((await tasksOf(board.id)).map((task) => task.name)).toEqual(['Made on Save']);
    await context.close();
  });

  it('saves screenshots of the task dialog at 1280x800 and 390x844', async () => {
    const board = await todoBoard('Look at me');
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      const { page, context } = await openBoard(board.id, viewport);
      await page.click('.task:has-text("Look at me")');
      await page.waitForSelector('dialog[open] input[aria-label=Name]');
      await page.screenshot({ path: join(ARTIFACTS, `task-dialog-${viewport.width}.png`) });
      await context.close();
    }
  });
});

describe('undo keys on todo boards', () => {
  // Issue 16: the Undo and Redo buttons worked, Ctrl+Z and Ctrl+Shift+Z did nothing.
  it("Ctrl+Z undoes and Ctrl+Shift+Z redoes this person's edit, but not while typing in a field", async () => {
    const board = await todoBoard();
    const { page, context } = await openBoard(board.id);
    const columns = async () => (await boardJson(t.server.url, board.id)).columns.length;
    await page.click('.add-column');
    await until(async () => (await columns()) === 2);
    await page.click('[data-testid=kanban]', { position: { x: 600, y: 500 } }); // focus leaves the button, as a person's click on the board does
    await page.keyboard.press('Control+z');
    await until(async () => (await columns()) === 1);
    // The board renders on the next animation frame, which a loaded machine can deliver after the server has the edit.
    await until(async () => (await page.locator('.column').count()) === 1);
    await page.keyboard.press('Control+Shift+z');
    await until(async () => (await columns()) === 2);
    await until(async () => (await page.locator('.column').count()) === 2);

    const title = page.locator('.column-title').first();
    await title.fill('Typing');
    await page.keyboard.press('Control+z'); // the field's own undo, not the board's
    await page.waitForTimeout(300);
    expect(await columns()).toBe(2);
    await context.close();
  });
});
