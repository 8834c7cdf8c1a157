/** The package ships no types: what test/helpers/metrics.ts reads of its output (prom2json's shape). */
declare module 'parse-prometheus-text-format' {
  export type Sample = {
    labels?: Record<string, string>;
    value?: string;
  };
  export type Family = {
    name: string;
    help: string;
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    metrics: Sample[];
  };
  export default function parsePrometheusTextFormat(text: string): Family[];
}
