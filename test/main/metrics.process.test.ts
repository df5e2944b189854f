import { describe, expect, it } from 'vitest';
import { backends } from '../support/backends.js';
import { contractFetch, runKeys, startServerWithMetrics } from '../support/processes.js';

/** The value of one sample line of a Prometheus text exposition, or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe.each(backends)('the metrics of the built server [$name]', (backend) => {
  it('are served on their own listener, which it logs, and never on the API port', async () => {
    const env = { DATABASE_URL: await backend.createDatabaseUrl() };
    const key = runKeys(['create', '--account', 'metrics'], env).stdout.trim().split('\n').at(-1)!;
    const { server, metricsUrl } = await startServerWithMetrics(env);
    try {
      expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      expect(new URL(metricsUrl).port).not.toBe(new URL(server.baseUrl).port);
      // The first address the log names is the API's, for whatever reads the first `url` to find it.
      expect(/"url":"([^"]+)"/.exec(server.output.join('\n'))?.[1]).toBe(server.baseUrl);
      const auth = { Authorization: `Bearer ${key}` };
      await contractFetch(`${server.baseUrl}/pets`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Rex', categoryId: 3 }),
      });
      await contractFetch(`${server.baseUrl}/pets/1`, { headers: auth });
      await contractFetch(`${server.baseUrl}/pets/2`, { headers: auth });
      await contractFetch(`${server.baseUrl}/pets`);
      // The API's port has no /metrics, whatever the key.
      const origin = new URL(server.baseUrl).origin;
      const onApiPort = await contractFetch(`${origin}/metrics`, { headers: auth });
      expect(onApiPort.status).toBe(404);
      expect(onApiPort.body).toMatchObject({ code: 'route_not_found' });

      const response = await fetch(metricsUrl);
      expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      const text = await response.text();
      const duration = (method: string, route: string, status: number) =>
        sample(
          text,
          `http_server_request_duration_seconds_count{http_request_method="${method}",http_route="${route}",http_response_status_code="${status}"}`,
        );
      expect(duration('POST', '/v1/pets', 201)).toBe(1);
      expect(duration('GET', '/v1/pets/{petId}', 200)).toBe(1);
      expect(duration('GET', '/v1/pets/{petId}', 404)).toBe(1);
      expect(duration('GET', '/v1/pets', 401)).toBe(1);
      expect(duration('GET', 'unmatched', 404)).toBe(1);
      expect(sample(text, 'http_server_error_responses_total{code="pet_not_found"}')).toBe(1);
      expect(sample(text, 'http_server_error_responses_total{code="missing_api_key"}')).toBe(1);
      expect(sample(text, 'http_server_error_responses_total{code="route_not_found"}')).toBe(1);
      expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
      expect(text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
      if (backend.name === 'postgres') {
        expect(sample(text, 'db_client_connection_max')).toBe(10);
        expect(sample(text, 'db_client_connection_count{db_client_connection_state="idle"}')).toBeGreaterThanOrEqual(1);
        expect(sample(text, 'db_client_connection_pending_requests')).toBe(0);
      } else {
        expect(sample(text, 'db_client_commit_duration_seconds_count')).toBeGreaterThanOrEqual(1);
      }
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
