import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
// The keys inject() reads are declared beside the global setup that provides them; this import
// brings that declaration into every program that type-checks this file (each workspace's too).
import type {} from './postgres-global-setup.js';
import { tempDatabaseUrl } from './processes.js';

/**
 * The storage backends every API test runs against. Each gives a fresh, empty database as a
 * DATABASE_URL, usable both in-process (openStorage) and by a server or CLI process.
 */
export interface Backend {
  name: string;
  createDatabaseUrl(): Promise<string>;
  /** A fresh database whose schema the store has already made (what openTestStorage opens). */
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
  createStoreUrl: () => createPostgresDatabase(` TEMPLATE ${inject('postgresTemplateDatabase')}`),
};

function createPostgresDatabase(template: string): Promise<string> {
  return createDatabaseOn(inject('postgresAdminUrl'), `${inject('postgresDatabasePrefix')}${randomBytes(6).toString('hex')}`, template);
}

/** Creates database `name` on the server of `adminUrl` (a copy of `template` if given); its URL. */
export async function createDatabaseOn(adminUrl: string, name: string, template = ''): Promise<string> {
  const client = new pg.Client(adminUrl);
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}${template}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.href;
}

/**
 * All of them, or those TEST_BACKENDS names (comma-separated): `npm run test:postgres` runs the
 * tests that use PostgreSQL against it alone, rather than the whole suite once more.
 */
export const backends: Backend[] = selectBackends(process.env['TEST_BACKENDS']);

function selectBackends(names: string | undefined): Backend[] {
  const all = [sqliteBackend, postgresBackend];
  if (!names) return all;
  const chosen = all.filter((backend) => names.split(',').includes(backend.name));
  if (!chosen.length)
    throw new Error(`TEST_BACKENDS=${names} names no backend; the backends are ${all.map(({ name }) => name).join(', ')}`);
  return chosen;
}
