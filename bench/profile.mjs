#!/usr/bin/env node
// `npm run bench:profile -- SCENARIO`: runs the built server under `node --cpu-prof` on a seeded
// SQLite store, drives one scenario (bench/scenarios.mjs) at it, and prints where the time went:
// self time per package (or our own file) and the hottest functions. The .cpuprofile is kept for
// Chrome DevTools. BENCH_DURATION and BENCH_PETS apply.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readProfile } from './cpuprofile.mjs';
import { readBenchConfig } from './config.mjs';
import { deployedSettings, runLoad, startServer } from './processes.mjs';
import { scenarios } from './scenarios.mjs';
import { seedSqlite } from './seed.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const config = readBenchConfig();
const scenario = scenarios(config.pets).find((s) => s.name === (process.argv[2] ?? 'get'));
if (!scenario)
  throw new Error(
    `unknown scenario; one of ${scenarios(0)
      .map((s) => s.name)
      .join(', ')}`,
  );

const work = mkdtempSync(join(tmpdir(), 'petstore-profile-'));
const databaseUrl = `file:${join(work, 'project.db')}`;
const env = { ...process.env, DATABASE_URL: databaseUrl };
execFileSync(process.execPath, [join(root, 'dist/cli/migrate.js')], { env });
seedSqlite(join(work, 'project.db'), config.pets);
const apiKey = execFileSync(process.execPath, [join(root, 'dist/cli/keys.js'), 'create', '--account', 'profile'], { env, encoding: 'utf8' })
  .trim()
  .split('\n')
  .at(-1);

const server = await startServer({
  command: [process.execPath, '--cpu-prof', `--cpu-prof-dir=${work}`, join(root, 'dist', 'main.js')],
  // As the bench runs it (metrics on, the limiter counting under a quota the run never reaches).
  env: { DATABASE_URL: databaseUrl, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...(await deployedSettings(config)) },
  logFile: join(work, 'server.log'),
});
const result = runLoad({
  origin: server.origin,
  basePath: server.basePath,
  scenario,
  apiKey,
  connections: config.connections,
  duration: config.duration,
});
await server.stop();
process.stdout.write(`${scenario.name}: ${Math.round(result.requestsPerSecond)} req/s under the profiler\n`);
if (result.unexpected || result.errors) {
  // A profile of error answers (a 429, a 401) says nothing about the operation: refuse to show it.
  process.stderr.write(
    `${result.unexpected} answers with an unexpected status and ${result.errors} errors: not a profile of ${scenario.name}\n`,
  );
  process.exit(1);
}

const file = join(
  work,
  readdirSync(work).find((name) => name.endsWith('.cpuprofile')),
);
const { byOwner, byFunction } = readProfile(file);
const total = [...byOwner.values()].reduce((a, b) => a + b, 0);
const top = (map, n) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, time]) => `${((100 * time) / total).toFixed(1).padStart(5)}%  ${name}`)
    .join('\n');
process.stdout.write(
  `\nself time by package or file:\n${top(byOwner, 25)}\n\nhottest functions:\n${top(byFunction, 40)}\n\nprofile: ${file}\n`,
);
