#!/usr/bin/env node
// `node bench/cost.mjs SCENARIO [ROOT ...]`: what one request of a scenario (bench/scenarios.mjs)
// costs the server in CPU time, over a fixed number of requests, for the built server of each ROOT
// (a checkout with dist/ built; by default this one). Several roots are measured in turn, run after
// run, on copies of one seeded SQLite store, so that a change is compared with what came before it
// under the same load on the machine. CPU time per request, unlike req/s, hardly moves with what
// else runs on a shared machine; the spread of the runs says how much it did.
//
// COST_CALLGRIND=1 runs each server under Valgrind's callgrind instead and counts the instructions
// it executes per request (all its threads; the warm-up uninstrumented): a figure that does not move
// with the machine's load at all, at some fifty times the run time.
//
// COST_PROFILE_DIR=DIR runs each server under `node --cpu-prof`, its profile kept in DIR/server-N
// (N: the root's place on the command line), for bench/profile-diff.mjs to compare.
//
// A ROOT may also name one of the yardsticks of `npm run bench`, run from this checkout on the same
// store: `floor` (bench/floor-server.mjs, Express and express-openapi-validator around the raw
// server's work), `floor-normal` (the same at synchronous=NORMAL, a create's floor against
// `raw-normal`), `raw` (bench/baseline-server.mjs at synchronous=FULL) or `raw-normal` (the same at
// NORMAL), so that the project's cost can be stated over theirs.
//
// COST_REQUESTS (20000; 2000 under callgrind) requests per run, COST_RUNS (5) runs per root after
// COST_WARMUP (30000; 5000) requests; BENCH_PETS and BENCH_CONNECTIONS apply. The servers run as
// deployed (bench/processes.mjs).
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readBenchConfig } from './config.mjs';
import { deployedSettings, runLoad, startServer } from './processes.mjs';
import { scenarios } from './scenarios.mjs';
import { seedSqlite } from './seed.mjs';

const callgrind = process.env.COST_CALLGRIND === '1';
const profileDir = process.env.COST_PROFILE_DIR;
const count = (name, fallback) => Number(process.env[name] || fallback);
const requests = count('COST_REQUESTS', callgrind ? 2000 : 20_000);
const runs = count('COST_RUNS', 5);
const warmup = count('COST_WARMUP', callgrind ? 5000 : 30_000);

const config = readBenchConfig();
const scenario = scenarios(config.pets).find((s) => s.name === (process.argv[2] ?? 'get'));
if (!scenario)
  throw new Error(
    `unknown scenario; one of ${scenarios(0)
      .map((s) => s.name)
      .join(', ')}`,
  );
const here = fileURLToPath(new URL('..', import.meta.url));
/** The command line of a yardstick (by name) and its environment on the store at `path`. */
const yardsticks = {
  floor: (path) => ({
    command: [process.execPath, '--import', import.meta.resolve('tsx'), join(here, 'bench', 'floor-server.mjs')],
    env: { BASELINE_DB: path },
  }),
  'floor-normal': (path) => ({
    command: [process.execPath, '--import', import.meta.resolve('tsx'), join(here, 'bench', 'floor-server.mjs')],
    env: { BASELINE_DB: path, BASELINE_SYNCHRONOUS: 'NORMAL' },
  }),
  raw: (path) => ({ command: [process.execPath, join(here, 'bench', 'baseline-server.mjs')], env: { BASELINE_DB: path } }),
  'raw-normal': (path) => ({
    command: [process.execPath, join(here, 'bench', 'baseline-server.mjs')],
    env: { BASELINE_DB: path, BASELINE_SYNCHRONOUS: 'NORMAL' },
  }),
};
const roots = process.argv.length > 3 ? process.argv.slice(3).map((root) => (root in yardsticks ? root : resolve(root))) : [here];
/** The checkout whose command-line tools make and key the stores. */
const toolsRoot = (root) => (root in yardsticks ? here : root);

const HOST = '127.0.0.1';
const work = mkdtempSync(join(tmpdir(), 'petstore-cost-'));
const seeded = join(work, 'seeded.db');
const node = (root, script, env, args = []) =>
  execFileSync(process.execPath, [join(root, script), ...args], { env: { ...process.env, ...env }, encoding: 'utf8' });
node(toolsRoot(roots[0]), 'dist/cli/migrate.js', { DATABASE_URL: `file:${seeded}` });
seedSqlite(seeded, config.pets);

const servers = [];
for (const [index, root] of roots.entries()) {
  const path = join(work, `server-${index}.db`);
  copyFileSync(seeded, path);
  const env = { DATABASE_URL: `file:${path}` };
  const apiKey = node(toolsRoot(root), 'dist/cli/keys.js', env, ['create', '--account', 'cost']).trim().split('\n').at(-1);
  const valgrind = [
    'valgrind',
    '--tool=callgrind',
    '--instr-atstart=no',
    '--separate-threads=yes',
    `--callgrind-out-file=${join(work, `callgrind-${index}.%p`)}`,
  ];
  const yardstick = yardsticks[root]?.(path);
  const [executable, ...args] = yardstick?.command ?? [process.execPath, join(root, 'dist', 'main.js')];
  const profiler = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${join(profileDir, `server-${index}`)}`] : [];
  const server = await startServer({
    command: [...(callgrind ? valgrind : []), executable, ...profiler, ...args],
    env: {
      ...(yardstick?.env ?? env),
      HOST,
      PORT: '0',
      LOG_LEVEL: 'info',
      ...(await deployedSettings(config)),
      // Under callgrind a request can wait longer than the default timeouts on a busy machine (408),
      // and a kept-alive connection's next request longer than Node's keep-alive timeout (closed).
      ...(callgrind ? { HEADERS_TIMEOUT_MS: '600000', REQUEST_TIMEOUT_MS: '600000', KEEP_ALIVE_TIMEOUT_MS: '600000' } : {}),
    },
    logFile: join(work, `server-${index}.log`),
  });
  servers.push({ root, server, apiKey, perRequest: [] });
}

const drive = ({ server, apiKey }, amount) => {
  const result = runLoad({
    origin: server.origin,
    basePath: server.basePath,
    scenario,
    apiKey,
    connections: config.connections,
    amount,
    timeout: 600,
  });
  if (result.unexpected || result.errors) throw new Error(`${result.unexpected} unexpected answers, ${result.errors} errors`);
};

// Valgrind names the pipes it listens on after $HOST, which the server's environment sets (HOST,
// its listening address): callgrind_control must see the same.
const callgrindControl = (pid, ...options) =>
  execFileSync('callgrind_control', [...options, String(pid)], { env: { ...process.env, HOST }, stdio: 'ignore' });

/**
 * Instructions since the last dump (which zeroes callgrind's counters), from the newest dump's file
 * per thread: the main thread's (the event loop, where requests are served) and all threads' (the
 * compiler's and the garbage collector's helpers, the SQLite writer).
 */
function dumpedInstructions(index, pid) {
  callgrindControl(pid, '-d');
  const prefix = `callgrind-${index}.${pid}.`;
  const files = readdirSync(work).filter((name) => name.startsWith(prefix));
  const dump = Math.max(...files.map((name) => Number(name.slice(prefix.length).split('-')[0])));
  const totals = files
    .filter((name) => name.startsWith(`${prefix}${dump}-`))
    .map((name) => [name.split('-').at(-1), Number(/^totals: (\d+)/m.exec(readFileSync(join(work, name), 'utf8'))[1])]);
  return { main: Object.fromEntries(totals)['01'], all: totals.reduce((sum, [, value]) => sum + value, 0) };
}

/** One run: CPU µs per request, or instructions per request under callgrind (the main thread's, and all threads'). */
function measure(index, entry) {
  const { pid, cpuSeconds } = entry.server;
  if (callgrind) {
    callgrindControl(pid, '-z');
    drive(entry, requests);
    const { main, all } = dumpedInstructions(index, pid);
    return { main: main / requests, all: all / requests };
  }
  const before = cpuSeconds();
  drive(entry, requests);
  return { all: ((cpuSeconds() - before) * 1e6) / requests };
}

try {
  for (const entry of servers) {
    drive(entry, warmup);
    if (callgrind) callgrindControl(entry.server.pid, '-i', 'on');
  }
  for (let run = 0; run < runs; run++) {
    // Alternating which goes first, so that neither always follows the other's load.
    const order = servers.map((entry, index) => [index, entry]);
    for (const [index, entry] of run % 2 ? order.reverse() : order) entry.perRequest.push(measure(index, entry));
  }
} finally {
  for (const { server } of servers) await server.stop();
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const summary = (values, unit) =>
  `median ${median(values).toFixed(callgrind ? 0 : 1)} ${unit} per request (runs: ${values.map((v) => v.toFixed(0)).join(', ')})`;
for (const { root, perRequest } of servers) {
  const lines = callgrind
    ? [
        `main thread: ${summary(
          perRequest.map((run) => run.main),
          'instructions',
        )}`,
        `all threads: ${summary(
          perRequest.map((run) => run.all),
          'instructions',
        )}`,
      ]
    : [
        summary(
          perRequest.map((run) => run.all),
          'µs of CPU',
        ),
      ];
  process.stdout.write(`${scenario.name} ${root}\n${lines.map((line) => `  ${line}\n`).join('')}`);
}
if (callgrind) process.stdout.write(`callgrind's files: ${work}\n`);
