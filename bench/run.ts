/**
 * `npm run bench [-- --quick] [-- --only=a,b]`: runs the scenarios on this machine and writes
 * bench/RESULTS.md; with `--only`, the other scenarios' sections are kept as they were. Not part of `npm test`: timings are measured, never asserted.
 * The soaks run only when named (`--only=soak,soak-shared`): each takes 30 minutes.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { machine, previousSections, renderReport, renderSection, type Section, type Written } from './lib/report.js';
import { agentTasksScenario } from './scenarios/agent-tasks.js';
import { browserScenario } from './scenarios/browser.js';
import { browserInputScenario } from './scenarios/browser-input.js';
import { fanoutScenario } from './scenarios/fanout.js';
import { historyScenario } from './scenarios/history.js';
import { importScenario } from './scenarios/import.js';
import { layoutScenario } from './scenarios/layout.js';
import { manyBoardsScenario } from './scenarios/many-boards.js';
import { mcpScenario } from './scenarios/mcp.js';
import { memoryScenario } from './scenarios/memory.js';
import { previewsScenario } from './scenarios/previews.js';
import { scaleOutScenario } from './scenarios/scale-out.js';
import { snapshotsScenario } from './scenarios/snapshots.js';
import { soakScenario, soakSharedScenario } from './scenarios/soak.js';
import { toolListScenario } from './scenarios/tool-list.js';
import { writesScenario } from './scenarios/writes.js';

const quick = process.argv.includes('--quick');
const scenarios: [string, (quick: boolean) => Promise<Section>][] = [
  ['writes', writesScenario],
  ['fanout', fanoutScenario],
  ['many-boards', manyBoardsScenario],
  ['snapshots', snapshotsScenario],
  ['previews', previewsScenario],
  ['import', importScenario],
  ['memory', memoryScenario],
  ['layout', layoutScenario],
  ['mcp', mcpScenario],
  ['browser', browserScenario],
  ['browser-input', browserInputScenario],
  ['scale-out', scaleOutScenario],
  ['history', historyScenario],
  ['tool-list', toolListScenario],
  ['agent-tasks', agentTasksScenario],
  ['soak', soakScenario],
  ['soak-shared', soakSharedScenario],
];
/** Scenarios too long for the default run: they run only when `--only` names them. */
const ON_DEMAND = new Set(['soak', 'soak-shared']);
const only = process.argv
  .find((arg) => arg.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');

const fresh: Written[] = [];
console.log(`bench: ${machine()}`);
for (const [name, run] of scenarios.filter(([name]) => (only ? only.includes(name) : !ON_DEMAND.has(name)))) {
  process.stdout.write(`bench: ${name}... `);
  const started = Date.now();
  fresh.push(renderSection(name, await run(quick), quick));
  console.log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
const file = join(dirname(fileURLToPath(import.meta.url)), 'RESULTS.md');
const previous = previousSections(await readFile(file, 'utf8').catch(() => ''));
await writeFile(
  file,
  renderReport(
    fresh,
    previous,
    scenarios.map(([name]) => name),
  ),
);
console.log(`bench: wrote ${file}`);
