#!/usr/bin/env node
// Drives one server with autocannon for one scenario and prints the result as one JSON line. Run in
// its own process so that the runner can pin it to the other core than the server's.
import autocannon from 'autocannon';

const { origin, basePath, scenario, apiKey, connections, duration } = JSON.parse(process.argv[2]);

const path = basePath + scenario.path;
const request = { method: scenario.method, path };
if (scenario.body) request.body = JSON.stringify(scenario.body);
if (scenario.ids) {
  // A different existing pet each time, so the lookup is not one cached row.
  request.setupRequest = (req) => ({ ...req, path: path.replace('{id}', String(1 + Math.floor(Math.random() * scenario.ids))) });
}

// autocannon's own histogram keeps whole milliseconds; at these speeds p50 is 1 to 3 ms, so the
// percentiles are taken from each response's duration (fractional ms) instead.
const latencies = [];
const result = await autocannon({
  setupClient: (client) => client.on('response', (status, _bytes, duration) => status === scenario.expect && latencies.push(duration)),
  url: origin,
  connections,
  duration,
  headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
  requests: [request],
});

latencies.sort((a, b) => a - b);
const percentile = (p) =>
  latencies.length
    ? Math.round(latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] * 100) / 100
    : undefined;

const statuses = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, count]));
process.stdout.write(
  `${JSON.stringify({
    // Total over elapsed time rather than autocannon's per-second average: the same over 10 s, and
    // still meaningful for the sub-second runs of the quick mode (which may have no whole second).
    requestsPerSecond: Math.round(result.requests.total / result.duration),
    total: result.requests.total,
    p50: percentile(50),
    p99: percentile(99),
    max: latencies.at(-1),
    errors: result.errors,
    timeouts: result.timeouts,
    unexpected: Object.entries(statuses).reduce((sum, [code, count]) => sum + (Number(code) === scenario.expect ? 0 : count), 0),
    statuses,
  })}\n`,
);
