/**
 * `npm run bench [-- --quick]`: runs every scenario on this machine and writes
 * bench/RESULTS.md. Not part of `npm test`: timings are measured, never asserted.
 */
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderReport, type Section } from './lib/report.js';
import { browserScenario } from './scenarios/browser.js';
import { fanoutScenario } from './scenarios/fanout.js';
import { importScenario } from './scenarios/import.js';

const quick = process.argv.includes('--quick');
const scenarios: [string, (quick: boolean) => Promise<Section>][] = [
  ['import', importScenario],
  ['fanout', fanoutScenario],
  ['browser', browserScenario],
];

const sections: Section[] = [];
for (const [name, run] of scenarios) {
  process.stdout.write(`bench: ${name}... `);
  const started = Date.now();
  sections.push(await run(quick));
  console.log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
const file = join(dirname(fileURLToPath(import.meta.url)), 'RESULTS.md');
await writeFile(file, renderReport(sections, quick));
console.log(`bench: wrote ${file}`);
