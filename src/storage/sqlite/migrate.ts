import type Database from 'better-sqlite3';
import type { Migration } from '../migration.js';
import { missingPetColumns, PET_TABLE_NAME, type BackendSchema } from '../pet-table.js';
import { sqliteMigrations } from './migrations.js';

/** What a pets column missing from this backend's schema is told to be added as, and where. */
export const SQLITE_SCHEMA: BackendSchema = {
  migrations: 'src/storage/sqlite/migrations.ts',
  sqlTypes: { string: 'TEXT', integer: 'INTEGER', number: 'REAL' },
};

/**
 * Applies pending migrations, each in an IMMEDIATE transaction: it takes the write lock first, so two
 * processes migrating one file cannot interleave, and the re-check inside the lock skips a migration
 * the other process just applied.
 */
export function migrateSqlite(db: Database.Database, migrations: readonly Migration[] = sqliteMigrations): Promise<number[]> {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
  const record = db.prepare(
    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
  );
  const isApplied = db.prepare('SELECT 1 FROM schema_migrations WHERE version = ?');
  const newlyApplied: number[] = [];
  for (const migration of migrations) {
    db.transaction(() => {
      if (isApplied.get(migration.version)) return;
      db.exec(migration.sql);
      record.run(migration.version, migration.name);
      newlyApplied.push(migration.version);
    }).immediate();
  }
  return Promise.resolve(newlyApplied);
}

/** Throws when the migrated pets table lacks a column that openapi.yaml's Pet or NewPet needs (see pet-table.ts). */
export function checkPetColumns(db: Database.Database): void {
  // SQLite's identifiers ignore case.
  const columns = db.prepare<[string], string>('SELECT lower(name) FROM pragma_table_info(?)').pluck().all(PET_TABLE_NAME);
  const missing = missingPetColumns(columns, SQLITE_SCHEMA);
  if (missing) throw missing;
}
