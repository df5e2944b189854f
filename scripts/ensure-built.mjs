#!/usr/bin/env node
// Builds dist/ (the server) and each workspace package's dist/ when it is missing or older than its
// sources, so `npm start`, `npm run keys` and `npm run contract-test` work on a fresh checkout and stay
// fast afterwards. Build output goes to stderr: stdout of `keys` is data.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const clientSources = join(root, 'src', 'client');
const shared = ['generated', 'tsconfig.json', 'package.json'];

const targets = [
  {
    name: 'dist/ (the server and its CLI) from src/',
    stamp: join('dist', 'server-build.json'),
    // The bundle includes the dependencies, so a changed lock file means a rebuild too; src/ imports
    // code from generated/ (the error statuses, the operations that take an Idempotency-Key).
    inputs: ['src', 'generated', 'scripts/build-server.mjs', 'package.json', 'package-lock.json'],
    skip: clientSources,
    command: [join(root, 'scripts', 'build-server.mjs')],
  },
  {
    name: 'dist/client/ from src/client/',
    stamp: join('dist', 'client', 'index.d.ts'),
    inputs: ['src/client', 'tsconfig.client.json', 'scripts/build-client.mjs', ...shared],
    command: [join(root, 'scripts', 'build-client.mjs')],
  },
  {
    name: 'packages/contract-tester/dist/ from its src/',
    stamp: join('packages', 'contract-tester', 'dist', 'cli.js'),
    inputs: ['src', 'scripts', 'package.json'].map((input) => join('packages', 'contract-tester', input)),
    command: [join(root, 'packages', 'contract-tester', 'scripts', 'build.mjs')],
  },
];

function newestMtime(path, skip) {
  if (path === skip) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((entry) => newestMtime(join(path, entry), skip)));
}

function builtAt(stamp) {
  try {
    return statSync(join(root, stamp)).mtimeMs;
  } catch {
    return -1;
  }
}

for (const { name, stamp, inputs, skip, command } of targets) {
  if (builtAt(stamp) >= Math.max(...inputs.map((input) => newestMtime(join(root, input), skip)))) continue;
  process.stderr.write(`Building ${name} ...\n`);
  const result = spawnSync(process.execPath, command, { stdio: ['ignore', process.stderr, process.stderr] });
  if (result.status !== 0) process.exit(result.status ?? 1);
  // tsc leaves its stamp alone when the output would not change; mark the build as current anyway,
  // or every later start would run tsc again.
  const now = new Date();
  utimesSync(join(root, stamp), now, now);
}
