#!/usr/bin/env node
// The contract tests as CI runs them: the built server (dist/main.js) on a free port and the given
// DATABASE_URL, a key made with the keys CLI, then the contract tester (packages/contract-tester)
// against it with the pet store's house rules (contract-test.config.json), the request budget and,
// when asked, a JUnit report. Prints how long the tests took. Exits with the tester's status (its
// seed is in its output), after stopping the server, which must then exit cleanly.
//
//   node scripts/contract-test-built-server.mjs --database-url URL [--requests N] [--junit FILE] [-- more tester options]
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    requests: { type: 'string', default: '10000' },
    junit: { type: 'string' },
  },
  allowPositionals: true,
});
const databaseUrl = values['database-url'];
if (!databaseUrl) {
  process.stderr.write(
    'usage: node scripts/contract-test-built-server.mjs --database-url URL [--requests N] [--junit FILE] [-- tester options]\n',
  );
  process.exit(2);
}
const env = { ...process.env, DATABASE_URL: databaseUrl };

const keys = spawnSync(process.execPath, ['dist/cli/keys.js', 'create', '--account', 'contract-test'], { env, encoding: 'utf8' });
if (keys.status !== 0) {
  process.stderr.write(`keys create failed: ${keys.stderr}`);
  process.exit(2);
}
const apiKey = keys.stdout.trim().split('\n').at(-1);

// PORT=0: the server picks a free port and names its address on the "listening" log line. Rate
// limits far above what the tester sends, so that its thousands of requests with one key (and its
// requests without a valid key) are not throttled, while every response still carries the rate
// limit fields the spec documents; no metrics listener (its port is fixed, and CI may run two).
const server = spawn(process.execPath, ['dist/main.js'], {
  env: {
    ...env,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    SHUTDOWN_DRAIN_MS: '0',
    METRICS_PORT: '0',
    RATE_LIMIT_PER_MINUTE: '10000000',
    FAILED_AUTH_PER_MINUTE: '1000000',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const serverExit = new Promise((resolve) => server.once('exit', (code, signal) => resolve(code ?? signal)));
const baseUrl = await new Promise((resolve, reject) => {
  server.once('exit', (code) => reject(new Error(`the server exited with ${code} before listening`)));
  // Every request is logged; the lines are read (and dropped) so that the pipe never fills.
  createInterface({ input: server.stdout }).on('line', (line) => {
    if (!line.startsWith('{')) return;
    const entry = JSON.parse(line);
    if (entry.msg === 'listening') resolve(entry.url);
  });
}).catch((error) => {
  process.stderr.write(`${error.message}\n`);
  process.exit(2);
});

const testerArgs = [
  'packages/contract-tester/dist/cli.js',
  '--config',
  'contract-test.config.json',
  '--base-url',
  baseUrl,
  '--requests',
  values.requests,
  ...(values.junit ? ['--junit', values.junit] : []),
  ...positionals,
];
// The key goes by the tester's own variable, which its printed curl and replay commands name.
const started = performance.now();
const tester = spawn(process.execPath, testerArgs, { env: { ...env, CONTRACT_TEST_API_KEY: apiKey }, stdio: 'inherit' });
const testerStatus = await new Promise((resolve) => tester.once('exit', (code) => resolve(code ?? 2)));
process.stdout.write(`contract tests: ${((performance.now() - started) / 1000).toFixed(1)} s\n`);

server.kill('SIGTERM');
const stopped = await serverExit;
if (stopped !== 0) {
  process.stderr.write(`the server exited with ${stopped} after the contract tests\n`);
  process.exit(testerStatus || 2);
}
process.exit(testerStatus);
