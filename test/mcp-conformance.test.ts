/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance) against
 * the real server, once per requirement set: 2025-11-25 on the initialize +
 * Mcp-Session-Id wire, 2026-07-28 on the stateless wire (server/discover,
 * per-request _meta). Every scenario a set scores must pass except those listed
 * in mcp-conformance-expected-failures.yml, which need the suite's own fixtures.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useServer } from './helpers/server.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SUITE = join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const BASELINE = join(ROOT, 'test/mcp-conformance-expected-failures.yml');
const REQUIREMENT_SETS = ['2025-11-25', '2026-07-28'] as const;
/** Per scenario; the slowest wait for stream frames for 1.5 s, a hung one must not stall the file. */
const SCENARIO_TIMEOUT_MS = 15_000;
/** One whole set: about a second today, at most a download of Node on a fresh clone. */
const RUN_TIMEOUT_MS = 180_000;

type Check = { id: string; status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO'; errorMessage?: string };
type Run = { code: number | null; output: string };

const t = useServer();
/** The suite runs on the Node that runs this test (the project's supported runtime has the fs.globSync it needs). */
const node = process.execPath;

describe.each(REQUIREMENT_SETS)('MCP conformance, requirement set %s', (revision) => {
  it(
    'passes every scored scenario except the listed fixture ones',
    async () => {
      const outputDir = await mkdtemp(join(tmpdir(), 'mcp-conformance-'));
      try {
        const run = await runSuite(revision, outputDir);
        const summary = summaryOf(run.output);
        const scored = scoredScenarios(revision);
        const excused = await baselineEntries();
        // The suite's exit code judges the same thing; this list says which check broke and why.
        const unexpected = (await failingChecks(outputDir))
          .filter(
            ({ scenario, check }) =>
              scored.has(scenario) && !excused.has(scenario) && !excused.has(`${scenario}:${check.id}`),
          )
          .map(({ scenario, check }) => `${scenario}:${check.id} ${check.status}: ${check.errorMessage ?? ''}`.trim());
        expect(unexpected, `unexpected failures under ${revision}\n${summary}`).toEqual([]);
        expect(run.code, `conformance suite exit code under ${revision}\n${summary}`).toBe(0);
      } finally {
        await rm(outputDir, { recursive: true, force: true });
      }
    },
    RUN_TIMEOUT_MS,
  );
});

/** Runs one requirement set with the baseline; results go to outputDir, not ./results. */
function runSuite(revision: string, outputDir: string): Promise<Run> {
  const args = [
    SUITE,
    'server',
    '--url',
    `${t.server.url}/mcp`,
    '--requirements',
    revision,
    '--expected-failures',
    BASELINE,
    '--timeout',
    String(SCENARIO_TIMEOUT_MS),
    '--output-dir',
    outputDir,
  ];
  // Vitest's NODE_OPTIONS (loaders for Node 20) must not reach another Node.
  const { NODE_OPTIONS: _ignored, ...env } = process.env;
  return new Promise((resolve) => {
    execFile(
      node,
      args,
      { cwd: ROOT, env: { ...env, NO_COLOR: '1' }, timeout: RUN_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, output: `${stdout}${stderr}` });
      },
    );
  });
}

/** Every failing or warning check (the suite counts a warning as a failure) per scenario, from checks.json. */
async function failingChecks(outputDir: string): Promise<{ scenario: string; check: Check }[]> {
  const failing: { scenario: string; check: Check }[] = [];
  for (const entry of await readdir(outputDir)) {
    // server-<scenario>-<ISO timestamp with dashes>
    const scenario = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(entry)?.[1];
    if (!scenario) continue;
    const checks = JSON.parse(await readFile(join(outputDir, entry, 'checks.json'), 'utf8')) as Check[];
    for (const check of checks) {
      if (check.status === 'FAILURE' || check.status === 'WARNING') failing.push({ scenario, check });
    }
  }
  return failing;
}

/** The summary the suite prints at the end (per-scenario counts, the baseline verdict), without colours. */
function summaryOf(output: string): string {
  const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
  const start = plain.indexOf('=== SUMMARY ===');
  return start < 0 ? plain.slice(-8_000) : plain.slice(start);
}

/**
 * The server scenarios a requirement set scores, as the suite lists them. The
 * others it runs (extensions, pending ones) cannot fail a run, so their
 * failures are not ours to list.
 */
function scoredScenarios(revision: string): Set<string> {
  const listing = execFileSync(node, [SUITE, 'list', '--requirements', revision], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '', NO_COLOR: '1' },
  });
  const server = listing.slice(listing.indexOf('Server scenarios'), listing.indexOf('Client scenarios'));
  return new Set([...server.matchAll(/^\s+- (\S+)$/gm)].map((m) => m[1]!));
}

/** The entries of the expected-failures file: `scenario` or `scenario:check-id`. */
async function baselineEntries(): Promise<Set<string>> {
  const text = await readFile(BASELINE, 'utf8');
  return new Set([...text.matchAll(/^\s+-\s+([^\s#]+)/gm)].map((m) => m[1]!));
}
