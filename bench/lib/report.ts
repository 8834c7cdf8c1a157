/** The shape of bench/RESULTS.md: one section per scenario, every figure beside its same-run baseline. */
import os from 'node:os';

export type Row = { measure: string; ours: string; baseline: string; ratio: string; note?: string };

/** A table of figures over time, one row a sample (the soak's). */
export type Samples = { caption: string; columns: string[]; rows: string[][] };

export type Section = { title: string; baseline: string; rows: Row[]; samples?: Samples; notes?: string[] };

/** A scenario's section as written: its name and when it ran travel with it, so a partial run can keep the rest. */
export type Written = { scenario: string; text: string };

const MARKER = /^<!-- scenario: ([\w-]+) -->$/m;

export function machine(): string {
  const cpus = os.cpus();
  return `${cpus.length} x ${cpus[0]?.model ?? 'unknown CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.platform()} ${os.release()}, Node ${process.version}`;
}

function stamp(): string {
  return new Date().toISOString().slice(0, 16).replace('T', ' ');
}

export function renderSection(scenario: string, section: Section, quick: boolean): Written {
  const out = [`<!-- scenario: ${scenario} -->`, `## ${section.title}`, ''];
  out.push(`Measured on ${stamp()} UTC${quick ? ' in **quick** mode (few runs; indicative only)' : ''}.`, '');
  out.push(`Baseline: ${section.baseline}`, '');
  out.push('| Measure | Ours | Baseline | Ratio | Note |', '|---|---|---|---|---|');
  for (const row of section.rows)
    out.push(`| ${row.measure} | ${row.ours} | ${row.baseline} | ${row.ratio} | ${row.note ?? ''} |`);
  if (section.samples) {
    const { caption, columns, rows } = section.samples;
    out.push('', caption, '', `| ${columns.join(' | ')} |`, `|${columns.map(() => '---').join('|')}|`);
    for (const row of rows) out.push(`| ${row.join(' | ')} |`);
  }
  if (section.notes?.length) out.push('', ...section.notes.map((note) => `- ${note}`));
  return { scenario, text: out.join('\n') };
}

/** The sections of an earlier RESULTS.md, each under the scenario name it was written with. */
export function previousSections(report: string): Written[] {
  return report
    .split(/\n(?=<!-- scenario: )/)
    .slice(1)
    .flatMap((chunk) => {
      const name = MARKER.exec(chunk)?.[1];
      return name ? [{ scenario: name, text: chunk.trimEnd() }] : [];
    });
}

/** The whole report, in `order`: a scenario run now replaces its earlier section, the others are kept as they were. */
export function renderReport(fresh: Written[], previous: Written[], order: string[]): string {
  const byName = new Map([...previous, ...fresh].map((section) => [section.scenario, section.text]));
  const out = [
    '# Benchmark results',
    '',
    `Written by \`npm run bench\` on ${stamp()} UTC (${fresh.map((section) => section.scenario).join(', ')}); each section says when it was measured.`,
    `Machine: ${machine()}.`,
    '',
    'Every figure is measured against a baseline taken in the same run on the same machine; the ratio is ours / baseline',
    '(for times, lower is better). Times are milliseconds unless a unit says otherwise. The service runs as `npm start`',
    'runs it, built from the sources by tsc at the start of the run; the baselines run through tsx.',
  ];
  for (const name of order) {
    const text = byName.get(name);
    if (text) out.push('', text);
  }
  return `${out.join('\n')}\n`;
}
