import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { migrationFiles } from '../../../scripts/generate/migrations.js';
import { columnsOf, persistedSchemas } from '../../../scripts/generate/tables.js';
import { parseSpec, readSpecText, type OpenApiDocument } from '../../../src/contract/spec.js';
import type { Migration } from '../../../src/storage/migration.js';
import { migratePostgres, POSTGRES_SCHEMA } from '../../../src/storage/postgres/migrate.js';
import { postgresMigrations } from '../../../src/storage/postgres/migrations.js';
import { migrateSqlite, SQLITE_SCHEMA, sqliteColumns } from '../../../src/storage/sqlite/migrate.js';
import { sqliteMigrations } from '../../../src/storage/sqlite/migrations.js';
import { missingColumns } from '../../../src/storage/stored-tables.js';
import { postgresBackend } from '../../support/backends.js';
import { withPetPhotos } from '../../support/new-operation.js';
import { sqlClient, testPool } from '../../support/postgres-storage.js';

/** openapi.yaml with `property` on Pet, NewPet and PetPatch. */
function withPetProperty(property: string, schema: object, { required = false, spec = readSpecText() } = {}): OpenApiDocument {
  const document = parseDocument(spec);
  for (const name of ['Pet', 'NewPet', 'PetPatch']) {
    document.setIn(['components', 'schemas', name, 'properties', property], schema);
    if (required && name !== 'PetPatch') document.addIn(['components', 'schemas', name, 'required'], property);
  }
  return parseSpec(document.toString());
}

const BIRTH_DATE = { type: 'string', format: 'date', description: 'When the animal was born.', examples: ['2020-05-17'] };
const FILES = [SQLITE_SCHEMA.migrations, POSTGRES_SCHEMA.migrations];

describe('the migrations npm run generate writes (scripts/generate/migrations.ts)', () => {
  let root: string;
  beforeEach(() => {
    // What migrationFiles reads of a project: its two lists of migrations.
    root = mkdtempSync(join(tmpdir(), 'petstore-migrations-'));
    for (const file of FILES) cpSync(file, join(root, file));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** Writes what migrationFiles returns, and loads the lists as the store would. */
  async function written(document: OpenApiDocument): Promise<{ sqlite: readonly Migration[]; postgres: readonly Migration[] }> {
    const { files } = await migrationFiles(document, root);
    for (const { path, text } of files) writeFileSync(join(root, path), text);
    const load = async (file: string) =>
      Object.values((await import(`${pathToFileURL(join(root, file)).href}?t=${Date.now()}`)) as Record<string, Migration[]>)[0]!;
    return { sqlite: await load(SQLITE_SCHEMA.migrations), postgres: await load(POSTGRES_SCHEMA.migrations) };
  }

  it('writes nothing while the migrations make every table and column of openapi.yaml', async () => {
    expect(await migrationFiles(parseSpec(readSpecText()), root)).toEqual({ files: [], written: [] });
  });

  it('appends, for a new column, a migration to each list with its next free version, leaving the others as they are', async () => {
    const document = withPetProperty('birthDate', BIRTH_DATE);
    const { files, written: versions } = await migrationFiles(document, root);
    const next = (list: readonly Migration[]) => Math.max(...list.map((migration) => migration.version)) + 1;
    expect(versions).toEqual([
      { file: SQLITE_SCHEMA.migrations, version: next(sqliteMigrations), name: 'add pets.birth_date' },
      { file: POSTGRES_SCHEMA.migrations, version: next(postgresMigrations), name: 'add pets.birth_date' },
    ]);
    expect(files.map(({ path }) => path)).toEqual(FILES);
    for (const { path, text } of files) {
      const before = readFileSync(path, 'utf8');
      // Every migration there is keeps its text, byte for byte.
      expect(text.startsWith(before.slice(0, before.lastIndexOf('}') + 1))).toBe(true);
    }
    const { sqlite, postgres } = await written(document);
    expect(sqlite.slice(0, -1)).toEqual(sqliteMigrations);
    expect(postgres.slice(0, -1)).toEqual(postgresMigrations);
    expect(sqlite.at(-1)!.sql).toContain('ALTER TABLE "pets" ADD COLUMN "birth_date" TEXT;');
    expect(postgres.at(-1)!.sql).toContain('ALTER TABLE "pets" ADD COLUMN "birth_date" text;');
    expect(postgres.at(-1)!.sql).toContain(
      'CREATE INDEX pets_status_id_covering ON "pets" ("status", "id") INCLUDE ("name", "category_id", "birth_date");',
    );
  });

  it("names, in the migration's comment, a column no property names: a versioned schema's version", async () => {
    const document = parseDocument(readSpecText());
    document.setIn(['components', 'schemas', 'Order', 'x-storage', 'versioned'], true);
    const { files } = await migrationFiles(parseSpec(document.toString()), root);
    for (const { text } of files) expect(text).toContain('for the version column of Order of openapi.yaml');
  });

  it('makes, migrated, the tables the store checks for on opening; and a second run adds nothing', async () => {
    const birthDated = withPetProperty('birthDate', BIRTH_DATE, { spec: withPetPhotos(readSpecText()) });
    const { sqlite } = await written(birthDated);
    expect(sqlite.at(-1)!.name).toBe('add pets.birth_date; create pet_photos');
    const db = new Database(':memory:');
    await migrateSqlite(db, sqlite);
    const tables = persistedSchemas(birthDated).map((persisted) => ({ ...persisted, columns: columnsOf(birthDated, persisted) }));
    expect(missingColumns(sqliteColumns(db), tables)).toEqual([]);
    db.close();
    expect(await migrationFiles(birthDated, root)).toEqual({ files: [], written: [] });
  });

  it('gives a required column the default its schema has, and refuses one without, naming it', async () => {
    const { sqlite } = await written(
      withPetProperty('legs', { type: 'integer', default: 4, description: 'Legs.', examples: [4] }, { required: true }),
    );
    expect(sqlite.at(-1)!.sql).toContain('ALTER TABLE "pets" ADD COLUMN "legs" INTEGER NOT NULL DEFAULT 4;');
    await expect(
      migrationFiles(withPetProperty('colour', { type: 'string', description: 'Colour.', examples: ['red'] }, { required: true }), root),
    ).rejects.toThrow('Pet.colour is required, and table pets has rows without it: give its schema a `default` for them');
  });

  it('writes PostgreSQL DDL that PostgreSQL applies: the column added, the covering index rebuilt, the new table made', async () => {
    const document = withPetProperty('birthDate', BIRTH_DATE, { spec: withPetPhotos(readSpecText()) });
    const { postgres } = await written(document);
    const url = await postgresBackend.createDatabaseUrl();
    await migratePostgres(testPool(url), postgres);
    const client = await sqlClient(url);
    const { rows } = await client.query<{ table_name: string; column_name: string }>(
      "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name IN ('pets', 'pet_photos', 'orders')",
    );
    const tables = persistedSchemas(document).map((persisted) => ({ ...persisted, columns: columnsOf(document, persisted) }));
    expect(missingColumns((table) => rows.filter((row) => row.table_name === table).map((row) => row.column_name), tables)).toEqual([]);
    const indexed = await client.query<{ column_name: string }>(
      `SELECT a.attname AS column_name FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
        WHERE i.indexrelid = 'pets_status_id'::regclass`,
    );
    expect(indexed.rows.map((row) => row.column_name).sort()).toEqual(['birth_date', 'category_id', 'id', 'name', 'status']);
    const photoIndexes = await client.query<{ indexdef: string }>(
      "SELECT indexdef FROM pg_indexes WHERE indexname = 'pet_photos_pet_id_id'",
    );
    expect(photoIndexes.rows.map((row) => row.indexdef)).toEqual([
      expect.stringContaining('ON public.pet_photos USING btree (pet_id, id)'),
    ]);
  });
});
