/**
 * The supported runtime (issue "Current Node LTS"): Node ^22.20 || ^24.12 || >=26. The
 * project and every locked dependency agree on it, and a start on an older Node
 * stops with one line rather than a native module's stack trace.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { SUPPORTED_NODE, unsupportedNodeMessage } from '../app/node-version.js';

const ROOT = join(import.meta.dirname, '..');
const readJson = (file: string) => JSON.parse(readFileSync(join(ROOT, file), 'utf8'));

describe('the supported Node', () => {
  it('is ^22.20 || ^24.12 || >=26 in package.json and in the check at start', () => {
    expect(readJson('package.json').engines.node).toBe(SUPPORTED_NODE);
    expect(SUPPORTED_NODE).toBe('^22.20 || ^24.12 || >=26');
    for (const old of ['20.20.2', '22.12.0', '22.19.1', '23.11.0', '24.11.0', '25.2.0', '18.20.0'])
      expect(unsupportedNodeMessage(old)).toMatch(/Node 22\.20\+, 24\.12\+ or 26\+ is needed.*this is Node /);
    for (const fine of ['22.20.0', '24.12.0', '26.10.0']) expect(unsupportedNodeMessage(fine)).toBeUndefined();
  });

  it('runs this suite', () => {
    expect(unsupportedNodeMessage(process.versions.node)).toBeUndefined();
  });

  it('is accepted by every locked dependency that is installed here (no EBADENGINE at the low end of each line, nor on 26)', () => {
    const packages: Record<string, { engines?: { node?: string } | string[] }> = readJson('package-lock.json').packages;
    const disagreeing: string[] = [];
    for (const [path, entry] of Object.entries(packages)) {
      const range = !Array.isArray(entry.engines) ? entry.engines?.node : undefined;
      // Other platforms' optional builds are locked but not installed, and npm checks only what it installs.
      if (!path || !range || !existsSync(join(ROOT, path))) continue;
      for (const version of ['22.20.0', '24.12.0', '26.10.0']) {
        if (!semver.satisfies(version, range, { includePrerelease: true }))
          disagreeing.push(`${path} wants node ${range}, not ${version}`);
      }
    }
    expect(disagreeing).toEqual([]);
  });
});

// The machine this project is set up on ships Node 20.20 as /usr/bin/node: the real old runtime to start on.
const oldNode = ['/usr/bin/node', '/usr/local/bin/node'].find((candidate) => {
  if (!existsSync(candidate)) return false;
  const version = execFileSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
  return unsupportedNodeMessage(version) !== undefined;
});

describe.runIf(oldNode)(`a start on an unsupported Node (${oldNode})`, () => {
  it('stops with one clear line and exit code 1, before any native module loads', () => {
    const started = spawnSync(oldNode!, ['--import', 'tsx', join(ROOT, 'app/main.ts')], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, PORT: '0', DATA_DIR: join(ROOT, '.scratch/never-created') },
      timeout: 60_000,
    });
    expect(started.status).toBe(1);
    const lines = started.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^board service: Node 22\.20\+, 24\.12\+ or 26\+ is needed \(Node 26 recommended\); this is Node 20\./,
    );
    expect(started.stdout).toBe('');
  });
});
