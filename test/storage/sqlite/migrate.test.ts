import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { PET_TABLE } from '../../../generated/tables.js';
import { checkStoredColumns, migrateSqlite, SQLITE_SCHEMA } from '../../../src/storage/sqlite/migrate.js';
import { sqliteMigrations } from '../../../src/storage/sqlite/migrations.js';
import { SqliteStorage } from '../../../src/storage/sqlite/sqlite-storage.js';
import { tempDatabaseUrl } from '../../support/processes.js';
import { expectKeptAndVersioned, firstAfter110, rowsOf110 } from '../../support/store-of-1.1.0.js';

describe('SQLite migrations', () => {
  it('migrates an older store forward without touching applied versions', async () => {
    const db = new Database(':memory:');
    expect(await migrateSqlite(db, sqliteMigrations.slice(0, 1))).toEqual([1]);
    const next = { version: 2, name: 'test column', sql: 'ALTER TABLE pets ADD COLUMN nickname TEXT' };
    expect(await migrateSqlite(db, [...sqliteMigrations.slice(0, 1), next])).toEqual([2]);
    expect(await migrateSqlite(db, [...sqliteMigrations.slice(0, 1), next])).toEqual([]);
  });

  it('open a store that 1.1.0 made and filled without losing anything, giving each pet an ETag', async () => {
    const url = tempDatabaseUrl();
    const old = new Database(url.slice('file:'.length));
    await migrateSqlite(old, sqliteMigrations.slice(0, firstAfter110(sqliteMigrations)));
    old.exec(rowsOf110("x'7b7d'"));
    old.close();
    const storage = await SqliteStorage.open(url);
    try {
      await expectKeptAndVersioned(storage);
    } finally {
      await storage.close();
    }
  });

  it('leave no property of Pet or NewPet without its column in table pets', async () => {
    const db = new Database(':memory:');
    await migrateSqlite(db);
    const columns = db.prepare<[], string>("SELECT name FROM pragma_table_info('pets')").pluck().all();
    const missing = PET_TABLE.columns.filter(({ column }) => !columns.includes(column)).map(({ property }) => property);
    expect(missing, `add a migration for them in ${SQLITE_SCHEMA.migrations} (docs/adding-a-field.md)`).toEqual([]);
    expect(() => checkStoredColumns(db)).not.toThrow();
  });

  it('do not open a store whose pets table lacks a column of Pet, and say which migration to write where', async () => {
    const url = tempDatabaseUrl();
    await (await SqliteStorage.open(url)).close();
    const db = new Database(url.slice('file:'.length));
    db.exec('DROP INDEX pets_status_id; ALTER TABLE pets DROP COLUMN status');
    expect(() => checkStoredColumns(db)).toThrow(
      'table pets has no column for Pet.status and NewPet.status (column "status" TEXT) of openapi.yaml: ' +
        'add it in a new migration in src/storage/sqlite/migrations.ts (`npm run generate` writes it; docs/adding-a-field.md)',
    );
    db.close();
    await expect(SqliteStorage.open(url)).rejects.toThrow('add it in a new migration in src/storage/sqlite/migrations.ts');
  });
});
