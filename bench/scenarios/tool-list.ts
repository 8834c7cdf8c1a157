/**
 * The size of tools/list over a real MCP session, as the budget counts it:
 * what a host hands the model (each tool's name, title, description and
 * input schema, `modelFacingBytes`) against TOOL_LIST_BUDGET_BYTES, and the
 * tokens of those same bytes by a real tokenizer (gpt-tokenizer's
 * o200k_base, the encoding of current OpenAI models; Anthropic's is not
 * published). The whole answer (icons, annotations, output schemas) is
 * reported beside them: the host keeps that part.
 */
import { rm } from 'node:fs/promises';
import type { Tool } from '@modelcontextprotocol/server';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { modelFacingBytes, TOOL_LIST_BUDGET_BYTES } from '../../adapters/mcp/tool-list.js';
import { tempDataDir, testEnv } from '../../test/helpers/child-server.js';
import { connectMcp } from '../../test/helpers/mcp.js';
import { spawnService } from '../lib/processes.js';
import type { Section } from '../lib/report.js';

const percentOfBudget = (bytes: number) => `${((bytes / TOOL_LIST_BUDGET_BYTES) * 100).toFixed(0)}% of budget`;

export async function toolListScenario(_quick: boolean): Promise<Section> {
  const dir = await tempDataDir();
  const server = await spawnService(testEnv(dir));
  try {
    const mcp = await connectMcp(server.url);
    const { tools } = await mcp.client.listTools();
    await mcp.close();
    const counted = modelFacingBytes(tools as Tool[]);
    const read = tools.map(({ name, title, description, inputSchema }) => ({ name, title, description, inputSchema }));
    const whole = Buffer.byteLength(JSON.stringify({ tools }));
    return {
      title: 'MCP tools/list size',
      baseline: `the ${TOOL_LIST_BUDGET_BYTES}-byte budget of what a host hands the model (no same-run baseline: the list before the change is not served by this build).`,
      rows: [
        { measure: 'tools', ours: String(tools.length), baseline: '', ratio: '' },
        {
          measure: 'bytes a host hands the model (name, title, description, inputSchema)',
          ours: String(counted),
          baseline: String(TOOL_LIST_BUDGET_BYTES),
          ratio: percentOfBudget(counted),
        },
        {
          measure: 'tokens of those bytes (o200k_base tokenizer)',
          ours: String(countTokens(JSON.stringify(read))),
          baseline: '',
          ratio: '',
        },
        {
          measure: 'bytes of the whole answer (with icons, annotations, output schemas)',
          ours: String(whole),
          baseline: '',
          ratio: '',
        },
      ],
      notes: [
        'One tools/list over a real session (the SDK client, Streamable HTTP); the counted bytes are the figure test/mcp-tool-list.test.ts holds to the budget.',
      ],
    };
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
