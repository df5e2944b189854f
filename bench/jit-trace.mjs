#!/usr/bin/env node
// `node bench/jit-trace.mjs [ROOT]`: what V8 does inside the measured windows of a bench-like run,
// counted per slice of requests rather than timed, so that the figures do not move with the load
// of a shared machine. Starts the built server of ROOT (this checkout by default) as `npm start`
// runs it under issue 30's harness (no metrics listener, no rate limit, LOG_LEVEL=info to a file),
// with --trace-opt --trace-deopt --trace-gc, on a seeded SQLite store; sends each operation a
// warm-up as the bench does, then rounds of the operations in turn, in slices; and prints, per
// slice, the optimisations V8 completed, the deoptimisations, and the scavenges and full
// collections (with the longest pause), from the trace lines the server printed during the slice.
//
// JIT_OPS (list20,list100,get,create), JIT_WARMUP (3000 requests per operation), JIT_ROUNDS (2),
// JIT_REQUESTS (3000 per operation per round), JIT_SLICE (500); BENCH_PETS and BENCH_CONNECTIONS
// apply; the server's own environment passes through; JIT_NODE_FLAGS are put before the trace
// flags; JIT_REASONS=1 also prints the functions deoptimised and V8's reasons.
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { readBenchConfig } from './config.mjs';
import { freePort, runLoad } from './processes.mjs';
import { scenarios } from './scenarios.mjs';
import { seedSqlite } from './seed.mjs';

const count = (name, fallback) => Number(process.env[name] || fallback);
const config = readBenchConfig();
const root = resolve(process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url)));
const ops = (process.env.JIT_OPS || 'list20,list100,get,create').split(',');
const warmup = count('JIT_WARMUP', 3000);
const rounds = count('JIT_ROUNDS', 2);
const perRound = count('JIT_REQUESTS', 3000);
const slice = count('JIT_SLICE', 500);

const work = mkdtempSync(join(tmpdir(), 'petstore-jit-'));
try {
  const db = join(work, 'pets.db');
  const env = { ...process.env, DATABASE_URL: `file:${db}` };
  execFileSync(process.execPath, [join(root, 'dist/cli/migrate.js')], { env });
  seedSqlite(db, config.pets);
  const apiKey = execFileSync(process.execPath, [join(root, 'dist/cli/keys.js'), 'create', '--account', 'jit'], { env, encoding: 'utf8' })
    .trim()
    .split('\n')
    .at(-1);
  const port = await freePort();
  const logFile = join(work, 'server.log');
  const log = openSync(logFile, 'w');
  const started = performance.now();
  const flags = (process.env.JIT_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const server = spawn(process.execPath, [...flags, '--trace-opt', '--trace-deopt', '--trace-gc', join(root, 'dist/main.js')], {
    env: { ...env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'info', METRICS_PORT: '0', RATE_LIMIT_PER_MINUTE: '0' },
    stdio: ['ignore', log, 'inherit'],
  });
  closeSync(log);
  let offset = 0;
  /** The names `describe` gives the trace lines that start with `prefix`, the most frequent `top` first. */
  const mostFrequent = (lines, prefix, describe, top) => {
    const seen = new Map();
    for (const line of lines.filter((l) => l.startsWith(prefix))) {
      const what = describe(line);
      seen.set(what, (seen.get(what) ?? 0) + 1);
    }
    return [...seen]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([what, n]) => `${n}x ${what}`)
      .join(', ');
  };
  const functionName = (line) => /<JSFunction ([^ >]*)/.exec(line)?.[1] ?? '?';
  /** The functions optimised, most frequent first. */
  const optimisedNames = (lines) => mostFrequent(lines, '[completed compiling', functionName, 25);
  /** The functions deoptimised, with V8's reasons, most frequent first. */
  const deoptReasons = (lines) =>
    mostFrequent(lines, '[bailout', (line) => `${functionName(line)} (${/reason: ([^)\]]*)/.exec(line)?.[1] ?? '?'})`, 8);
  /** The trace lines written since the last call. */
  const newLines = () => {
    const text = readFileSync(logFile, 'utf8');
    const end = text.lastIndexOf('\n') + 1;
    const lines = text.slice(offset, end).split('\n');
    offset = end;
    return lines;
  };
  const tally = (lines) => {
    const pauses = (kind) => lines.filter((l) => l.includes(`: ${kind}`)).map((l) => Number(/, ([\d.]+) \/ [\d.]+ ms/.exec(l)?.[1] ?? 0));
    const scavenges = pauses('Scavenge');
    const full = pauses('Mark-Compact');
    return {
      optimised: lines.filter((l) => l.startsWith('[completed compiling')).length,
      deopts: lines.filter((l) => l.startsWith('[bailout')).length,
      scavenges: scavenges.length,
      fullGcs: full.length,
      longestPauseMs: Math.max(0, ...scavenges, ...full),
    };
  };
  while (!newLines().some((l) => l.includes('"msg":"listening"'))) {
    if (server.exitCode !== null) throw new Error('the server exited before listening');
    await sleep(5);
  }
  const startupMs = performance.now() - started;
  offset = 0;
  const beforeListening = newLines();
  const index = beforeListening.findIndex((l) => l.includes('"msg":"listening"'));
  process.stdout.write(
    `listening after ${Math.round(startupMs)} ms; before it: ${JSON.stringify(tally(beforeListening.slice(0, index)))}\n`,
  );
  const byName = Object.fromEntries(scenarios(config.pets).map((s) => [s.name, s]));
  const send = (op, amount) =>
    runLoad({ origin: `http://127.0.0.1:${port}`, basePath: '/v1', scenario: byName[op], apiKey, connections: config.connections, amount });
  const totals = { optimised: 0, deopts: 0, scavenges: 0, fullGcs: 0, longestPauseMs: 0 };
  for (const op of ops) {
    send(op, warmup);
    await sleep(200);
    const lines = newLines();
    process.stdout.write(`warm-up ${op} ${warmup}: ${JSON.stringify(tally(lines))}\n`);
    if (process.env.JIT_REASONS === '1') process.stdout.write(`  optimised: ${optimisedNames(lines)}\n  deopts: ${deoptReasons(lines)}\n`);
  }
  for (let round = 1; round <= rounds; round += 1) {
    for (const op of ops) {
      const slices = [];
      for (let sent = 0; sent < perRound; sent += slice) {
        send(op, slice);
        const lines = newLines();
        const counts = tally(lines);
        slices.push(counts);
        if (process.env.JIT_REASONS === '1' && counts.deopts > 0) process.stdout.write(`  deopts: ${deoptReasons(lines)}\n`);
        for (const key of ['optimised', 'deopts', 'scavenges', 'fullGcs']) totals[key] += counts[key];
        totals.longestPauseMs = Math.max(totals.longestPauseMs, counts.longestPauseMs);
      }
      const row = (key) => slices.map((s) => s[key]).join(' ');
      process.stdout.write(
        `round ${round} ${op.padEnd(8)} optimised [${row('optimised')}] deopts [${row('deopts')}] scavenges [${row('scavenges')}] full GCs [${row('fullGcs')}] longest pause ${Math.max(...slices.map((s) => s.longestPauseMs))} ms\n`,
      );
    }
  }
  process.stdout.write(`measured windows in all: ${JSON.stringify(totals)}\n`);
  server.kill('SIGTERM');
  await new Promise((done) => server.once('close', done));
} finally {
  rmSync(work, { recursive: true, force: true });
}
