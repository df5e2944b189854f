import type Database from 'better-sqlite3';
import type { Migration } from '../migration.js';
import { missingColumns, missingColumnsError, type BackendSchema } from '../stored-tables.js';
import { sqliteMigrations } from './migrations.js';

/** What a column missing from this backend's schema is told to be added as, and where (and what npm run generate writes). */
export const SQLITE_SCHEMA: BackendSchema = {
  migrations: 'src/storage/sqlite/migrations.ts',
  sqlTypes: { string: 'TEXT', integer: 'INTEGER', number: 'REAL', boolean: 'INTEGER', json: 'TEXT' },
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

/** The columns of a table, as SQLite lists them (none: there is no such table). */
export function sqliteColumns(db: Database.Database): (table: string) => string[] {
  // SQLite's identifiers ignore case.
  const statement = db.prepare<[string], string>('SELECT lower(name) FROM pragma_table_info(?)').pluck();
  return (table) => statement.all(table);
}

/** Throws when the migrated tables lack a table or column that openapi.yaml's stored schemas need (see stored-tables.ts). */
export function checkStoredColumns(db: Database.Database): void {
  const missing = missingColumnsError(missingColumns(sqliteColumns(db)), SQLITE_SCHEMA);
  if (missing) throw missing;
}
