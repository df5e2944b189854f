#!/usr/bin/env node
// `npm run bench:all`: the project and five other servers held at once on core 0, each on its own
// copy of one seeded store, driven in turn by `wrk -t1` on core 1, load by load, round after round
// (the servers' order reversed every other round), until each ratio's spread over the rounds is
// within BENCH_SPREAD or BENCH_MAX_ROUNDS ran. Writes bench/results/all-servers.{json,md}.
// Settings: readAllServersConfig in bench/config.mjs.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus as cpuList, tmpdir } from 'node:os';
import { join } from 'node:path';
import { allServersMarkdown, LOADS, ratiosByRound, SERVERS, summariseRatios, summariseServers } from './all-servers-report.mjs';
import { readAllServersConfig } from './config.mjs';
import { pinning, runLoad, startServer } from './processes.mjs';
import { scenarios } from './scenarios.mjs';
import { formatSpread, roundsVerdict, spreadOf } from './spread.mjs';
import { createApiKey, prepareSqliteStore } from './store.mjs';

const root = new URL('..', import.meta.url).pathname;
const config = readAllServersConfig();
const say = (text) => process.stderr.write(`${text}\n`);

if (spawnSync('wrk', ['-v']).error) {
  say('wrk is not installed: it is Debian\'s package "wrk" (apt-get install wrk).');
  process.exit(1);
}
execFileSync(process.execPath, [join(root, 'scripts', 'ensure-built.mjs')], { stdio: 'inherit' });
const work = mkdtempSync(join(tmpdir(), 'petstore-bench-all-'));
const running = [];

/** How each server is started, beside the project: a script of bench/ on its own copy of the store. */
function benchServer(script, synchronous, { typescript = false } = {}) {
  const tsx = typescript ? ['--import', import.meta.resolve('tsx')] : [];
  return (store, name) => ({
    command: [process.execPath, ...tsx, join(root, 'bench', script)],
    env: { BASELINE_DB: store.copy(`${name}.db`), BASELINE_SYNCHRONOUS: synchronous },
  });
}

const STARTS = {
  // As a user starts it (scripts/ensure-built.mjs, then node dist/main.js), measuring the node process
  // npm runs; without the metrics listener and the rate limit, its request log to a file.
  project: (store) => ({
    command: ['npm', 'start'],
    cwd: root,
    serves: 'dist/main.js',
    env: {
      DATABASE_URL: store.databaseUrl,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      METRICS_PORT: '0',
      RATE_LIMIT_PER_MINUTE: '0',
      SHUTDOWN_DRAIN_MS: '0',
    },
  }),
  floor: benchServer('floor-server.mjs', 'NORMAL', { typescript: true }),
  raw: benchServer('baseline-server.mjs', 'FULL'),
  rawNormal: benchServer('baseline-server.mjs', 'NORMAL'),
  fastify: benchServer('fastify-server.mjs', 'NORMAL', { typescript: true }),
  expressValidator: benchServer('express-validator-server.mjs', 'NORMAL'),
};

try {
  const store = prepareSqliteStore(work, config.pets);
  say(`seeded ${config.pets} pets in ${Math.round(store.seedMs)} ms`);
  const apiKey = createApiKey(store.databaseUrl);
  const servers = {};
  for (const name of Object.keys(SERVERS)) {
    servers[name] = await startServer({ ...STARTS[name](store, name), logFile: join(work, `${name}.log`) });
    running.push(servers[name]);
  }
  const loads = scenarios(config.pets).filter((scenario) => LOADS.includes(scenario.name));
  const load = (name, scenario, duration) => {
    const server = servers[name];
    const cpuBefore = server.cpuSeconds();
    const result = runLoad({
      generator: 'wrk',
      origin: server.origin,
      basePath: server.basePath,
      scenario,
      apiKey,
      connections: config.connections,
      duration,
    });
    return { ...result, cpuMicrosPerRequest: ((server.cpuSeconds() - cpuBefore) * 1e6) / result.total };
  };

  for (const scenario of config.warmup > 0 ? loads : []) {
    for (const name of Object.keys(servers)) {
      const result = load(name, scenario, config.warmup);
      // A server that answers the load with errors would be measured doing something else.
      if (result.unexpected || result.errors) {
        throw new Error(
          `${SERVERS[name]} answered ${scenario.name} with ${result.unexpected} statuses of 400 or more, ${result.errors} errors`,
        );
      }
    }
  }

  const measurements = [];
  let verdict;
  do {
    const round = (verdict?.rounds ?? 0) + 1;
    const order = round % 2 ? Object.keys(servers) : Object.keys(servers).reverse();
    for (const scenario of loads) {
      for (const name of order) {
        const result = load(name, scenario, config.duration);
        measurements.push({ round, load: scenario.name, server: name, result });
        say(
          `round ${round} ${scenario.name.padEnd(8)} ${name.padEnd(16)} ${Math.round(result.requestsPerSecond).toString().padStart(6)} req/s  p50 ${result.p50} ms  p99 ${result.p99} ms  ${Math.round(result.cpuMicrosPerRequest)} us CPU/req`,
        );
      }
    }
    verdict = roundsVerdict(ratiosByRound(measurements), config);
    for (const [name, values] of Object.entries(ratiosByRound(measurements))) {
      const { median, spread } = spreadOf(values, config.confidence);
      say(`  ${name.padEnd(40)} ${median?.toFixed(2) ?? '-'} ${formatSpread(spread)}`);
    }
  } while (!verdict.done);

  const run = {
    date: new Date().toISOString(),
    node: process.version,
    cpu: `${cpuList().length} × ${cpuList()[0]?.model ?? 'unknown CPU'}`,
    pinning,
    config,
    verdict,
    ratios: summariseRatios(measurements, config.confidence),
    servers: summariseServers(measurements),
    measurements,
  };
  mkdirSync(config.resultsDir, { recursive: true });
  for (const [file, text] of [
    ['all-servers.json', `${JSON.stringify(run, null, 2)}\n`],
    ['all-servers.md', allServersMarkdown(run)],
  ]) {
    writeFileSync(join(config.resultsDir, file), text);
    say(`wrote ${join(config.resultsDir, file)}`);
  }
} finally {
  for (const server of running) await server.stop();
  rmSync(work, { recursive: true, force: true });
}
