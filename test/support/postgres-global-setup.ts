import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startThrowawayPostgres, type ThrowawayPostgres } from './postgres-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser URL of the PostgreSQL server the tests create their databases on. */
    postgresAdminUrl: string;
  }
}

export const TEST_DATABASE_PREFIX = 'petstore_test_';

/**
 * The PostgreSQL tests need a server: TEST_DATABASE_URL (any server the user points at, as a role
 * that may create databases), or else a throwaway one started here, so `npm test` needs nothing
 * beyond `npm ci`.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let throwaway: ThrowawayPostgres | undefined;
  const adminUrl = process.env['TEST_DATABASE_URL'] || (throwaway = await startThrowawayPostgres()).adminUrl;
  project.provide('postgresAdminUrl', adminUrl);
  return async () => {
    if (throwaway) return throwaway.destroy();
    // On a server we do not own, leave nothing behind.
    const client = new pg.Client(adminUrl);
    await client.connect();
    const { rows } = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [
      `${TEST_DATABASE_PREFIX}%`,
    ]);
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    await client.end();
  };
}
