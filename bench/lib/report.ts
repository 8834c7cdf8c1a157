/** The shape of bench/RESULTS.md: one section per scenario, every figure beside its same-run baseline. */
import os from 'node:os';

export type Row = { measure: string; ours: string; baseline: string; ratio: string; note?: string };

export type Section = { title: string; baseline: string; rows: Row[]; notes?: string[] };

export function machine(): string {
  const cpus = os.cpus();
  return `${cpus.length} x ${cpus[0]?.model ?? 'unknown CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.platform()} ${os.release()}, Node ${process.version}`;
}

export function renderReport(sections: Section[], quick: boolean): string {
  const out = [
    '# Benchmark results',
    '',
    `Written by \`npm run bench${quick ? ' -- --quick' : ''}\` on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
    `Machine: ${machine()}.`,
    quick ? 'Mode: **quick** (few runs; figures are indicative only).' : 'Mode: full.',
    '',
    'Every figure is measured against a baseline taken in the same run on the same machine; the ratio is ours / baseline',
    '(for times, lower is better). Times are milliseconds unless a unit says otherwise. The service runs as `npm start`',
    'runs it, built from the sources by tsc at the start of the run; the baselines run through tsx.',
  ];
  for (const section of sections) {
    out.push('', `## ${section.title}`, '', `Baseline: ${section.baseline}`, '');
    out.push('| Measure | Ours | Baseline | Ratio | Note |', '|---|---|---|---|---|');
    for (const row of section.rows)
      out.push(`| ${row.measure} | ${row.ours} | ${row.baseline} | ${row.ratio} | ${row.note ?? ''} |`);
    if (section.notes?.length) out.push('', ...section.notes.map((note) => `- ${note}`));
  }
  return `${out.join('\n')}\n`;
}
