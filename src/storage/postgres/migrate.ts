import type pg from 'pg';
import type { Migration } from '../migration.js';
import { missingPetColumns, PET_TABLE_NAME, type BackendSchema } from '../pet-table.js';
import { postgresMigrations } from './migrations.js';
import { POSTGRES_TYPES } from './statements.js';

/** What a pets column missing from this backend's schema is told to be added as, and where. */
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

/** Throws when the migrated pets table lacks a column that openapi.yaml's Pet or NewPet needs (see pet-table.ts). */
export async function checkPetColumns(pool: pg.Pool): Promise<void> {
  const { rows } = await pool.query<{ column_name: string }>(
    'SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1',
    [PET_TABLE_NAME],
  );
  const missing = missingPetColumns(
    rows.map((row) => row.column_name),
    POSTGRES_SCHEMA,
  );
  if (missing) throw missing;
}
