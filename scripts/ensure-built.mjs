#!/usr/bin/env node
// Builds dist/ when it is missing or older than the sources, so `npm start` and `npm run keys` work on
// a fresh checkout and stay fast afterwards. Build output goes to stderr: stdout of `keys` is data.
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
    // The bundle includes generated/contract.ts and the dependencies, so a regenerated contract or a
    // changed lock file means a rebuild too.
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
