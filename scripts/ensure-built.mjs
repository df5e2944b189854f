#!/usr/bin/env node
// Builds dist/ (the server) and each workspace package's dist/ when it is missing or older than its
// sources, so `npm start`, `npm run keys` and `npm run contract-test` work on a fresh checkout and stay
// fast afterwards. Build output goes to stderr: stdout of `keys` is data.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** A workspace package, built by its scripts/build.mjs into its dist/ from its src/ (and `inputs`). */
const workspacePackage = (folder, stamp, inputs = []) => ({
  name: `packages/${folder}/dist/ from its src/`,
  stamp: join('packages', folder, 'dist', stamp),
  inputs: [...['src', 'scripts', 'package.json'].map((input) => join('packages', folder, input)), ...inputs],
  command: [join(root, 'packages', folder, 'scripts', 'build.mjs')],
});

const targets = [
  {
    name: 'dist/ (the server and its CLI) from src/',
    stamp: join('dist', 'server-build.json'),
    // The bundle includes the dependencies, so a changed lock file means a rebuild too; src/ imports
    // code from generated/ (the error statuses, the operations that take an Idempotency-Key).
    inputs: ['src', 'generated', 'packages/openapi-document/src', 'scripts/build-server.mjs', 'package.json', 'package-lock.json'],
    command: [join(root, 'scripts', 'build-server.mjs')],
  },
  // The client's types and tables come from generated/; openapi-fetch, which it inlines, from the
  // lock file; web-linking, which it bundles, from its source.
  workspacePackage('client', 'index.d.ts', [
    'generated',
    'packages/web-linking/src',
    'packages/client/tsconfig.json',
    'packages/client/tsconfig.build.json',
    'tsconfig.json',
    'package-lock.json',
  ]),
  workspacePackage('contract-tester', 'cli.js', ['packages/openapi-document/src', 'packages/web-linking/src']),
];

function newestMtime(path) {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((entry) => newestMtime(join(path, entry))));
}

function builtAt(stamp) {
  try {
    return statSync(join(root, stamp)).mtimeMs;
  } catch {
    return -1;
  }
}

for (const { name, stamp, inputs, command } of targets) {
  if (builtAt(stamp) >= Math.max(...inputs.map((input) => newestMtime(join(root, input))))) continue;
  process.stderr.write(`Building ${name} ...\n`);
  const result = spawnSync(process.execPath, command, { stdio: ['ignore', process.stderr, process.stderr] });
  if (result.status !== 0) process.exit(result.status ?? 1);
  // tsc leaves its stamp alone when the output would not change; mark the build as current anyway,
  // or every later start would run tsc again.
  const now = new Date();
  utimesSync(join(root, stamp), now, now);
}
