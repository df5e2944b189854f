// The seeded SQLite store a bench run starts from, and the API key its requests carry.
import { execFileSync } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { seedSqlite } from './seed.mjs';

const root = new URL('..', import.meta.url).pathname;

/** Runs one of the project's built scripts (dist/) or bench/ scripts with Node; its stdout. */
export function runNode(script, env, args = []) {
  return execFileSync(process.execPath, [join(root, script), ...args], { env: { ...process.env, ...env }, encoding: 'utf8' });
}

/** A fresh, migrated, seeded SQLite store in `work`: its DATABASE_URL, and copies of it for other servers. */
export function prepareSqliteStore(work, pets) {
  const path = join(work, 'project.db');
  const databaseUrl = `file:${path}`;
  runNode('dist/cli/migrate.js', { DATABASE_URL: databaseUrl });
  const started = performance.now();
  seedSqlite(path, pets);
  return {
    databaseUrl,
    seedMs: performance.now() - started,
    // A copy of the seeded store per other server: each writes its own.
    copy: (name) => {
      copyFileSync(path, join(work, name));
      return join(work, name);
    },
  };
}

/** A new API key for the store (dist/cli/keys.js). */
export function createApiKey(databaseUrl) {
  return runNode('dist/cli/keys.js', { DATABASE_URL: databaseUrl }, ['create', '--account', 'bench']).trim().split('\n').at(-1);
}
