#!/usr/bin/env node
// Drives one server with wrk (Debian's `wrk` package) for one scenario and prints the result as one
// JSON line, like load.mjs does for autocannon: BENCH_LOAD=wrk. wrk is written in C and sends as fast
// as the server answers, where autocannon, in JavaScript, is itself a limit; latency percentiles are
// wrk's own (whole requests, all operations of a mixed scenario together).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const { origin, basePath, scenario, apiKey, connections, duration } = JSON.parse(process.argv[2]);

const lua = (value) => JSON.stringify(value);
const requests = scenario.requests
  .map(
    (request) =>
      `{ method = ${lua(request.method)}, path = ${lua(basePath + request.path)}, body = ${request.body ? lua(JSON.stringify(request.body)) : 'nil'}, ids = ${request.ids ?? 'nil'} }`,
  )
  .join(',\n  ');
const script = `
local requests = {
  ${requests}
}
local headers = { ["Authorization"] = ${lua(`Bearer ${apiKey}`)}, ["Content-Type"] = "application/json" }
local sent = 0
function init(args)
  math.randomseed(os.time())
end
function request()
  local r = requests[sent % #requests + 1]
  sent = sent + 1
  local path = r.path
  if r.ids then path = string.gsub(path, "{id}", tostring(math.random(1, r.ids))) end
  return wrk.format(r.method, path, headers, r.body)
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('{"total":%d,"seconds":%f,"p50":%f,"p99":%f,"max":%f,"errors":%d,"non2xx":%d}\\n',
    summary.requests, summary.duration / 1e6, latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000,
    e.connect + e.read + e.write + e.timeout, e.status))
end
`;
const file = join(mkdtempSync(join(tmpdir(), 'petstore-wrk-')), 'scenario.lua');
writeFileSync(file, script);
const run = spawnSync('wrk', ['-t1', `-c${connections}`, `-d${duration}s`, '--timeout', '10s', '-s', file, origin], { encoding: 'utf8' });
if (run.error || run.status !== 0) {
  process.stderr.write(`wrk failed (install it with: apt-get install wrk): ${run.error?.message ?? run.stderr}\n`);
  process.exit(1);
}
const line = run.stdout.trim().split('\n').at(-1);
const result = JSON.parse(line);
const round = (ms) => Math.round(ms * 100) / 100;
const summary = { p50: round(result.p50), p99: round(result.p99), max: round(result.max), count: result.total };
process.stdout.write(
  `${JSON.stringify({
    requestsPerSecond: Math.round(result.total / result.seconds),
    total: result.total,
    ...summary,
    // wrk's latencies cover every request: per operation only where the scenario has one.
    byOperation: scenario.requests.length === 1 ? { [scenario.requests[0].op]: summary } : {},
    errors: result.errors,
    timeouts: 0,
    // wrk counts answers of 400 and above; every benchmarked request expects a 2xx.
    unexpected: result.non2xx,
    statuses: {},
  })}\n`,
);
