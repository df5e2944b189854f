#!/usr/bin/env node
// The suite's PostgreSQL half once more, against the server TEST_DATABASE_URL names (CI points it at
// Debian's PostgreSQL 15, while `npm test` covers the embedded one): the test files that use the
// PostgreSQL backend, with TEST_BACKENDS=postgres so that their SQLite cases are not run twice.
// Extra arguments go to vitest.
//
//   TEST_DATABASE_URL=postgres://... npm run test:postgres
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
if (!process.env.TEST_DATABASE_URL) {
  process.stderr.write('TEST_DATABASE_URL must name the PostgreSQL server to test against (a role that may create databases)\n');
  process.exit(2);
}

/** A test file uses PostgreSQL when it names the postgres backend or iterates over all backends. */
const usesPostgres = (text) => /\b(postgresBackend|allBackends)\b|\bbackends\b(?!\.js)/.test(text);

function* testFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* testFiles(path);
    else if (entry.name.endsWith('.test.ts')) yield path;
  }
}

// The server's tests and every workspace package's (packages/*/test), as `npm test` runs them.
const testFolders = [
  join(root, 'test'),
  ...readdirSync(join(root, 'packages'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(root, 'packages', entry.name, 'test')),
];
const files = testFolders
  .flatMap((folder) => [...testFiles(folder)])
  .filter((path) => usesPostgres(readFileSync(path, 'utf8')))
  .map((path) => relative(root, path));
process.stderr.write(`${files.length} test files use PostgreSQL\n`);
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const { status } = spawnSync(process.execPath, [vitest, 'run', ...files, ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, TEST_BACKENDS: 'postgres' },
});
process.exit(status ?? 1);
