/**
 * /openapi.json passes Redocly's `recommended` ruleset with no error and no
 * warning. The linter is the locally installed @redocly/cli, run on this Node
 * from a temp directory (so no stray redocly.yaml can switch a rule off).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { useServer } from './helpers/server.js';

const t = useServer();
const run = promisify(execFile);
const cli = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin', 'cli.js');

type Problem = { ruleId: string; severity: string; message: string; location: { pointer: string }[] };
type Report = { totals: { errors: number; warnings: number; ignored: number }; problems: Problem[] };

let dir: string | undefined;
afterAll(() => dir && rm(dir, { recursive: true, force: true }));

/** Lints a document with the recommended ruleset and returns Redocly's JSON report. */
async function lint(document: unknown): Promise<Report> {
  dir ??= await mkdtemp(join(tmpdir(), 'openapi-lint-'));
  const file = join(dir, 'openapi.json');
  await writeFile(file, JSON.stringify(document, null, 2));
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
  // Exit code 1 means problems were found: the report is still on stdout.
  const { stdout } = await run(process.execPath, [cli, 'lint', file, '--extends=recommended', '--format=json'], {
    cwd: dir,
    env,
  }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  return JSON.parse(stdout.slice(stdout.indexOf('{')));
}

const summary = (report: Report) =>
  report.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`).join('\n');

describe('/openapi.json under Redocly lint (recommended)', () => {
  it('has no problem of any severity', async () => {
    const { body } = await t.api.get('/openapi.json');
    const report = await lint(body);
    expect(summary(report)).toBe('');
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
  }, 60_000);

  it('does report a problem (the linter really runs)', async () => {
    const { body } = await t.api.get('/openapi.json');
    delete body.info.license;
    delete body.paths['/healthz'].get.security;
    const report = await lint(body);
    expect(report.problems.map((p) => p.ruleId)).toEqual(expect.arrayContaining(['info-license', 'security-defined']));
  }, 60_000);
});
