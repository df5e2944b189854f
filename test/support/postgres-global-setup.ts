import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openStorage } from '../../src/storage/open-storage.js';
import { createDatabaseOn } from './postgres-database.js';
import { startThrowawayPostgres, type ThrowawayPostgres } from './postgres-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser URL of the PostgreSQL server the tests create their databases on. */
    postgresAdminUrl: string;
    /**
     * What the names of this run's databases begin with: another run on the same server must
     * neither see nor drop them (a run inside this one shares the prefix; see setup below).
     */
    postgresDatabasePrefix: string;
    /** A database of this run with the store's schema made, which test stores are copied from. */
    postgresTemplateDatabase: string;
  }
}

const TEST_DATABASE_PREFIX = 'petstore_test_';

/**
 * The PostgreSQL tests need a server: TEST_DATABASE_URL (any server the user points at, as a role
 * that may create databases), or else a throwaway one started here, so `npm test` needs nothing
 * beyond `npm ci`.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let throwaway: ThrowawayPostgres | undefined;
  const adminUrl = process.env['TEST_DATABASE_URL'] || (throwaway = await startThrowawayPostgres()).adminUrl;
  // A run inside another (a test that runs a copy of the project's vitest) is given that run's
  // prefix, and leaves its databases to that run's clean-up: dropping one forces a checkpoint of the
  // whole server, which a busy server can take minutes over.
  const inherited = process.env['TEST_DATABASE_PREFIX'];
  const prefix = inherited || `${TEST_DATABASE_PREFIX}${randomBytes(4).toString('hex')}_`;
  project.provide('postgresAdminUrl', adminUrl);
  project.provide('postgresDatabasePrefix', prefix);
  project.provide('postgresTemplateDatabase', await createTemplateDatabase(adminUrl, prefix));
  return async () => {
    if (throwaway) return throwaway.destroy();
    if (inherited) return;
    // On a server we do not own, leave nothing of this run's behind.
    const client = new pg.Client(adminUrl);
    await client.connect();
    const { rows } = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${prefix}%`]);
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    await client.end();
  };
}

/**
 * A database migrated as the store migrates one, once per run: a test's store is a copy of it
 * (CREATE DATABASE ... TEMPLATE), which costs a fraction of running every migration again. Its
 * name is this run's own (the prefix, so the clean-up above drops it), as a run inside this one
 * makes one too.
 */
async function createTemplateDatabase(adminUrl: string, prefix: string): Promise<string> {
  const url = await createDatabaseOn(adminUrl, `${prefix}template_${randomBytes(4).toString('hex')}`);
  // Opening the store runs its migrations; closing it leaves no connection, which a copy needs.
  await (await openStorage(url)).close();
  return new URL(url).pathname.slice(1);
}
