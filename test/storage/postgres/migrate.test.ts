import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { PET_TABLE, STORED_TABLES } from '../../../generated/tables.js';
import { migratePostgres, POSTGRES_SCHEMA } from '../../../src/storage/postgres/migrate.js';
import { postgresMigrations } from '../../../src/storage/postgres/migrations.js';
import { migrateSqlite, sqliteColumns } from '../../../src/storage/sqlite/migrate.js';
import { PostgresStorage } from '../../../src/storage/postgres/postgres-storage.js';
import { postgresBackend } from '../../support/backends.js';
import { closeLater } from '../../support/test-app.js';
import { openPostgres, sqlClient, testPool } from '../../support/postgres-storage.js';
import { expectKeptAndVersioned, firstAfter110, rowsOf110 } from '../../support/store-of-1.1.0.js';

describe('PostgreSQL migrations', () => {
  it('applies each migration exactly once when many processes start together', async () => {
    const url = await postgresBackend.createDatabaseUrl();
    const storages = await Promise.all(Array.from({ length: 6 }, () => PostgresStorage.open(url, { poolSize: 2 })));
    storages.forEach(closeLater);
    const { rows } = await (await sqlClient(url)).query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(rows.map((row) => row.version)).toEqual(postgresMigrations.map((m) => m.version));
  });

  it('migrates an older database forward, applying only what is new', async () => {
    const pool = testPool(await postgresBackend.createDatabaseUrl());
    expect(await migratePostgres(pool, postgresMigrations.slice(0, 1))).toEqual([1]);
    const next = { version: 2, name: 'test column', sql: 'ALTER TABLE pets ADD COLUMN nickname text' };
    expect(await migratePostgres(pool, [...postgresMigrations.slice(0, 1), next])).toEqual([2]);
    expect(await migratePostgres(pool, [...postgresMigrations.slice(0, 1), next])).toEqual([]);
  });

  it('opens a database that 1.1.0 made and filled without losing anything, giving each pet an ETag', async () => {
    const url = await postgresBackend.createDatabaseUrl();
    await migratePostgres(testPool(url), postgresMigrations.slice(0, firstAfter110(postgresMigrations)));
    await (await sqlClient(url)).query(rowsOf110("'\\x7b7d'"));
    await expectKeptAndVersioned((await openPostgres({}, url)).storage);
  });

  it('leaves no column of Pet or NewPet without its column in table pets', async () => {
    const url = await postgresBackend.createDatabaseUrl();
    closeLater(await PostgresStorage.open(url));
    const { rows } = await (
      await sqlClient(url)
    ).query<{ column_name: string }>(
      "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'pets'",
    );
    const columns = rows.map((row) => row.column_name);
    const missing = PET_TABLE.columns.filter(({ column }) => !columns.includes(column)).map(({ property }) => property);
    expect(missing, `add a migration for them in ${POSTGRES_SCHEMA.migrations} (docs/adding-a-field.md)`).toEqual([]);
  });

  it('makes the same columns in every stored table as the SQLite migrations, which npm run generate reads for both', async () => {
    const url = await postgresBackend.createDatabaseUrl();
    await migratePostgres(testPool(url));
    const { rows } = await (
      await sqlClient(url)
    ).query<{ table_name: string; column_name: string }>(
      'SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY ordinal_position',
    );
    const db = new Database(':memory:');
    await migrateSqlite(db);
    const columns = sqliteColumns(db);
    for (const { table } of STORED_TABLES) {
      expect(
        rows.filter((row) => row.table_name === table).map((row) => row.column_name),
        `${table}: add the same columns to both backends (scripts/generate/migrations.ts)`,
      ).toEqual(columns(table));
    }
    db.close();
  });

  it('does not open a store whose pets table lacks a column of Pet, and says which migration to write where', async () => {
    const url = await postgresBackend.createDatabaseUrl();
    await migratePostgres(testPool(url));
    await (await sqlClient(url)).query('ALTER TABLE pets DROP COLUMN status');
    await expect(PostgresStorage.open(url)).rejects.toThrow(
      'table pets has no column for Pet.status and NewPet.status (column "status" text) of openapi.yaml: ' +
        'add it in a new migration in src/storage/postgres/migrations.ts (`npm run generate` writes it; docs/adding-a-field.md)',
    );
  });

  it('keeps in the status index every column a page of pets reads, so that the page comes from the index alone', async () => {
    const url = await postgresBackend.createDatabaseUrl();
    await migratePostgres(testPool(url));
    const { rows } = await (
      await sqlClient(url)
    ).query<{ column_name: string }>(
      `SELECT a.attname AS column_name FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
        WHERE i.indexrelid = 'pets_status_id'::regclass`,
    );
    const indexed = rows.map((row) => row.column_name);
    const uncovered = PET_TABLE.columns.filter(({ column, read }) => read && !indexed.includes(column)).map(({ column }) => column);
    expect(uncovered, `rebuild pets_status_id INCLUDE-ing them in a migration in ${POSTGRES_SCHEMA.migrations}`).toEqual([]);
  });
});
