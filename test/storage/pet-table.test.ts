import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PET_TABLE } from '../../generated/tables.js';
import { parseSpec, readSpecText } from '../../src/contract/spec.js';
import {
  missingPetColumns,
  NEW_PET_COLUMN_LIST,
  newPetValues,
  PET_COLUMN,
  PET_COLUMN_LIST,
  petFromRow,
} from '../../src/storage/pet-table.js';
import { POSTGRES_SCHEMA } from '../../src/storage/postgres/migrate.js';
import { SQLITE_SCHEMA } from '../../src/storage/sqlite/migrate.js';

const schemas = parseSpec(readSpecText()).components.schemas;
const propertiesOf = (name: string) => Object.keys(schemas[name]!['properties'] as object);

describe('the pets table, as both backends use it', () => {
  it('has a column for each property of Pet and of NewPet, from the spec', () => {
    expect(PET_TABLE.columns.map((column) => column.property)).toEqual([
      ...new Set([...propertiesOf(PET_TABLE.read), ...propertiesOf(PET_TABLE.written)]),
    ]);
    expect(PET_TABLE.columns.filter((column) => column.read).map((column) => column.property)).toEqual(propertiesOf(PET_TABLE.read));
    expect(PET_TABLE.columns.filter((column) => column.written).map((column) => column.property)).toEqual(propertiesOf(PET_TABLE.written));
    expect(PET_COLUMN_LIST.split(', ')).toHaveLength(propertiesOf(PET_TABLE.read).length);
    expect(NEW_PET_COLUMN_LIST.split(', ')).toHaveLength(propertiesOf(PET_TABLE.written).length);
    expect(PET_COLUMN.categoryId).toBe('"category_id"');
  });

  it('turns a pet row into a Pet, leaving a missing status absent rather than null', () => {
    expect(petFromRow([1, 'Rex', 3, 'sold'])).toEqual({ id: 1, name: 'Rex', categoryId: 3, status: 'sold' });
    const pet = petFromRow([2, 'Tom', 4, null]);
    expect(pet).toEqual({ id: 2, name: 'Tom', categoryId: 4 });
    expect('status' in pet).toBe(false);
  });

  it('turns a NewPet into the values a create inserts, an absent status as null', () => {
    expect(newPetValues({ name: 'Rex', categoryId: 3, status: 'sold' })).toEqual(['Rex', 3, 'sold']);
    expect(newPetValues({ name: 'Tom', categoryId: 4 })).toEqual(['Tom', 4, null]);
  });

  it('names, for each column a table lacks, the property, the column to add and where to add it', () => {
    const all = PET_TABLE.columns.map((column) => column.column);
    expect(missingPetColumns(all, SQLITE_SCHEMA)).toBeUndefined();
    expect(missingPetColumns(['id', 'name'], SQLITE_SCHEMA)?.message).toBe(
      'table pets has no column for Pet.categoryId and NewPet.categoryId (column "category_id" INTEGER), ' +
        'Pet.status and NewPet.status (column "status" TEXT) of openapi.yaml: ' +
        'add them in a new migration in src/storage/sqlite/migrations.ts (docs/adding-a-field.md)',
    );
    expect(missingPetColumns(['name', 'category_id', 'status'], POSTGRES_SCHEMA)?.message).toBe(
      'table pets has no column for Pet.id (column "id" bigint) of openapi.yaml: ' +
        'add it in a new migration in src/storage/postgres/migrations.ts (docs/adding-a-field.md)',
    );
  });

  it('names migration files and a page that exist', () => {
    for (const { migrations } of [SQLITE_SCHEMA, POSTGRES_SCHEMA]) expect(existsSync(migrations), migrations).toBe(true);
    expect(existsSync('docs/adding-a-field.md')).toBe(true);
  });
});
