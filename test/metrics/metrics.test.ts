import { describe, expect, it } from 'vitest';
import { Metrics } from '../../src/metrics/metrics.js';

const scrape = async (metrics: Metrics) => (await metrics.registry.metrics()).split('\n');

describe('the metrics of a server', () => {
  it('labels request durations by method, route template and status, collapsing unknown methods to _OTHER', async () => {
    const metrics = new Metrics({ processMetrics: false });
    metrics.observeRequest('GET', '/v1/pets', 200, 0.002);
    metrics.observeRequest('HEAD', '/v1/pets', 200, 0.002);
    metrics.observeRequest('PROPFIND', 'unmatched', 404, 0.001);
    metrics.observeRequest('get', 'unmatched', 404, 0.001);
    const lines = await scrape(metrics);
    const count = (method: string, route: string, status: number) =>
      lines.find((line) =>
        line.startsWith(
          `http_server_request_duration_seconds_count{http_request_method="${method}",http_route="${route}",http_response_status_code="${status}"}`,
        ),
      );
    expect(count('GET', '/v1/pets', 200)).toMatch(/ 1$/);
    expect(count('HEAD', '/v1/pets', 200)).toMatch(/ 1$/);
    // Methods are case-sensitive (RFC 9110): "get" is not GET.
    expect(count('_OTHER', 'unmatched', 404)).toMatch(/ 2$/);
    expect(lines.join('\n')).not.toContain('PROPFIND');
  });

  it('counts Error objects by code', async () => {
    const metrics = new Metrics({ processMetrics: false });
    metrics.countError('missing_api_key');
    metrics.countError('missing_api_key');
    metrics.countError('validation_failed');
    const lines = await scrape(metrics);
    expect(lines).toContain('http_server_error_responses_total{code="missing_api_key"} 2');
    expect(lines).toContain('http_server_error_responses_total{code="validation_failed"} 1');
  });

  it("reads a PostgreSQL pool's connections at every scrape", async () => {
    const metrics = new Metrics({ processMetrics: false });
    const pool = { total: 4, idle: 1, waiting: 0, max: 10 };
    metrics.storage.observePool(() => pool);
    let lines = await scrape(metrics);
    expect(lines).toContain('db_client_connection_count{db_client_connection_state="used"} 3');
    expect(lines).toContain('db_client_connection_count{db_client_connection_state="idle"} 1');
    expect(lines).toContain('db_client_connection_pending_requests 0');
    expect(lines).toContain('db_client_connection_max 10');
    Object.assign(pool, { total: 10, idle: 0, waiting: 7 });
    lines = await scrape(metrics);
    expect(lines).toContain('db_client_connection_count{db_client_connection_state="used"} 10');
    expect(lines).toContain('db_client_connection_pending_requests 7');
  });

  it('observes commits, their latency and writes per batch, from the first commit on', async () => {
    const metrics = new Metrics({ processMetrics: false });
    expect((await scrape(metrics)).join('\n')).not.toContain('db_client_commit');
    metrics.storage.observeCommit(1, 0.0007);
    metrics.storage.observeCommit(12, 0.003);
    const lines = await scrape(metrics);
    expect(lines).toContain('db_client_commit_duration_seconds_bucket{le="0.001"} 1');
    expect(lines).toContain('db_client_commit_duration_seconds_bucket{le="0.005"} 2');
    expect(lines).toContain('db_client_commit_duration_seconds_count 2');
    expect(lines).toContain('db_client_commit_writes_bucket{le="1"} 1');
    expect(lines).toContain('db_client_commit_writes_bucket{le="16"} 2');
    expect(lines).toContain('db_client_commit_writes_sum 13');
  });

  it("includes Node's process and runtime metrics", async () => {
    const text = (await scrape(new Metrics())).join('\n');
    for (const name of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect(text).toContain(`# TYPE ${name} `);
    }
  });
});
