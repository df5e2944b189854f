import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
// The keys inject() reads are declared beside the global setup that provides them; this import
// brings that declaration into every program that type-checks this file (each workspace's too).
import type {} from './postgres-global-setup.js';
import { createDatabaseOn } from './postgres-database.js';
import { tempDatabaseUrl } from './processes.js';
import { closeLater } from './resources.js';

/**
 * The storage backends the API tests run against. Each gives a fresh, empty database as a
 * DATABASE_URL, usable both in-process (openStorage) and by a server or CLI process.
 */
export interface Backend {
  name: string;
  createDatabaseUrl(): Promise<string>;
  /** An empty database whose schema the store has already made (what openTestStorage opens). */
  createStoreUrl(): Promise<string>;
}

export const sqliteBackend: Backend = {
  name: 'sqlite',
  createDatabaseUrl: async () => tempDatabaseUrl(),
  // A new SQLite file's migrations cost little beside a copy of one.
  createStoreUrl: async () => tempDatabaseUrl(),
};

export const postgresBackend: Backend = {
  name: 'postgres',
  createDatabaseUrl: () => createPostgresDatabase(''),
  createStoreUrl: lendStore,
};

function createPostgresDatabase(template: string): Promise<string> {
  return createDatabaseOn(postgresAdminUrl(), `${inject('postgresDatabasePrefix')}${randomBytes(6).toString('hex')}`, template);
}

function postgresAdminUrl(): string {
  const url = inject('postgresAdminUrl');
  // Only the projects of vitest.config.ts whose files use PostgreSQL start it (test/support/tiers.ts).
  if (!url) throw new Error('no PostgreSQL server in this vitest project: see usesPostgres in test/support/tiers.ts');
  return url;
}

/**
 * A test file's stores: each a copy of the run's template, made when no store is free, emptied
 * when lent again. A copy costs a CREATE DATABASE and a checkpoint, and a database held to the end
 * of the run costs its disk; emptying one costs a TRUNCATE. A store lent in a test is free again
 * once that test's resources are closed, one lent in a hook once the file's are (cleanup.ts).
 */
const freeStores: string[] = [];

async function lendStore(): Promise<string> {
  const reused = freeStores.pop();
  const url = reused ?? (await createPostgresDatabase(` TEMPLATE ${inject('postgresTemplateDatabase')}`));
  if (reused) await emptyStore(url);
  closeLater({ close: async () => void freeStores.push(url) });
  return url;
}

/** Every row of every table but the migrations' record, identities restarted. */
async function emptyStore(url: string): Promise<void> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      "SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_migrations'",
    );
    if (rows.length) await client.query(`TRUNCATE ${rows.map(({ name }) => name).join(', ')} RESTART IDENTITY CASCADE`);
  } finally {
    await client.end();
  }
}

const BOTH = [sqliteBackend, postgresBackend];

/**
 * Where a behaviour differs between the backends (the store's own operations, concurrent writes,
 * ETag races, idempotency, paging order, quotas kept in the database): both, or those TEST_BACKENDS
 * names (comma-separated).
 */
export const allBackends: Backend[] = selectBackends(process.env['TEST_BACKENDS'], BOTH);

/**
 * The API suites: SQLite, as what they test lies above the store, whose differences `allBackends`
 * covers. TEST_BACKENDS=postgres runs them on PostgreSQL instead (`npm run test:postgres`, CI's
 * PostgreSQL 15 half).
 */
export const backends: Backend[] = selectBackends(process.env['TEST_BACKENDS'], [sqliteBackend]);

function selectBackends(names: string | undefined, byDefault: Backend[]): Backend[] {
  if (!names) return byDefault;
  const chosen = BOTH.filter((backend) => names.split(',').includes(backend.name));
  if (!chosen.length)
    throw new Error(`TEST_BACKENDS=${names} names no backend; the backends are ${BOTH.map(({ name }) => name).join(', ')}`);
  return chosen;
}
