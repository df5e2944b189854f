import { Registry, type Metric } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { HTTP_DURATION_BUCKETS, RequestDurationHistogram } from '../../src/metrics/request-histogram.js';

async function render(histogram: RequestDurationHistogram): Promise<string[]> {
  const registry = new Registry();
  registry.registerMetric(histogram as unknown as Metric);
  return (await registry.metrics()).trim().split('\n');
}

describe('the request duration histogram', () => {
  it('renders cumulative buckets, +Inf, sum and count per label combination, in the Prometheus text format', async () => {
    const histogram = new RequestDurationHistogram();
    histogram.observe('GET', '/v1/pets/{petId}', 200, 0.004);
    histogram.observe('GET', '/v1/pets/{petId}', 200, 0.005); // on a bound: counted in that bucket
    histogram.observe('GET', '/v1/pets/{petId}', 200, 0.3);
    histogram.observe('GET', '/v1/pets/{petId}', 200, 11); // beyond the last bound: +Inf only
    histogram.observe('POST', '/v1/pets', 201, 0.02);
    const lines = await render(histogram);
    const labels = 'http_request_method="GET",http_route="/v1/pets/{petId}",http_response_status_code="200"';
    expect(lines).toContain('# TYPE http_server_request_duration_seconds histogram');
    expect(lines).toContain(`http_server_request_duration_seconds_bucket{${labels},le="0.005"} 2`);
    expect(lines).toContain(`http_server_request_duration_seconds_bucket{${labels},le="0.25"} 2`);
    expect(lines).toContain(`http_server_request_duration_seconds_bucket{${labels},le="0.5"} 3`);
    expect(lines).toContain(`http_server_request_duration_seconds_bucket{${labels},le="10"} 3`);
    expect(lines).toContain(`http_server_request_duration_seconds_bucket{${labels},le="+Inf"} 4`);
    expect(lines).toContain(`http_server_request_duration_seconds_count{${labels}} 4`);
    const sum = lines.find((line) => line.startsWith(`http_server_request_duration_seconds_sum{${labels}}`))!;
    expect(Number(sum.split(' ')[1])).toBeCloseTo(11.309, 6);
    expect(lines).toContain(
      'http_server_request_duration_seconds_count{http_request_method="POST",http_route="/v1/pets",http_response_status_code="201"} 1',
    );
    // One line per bucket, +Inf, sum and count, for each of the two combinations.
    expect(lines.filter((line) => line.startsWith('http_server_request_duration_seconds'))).toHaveLength(
      2 * (HTTP_DURATION_BUCKETS.length + 3),
    );
  });

  it('has the buckets OpenTelemetry advises for HTTP server durations', () => {
    expect(HTTP_DURATION_BUCKETS).toEqual([0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10]);
  });

  it('starts again empty after a reset', async () => {
    const histogram = new RequestDurationHistogram();
    histogram.observe('GET', '/healthz', 200, 0.001);
    histogram.reset();
    expect((await render(histogram)).filter((line) => !line.startsWith('#'))).toEqual([]);
  });
});
