/**
 * The layer rules of docs/architecture.md (.dependency-cruiser.cjs) catch what
 * they promise to: a small tree with one import of each forbidden kind is
 * cruised with the project's own rules, and each rule must fire. `npm test`
 * runs the same rules over the real tree (`npm run check:layers`).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cruise, type IReporterOutput } from 'dependency-cruiser';
import { afterAll, describe, expect, it } from 'vitest';

const rules = createRequire(import.meta.url)('../.dependency-cruiser.cjs');

const TREE: Record<string, string> = {
  'schema/index.ts': 'export const x = 1;\n',
  'board/pure.ts':
    "import '../adapters/rest/route.js';\nimport { readFileSync } from 'node:fs';\nexport const y = readFileSync;\n",
  'host/boards/boards.ts': "import '../../store/sqlite/store.js';\n",
  'store/sqlite/store.ts': "import '../pg/store.js';\n",
  'store/pg/store.ts': 'export {};\n',
  'adapters/rest/route.ts': "import '../mcp/tools.js';\n",
  'adapters/mcp/tools.ts': "import '../kit/caller.js';\n",
  'adapters/kit/caller.ts': 'export {};\n',
  'web/src/main.ts': "import '../../host/boards/boards.js';\n",
  'circle/a.ts': "import './b.js';\n",
  'circle/b.ts': "import './a.js';\n",
};

describe('layer rules', () => {
  const root = mkdtempSync(join(tmpdir(), 'layers-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('each forbidden import of the architecture page is reported, and an allowed one is not', async () => {
    for (const [path, text] of Object.entries(TREE)) {
      mkdirSync(join(root, dirname(path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const cwd = process.cwd();
    process.chdir(root); // the rules' paths are relative to the project root
    let result: IReporterOutput;
    try {
      result = await cruise(Object.keys(TREE), {
        validate: true,
        ruleSet: { forbidden: rules.forbidden },
        ...rules.options,
        tsConfig: undefined,
      });
    } finally {
      process.chdir(cwd);
    }
    const output = result.output as { summary: { violations: { rule: { name: string }; from: string; to: string }[] } };
    const found = output.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`);
    expect(found).toEqual(
      expect.arrayContaining([
        'board-is-pure: board/pure.ts -> adapters/rest/route.ts',
        'board-is-browser-safe: board/pure.ts -> fs',
        'only-the-app-knows-adapters: board/pure.ts -> adapters/rest/route.ts',
        'host-below-store-and-surfaces: host/boards/boards.ts -> store/sqlite/store.ts',
        'store-engines-apart: store/sqlite/store.ts -> store/pg/store.ts',
        'adapters-apart: adapters/rest/route.ts -> adapters/mcp/tools.ts',
        'browser-imports-board-and-schema: web/src/main.ts -> host/boards/boards.ts',
        expect.stringMatching(/^no-circular: circle\/[ab]\.ts -> circle\/[ab]\.ts$/),
      ]),
    );
    expect(found.filter((line) => line.includes('adapters/kit/'))).toEqual([]);
  });
});
