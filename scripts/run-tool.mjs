#!/usr/bin/env node
// Runs a command line tool (from node_modules/.bin, which npm puts on PATH) with its telemetry off:
// Redocly CLI reports usage unless REDOCLY_TELEMETRY=off and Scarf-instrumented packages unless
// SCARF_ANALYTICS=false. Setting them here, not in the caller's shell, makes plain `npm run lint`
// (docs, mock) quiet on any machine and shell.
import { spawn } from 'node:child_process';

const [tool, ...args] = process.argv.slice(2);
if (!tool) {
  process.stderr.write('usage: node scripts/run-tool.mjs TOOL [ARGS...]\n');
  process.exit(2);
}
const child = spawn(tool, args, {
  stdio: 'inherit',
  env: { ...process.env, REDOCLY_TELEMETRY: 'off', SCARF_ANALYTICS: 'false' },
});
// A long-running tool (the mock server) must stop with us on Ctrl-C or `kill`.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('error', (error) => {
  process.stderr.write(`${tool}: ${error.message}\n`);
  process.exit(127);
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
