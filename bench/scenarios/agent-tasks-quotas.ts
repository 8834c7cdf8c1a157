/**
 * Boards at their quotas, read with every read tool's defaults: what one call
 * can cost an agent at worst. The boards are made by one REST import each
 * (the fastest way to fill them); the reads go through the MCP client.
 */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import {
  MAX_COLUMNS_PER_LANE,
  MAX_LANES,
  MAX_STROKE_POINTS,
  MAX_STROKES,
  MAX_TASKS,
  MAX_TEXT_NODES,
} from '../../schema/limits.js';
import type { McpClient } from '../../test/helpers/mcp.js';

export type QuotaRead = { tool: string; bytes: number; tokens: number; note?: string };

const words = 'plan ship review design test deploy measure write fix document'.split(' ');
const sentence = (i: number, length: number) =>
  Array.from({ length }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(' ');

function drawContent() {
  const texts = Array.from({ length: MAX_TEXT_NODES }, (_, i) => ({
    x: (i % 25) * 200,
    y: Math.floor(i / 25) * 150,
    content: `Note ${i}: ${sentence(i, 30)}`,
    ...(i % 3 === 0 && { postit: true }),
  }));
  const stroke = (i: number, points: number) => ({
    points: Array.from({ length: points }, (_, j) => [(i % 50) * 100 + j, Math.floor(i / 50) * 100 + (j % 40)]),
  });
  const lines = [stroke(0, MAX_STROKE_POINTS), ...Array.from({ length: MAX_STROKES - 1 }, (_, i) => stroke(i + 1, 20))];
  return { texts, lines };
}

function todoContent() {
  const lanes = Array.from({ length: MAX_LANES }, (_, lane) => ({ lane, title: `Team ${lane}` }));
  const columns = lanes.flatMap(({ lane }) =>
    Array.from({ length: MAX_COLUMNS_PER_LANE }, (_, sort) => ({ title: `Stage ${sort}`, lane, sort })),
  );
  const tasks = Array.from({ length: MAX_TASKS }, (_, i) => ({
    columnIndex: i % columns.length,
    name: `Task ${i}: ${sentence(i, 6)}`,
    description: sentence(i + 1, 20),
    assignee: ['maya', 'li', 'sam'][i % 3],
    due_date: `2026-12-${String(1 + (i % 28)).padStart(2, '0')}`,
  }));
  return { lanes, columns, tasks };
}

async function importBoard(baseUrl: string, mode: 'draw' | 'todo', content: object): Promise<string> {
  const response = await fetch(`${baseUrl}/api/boards`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ mode, ...(mode === 'todo' && { template: 'none' }), content }),
  });
  if (!response.ok) throw new Error(`import refused: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

/** Every read tool on a full draw board and a full todo board, with its defaults. */
export async function atQuotas(baseUrl: string, mcp: McpClient): Promise<QuotaRead[]> {
  const draw = await importBoard(baseUrl, 'draw', drawContent());
  const todo = await importBoard(baseUrl, 'todo', todoContent());
  // Changes at their largest: 500 tasks edited in one batch since the ETag an agent last read.
  const { etag } = (await mcp.call('get_board', { board_id: todo, detail: 'outline' })) as { etag: string };
  const { tasks } = (await (await fetch(`${baseUrl}/json/${todo}`)).json()) as { tasks: { id: string }[] };
  const edited = await fetch(`${baseUrl}/api/boards/${todo}/batch`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ops: tasks.slice(0, 500).map(({ id }) => ({ type: 'update_task', id, done: true })) }),
  });
  if (!edited.ok) throw new Error(`batch refused: ${edited.status} ${await edited.text()}`);
  const reads: [string, Record<string, unknown>, string?][] = [
    ['get_board', { board_id: draw }, 'draw'],
    ['get_board', { board_id: todo }, 'todo'],
    ['get_board', { board_id: draw, detail: 'outline' }, 'outline, draw'],
    ['get_board', { board_id: todo, detail: 'outline' }, 'outline, todo'],
    ['get_preview', { board_id: draw }, 'draw, text blocks (the PNG apart)'],
    ['find_items', { board_id: draw, text: 'plan' }, 'draw'],
    ['list_tasks', { board_id: todo }],
    ['query_tasks', { board_id: todo, assignee: 'maya' }],
    ['export_tasks', { board_id: todo, format: 'csv' }],
    ['export_tasks', { board_id: todo, format: 'markdown' }],
    ['list_versions', { board_id: todo }],
    ['get_changes', { board_id: todo, since_etag: etag }, '500 tasks edited'],
  ];
  const out: QuotaRead[] = [];
  for (const [tool, args, note] of reads) {
    const result = await mcp.raw(tool, args);
    const text = (result.content ?? [])
      .filter((block: { type: string }) => block.type !== 'image')
      .map((block: { type: string; text?: string }) => (block.type === 'text' ? block.text : JSON.stringify(block)))
      .join('');
    out.push({
      tool: note ? `${tool} (${note})` : tool,
      bytes: Buffer.byteLength(text),
      tokens: countTokens(text),
      note: result.isError ? `refused: ${text.slice(0, 80)}` : undefined,
    });
  }
  return out;
}
