import { describe, expect, it } from 'vitest';
import { McpToolArgs } from '../host/operations/operations.js';
import { clampColumnWidth, isIsoDate, normalizePoints, Priority, TaskInput, toInkColor } from '../schema/index.js';

describe('schema/ shared validators', () => {
  it('normalizePoints accepts the three forms and reports why it rejects', () => {
    expect(
      normalizePoints([
        [1, 2],
        [3, 4],
      ]),
    ).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(normalizePoints([1, 2, 3, 4])).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(normalizePoints('[1,2,3,4]')).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(normalizePoints([1, 2, 3])).toMatch(/even/);
    expect(normalizePoints(Array(20_002).fill(0))).toMatch(/at most 10000/);
    expect(normalizePoints([[1, Number.NaN]])).toMatch(/finite/);
  });

  it('toInkColor keeps the 17 names in any case and turns anything else into auto', () => {
    expect(toInkColor('Lavender')).toBe('lavender');
    expect(toInkColor(' sky ')).toBe('sky');
    expect(toInkColor('#123456')).toBe('auto');
    expect(toInkColor(undefined)).toBe('auto');
  });

  it('isIsoDate accepts real dates and date-times only', () => {
    for (const ok of [
      '2026-02-28',
      '2024-02-29',
      '2026-11-21T10:00',
      '2026-11-21T10:00:00Z',
      '2026-11-21T10:00:00.123+02:00',
    ]) {
      expect(isIsoDate(ok), ok).toBe(true);
    }
    for (const bad of [
      '2026-02-30',
      '2025-02-29',
      '21/11/2026',
      '2026-13-01',
      '2026-11-21T25:00',
      'tomorrow',
      '2026-1-1',
    ]) {
      expect(isIsoDate(bad), bad).toBe(false);
    }
  });

  it('column width clamps to 200..480; priority normalises to H/M/L', () => {
    expect([clampColumnWidth(10), clampColumnWidth(300), clampColumnWidth(9999)]).toEqual([200, 300, 480]);
    expect(Priority.parse('h')).toBe('H');
    expect(Priority.parse('')).toBeNull();
    expect(Priority.safeParse('urgent').success).toBe(false);
    expect(TaskInput.safeParse({ name: 'x', due_date: '2026-02-30' }).error?.issues[0].path).toEqual(['due_date']);
  });

  it('MCP tool arguments: a board id on every board tool, REST bodies otherwise, the wait timeout clamped', () => {
    expect(McpToolArgs.add_text.safeParse({ x: 0, y: 0, content: 'c' }).success).toBe(false);
    const boardId = '7d7bd1c2-1d5e-4a8b-9f43-2d8f3b0b9c11';
    expect(
      McpToolArgs.add_text.parse({ board_id: boardId.toUpperCase(), x: 0, y: 0, content: 'c', postit: true }),
    ).toMatchObject({ board_id: boardId, postit: true });
    expect(McpToolArgs.wait_for_update.parse({ board_id: boardId }).timeout_ms).toBe(25_000);
    expect(McpToolArgs.wait_for_update.parse({ board_id: boardId, timeout_ms: 5 }).timeout_ms).toBe(1_000);
    expect(McpToolArgs.wait_for_update.parse({ board_id: boardId, timeout_ms: 1e9 }).timeout_ms).toBe(55_000);
    expect(McpToolArgs.update_task.parse({ board_id: boardId, id: 't1', done: true })).toMatchObject({
      id: 't1',
      done: true,
    });
    expect(McpToolArgs.create_task.safeParse({ board_id: boardId, name: 'no column' }).success).toBe(false);
    expect(McpToolArgs.get_board.safeParse({ board_id: boardId, access_key: 'ABC' }).success).toBe(false);
  });
});
