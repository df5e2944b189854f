#!/usr/bin/env node
// Builds dist/ when it is missing or older than the sources, so `npm start` and `npm run keys` work on
// a fresh checkout and stay fast afterwards. tsc's output goes to stderr: stdout of `keys` is data.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const stamp = join(root, 'dist', '.tsbuildinfo');
const inputs = ['src', 'generated', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];

function newestMtime(path) {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((entry) => newestMtime(join(path, entry))));
}

function builtAt() {
  try {
    return statSync(stamp).mtimeMs;
  } catch {
    return -1;
  }
}

if (builtAt() < Math.max(...inputs.map((input) => newestMtime(join(root, input))))) {
  process.stderr.write('Building dist/ from src/ ...\n');
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], {
    stdio: ['ignore', process.stderr, process.stderr],
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
