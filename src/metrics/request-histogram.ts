/** OpenTelemetry's advice for http.server.request.duration, in seconds. */
export const HTTP_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10] as const;

/** A sample as prom-client's Registry renders it. */
interface Sample {
  metricName: string;
  labels: Record<string, string | number>;
  value: number;
}

/** One label combination's observations: a count per bucket (not cumulative), their sum and count. */
interface Series {
  method: string;
  route: string;
  status: number;
  buckets: Float64Array;
  sum: number;
  count: number;
}

/**
 * The `http_server_request_duration_seconds` histogram, labelled as OpenTelemetry's HTTP semantic
 * conventions name them, registered with a prom-client Registry as a custom metric. It is observed
 * once per request, on the hot path: prom-client's own Histogram builds and hashes a label string on
 * every observation, where this finds the series through three map lookups on values that are
 * already interned (the route comes from a fixed table, the method from a fixed set) and allocates
 * nothing once a combination has been seen.
 */
export class RequestDurationHistogram {
  readonly name = 'http_server_request_duration_seconds';
  readonly help = 'Duration of HTTP server requests, from the first middleware to the end of the response.';
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly byRoute = new Map<string, Map<string, Map<number, Series>>>();

  observe(method: string, route: string, status: number, seconds: number): void {
    let byMethod = this.byRoute.get(route);
    if (!byMethod) this.byRoute.set(route, (byMethod = new Map<string, Map<number, Series>>()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map<number, Series>()));
    let series = byStatus.get(status);
    if (!series) {
      series = { method, route, status, buckets: new Float64Array(HTTP_DURATION_BUCKETS.length), sum: 0, count: 0 };
      byStatus.set(status, series);
    }
    let bucket = 0;
    while (bucket < HTTP_DURATION_BUCKETS.length && seconds > HTTP_DURATION_BUCKETS[bucket]!) bucket += 1;
    if (bucket < HTTP_DURATION_BUCKETS.length) series.buckets[bucket]! += 1;
    series.sum += seconds;
    series.count += 1;
  }

  /** In prom-client's format, for its Registry to render (cumulative buckets, +Inf, _sum, _count). */
  get(): Promise<{ name: string; help: string; type: string; aggregator: string; values: Sample[] }> {
    const values: Sample[] = [];
    for (const byMethod of this.byRoute.values()) {
      for (const byStatus of byMethod.values()) {
        for (const { method, route, status, buckets, sum, count } of byStatus.values()) {
          const labels = { http_request_method: method, http_route: route, http_response_status_code: status };
          let cumulative = 0;
          HTTP_DURATION_BUCKETS.forEach((bound, index) => {
            cumulative += buckets[index]!;
            values.push({ metricName: `${this.name}_bucket`, labels: { ...labels, le: bound }, value: cumulative });
          });
          values.push({ metricName: `${this.name}_bucket`, labels: { ...labels, le: '+Inf' }, value: count });
          values.push({ metricName: `${this.name}_sum`, labels, value: sum });
          values.push({ metricName: `${this.name}_count`, labels, value: count });
        }
      }
    }
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values });
  }

  reset(): void {
    this.byRoute.clear();
  }
}
