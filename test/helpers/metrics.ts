/** Scrapes /metrics over real HTTP and reads figures out of the Prometheus text format. */
import parsePrometheusTextFormat, { type Family, type Sample } from 'parse-prometheus-text-format';

export type Scrape = {
  status: number;
  headers: Headers;
  text: string;
  families: Family[];
  /** The sum of the samples of `name` whose labels include `labels` (0 when none); a histogram's are `<name>_count`, `_sum`, `_bucket`. */
  value(name: string, labels?: Record<string, string>): number;
  /** Every label value of every sample. */
  labelValues(): string[];
};

const matches = (sample: Sample, labels: Record<string, string>) =>
  Object.entries(labels).every(([name, value]) => sample.labels?.[name] === value);

export async function scrape(url: string, headers: Record<string, string> = {}): Promise<Scrape> {
  const response = await fetch(url, { headers });
  const text = await response.text();
  // The parser folds a histogram's series into one unlabelled sample: read as untyped, its _count, _sum and _bucket keep their labels.
  const families =
    response.status === 200 ? parsePrometheusTextFormat(text.replace(/^(# TYPE \S+) histogram$/gm, '$1 untyped')) : [];
  return {
    status: response.status,
    headers: response.headers,
    text,
    families,
    value(name, labels = {}) {
      // A histogram read as untyped comes as one family per label set.
      const samples = families.filter((family) => family.name === name).flatMap((family) => family.metrics);
      return samples
        .filter((sample) => matches(sample, labels))
        .reduce((sum, sample) => sum + Number(sample.value ?? 0), 0);
    },
    labelValues: () =>
      families.flatMap((family) => family.metrics.flatMap((sample) => Object.values(sample.labels ?? {}))),
  };
}
