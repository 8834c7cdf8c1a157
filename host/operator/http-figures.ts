/**
 * The HTTP request figures (`board_http_requests_total` and
 * `board_http_request_duration_seconds`), counted on the request path
 * without allocating and read by prom-client's Registry at scrape time.
 * prom-client's labelled `Counter.inc` and `Histogram.observe` build a label
 * string, check the labels and find the bucket by its bound as a property name
 * on every call, and neither has a call that takes counts made elsewhere. Here a
 * request costs two Map lookups and a few additions; the exposition is the
 * one prom-client writes for its own counter and histogram.
 */

/** The figures of one method and route pattern. */
type RouteTally = {
  readonly method: string;
  readonly route: string;
  /** Answers by status code. */
  readonly statuses: Map<number, number>;
  /** Requests by the first bucket they fit (the last slot: above every bound). */
  readonly buckets: Float64Array;
  sum: number;
  count: number;
};

type Sample = { labels: Record<string, string | number>; value: number; metricName?: string };

/** What prom-client's Registry reads of a metric: its name, help and type, and its samples on `get`. */
export type Scraped = {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  aggregator: 'sum';
  get(): Promise<{ name: string; help: string; type: 'counter' | 'histogram'; aggregator: 'sum'; values: Sample[] }>;
  reset(): void;
};

export class HttpFigures {
  private readonly byMethod = new Map<string, Map<string, RouteTally>>();

  /** @param bounds the histogram's bucket upper bounds in seconds, ascending. */
  constructor(private readonly bounds: readonly number[]) {}

  served(method: string, route: string, status: number, seconds: number): void {
    let routes = this.byMethod.get(method);
    if (!routes) this.byMethod.set(method, (routes = new Map()));
    let tally = routes.get(route);
    if (!tally)
      routes.set(
        route,
        (tally = {
          method,
          route,
          statuses: new Map(),
          buckets: new Float64Array(this.bounds.length + 1),
          sum: 0,
          count: 0,
        }),
      );
    tally.statuses.set(status, (tally.statuses.get(status) ?? 0) + 1);
    let bucket = 0;
    while (bucket < this.bounds.length && seconds > this.bounds[bucket]) bucket++;
    tally.buckets[bucket]++;
    tally.sum += seconds;
    tally.count++;
  }

  /** The two metrics, as a prom-client Registry reads them. */
  metrics(): Scraped[] {
    const requests = this.scraped(
      'board_http_requests_total',
      'HTTP requests answered, by route pattern and status',
      'counter',
      () =>
        this.tallies().flatMap(({ method, route, statuses }) =>
          [...statuses].map(([status, value]) => ({ labels: { method, route, status: String(status) }, value })),
        ),
    );
    const name = 'board_http_request_duration_seconds';
    const duration = this.scraped(name, 'HTTP request latency, by route pattern', 'histogram', () =>
      this.tallies().flatMap(({ method, route, buckets, sum, count }) => {
        let below = 0;
        const samples: Sample[] = this.bounds.map((le, i) => ({
          labels: { le, method, route },
          value: (below += buckets[i]),
          metricName: `${name}_bucket`,
        }));
        samples.push({ labels: { le: '+Inf', method, route }, value: count, metricName: `${name}_bucket` });
        samples.push(
          { labels: { method, route }, value: sum, metricName: `${name}_sum` },
          { labels: { method, route }, value: count, metricName: `${name}_count` },
        );
        return samples;
      }),
    );
    return [requests, duration];
  }

  private tallies(): RouteTally[] {
    return [...this.byMethod.values()].flatMap((routes) => [...routes.values()]);
  }

  private scraped(name: string, help: string, type: Scraped['type'], values: () => Sample[]): Scraped {
    return {
      name,
      help,
      type,
      aggregator: 'sum',
      get: async () => ({ name, help, type, aggregator: 'sum', values: values() }),
      // Both metrics read one tally, so a reset of either resets both (the Registry's resetMetrics resets every metric).
      reset: () => this.byMethod.clear(),
    };
  }
}
