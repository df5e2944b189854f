import { describe, expect, it } from 'vitest';
import { PET_TABLE, STORED_TABLES } from '../../generated/tables.js';
import { POSTGRES_SCHEMA } from '../../src/storage/postgres/migrate.js';
import { SQLITE_SCHEMA } from '../../src/storage/sqlite/migrate.js';
import { missingColumns, missingColumnsError, type StoredTable } from '../../src/storage/stored-tables.js';

/** A table only read, as `x-storage` on a schema makes one. */
const PHOTOS: StoredTable = {
  table: 'pet_photos',
  read: 'Photo',
  key: 'id',
  versioned: false,
  references: [],
  restrictedBy: [],
  columns: [
    { property: 'id', column: 'id', type: 'integer', read: true, written: false, patched: false },
    { property: 'takenOn', column: 'taken_on', type: 'string', read: true, written: false, patched: false },
  ],
};

const allOf = (table: StoredTable) => table.columns.map((column) => column.column);

describe('the tables storage keeps, against those a database has', () => {
  it("checks every table of generated/tables.ts, the pets' first", () => {
    expect(STORED_TABLES[0]).toBe(PET_TABLE);
    expect(missingColumns((table) => (table === PET_TABLE.table ? allOf(PET_TABLE) : []), [PET_TABLE])).toEqual([]);
  });

  it('finds the columns a table lacks, and a table that is not there at all', () => {
    const present = (table: string) => (table === 'pets' ? allOf(PET_TABLE).filter((column) => column !== 'status') : []);
    expect(missingColumns(present, [PET_TABLE, PHOTOS])).toEqual([
      { table: PET_TABLE, columns: [PET_TABLE.columns.find((column) => column.column === 'status')], absent: false },
      { table: PHOTOS, columns: PHOTOS.columns, absent: true },
    ]);
  });

  it('names, for each column a table lacks, the property, the column to add and where to add it', () => {
    const without = (...columns: string[]) =>
      missingColumns(() => allOf(PET_TABLE).filter((column) => !columns.includes(column)), [PET_TABLE]);
    expect(missingColumnsError(without(), SQLITE_SCHEMA)).toBeUndefined();
    expect(missingColumnsError(without('category_id', 'status'), SQLITE_SCHEMA)?.message).toBe(
      'table pets has no column for Pet.categoryId and NewPet.categoryId (column "category_id" INTEGER), ' +
        'Pet.status and NewPet.status (column "status" TEXT) of openapi.yaml: ' +
        'add them in a new migration in src/storage/sqlite/migrations.ts (`npm run generate` writes it; docs/adding-a-field.md)',
    );
    expect(missingColumnsError(without('id'), POSTGRES_SCHEMA)?.message).toBe(
      'table pets has no column for Pet.id (column "id" bigint) of openapi.yaml: ' +
        'add it in a new migration in src/storage/postgres/migrations.ts (`npm run generate` writes it; docs/adding-a-field.md)',
    );
  });

  it('names a table that is not there, and a table only read by its read schema alone', () => {
    expect(
      missingColumnsError(
        missingColumns(() => [], [PHOTOS]),
        POSTGRES_SCHEMA,
      )?.message,
    ).toBe(
      'there is no table pet_photos for Photo of openapi.yaml: ' +
        'add it in a new migration in src/storage/postgres/migrations.ts (`npm run generate` writes it; docs/adding-a-field.md)',
    );
    expect(
      missingColumnsError(
        missingColumns(() => ['id'], [PHOTOS]),
        SQLITE_SCHEMA,
      )?.message,
    ).toMatch(/^table pet_photos has no column for Photo\.takenOn \(column "taken_on" TEXT\) of openapi\.yaml: add it/);
  });
});
