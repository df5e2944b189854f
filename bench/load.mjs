#!/usr/bin/env node
// Drives one server with autocannon for one scenario and prints the result as one JSON line. Run in
// its own process so that the runner can pin it to the other core than the server's.
import autocannon from 'autocannon';
import { percentiles } from './percentiles.mjs';

// `amount` (a fixed number of requests) instead of `duration`, and a `timeout` in seconds other than
// autocannon's 10: bench/cost.mjs.
const { origin, basePath, scenario, apiKey, connections, duration, amount, timeout } = JSON.parse(process.argv[2]);

const requests = scenario.requests.map((request) => {
  const path = basePath + request.path;
  const sent = { method: request.method, path };
  if (request.body) sent.body = JSON.stringify(request.body);
  if (request.contentType) sent.headers = { 'content-type': request.contentType };
  // A different existing pet each time, so the lookup is not one cached row.
  if (request.ids)
    sent.setupRequest = (req) => ({ ...req, path: path.replace('{id}', String(1 + Math.floor(Math.random() * request.ids))) });
  // The pet this connection added last (autocannon's context is the connection's).
  if (path.includes('{created}'))
    sent.setupRequest = (req, context) => ({ ...req, path: path.replace('{created}', String(context.created)) });
  if (request.remember)
    sent.onResponse = (status, body, context) => {
      if (status === request.expect) context.created = JSON.parse(body).id;
    };
  return sent;
});

// autocannon's own histogram keeps whole milliseconds; at these speeds p50 is 1 to 3 ms, so the
// percentiles are taken from each response's duration (fractional ms) instead, by operation: a
// connection sends the scenario's requests in order, one at a time, so its n-th response answers
// its n-th request.
const latencies = Object.fromEntries(scenario.requests.map((request) => [request.op, []]));
const result = await autocannon({
  setupClient: (client) => {
    let sent = 0;
    client.on('response', (status, _bytes, took) => {
      const request = scenario.requests[sent++ % scenario.requests.length];
      if (status === request.expect) latencies[request.op].push(took);
    });
  },
  url: origin,
  connections,
  ...(amount ? { amount } : { duration }),
  ...(timeout ? { timeout } : {}),
  headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
  requests,
});

const expected = new Set(scenario.requests.map((request) => request.expect));
const statuses = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, count]));
process.stdout.write(
  `${JSON.stringify({
    // Total over elapsed time rather than autocannon's per-second average: the same over 10 s, and
    // still meaningful for the sub-second runs of the quick mode (which may have no whole second).
    requestsPerSecond: Math.round(result.requests.total / result.duration),
    total: result.requests.total,
    ...percentiles(Object.values(latencies).flat()),
    byOperation: Object.fromEntries(Object.entries(latencies).map(([op, values]) => [op, percentiles(values)])),
    errors: result.errors,
    timeouts: result.timeouts,
    unexpected: Object.entries(statuses).reduce((sum, [code, count]) => sum + (expected.has(Number(code)) ? 0 : count), 0),
    statuses,
  })}\n`,
);
