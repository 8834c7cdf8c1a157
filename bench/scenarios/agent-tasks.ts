/**
 * Agent tasks: what a model pays to get real work done over MCP. A scripted
 * agent (the SDK v2 client pinned to 2026-07-28) does two tasks each way:
 * the way an agent had to before `batch`, `find_items`, the outline and
 * compact answers (one call per item, whole reads to check), and the way it
 * can now. Both run on this build in the same run, so the ratio is the
 * saving an agent sees. Tokens are counted with a real tokenizer
 * (gpt-tokenizer, o200k_base) over what the model reads (every text block of
 * a result) and what it writes (the call's name and arguments); a picture
 * block is counted apart, in bytes. Then a board at its quotas is read with
 * every read tool's defaults: the largest single answer is the figure.
 */
import { rm } from 'node:fs/promises';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { tempDataDir, testEnv } from '../../test/helpers/child-server.js';
import { connectModernMcp, type McpClient } from '../../test/helpers/mcp.js';
import { spawnService } from '../lib/processes.js';
import type { Row, Section } from '../lib/report.js';
import { atQuotas, type QuotaRead } from './agent-tasks-quotas.js';
import { type Agent, taskA, taskB } from './agent-tasks-scripts.js';

/** The figures the issue measured before this work, for reference beside the same-run baseline. */
const ISSUE_FIGURES = { A: { calls: 19, tokens: 7_200 }, B: { calls: 21, tokens: 6_800 } };
const DEFAULT_RESULT_BUDGET_BYTES = 16_384;

type Tally = { calls: number; resultBytes: number; resultTokens: number; argTokens: number; pictureBytes: number };

/** An agent whose every call is counted: the MCP client with a meter between it and the script. */
function metered(mcp: McpClient): { agent: Agent; tally: () => Tally; reset: () => void } {
  let tally: Tally = { calls: 0, resultBytes: 0, resultTokens: 0, argTokens: 0, pictureBytes: 0 };
  const agent: Agent = async (name, args) => {
    const result = await mcp.raw(name, args);
    tally.calls += 1;
    tally.argTokens += countTokens(JSON.stringify({ name, arguments: args }));
    for (const block of result.content ?? []) {
      if (block.type === 'image') tally.pictureBytes += Buffer.byteLength(block.data, 'base64');
      else {
        const text = block.type === 'text' ? block.text : JSON.stringify(block);
        tally.resultBytes += Buffer.byteLength(text);
        tally.resultTokens += countTokens(text);
      }
    }
    if (result.isError) throw new Error(`${name} refused: ${JSON.stringify(result.content)}`);
    return result.structuredContent;
  };
  return {
    agent,
    tally: () => tally,
    reset: () => {
      tally = { calls: 0, resultBytes: 0, resultTokens: 0, argTokens: 0, pictureBytes: 0 };
    },
  };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const pct = (ours: number, base: number) => `${((ours / base) * 100).toFixed(0)}%`;

function taskRows(task: 'A' | 'B', now: Tally, before: Tally): Row[] {
  const nowTokens = now.resultTokens + now.argTokens;
  const beforeTokens = before.resultTokens + before.argTokens;
  return [
    {
      measure: `Task ${task}: calls`,
      ours: String(now.calls),
      baseline: String(before.calls),
      ratio: pct(now.calls, before.calls),
      note: `issue: ${ISSUE_FIGURES[task].calls} calls`,
    },
    {
      measure: `Task ${task}: tokens read + written`,
      ours: `${nowTokens} (${now.resultTokens} + ${now.argTokens})`,
      baseline: `${beforeTokens} (${before.resultTokens} + ${before.argTokens})`,
      ratio: pct(nowTokens, beforeTokens),
      note: `issue: ≈ ${ISSUE_FIGURES[task].tokens} tokens; ${pct(nowTokens, ISSUE_FIGURES[task].tokens)} of it`,
    },
    {
      measure: `Task ${task}: result bytes`,
      ours: kb(now.resultBytes),
      baseline: kb(before.resultBytes),
      ratio: pct(now.resultBytes, before.resultBytes),
      note: now.pictureBytes ? `plus a ${kb(now.pictureBytes)} PNG` : '',
    },
  ];
}

function quotaRows(reads: QuotaRead[]): Row[] {
  const largest = reads.reduce((a, b) => (b.bytes > a.bytes ? b : a));
  return [
    {
      measure: 'At quotas: largest default result',
      ours: `${kb(largest.bytes)} (${largest.tool}, ${largest.tokens} tokens)`,
      baseline: kb(DEFAULT_RESULT_BUDGET_BYTES),
      ratio: pct(largest.bytes, DEFAULT_RESULT_BUDGET_BYTES),
      note: 'budget: 16 KB',
    },
    ...reads.map((read) => ({
      measure: `At quotas: ${read.tool}`,
      ours: kb(read.bytes),
      baseline: kb(DEFAULT_RESULT_BUDGET_BYTES),
      ratio: pct(read.bytes, DEFAULT_RESULT_BUDGET_BYTES),
      note: read.note ?? '',
    })),
  ];
}

export async function agentTasksScenario(_quick: boolean): Promise<Section> {
  const dir = await tempDataDir();
  const server = await spawnService(testEnv(dir));
  try {
    const mcp = await connectModernMcp(server.url);
    const { tools } = await mcp.client.listTools();
    // What a host hands the model of each tool (icons and output schemas stay with the host).
    const modelReads = JSON.stringify(
      tools.map(({ name, title, description, inputSchema }) => ({ name, title, description, inputSchema })),
    );
    const meter = metered(mcp);
    const results: Record<'A' | 'B', { now: Tally; before: Tally }> = {} as never;
    for (const [task, run] of [
      ['A', taskA],
      ['B', taskB],
    ] as const) {
      meter.reset();
      await run.before(meter.agent);
      const before = meter.tally();
      meter.reset();
      await run.now(meter.agent);
      results[task] = { now: meter.tally(), before };
    }
    const reads = await atQuotas(server.url, mcp);
    await mcp.close();
    return {
      title: 'Agent tasks over MCP: calls and tokens',
      baseline:
        'the same task done the way an agent had to before batch, find_items, the outline and compact answers (one call per item, whole reads), on this build in the same run; the issue’s figures beside.',
      rows: [
        ...taskRows('A', results.A.now, results.A.before),
        ...taskRows('B', results.B.now, results.B.before),
        {
          measure: 'tools/list as the model reads it',
          ours: `${Buffer.byteLength(modelReads)} bytes, ${countTokens(modelReads)} tokens`,
          baseline: '20000 bytes',
          ratio: pct(Buffer.byteLength(modelReads), 20_000),
          note: 'name, title, description, input schema of every tool',
        },
        ...quotaRows(reads),
      ],
      notes: [
        'Task A: a product-launch plan (todo board, columns in two lanes, 15 tasks with assignees, dates and priorities, a query, a change, an export). Task B: a web-app architecture (post-its, a Mermaid diagram, arrows anchored between items, links, then get_preview).',
        'Tokens: o200k_base over the text blocks of each result (read) and the JSON of each call (written); the PNG of get_preview is counted in bytes only.',
        'At quotas: a draw board with 500 texts, 2,000 strokes (one of 10,000 points) and a todo board with 1,000 tasks in 10 lanes, each read tool called with its defaults.',
      ],
    };
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
