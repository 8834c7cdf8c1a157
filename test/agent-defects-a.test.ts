/**
 * Refusals and starting points an agent acts on, on both MCP eras and REST:
 * a limit's advice fits the limit hit (a too-long text is shortened, not
 * work erased); every ETag a read hands out is a starting point for changes;
 * a todo board's starter columns are said and can be left out; a missing key
 * and a wrong key are told apart, and a resource read is told how it sends one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_STROKE_POINTS, MAX_TEXT_CHARS } from '../schema/index.js';
import { connectMcp, connectModernMcp, type McpClient, rpcError } from './helpers/mcp.js';
import { useServer } from './helpers/server.js';

const t = useServer();
let modern: Awaited<ReturnType<typeof connectModernMcp>>;
let legacy: McpClient;

beforeAll(async () => {
  [modern, legacy] = await Promise.all([connectModernMcp(t.server.url), connectMcp(t.server.url)]);
});
afterAll(() => Promise.all([modern.close(), legacy.close()]));

/** The advice a 2026-07-28 agent gets in `next`, and a 2025 agent in the JSON-RPC error's message. */
async function advice(tool: string, args: Record<string, unknown>): Promise<{ modern: any; legacy: string }> {
  const refused = await modern.raw(tool, args);
  expect(refused.isError, JSON.stringify(refused.structuredContent)).toBe(true);
  const error = await rpcError(legacy.call(tool, args));
  return { modern: refused.structuredContent, legacy: error.message };
}

describe('a limit hit is answered with advice that fits it', () => {
  it('a text over the character limit is told to shorten or split it, never to erase items', async () => {
    const { board_id } = await modern.call('create_board', {});
    const { modern: refused, legacy: message } = await advice('add_text', {
      board_id,
      x: 0,
      y: 0,
      content: 'x'.repeat(MAX_TEXT_CHARS + 1),
    });
    expect(refused).toMatchObject({ code: 'quota_exceeded', kind: 'text_chars' });
    for (const words of [refused.next, message]) {
      expect(words).toMatch(/shorten the text, or split it/);
      expect(words).not.toMatch(/erase/);
    }
  });

  it('task content or a field over its limit is told to shorten it', async () => {
    const { board_id } = await modern.call('create_board', { mode: 'todo' });
    const { columns } = await modern.call('list_tasks', { board_id });
    const { modern: long } = await advice('create_task', {
      board_id,
      column_id: columns[0].id,
      name: 'long',
      content: JSON.stringify('x'.repeat(20_001)),
    });
    expect(long).toMatchObject({ kind: 'task_content_chars', next: expect.stringMatching(/shorten the task content/) });
    const { modern: name } = await advice('create_task', { board_id, column_id: columns[0].id, name: 'x'.repeat(501) });
    expect(name).toMatchObject({ code: 'invalid_payload', field: 'name', next: 'Shorten name and call again.' });
  });

  it('a stroke over the point limit is told to simplify or split it', async () => {
    const { board_id } = await modern.call('create_board', {});
    const points = Array.from({ length: MAX_STROKE_POINTS + 1 }, (_, i) => [i, i]);
    const { modern: refused, legacy: message } = await advice('draw_stroke', { board_id, points });
    expect(refused.code).toBe('invalid_payload');
    for (const words of [refused.next, message]) expect(words).toMatch(/Simplify the stroke .* or split it/);
  });

  it('an import over a board count is told to import less, not to erase', async () => {
    const texts = Array.from({ length: 501 }, (_, i) => ({ x: i, y: 0, content: 'x' }));
    const { modern: refused } = await advice('create_board', { content: { texts } });
    expect(refused).toMatchObject({
      code: 'quota_exceeded',
      kind: 'texts',
      next: expect.stringMatching(/import less/),
    });
  });
});
