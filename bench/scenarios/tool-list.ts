/**
 * The size of tools/list over a real MCP session: what an agent
 * reads before its first call, against the 5 000-token budget: counted by
 * a real tokenizer (gpt-tokenizer's o200k_base, the encoding of current
 * OpenAI models; Anthropic's is not published) and approximately, as
 * ceil(bytes / 3.5) of the answer's JSON.
 */
import { rm } from 'node:fs/promises';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { tempDataDir, testEnv } from '../../test/helpers/child-server.js';
import { connectMcp } from '../../test/helpers/mcp.js';
import { spawnService } from '../lib/processes.js';
import type { Section } from '../lib/report.js';

const TOKEN_BUDGET = 5_000;
const BYTES_PER_TOKEN = 3.5;

export async function toolListScenario(_quick: boolean): Promise<Section> {
  const dir = await tempDataDir();
  const server = await spawnService(testEnv(dir));
  try {
    const mcp = await connectMcp(server.url);
    const { tools } = await mcp.client.listTools();
    await mcp.close();
    const bytes = Buffer.byteLength(JSON.stringify({ tools }));
    const tokens = Math.ceil(bytes / BYTES_PER_TOKEN);
    const counted = countTokens(JSON.stringify({ tools }));
    return {
      title: 'MCP tools/list size',
      baseline: `the ${TOKEN_BUDGET}-token budget (no same-run baseline: the list before the change is not served by this build).`,
      rows: [
        { measure: 'tools', ours: String(tools.length), baseline: '', ratio: '' },
        {
          measure: 'bytes (JSON of {tools})',
          ours: String(bytes),
          baseline: String(TOKEN_BUDGET * BYTES_PER_TOKEN),
          ratio: `${((bytes / (TOKEN_BUDGET * BYTES_PER_TOKEN)) * 100).toFixed(0)}% of budget`,
        },
        {
          measure: 'tokens (o200k_base tokenizer)',
          ours: String(counted),
          baseline: String(TOKEN_BUDGET),
          ratio: `${((counted / TOKEN_BUDGET) * 100).toFixed(0)}% of budget`,
        },
        {
          measure: `tokens (approx., bytes / ${BYTES_PER_TOKEN})`,
          ours: String(tokens),
          baseline: String(TOKEN_BUDGET),
          ratio: `${((tokens / TOKEN_BUDGET) * 100).toFixed(0)}% of budget`,
        },
      ],
      notes: [
        'One tools/list over a real session (the SDK client, Streamable HTTP), as an agent reads it, icons included.',
      ],
    };
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
