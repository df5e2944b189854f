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
// `{created}`: wrk's script state is the thread's, not the connection's, so the ids the remembering
// request's answers give are queued, and each is removed once; with none queued, that request is sent.
const remembering = scenario.requests.findIndex((request) => request.remember) + 1;
const requests = scenario.requests
  .map(
    (request) =>
      `{ method = ${lua(request.method)}, path = ${lua(basePath + request.path)}, body = ${request.body ? lua(JSON.stringify(request.body)) : 'nil'}, ids = ${request.ids ?? 'nil'}, contentType = ${lua(request.contentType ?? 'application/json')}, created = ${request.path.includes('{created}') ? remembering : 'nil'} }`,
  )
  .join(',\n  ');
const remember = remembering
  ? `
function response(status, headers, body)
  local id = status == 201 and string.match(body, '"id":(%d+)')
  if id then table.insert(created, id) end
end`
  : '';
const script = `
local requests = {
  ${requests}
}
local authorization = ${lua(`Bearer ${apiKey}`)}
local sent = 0
local created = {}
function init(args)
  math.randomseed(os.time())
end
function request()
  local r = requests[sent % #requests + 1]
  if r.created and #created == 0 then r = requests[r.created] else sent = sent + 1 end
  local path = r.path
  if r.ids then path = string.gsub(path, "{id}", tostring(math.random(1, r.ids))) end
  if r.created then path = string.gsub(path, "{created}", table.remove(created, 1)) end
  return wrk.format(r.method, path, { ["Authorization"] = authorization, ["Content-Type"] = r.contentType }, r.body)
end${remember}
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
