#!/usr/bin/env node
// `npm run bench`: seeds a store, starts the built server and the raw baseline (bench/baseline-server.mjs)
// each on core 0, drives them in turn from core 1 with autocannon, repeats, measures start-up, and
// writes bench/results/BACKEND-PETS.{json,md,svg}. Settings: bench/config.mjs (BENCH_* variables).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus as cpuList, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { readBenchConfig } from './config.mjs';
import { deployedSettings, pinning, runLoad, startServer } from './processes.mjs';
import { median, summarise, writeResults } from './report.mjs';
import { scenarios as allScenarios } from './scenarios.mjs';
import { seedPostgres } from './seed.mjs';
import { createApiKey, prepareSqliteStore, runNode } from './store.mjs';
import { measureStartup } from './startup.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const config = readBenchConfig();
const say = (text) => process.stderr.write(`${text}\n`);
/** The operations bench/floor-server.mjs serves (scenarios' `op`). */
const FLOOR_OPERATIONS = new Set(['list20', 'list100', 'list100rare', 'get', 'create']);

execFileSync(process.execPath, [join(root, 'scripts', 'ensure-built.mjs')], { stdio: 'inherit' });
const work = mkdtempSync(join(tmpdir(), 'petstore-bench-'));
const cleanups = [() => rmSync(work, { recursive: true, force: true })];

/** A fresh, migrated, seeded store: its DATABASE_URL, and a way to copy it for the baseline. */
async function prepareStore() {
  if (config.backend === 'sqlite') {
    const store = prepareSqliteStore(work, config.pets);
    return { databaseUrl: store.databaseUrl, seedMs: store.seedMs, baselineDb: store.copy };
  }
  let adminUrl = config.databaseUrl;
  if (!adminUrl) {
    // Under tsx (npm run bench), the test suite's throwaway PostgreSQL server serves here too.
    const { startThrowawayPostgres } = await import('../test/support/postgres-server.js');
    const server = await startThrowawayPostgres();
    cleanups.unshift(() => server.destroy());
    adminUrl = server.adminUrl;
  }
  const name = `petstore_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client(adminUrl);
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  cleanups.unshift(async () => {
    const client = new pg.Client(adminUrl);
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  runNode('dist/cli/migrate.js', { DATABASE_URL: url.href });
  const started = performance.now();
  await seedPostgres(url.href, config.pets);
  return { databaseUrl: url.href, seedMs: performance.now() - started, baselineDb: undefined };
}

try {
  const store = await prepareStore();
  say(`seeded ${config.pets} pets in ${Math.round(store.seedMs)} ms (${config.backend})`);
  const apiKey = createApiKey(store.databaseUrl);
  const scenarios = allScenarios(config.pets).filter((s) => !config.only || config.only.includes(s.name));

  const servers = {
    project: await startServer({
      // BENCH_SERVER=npm-start: as a new user starts it, `npm start` in the checkout, measuring the
      // node process it runs; else node dist/main.js (built above) directly.
      ...(config.server === 'npm-start'
        ? { command: ['npm', 'start'], cwd: root, serves: 'dist/main.js' }
        : { command: [process.execPath, join(root, 'dist', 'main.js')] }),
      // As deployed (metrics on, the limiter counting), but stopped without a drain period between runs.
      env: {
        DATABASE_URL: store.databaseUrl,
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'info',
        ...(await deployedSettings(config)),
        SHUTDOWN_DRAIN_MS: '0',
      },
      logFile: join(work, 'project.log'),
    }),
  };
  cleanups.unshift(() => servers.project.stop());
  if (store.baselineDb) {
    // The raw server at the project's durability (FULL), and at the usual one (NORMAL), which only
    // writes tell apart: it runs only the scenarios that write.
    for (const [name, synchronous] of [
      ['baseline', 'FULL'],
      ['normal', 'NORMAL'],
    ]) {
      servers[name] = await startServer({
        command: [process.execPath, join(root, 'bench', 'baseline-server.mjs')],
        env: { BASELINE_DB: store.baselineDb(`${name}.db`), BASELINE_SYNCHRONOUS: synchronous },
        logFile: join(work, `${name}.log`),
      });
      cleanups.unshift(() => servers[name].stop());
    }
    // The floor of the design (bench/floor-server.mjs): Express and express-openapi-validator as the
    // project sets them up, around the raw server's work: reads and createPet. At NORMAL, which
    // reads do not feel: for a create it is the most a server keeping both could reach against the
    // raw server at NORMAL, however cheap its own durability.
    servers.floor = await startServer({
      command: [process.execPath, '--import', import.meta.resolve('tsx'), join(root, 'bench', 'floor-server.mjs')],
      env: { BASELINE_DB: store.baselineDb('floor.db'), BASELINE_SYNCHRONOUS: 'NORMAL' },
      logFile: join(work, 'floor.log'),
    });
    cleanups.unshift(() => servers.floor.stop());
  }
  const names = Object.keys(servers);
  const serversFor = (scenario) =>
    names.filter(
      (name) =>
        (name !== 'normal' || scenario.writes) && (name !== 'floor' || scenario.requests.every(({ op }) => FLOOR_OPERATIONS.has(op))),
    );
  const load = (server, scenario, duration) => {
    const cpuBefore = servers[server].cpuSeconds();
    const result = runLoad({
      origin: servers[server].origin,
      basePath: servers[server].basePath,
      scenario,
      apiKey,
      connections: config.connections,
      duration,
      generator: config.generator,
    });
    // RSS right after the server's own load: the same moment in every round. Read after the other
    // server's turn instead, it also measures how much V8 gave back while this one sat idle.
    return {
      ...result,
      cpuMicrosPerRequest: ((servers[server].cpuSeconds() - cpuBefore) * 1e6) / result.total,
      rssBytes: servers[server].rssBytes(),
    };
  };

  if (config.warmup > 0) {
    for (const scenario of scenarios) for (const server of serversFor(scenario)) load(server, scenario, config.warmup);
  }
  const measurements = [];
  const rss = [];
  const peakRss = [];
  for (let round = 1; round <= config.rounds; round += 1) {
    servers.project.peakRss.reset();
    for (const scenario of scenarios) {
      // Alternating who goes first spreads drift (other processes, thermal state) over both.
      for (const server of round % 2 ? serversFor(scenario) : serversFor(scenario).reverse()) {
        const result = load(server, scenario, config.duration);
        measurements.push({ round, scenario: scenario.name, server, result });
        say(
          `round ${round} ${scenario.name.padEnd(12)} ${server.padEnd(8)} ${Math.round(result.requestsPerSecond).toString().padStart(6)} req/s  p50 ${result.p50} ms  p99 ${result.p99} ms  ${Math.round(result.cpuMicrosPerRequest)} us CPU/req  RSS ${Math.round(result.rssBytes / 2 ** 20)} MiB${result.unexpected ? `  ${result.unexpected} unexpected statuses` : ''}`,
        );
      }
    }
    // The project's RSS after its last operation of the round.
    rss.push(measurements.findLast((m) => m.server === 'project').result.rssBytes);
    peakRss.push(servers.project.peakRss.read());
    say(
      `round ${round}: project RSS peak ${Math.round(peakRss.at(-1) / 2 ** 20)} MiB, ${Math.round(rss.at(-1) / 2 ** 20)} MiB after its last operation`,
    );
  }
  for (const stop of cleanups.splice(0, names.length)) await stop();

  const starts = [];
  for (let i = 0; i < config.startupRuns; i += 1) {
    starts.push(
      await measureStartup({
        command: [process.execPath, join(root, 'dist', 'main.js')],
        env: { DATABASE_URL: store.databaseUrl, HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...(await deployedSettings(config)) },
        apiKey,
      }),
    );
  }
  const run = {
    date: new Date().toISOString(),
    node: process.version,
    cpu: `${cpuList().length} × ${cpuList()[0]?.model ?? 'unknown CPU'}`,
    pinning,
    config: {
      backend: config.backend,
      pets: config.pets,
      duration: config.duration,
      warmup: config.warmup,
      rounds: config.rounds,
      connections: config.connections,
      generator: config.generator,
      server: config.server,
      metrics: config.metrics,
      rateLimitPerMinute: config.rateLimitPerMinute,
    },
    seedMs: store.seedMs,
    summary: summarise(scenarios, measurements),
    measurements,
    rss,
    peakRss: peakRss.includes(undefined) ? undefined : peakRss,
    startup: starts.length
      ? { healthz: median(starts.map((s) => s.healthz)), firstApiRequest: median(starts.map((s) => s.firstApiRequest)), runs: starts }
      : undefined,
  };
  for (const file of writeResults(config.resultsDir, run)) say(`wrote ${file}`);
} finally {
  for (const cleanup of cleanups) await cleanup();
}
