import type pg from 'pg';
import type { Migration } from '../migration.js';
import { missingColumns, missingColumnsError, type BackendSchema } from '../stored-tables.js';
import { postgresMigrations } from './migrations.js';
import { POSTGRES_TYPES } from './statements.js';

/** What a column missing from this backend's schema is told to be added as, and where (and what npm run generate writes). */
export const POSTGRES_SCHEMA: BackendSchema = { migrations: 'src/storage/postgres/migrations.ts', sqlTypes: POSTGRES_TYPES };

/** Any constant works, as long as every process of this service uses the same one. */
const MIGRATION_LOCK_KEY = 7_318_442_001;

/**
 * Applies pending migrations under a session advisory lock, so that processes starting together
 * against one database apply each migration exactly once, one after the other.
 */
export async function migratePostgres(pool: pg.Pool, migrations: readonly Migration[] = postgresMigrations): Promise<number[]> {
  const client = await pool.connect();
  const newlyApplied: number[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await client.query(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
      const applied = new Set(rows.map((row) => row.version));
      for (const migration of migrations) {
        if (applied.has(migration.version)) continue;
        await client.query('BEGIN');
        try {
          await client.query(migration.sql);
          await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        }
        newlyApplied.push(migration.version);
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
  return newlyApplied;
}

/** Throws when the migrated tables lack a table or column that openapi.yaml's stored schemas need (see stored-tables.ts). */
export async function checkStoredColumns(pool: pg.Pool): Promise<void> {
  const { rows } = await pool.query<{ table_name: string; column_name: string }>(
    'SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()',
  );
  const missing = missingColumnsError(
    missingColumns((table) => rows.filter((row) => row.table_name === table).map((row) => row.column_name)),
    POSTGRES_SCHEMA,
  );
  if (missing) throw missing;
}
